"""Clues in words: the hard-mode refusal that names the answer a guess breaks, the hints, and
what a play board says about both (hard mode, hints used).

A clue is drawn as the board draws a guess row: the code as emoji with its letters, then its
pegs (🔴🔴🔵🟡 `RRBY` → ⚫⚪). Every sentence here is true of the clue it names: the refused
guess could not be the secret, because that earlier guess would then have earned other pegs.
"""

from __future__ import annotations

from bot.engine.codes import MAX_COLOURS, Code, CodeSpace
from bot.engine.errors import BreaksAClue
from bot.engine.hard import Broken, BrokenClue
from bot.ui import text
from bot.ui.i18n import Messages

Values = dict[str, object]
"""The placeholders every refusal fills: the clue's number and the clue as drawn."""


def clue_line(code: Code, answer: tuple[int, int]) -> str:
    """An earlier guess and its pegs, as on the board: 🔴🔴🔵🟡 `RRBY` → ⚫⚪."""
    return f"{_code(code)} → {text.pegs(*answer)}"


def _code(code: Code) -> str:
    # Colours look the same in every variant, so any space with this many pegs draws it.
    return text.code_line(CodeSpace(len(code), MAX_COLOURS), code)


def _letters(code: Code) -> list[str]:
    """The colours of a code, each once, in order of first appearance: R, B, Y."""
    space = CodeSpace(len(code), MAX_COLOURS)
    return list(dict.fromkeys(space.letters((c,)) for c in code))


def broken_clue(error: BreaksAClue, t: Messages) -> str:
    """Hard mode refused a guess: which earlier answer rules it out, and how."""
    clue = error.clue
    values = {"number": clue.index + 1, "clue": clue_line(clue.guess, clue.answer)}
    wanted = sum(clue.answer)  # pegs of that guess's colours the secret holds
    got = sum(clue.would_earn)  # ... and the refused guess holds
    if clue.broken is Broken.WRONG_PLACES:
        said = _places(clue, values, t)
    elif (got if clue.broken is Broken.TOO_FEW_COLOURS else wanted) == 0:
        said = _ruled_out(clue, values, t)
    else:
        said = _colour_count(clue, values, t)
    rule = t.gettext("In hard mode every guess must fit every answer so far.")
    return f"🚫 {said}\n{rule}"


def _ruled_out(clue: BrokenClue, values: Values, t: Messages) -> str:
    """All or nothing: the clue says the secret has some of its colours and the guess has none
    (too few), or the secret has none and the guess has some (too many)."""
    colours = _letters(clue.guess)
    named = {"colour": colours[0], "colours": t.join(colours), **values}
    too_few, one = clue.broken is Broken.TOO_FEW_COLOURS, len(colours) == 1
    if too_few and one:
        return t.gettext(
            "Hard mode: guess {number} ({clue}) rules out a code with no {colour}.", **named
        )
    if too_few:
        return t.gettext(
            "Hard mode: guess {number} ({clue}) rules out a code with none of {colours}.", **named
        )
    if one:
        return t.gettext(
            "Hard mode: guess {number} ({clue}) rules out a code with any {colour}.", **named
        )
    return t.gettext(
        "Hard mode: guess {number} ({clue}) rules out a code with any of {colours}.", **named
    )


def _colour_count(clue: BrokenClue, values: Values, t: Messages) -> str:
    """How many pegs of the clue's colours the secret holds, against the refused guess's."""
    wanted, got = sum(clue.answer), sum(clue.would_earn)
    if clue.broken is Broken.TOO_FEW_COLOURS:
        return t.ngettext(
            "Hard mode: guess {number} ({clue}) says the secret has {count} of its colours; "
            "your guess has only {got}.",
            "Hard mode: guess {number} ({clue}) says the secret has {count} of its colours; "
            "your guess has only {got}.",
            wanted,
            got=got,
            **values,
        )
    return t.ngettext(
        "Hard mode: guess {number} ({clue}) says the secret has only {count} of its "
        "colours; your guess has {got}.",
        "Hard mode: guess {number} ({clue}) says the secret has only {count} of its "
        "colours; your guess has {got}.",
        wanted,
        got=got,
        **values,
    )


def _places(clue: BrokenClue, values: Values, t: Messages) -> str:
    """The clue's black pegs: how many of its pegs are in the right place."""
    placed, yours = clue.answer[0], clue.would_earn[0]
    if placed == 0:
        return t.gettext(
            "Hard mode: guess {number} ({clue}) says none of its pegs is in the right "
            "place; your guess has {got} of them in the same place.",
            got=yours,
            **values,
        )
    return t.ngettext(
        "Hard mode: guess {number} ({clue}) says exactly {count} of its pegs is in "
        "the right place; your guess has {got} of them in the same place.",
        "Hard mode: guess {number} ({clue}) says exactly {count} of its pegs are in "
        "the right place; your guess has {got} of them in the same place.",
        placed,
        got=yours,
        **values,
    )
