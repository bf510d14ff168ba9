"""Hints as players see them: the Hint button and the private answer it gets."""

from __future__ import annotations

from typing import Any

import discord

from bot.engine.codes import CodeSpace
from bot.engine.job_types import Hint
from bot.modes.hints.actions import NoHints
from bot.ui import components, text
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages
from bot.ui.ids import ID, Route

HINT = Route("hint", (("game", ID),))


def hint_text(
    hint: Hint, level: int, hints: int, space: CodeSpace, hard: bool, *, t: Messages
) -> str:
    """What a Hint press shows its player: the codes left, then (a second press) a code."""
    left = t.ngettext(
        "**{count}** code still fits every answer so far.",
        "**{count}** codes still fit every answer so far.",
        hint.remaining,
        count=t.number(hint.remaining),
    )
    used = t.ngettext("{count} hint used in this game.", "{count} hints used in this game.", hints)
    if level < 2 or hint.guess is None:
        more = t.gettext("Press Hint again for a code worth guessing.")
        return f"💡 {left} {more}\n{used}"
    code = text.code_line(space, hint.guess)
    if hard:
        said = t.gettext(
            "Try {code}: of the codes that fit every answer, it leaves the fewest in the "
            "worst case (Knuth's rule).",
            code=code,
        )
    elif hint.fits:
        said = t.gettext("Knuth's algorithm would guess {code} next.", code=code)
    else:
        said = t.gettext(
            "Knuth's algorithm would guess {code} next. It can't be the secret, but whatever "
            "its answer, it leaves the fewest codes.",
            code=code,
        )
    return f"💡 {said} {left}\n{used}"


def hint_button(game_id: int, *, t: Messages) -> discord.ui.Button[Any]:
    """The Hint button of a board where players guess the bot's code."""
    return components.button(HINT.id(game_id), t.pgettext("button", "Hint"), emoji="💡")


def _no_hints(error: NoHints, t: Messages) -> str:
    if error.guessing:
        return t.gettext("This game has no hints.")
    return t.gettext("Hints are for games where you guess my code.")


ERRORS: ErrorWords = {NoHints: _no_hints}
"""The hints' own refusals in words."""
