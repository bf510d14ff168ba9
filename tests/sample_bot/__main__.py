"""`python -m tests.sample_bot`: run the sample bot with DISCORD_TOKEN from the environment."""

from __future__ import annotations

import logging
import os

from tests.sample_bot.bot import SampleBot


def main() -> None:
    """Run until killed; discord.py logs to stderr so the test sees what happened."""
    SampleBot().run(os.environ["DISCORD_TOKEN"], log_level=logging.INFO)


if __name__ == "__main__":
    main()
