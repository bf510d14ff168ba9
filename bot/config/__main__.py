"""`python -m bot.config --markdown`: the README's settings table, printed from the one table,
so the README is pasted from the code rather than retyped (tests/test_config.py compares them)."""

from __future__ import annotations

import argparse

from bot.config.rows import markdown
from bot.config.settings import Settings


def main() -> None:
    """Print the table the option names."""
    parser = argparse.ArgumentParser(prog="python -m bot.config", description=__doc__)
    parser.add_argument("--markdown", action="store_true", help="the README's settings table")
    if parser.parse_args().markdown:
        print(markdown(Settings))
    else:
        parser.print_help()


main()
