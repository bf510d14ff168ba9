"""The guess search: score a pool of guesses against the candidates and take the best.

Two ideas keep it exact and fast:

* **Free-colour symmetry.** Colours that no guess has used yet are interchangeable: swapping them
  maps the candidate set onto itself and every guess onto one that splits it identically. So
  only one guess per class needs scoring, and the lowest member of a class is the one whose free
  colours appear in increasing order (the *canonical* guess). Knuth's tie-break (a candidate
  first, then the lowest code) picks the same guess as a search over every code. After 11223 on
  5 pegs x 8 colours this leaves 1,915 of 32,768 guesses.
* **A candidate that cannot be beaten ends the search early.** When n candidates remain and a
  candidate guess already reaches the best score any guess could reach (for minimax: n spread
  over every non-winning answer), no other guess needs scoring.

Code spaces above `EXACT_LIMIT` codes are searched approximately (see `SearchLimits`).
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from bot.engine.codes import CodeSpace
from bot.engine.scoring import (
    FULL_TABLE_LIMIT,
    GROUP_TABLE_LIMIT,
    Scorer,
    class_counts,
    encode,
)
from bot.engine.strategies import Strategy, minimax

EXACT_LIMIT = 50_000
"""Code spaces up to this size are searched exactly, over every (canonical) guess."""

MAX_CODES = 1_000_000
"""Larger code spaces are refused before any work starts."""

CHUNK_ELEMENTS = 1 << 21
"""Feedback values scored per chunk: bounds the memory of one step to a few tens of MB."""

EARLY_EXIT_CANDIDATES = 64
"""Up to this many candidates, candidates are scored first in the hope of an early exit."""

CANONICAL_CACHE_BYTES = 32 << 20
"""Canonical guess sets kept per context. A worker lives for many games and on 6 pegs x 10
colours one set is up to 4 MB, so the cache is bounded by bytes, not by entries."""


class TooLarge(ValueError):
    """The variant's code space is beyond what the solver can search in its time budget."""


@dataclass(frozen=True)
class SearchLimits:
    """How the approximate search of a very large space is bounded.

    It scores at most `guess_pool` guesses (half seeded-random candidates, half seeded-random
    canonical codes) against at most `target_sample` seeded-random candidates, and stops
    scoring further chunks once `time_budget` seconds have passed. Every pool holds candidates,
    so each guess it returns can still win.
    """

    time_budget: float = 2.0
    guess_pool: int = 4096
    target_sample: int = 2048


def colour_mask(codes: Iterable[Iterable[int]], mask: int = 0) -> int:
    """`mask` plus a bit for every colour the codes use: the search's `used_colours`."""
    for code in codes:
        for colour in code:
            mask |= 1 << int(colour)
    return mask


def check_size(space: CodeSpace) -> None:
    """Refuse a space too large to solve, with a message a player can act on."""
    if space.size > MAX_CODES:
        raise TooLarge(
            f"{space.pegs} pegs x {space.colours} colours has {space.size:,} codes; the solver "
            f"handles up to {MAX_CODES:,}. Use fewer pegs or colours."
        )


class SearchContext:
    """Per code space: the scorer and cached canonical guess sets. Cheap to keep per worker."""

    def __init__(self, space: CodeSpace) -> None:
        check_size(space)
        self.space = space
        self.scorer = Scorer(space)
        self.win = encode(space.pegs, space.pegs, 0)
        self.answers_without_win = len(space.answers()) - 1
        self._canonical: OrderedDict[int, np.ndarray] = OrderedDict()
        self._canonical_bytes = 0

    @property
    def exact(self) -> bool:
        return self.space.size <= EXACT_LIMIT

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays this context holds now (tables are built lazily, so this grows).

        A worker's context cache is bounded by it.
        """
        held = self._canonical_bytes
        for owner, names in (
            (self.space, ("codes", "counts")),
            (self.scorer, ("table", "_black_parts", "_hits_part")),
            (self, ("_every_code",)),
        ):
            built = vars(owner)
            held += sum(_array_bytes(built[name]) for name in names if name in built)
        return held

    def canonical_guesses(self, used_colours: int) -> np.ndarray:
        """Indices of the guesses whose unused colours appear in increasing order.

        `used_colours` is a bit mask of the colours any guess so far has contained.
        """
        cached = self._canonical.get(used_colours)
        if cached is not None:
            self._canonical.move_to_end(used_colours)
            return cached
        codes = self.space.codes
        free = [c for c in range(self.space.colours) if not used_colours >> c & 1]
        if len(free) <= 1:  # nothing to permute: every code is its own class
            return self._every_code
        keep = np.ones(self.space.size, dtype=bool)
        absent = self.space.pegs
        previous = None
        for colour in free:
            present = codes == colour
            first = np.where(present.any(axis=1), present.argmax(axis=1), absent)
            if previous is not None:
                keep &= (first == absent) | (previous < first)
            previous = first
        result = np.flatnonzero(keep).astype(np.int32)
        self._canonical[used_colours] = result
        self._canonical_bytes += result.nbytes
        while self._canonical_bytes > CANONICAL_CACHE_BYTES and len(self._canonical) > 1:
            self._canonical_bytes -= self._canonical.popitem(last=False)[1].nbytes
        return result

    @cached_property
    def _every_code(self) -> np.ndarray:
        return np.arange(self.space.size, dtype=np.int32)

    def best_guess(
        self,
        strategy: Strategy,
        candidates: np.ndarray,
        used_colours: int,
        rng: np.random.Generator | None,
        limits: SearchLimits | None = None,
    ) -> int:
        """The index of the strategy's next guess. `candidates` must be sorted and non-empty;
        `rng` is needed only by random strategies and by the approximate search."""
        n = len(candidates)
        if strategy.is_random:
            return int(candidates[rng.integers(n)])
        if n <= 2:
            return int(candidates[0])
        if not self.exact:
            return self._approximate(strategy, candidates, used_colours, rng, limits)
        if n <= EARLY_EXIT_CANDIDATES:
            early = self._unbeatable_candidate(strategy, candidates)
            if early is not None:
                return early
        pool = self.canonical_guesses(used_colours)
        return self._best_of(strategy, pool, candidates, candidates, None)

    def _unbeatable_candidate(self, strategy: Strategy, candidates: np.ndarray) -> int | None:
        """The lowest best candidate, if no guess at all could score better."""
        n = len(candidates)
        scores = strategy.score(class_counts(self.scorer.block(candidates, candidates), self._w))
        best = scores.min()
        if strategy.score is minimax:
            bound = math.ceil(n / self.answers_without_win)
        else:  # every class a single code is the best any strategy can hope for
            bound = strategy.score(np.ones((1, n), dtype=np.int64))[0]
        if best <= bound:
            return int(candidates[int(np.argmax(scores == best))])
        return None

    @property
    def _w(self) -> int:
        return self.scorer.width

    def _best_of(
        self,
        strategy: Strategy,
        pool: np.ndarray,
        targets: np.ndarray,
        candidates: np.ndarray,
        deadline: float | None,
    ) -> int:
        """Score every guess of `pool` (sorted) against `targets`; best, candidate, lowest."""
        columns = self.scorer.columns(targets, rows_hint=len(pool))
        rows = max(1, CHUNK_ELEMENTS // max(1, len(targets)))
        scores = []
        scored = 0
        for start in range(0, len(pool), rows):
            chunk = pool[start : start + rows]
            feedback = self.scorer.rows(columns, chunk)
            scores.append(strategy.score(class_counts(feedback, self._w)))
            scored += len(chunk)
            if deadline is not None and time.perf_counter() > deadline:
                break
        pool = pool[:scored]
        score = np.concatenate(scores)
        best = score.min()
        tied = pool[score == best]
        at = np.minimum(np.searchsorted(candidates, tied), len(candidates) - 1)
        is_candidate = candidates[at] == tied
        return int(tied[is_candidate][0] if is_candidate.any() else tied[0])

    def _approximate(
        self,
        strategy: Strategy,
        candidates: np.ndarray,
        used_colours: int,
        rng: np.random.Generator,
        limits: SearchLimits | None,
    ) -> int:
        limits = limits or SearchLimits()
        deadline = time.perf_counter() + limits.time_budget
        half = limits.guess_pool // 2
        from_candidates = _sample(candidates, half, rng)
        from_canonical = _sample(self.canonical_guesses(used_colours), half, rng)
        # Candidates are scored first, so even a chunk cut short by the deadline holds some.
        pool = np.concatenate([from_candidates, np.setdiff1d(from_canonical, from_candidates)])
        targets = _sample(candidates, limits.target_sample, rng)
        return self._best_of(strategy, pool, targets, candidates, deadline)


def expected_bytes(space: CodeSpace) -> int:
    """About how many bytes a context for `space` holds once its tables are built and a few
    canonical guess sets are cached, so a cache can make room before building one."""
    # codes and counts (uint8), an int32 key per position group and per multiset, every code
    per_code = space.pegs + space.colours + 4 * (space.pegs + 2)
    table = space.size * space.size if space.size <= FULL_TABLE_LIMIT else 0
    if space.duplicates:
        multisets = math.comb(space.pegs + space.colours - 1, space.pegs)
    else:
        multisets = math.comb(space.colours, space.pegs)
    small_tables = multisets * multisets + space.pegs * GROUP_TABLE_LIMIT * GROUP_TABLE_LIMIT
    canonical = min(CANONICAL_CACHE_BYTES, 16 * space.size)
    return space.size * per_code + table + small_tables + canonical


def _array_bytes(value: object) -> int:
    """Bytes of the arrays in a cached value: an array, or (nested) tuples and lists of them."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, tuple | list):
        return sum(_array_bytes(item) for item in value)
    return 0


def _sample(values: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Up to k values, sorted, chosen by the seeded generator."""
    if len(values) <= k:
        return values
    return np.sort(rng.choice(values, size=k, replace=False))
