"""A mode is one folder: outside `bot/modes/<mode>/`, no file in bot/ names a mode that came
after the bot's two directions (play and solve), so adding one changes no shared file.

Shared code reaches the modes through the registry (`bot/modes/registry.py`, the one file that
names them all). Two exceptions, each said here: the gettext catalogue (`bot/locales`), which
collects every mode's words, and the settings table (`bot/config/settings.py`), where the
daily's DAILY_KEY is declared with every other setting.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.modes import registry

BOT = Path(__file__).resolve().parent.parent / "bot"
CORE = ("play", "solve")
"""The bot's two directions: words of the game itself ("play Mastermind", "solve")."""
LATER = [spec.kind for spec in registry.MODES if spec.kind not in CORE]
ALLOWED = {
    BOT / "modes" / "registry.py": set(LATER),
    BOT / "config" / "settings.py": {"daily"},
}


def files() -> list[Path]:
    return sorted(
        path
        for path in BOT.rglob("*")
        if path.is_file()
        and "__pycache__" not in path.parts
        and (BOT / "locales") not in path.parents
    )


def names(text: str, kind: str) -> list[str]:
    """The lines of `text` that name `kind` (as a word or a word's start: race, races,
    race_until, RACE; not trace or embrace)."""
    word = re.compile(rf"(?<![a-z0-9]){re.escape(kind)}", re.IGNORECASE)
    return [line.strip() for line in text.splitlines() if word.search(line)]


def test_the_modes_after_play_and_solve_are_checked() -> None:
    assert {"daily", "race"} <= set(LATER)


@pytest.mark.parametrize("kind", LATER)
def test_no_shared_file_names_a_mode(kind: str) -> None:
    own = BOT / "modes" / kind
    found = [
        f"{path.relative_to(BOT)}: {line}"
        for path in files()
        if own not in path.parents and kind not in ALLOWED.get(path, set())
        for line in names(path.read_text(errors="replace"), kind)
    ]
    assert not found, f"{kind} named outside bot/modes/{kind}/:\n" + "\n".join(found)
