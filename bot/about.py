"""What this program is: its version, read once from the installed package's metadata, which
pip writes from `version` in pyproject.toml, the one place it is written (CHANGELOG.md says
what each version changed)."""

from __future__ import annotations

import importlib.metadata


def version() -> str:
    """The installed package's version; `unknown` when it runs without being installed."""
    try:
        return importlib.metadata.version("mastermind-bot")
    except importlib.metadata.PackageNotFoundError:
        return "unknown (not installed: pip install -e .)"
