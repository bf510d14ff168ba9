"""`python -m bot`: load settings, set up logging, run the bot."""

from __future__ import annotations

import sys

from bot.config import ConfigError, Settings


def main() -> int:
    """Entry point returning the exit code; a configuration error is one line, no traceback."""
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"mastermind-bot: {error}", file=sys.stderr)
        return 2
    from bot.app import run

    return run(settings)


if __name__ == "__main__":
    sys.exit(main())
