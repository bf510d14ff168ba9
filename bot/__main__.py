"""`python -m bot`: the same command line as the `mastermind-bot` script (see bot/cli.py)."""

from __future__ import annotations

import sys

if __name__ == "__main__":  # not in a solver worker, which imports this as __mp_main__
    from bot import signals

    signals.hold()  # before the imports below: a stop during them is held, not a traceback

    from bot.cli import main

    sys.exit(main())
