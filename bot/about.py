"""What this program is: its version, read once from the installed package's metadata."""

from __future__ import annotations

import importlib.metadata

from bot import __version__


def version() -> str:
    """The installed package's version (the source tree's when run without installing)."""
    try:
        return importlib.metadata.version("mastermind-bot")
    except importlib.metadata.PackageNotFoundError:
        return __version__
