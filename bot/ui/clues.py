"""Clues in words: the hard-mode refusal that names the answer a guess breaks, the hints, and
what a play board says about both (hard mode, hints used).

A clue is drawn as the board draws a guess row: the code as emoji with its letters, then its
pegs (🔴🔴🔵🟡 `RRBY` → ⚫⚪). Every sentence here is true of the clue it names: the refused
guess could not be the secret, because that earlier guess would then have earned other pegs.
"""

from __future__ import annotations

from bot.engine.codes import MAX_COLOURS, Code, CodeSpace
from bot.engine.errors import BreaksAClue
from bot.engine.hard import Broken
from bot.ui import text
from bot.ui.i18n import Messages


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
    colours = _letters(clue.guess)
    if clue.broken is Broken.TOO_FEW_COLOURS and got == 0:
        if len(colours) == 1:
            said = t.gettext(
                "Hard mode: guess {number} ({clue}) rules out a code with no {colour}.",
                colour=colours[0],
                **values,
            )
        else:
            said = t.gettext(
                "Hard mode: guess {number} ({clue}) rules out a code with none of {colours}.",
                colours=t.join(colours),
                **values,
            )
    elif clue.broken is Broken.TOO_FEW_COLOURS:
        said = t.ngettext(
            "Hard mode: guess {number} ({clue}) says the secret has {count} of its colours; "
            "your guess has only {got}.",
            "Hard mode: guess {number} ({clue}) says the secret has {count} of its colours; "
            "your guess has only {got}.",
            wanted,
            got=got,
            **values,
        )
    elif clue.broken is Broken.TOO_MANY_COLOURS and wanted == 0:
        if len(colours) == 1:
            said = t.gettext(
                "Hard mode: guess {number} ({clue}) rules out a code with any {colour}.",
                colour=colours[0],
                **values,
            )
        else:
            said = t.gettext(
                "Hard mode: guess {number} ({clue}) rules out a code with any of {colours}.",
                colours=t.join(colours),
                **values,
            )
    elif clue.broken is Broken.TOO_MANY_COLOURS:
        said = t.ngettext(
            "Hard mode: guess {number} ({clue}) says the secret has only {count} of its "
            "colours; your guess has {got}.",
            "Hard mode: guess {number} ({clue}) says the secret has only {count} of its "
            "colours; your guess has {got}.",
            wanted,
            got=got,
            **values,
        )
    else:
        placed, yours = clue.answer[0], clue.would_earn[0]
        if placed == 0:
            said = t.gettext(
                "Hard mode: guess {number} ({clue}) says none of its pegs is in the right "
                "place; your guess has {got} of them in the same place.",
                got=yours,
                **values,
            )
        else:
            said = t.ngettext(
                "Hard mode: guess {number} ({clue}) says exactly {count} of its pegs is in "
                "the right place; your guess has {got} of them in the same place.",
                "Hard mode: guess {number} ({clue}) says exactly {count} of its pegs are in "
                "the right place; your guess has {got} of them in the same place.",
                placed,
                got=yours,
                **values,
            )
    rule = t.gettext("In hard mode every guess must fit every answer so far.")
    return f"🚫 {said}\n{rule}"
