"""The post-game review: guess by guess, what a player's guess did and what Knuth would have.

For each guess of a finished game: how many codes were possible before and after it, whether it
could still have been the secret, the most codes it could have left (over every answer it could
have earned), and the guess Knuth's algorithm plays from the same position with the most codes
that one could have left. Guesses are compared by that worst case, Knuth's own yardstick, so a
lucky guess is not praised for its luck.

Each guess is reviewed on its own (`review_guess`), so the bot's workers can take one guess per
job and no review holds a worker for longer than a move does; `review` walks a whole game.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from bot.engine.codes import Code, CodeSpace
from bot.engine.job_types import Leave, ReviewedGuess
from bot.engine.scoring import encode
from bot.engine.search import SearchLimits
from bot.engine.solver import Contradiction, Solver

__all__ = [
    "Clue",
    "Leave",
    "ReviewSummary",
    "ReviewedGuess",
    "leaves",
    "review",
    "review_guess",
    "reviewer",
    "summarise",
]

Clue = tuple[Code, tuple[int, int]]

MIN_SEARCH_SECONDS = 0.05
"""However little of a guess's budget is left, the approximate search gets this long."""


def reviewer(space: CodeSpace, seed: int = 0) -> Solver:
    """The Knuth solver a review compares against (exact up to the search's exact limit; with
    a seed, so an approximately searched variant replays the same guesses)."""
    return Solver(space, "knuth", seed=seed)


def leaves(solver: Solver, guess: Code, candidates: np.ndarray) -> Leave:
    """The most and the expected number of `candidates` (indices) that `guess` leaves."""
    answers = solver.context.scorer.against(solver.space.index_of(tuple(guess)), candidates)
    groups = np.bincount(answers.astype(np.int64))
    groups = groups[groups > 0]
    total = int(groups.sum())
    return Leave(int(groups.max()), float((groups.astype(np.float64) ** 2).sum() / total))


def review_guess(
    solver: Solver,
    history: Sequence[Clue],
    number: int,
    before: np.ndarray | None = None,
    deadline: float | None = None,
) -> tuple[ReviewedGuess, np.ndarray]:
    """Guess `number` (1-based) of `history` reviewed, and the codes left after it.

    `before`, the codes possible before that guess, is worked out unless given (a walk through
    a game passes on each guess's `after`). `deadline` (time.perf_counter) bounds the search for
    Knuth's guess where it is approximate; the exact search needs no bound. Raises ValueError if
    the answers contradict each other (no finished game's can).
    """
    earlier = list(history[: number - 1])
    guess, answer = history[number - 1]
    guess = tuple(guess)
    space = solver.space
    try:
        if before is None:
            before = solver.candidates(earlier)
    except Contradiction as error:
        raise ValueError(f"answer {error.index + 1} contradicts the ones before it") from None
    space.validate(guess)
    space.check_answer(answer[0], answer[1])
    after = before[_answers(solver, guess, before) == encode(space.pegs, answer[0], answer[1])]
    if len(after) == 0:
        raise ValueError(f"answer {number} contradicts the ones before it")
    index = space.index_of(guess)
    knuth: Code | None = None
    knuth_leaves: Leave | None = None
    knuth_exact = True
    if len(before) > 1 or int(before[0]) != index:
        knuth, knuth_exact = _knuth_guess(solver, earlier, deadline)
        knuth_leaves = leaves(solver, knuth, before)
    row = ReviewedGuess(
        number=number,
        guess=guess,
        answer=(int(answer[0]), int(answer[1])),
        before=len(before),
        after=len(after),
        could_be_secret=bool((before == index).any()),
        leaves=leaves(solver, guess, before),
        knuth_guess=knuth,
        knuth_leaves=knuth_leaves,
        knuth_exact=knuth_exact,
    )
    return row, after


def iter_review(solver: Solver, history: Sequence[Clue]) -> Iterator[ReviewedGuess]:
    """Every guess of `history` reviewed in turn, each from the codes the one before left."""
    before: np.ndarray | None = None
    for number in range(1, len(history) + 1):
        row, before = review_guess(solver, history, number, before)
        yield row


def review(space: CodeSpace, history: Sequence[Clue], seed: int = 0) -> list[ReviewedGuess]:
    """Every guess of `history` reviewed; the answers must be consistent (a finished game's)."""
    return list(iter_review(reviewer(space, seed), history))


@dataclass(frozen=True)
class ReviewSummary:
    """A review in one line: how many guesses were as good as Knuth's (by the worst case), and
    the guess that fell furthest behind his (None when none did)."""

    guesses: int
    as_good: int
    furthest_behind: ReviewedGuess | None


def summarise(rows: Sequence[ReviewedGuess]) -> ReviewSummary:
    """The summary of a review. "Furthest behind" is the largest ratio of the guess's worst
    case to Knuth's (the earliest such guess on a tie)."""
    behind = [r for r in rows if not r.as_good_as_knuth and r.knuth_leaves is not None]

    def ratio(row: ReviewedGuess) -> float:
        assert row.knuth_leaves is not None
        return row.leaves.worst / row.knuth_leaves.worst

    furthest = max(behind, key=ratio) if behind else None
    if furthest is not None:
        furthest = next(r for r in behind if ratio(r) == ratio(furthest))
    return ReviewSummary(len(rows), sum(r.as_good_as_knuth for r in rows), furthest)


# --- helpers -----------------------------------------------------------------------------------


def _answers(solver: Solver, guess: Code, candidates: np.ndarray) -> np.ndarray:
    return solver.context.scorer.against(solver.space.index_of(guess), candidates)


def _knuth_guess(
    solver: Solver, earlier: Sequence[Clue], deadline: float | None
) -> tuple[Code, bool]:
    """Knuth's guess after `earlier`, and whether it is exact; an approximate search (where
    the exact one would overrun the move budget) keeps to what is left of the deadline."""
    if deadline is not None:
        left = max(MIN_SEARCH_SECONDS, deadline - time.perf_counter())
        solver = Solver(solver.space, "knuth", seed=solver.seed, limits=SearchLimits(left))
    move = solver.next_move(earlier)
    return tuple(move.guess), move.exact
