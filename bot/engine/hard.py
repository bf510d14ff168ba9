"""Hard mode: every guess must still be possible, given every answer so far.

A guess is possible exactly when, were it the secret, each earlier guess would have earned the
answer it did. The first clue that fails names the rule the player broke, in three kinds: too
few of that guess's colours, too many, or the colours right but the places wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.engine.codes import Code
from bot.engine.scoring import score

Clue = tuple[Code, tuple[int, int]]


class Broken(StrEnum):
    TOO_FEW_COLOURS = "too_few_colours"  # shares fewer colours with that guess than its pegs say
    TOO_MANY_COLOURS = "too_many_colours"  # shares more colours than its pegs allow
    WRONG_PLACES = "wrong_places"  # right colours, but not the right number in place


@dataclass(frozen=True)
class BrokenClue:
    """The earliest clue a guess breaks: which (0-based), what it was, and how it is broken."""

    index: int
    guess: Code
    answer: tuple[int, int]
    would_earn: tuple[int, int]  # what that guess would have earned if the new guess were secret
    broken: Broken


def first_broken_clue(history: Sequence[Clue], guess: Code) -> BrokenClue | None:
    """None when `guess` could still be the secret; else the first clue it contradicts."""
    for index, (earlier, answer) in enumerate(history):
        earned = score(earlier, guess)
        if earned == tuple(answer):
            continue
        hits, wanted = sum(earned), sum(answer)
        if hits < wanted:
            broken = Broken.TOO_FEW_COLOURS
        elif hits > wanted:
            broken = Broken.TOO_MANY_COLOURS
        else:
            broken = Broken.WRONG_PLACES
        return BrokenClue(index, tuple(earlier), (answer[0], answer[1]), earned, broken)
    return None
