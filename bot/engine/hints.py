"""Hints for a running play game, from its answers alone (never from the secret).

The first hint is how many codes still fit every answer. The second is a code worth guessing
next: the one Knuth's algorithm would guess. In hard mode a guess must fit every answer, and
Knuth sometimes plays a code that cannot win to split the codes better; then the hint is the
fitting code that leaves the fewest codes in the worst case (Knuth's rule over the codes that
fit), so a hint is never a guess the game would refuse.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np

from bot.engine.codes import Code, CodeSpace
from bot.engine.job_types import Hint
from bot.engine.scoring import feedback_count
from bot.engine.search import SearchLimits
from bot.engine.solver import Solver, history_seed

Clue = tuple[Code, tuple[int, int]]

SCORING_WORK = 20_000_000
"""Answers the hard-mode search scores at most (guesses x codes): about 0.1 s. Beyond it, a
seeded sample of the fitting codes is tried as guesses, against every fitting code."""

CHUNK_WORK = 4_000_000
"""Answers scored per block (4 MB of uint8), between deadline checks."""


def hint(
    space: CodeSpace,
    history: Sequence[Clue],
    level: int,
    *,
    hard: bool = False,
    seed: int = 0,
    time_budget: float = 2.0,
) -> Hint:
    """Level 1: the count of codes that fit `history`; level 2 adds a code to guess. The
    history is a running game's, so it holds no winning answer and always leaves a code."""
    started = time.perf_counter()
    solver = Solver(space, "knuth", seed=seed, limits=SearchLimits(time_budget=time_budget))
    candidates = solver.candidates(history)
    if level < 2:
        return Hint(remaining=len(candidates))
    guess = solver.next_move(history).guess
    fits = bool((candidates == space.index_of(guess)).any())
    if hard and not fits:
        deadline = started + time_budget
        rng = history_seed(seed, history)
        guess = space.code_at(best_fitting(solver, candidates, rng, deadline))
        fits = True
    return Hint(remaining=len(candidates), guess=tuple(guess), fits=fits)


def best_fitting(
    solver: Solver, candidates: np.ndarray, rng: np.random.Generator, deadline: float
) -> int:
    """Among `candidates` (sorted indices), the one whose worst case leaves the fewest of
    them, the lowest on a tie: Knuth's rule with the guesses limited to the codes that fit.
    Past `SCORING_WORK`, a seeded sample of them is tried; past the deadline, the best so far."""
    n = len(candidates)
    if n <= 2:
        return int(candidates[0])
    pool = candidates
    if n * n > SCORING_WORK:
        size = max(1, SCORING_WORK // n)
        pool = np.sort(rng.choice(candidates, size=size, replace=False))
    width = feedback_count(solver.space.pegs)
    rows = max(1, CHUNK_WORK // n)
    best, best_worst = int(pool[0]), n + 1
    for start in range(0, len(pool), rows):
        chunk = pool[start : start + rows]
        answers = solver.context.scorer.block(chunk, candidates).astype(np.int64)
        offsets = np.arange(len(chunk), dtype=np.int64)[:, None] * width
        counts = np.bincount((answers + offsets).ravel(), minlength=len(chunk) * width)
        worst = counts.reshape(len(chunk), width).max(axis=1)
        at = int(np.argmin(worst))
        if int(worst[at]) < best_worst:
            best, best_worst = int(chunk[at]), int(worst[at])
        if time.perf_counter() > deadline:
            break
    return best
