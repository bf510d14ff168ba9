"""Whether a move's exact search fits the move budget, judged before it starts.

The exact search scores every canonical guess against the candidates, dropping a guess once it
cannot win. Its time follows the guesses to score (the canonical pool, thinned by the
symmetries; counted without scoring, a few ms for a million codes), the candidates and the pegs.
`estimated_seconds` is a power law fitted to 51 exact third and fourth moves (minimax,
expected-size and entropy; those over 20 ms) of 7 x 7, 6 x 10, 8 x 5 and, without repeats,
7 x 10 and 8 x 9, timed on one core of the 2-core development machine under a load of about 4
(docs/solver.md): log t = -20.85 + 0.784 log guesses + 0.898 log candidates + 0.566 pegs +
0.382 (no repeats), within a factor of 2 (one standard deviation). A move is
searched exactly when the estimate is at most `EXACT_SECONDS`: two deviations under the 2 s
move budget. A move it refuses is played by the approximate search and says so (`Move.exact`).

Being computed from counts, not a clock, the choice is the same on every machine and every
replay, so a game's moves never depend on the load. Spaces up to `ALWAYS_EXACT` codes are
always searched exactly: their moves were measured within 0.1 s (p99) before this gate.
"""

from __future__ import annotations

import math

import numpy as np

from bot.engine.strategies import MOST_PARTS

EXACT_SECONDS = 0.55
"""Estimated seconds above which a move of a large space is searched approximately."""

ALWAYS_EXACT = 100_000
"""Spaces up to this many codes skip the estimate: every move is exact."""

FIT = (-20.85, 0.784, 0.898, 0.566, 0.382)
"""The power law's terms: constant, log guesses, log candidates, pegs, no repeats."""

CHEAP_RULES = {MOST_PARTS: 0.1}
"""Most-parts drops a guess once it cannot gain a class: its 28 timed moves ran 10 to 100
times faster than the fit."""

ORBITS_FROM = 64
"""As `kernels.ORBITS_FROM`: below it the symmetries do not thin the pool."""


def estimated_seconds(
    pegs: int, duplicates: bool, rule: int, pool: int, candidates: int, symmetries: int
) -> float:
    """The exact search's estimated time (loaded development machine, one core): `pool`
    canonical guesses, thinned by the `symmetries` where the search uses them, against
    `candidates` codes."""
    guesses = pool / symmetries if candidates >= ORBITS_FROM and symmetries > 1 else pool
    const, per_guess, per_candidate, per_peg, no_repeats = FIT
    log_t = const + per_guess * math.log(max(guesses, 1)) + per_candidate * math.log(candidates)
    log_t += per_peg * pegs + (0.0 if duplicates else no_repeats)
    return math.exp(log_t) * CHEAP_RULES.get(rule, 1.0)


def absent_colours(colour_masks: np.ndarray, candidates: np.ndarray, colours: int) -> int:
    """A bit mask of the colours no candidate contains (the pool needs one of them only)."""
    present = int(np.bitwise_or.reduce(colour_masks[candidates])) if len(candidates) else 0
    return ((1 << colours) - 1) & ~present
