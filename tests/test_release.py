"""Releases (#31): the version is written once (pyproject.toml), is what `--version` prints,
and is the newest release in CHANGELOG.md, whose sections are in order and which names the
schema this code writes."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import bot
from bot.modes import registry
from bot.store import schema

ROOT = Path(__file__).resolve().parents[1]
RELEASE = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)


def _version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def _changelog() -> str:
    return (ROOT / "CHANGELOG.md").read_text()


def test_the_newest_release_in_the_changelog_is_the_version() -> None:
    releases = RELEASE.findall(_changelog())
    assert releases, "CHANGELOG.md has no release"
    assert releases[0][0] == _version(), "bump pyproject's version with a new release section"
    numbers = [tuple(map(int, number.split("."))) for number, _ in releases]
    dates = [date for _, date in releases]
    assert numbers == sorted(numbers, reverse=True) and dates == sorted(dates, reverse=True)
    assert _changelog().index("## [Unreleased]") < _changelog().index(f"## [{releases[0][0]}]")


def test_the_version_is_written_in_one_place_and_printed() -> None:
    assert not hasattr(bot, "__version__")  # no second copy to forget
    printed = subprocess.run(
        [sys.executable, "-m", "bot", "--version"], cwd=ROOT, capture_output=True, text=True
    )
    assert printed.stdout.strip() == f"mastermind-bot {_version()}", (
        f"{printed.stdout!r}: the installed metadata is older than pyproject.toml; "
        "reinstall (pip install -e .)"
    )


def test_the_changelog_names_the_schema_this_code_writes() -> None:
    """A migration needs its **Schema** line (what to back up before updating)."""
    assert registry.MODES  # the modes' own steps are registered with them
    assert f"**Schema** {schema.newest()}:" in _changelog()
