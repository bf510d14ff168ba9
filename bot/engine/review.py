"""The post-game review: guess by guess, what a player's guess did and what Knuth would have.

For each guess of a finished game: how many codes were possible before and after it, whether it
could still have been the secret, and the guess Knuth's algorithm picks from the same position
with the worst case and the average number of codes it would have left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.engine.codes import Code, CodeSpace
from bot.engine.scoring import score_against
from bot.engine.solver import Contradiction, Solver

Clue = tuple[Code, tuple[int, int]]


@dataclass(frozen=True)
class Leave:
    """What a guess leaves from a set of candidates: the worst case and the average."""

    worst: int
    average: float


@dataclass(frozen=True)
class ReviewedGuess:
    number: int  # 1-based
    guess: Code
    answer: tuple[int, int]
    before: int  # codes possible before this guess
    after: int  # codes possible after its answer
    could_be_secret: bool  # it was one of the `before` codes
    leaves: Leave  # what it could have left, over every answer
    knuth_guess: Code | None  # Knuth's choice from the same position (None once solved)
    knuth_leaves: Leave | None


def leaves(space: CodeSpace, guess: Code, candidates: np.ndarray) -> Leave:
    """Worst-case and expected number of candidates a guess leaves."""
    answers = score_against(space, guess, space.codes[candidates])
    groups = np.bincount(answers.astype(np.int64))
    groups = groups[groups > 0]
    total = int(groups.sum())
    return Leave(int(groups.max()), float((groups.astype(np.float64) ** 2).sum() / total))


def review(space: CodeSpace, history: Sequence[Clue]) -> list[ReviewedGuess]:
    """Every guess of `history` reviewed; the answers must be consistent (a finished game's)."""
    solver = Solver(space, "knuth")
    rows = []
    for number, (guess, answer) in enumerate(history, start=1):
        earlier = list(history[: number - 1])
        try:
            before = solver.candidates(earlier)
        except Contradiction as error:
            raise ValueError(f"answer {error.index + 1} contradicts the ones before it") from None
        after = solver.candidates([*earlier, (guess, answer)])
        index = space.index_of(tuple(guess))
        knuth: Code | None = None
        knuth_leaves: Leave | None = None
        if len(before) > 1 or int(before[0]) != index:
            knuth = solver.next_move(earlier).guess
            knuth_leaves = leaves(space, knuth, before)
        rows.append(
            ReviewedGuess(
                number=number,
                guess=tuple(guess),
                answer=(answer[0], answer[1]),
                before=len(before),
                after=len(after),
                could_be_secret=bool(np.isin(index, before)),
                leaves=leaves(space, tuple(guess), before),
                knuth_guess=knuth,
                knuth_leaves=knuth_leaves,
            )
        )
    return rows
