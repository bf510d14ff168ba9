"""The guess search: score a pool of guesses against the candidates and take the best.

Three ideas keep it exact and fast (the loops themselves are compiled, see `kernels`):

* **Symmetry.** Colours that no guess has used yet are interchangeable, colours no candidate
  contains never score (one stands for all), and the symmetries that map every guess so far
  onto itself (`symmetries`: swap positions and colours, as 1122 -> 2211) map the candidates
  onto themselves. Only the lowest guess of each class of equivalent guesses is scored, which
  is the one Knuth's tie-break (a candidate first, then the lowest code) would pick, so the
  result is the same as a search over every code. After 11223 on 5 pegs x 8 colours this leaves
  at most 1,915 of 32,768 guesses before the swaps.
* **A guess that cannot win stops early.** Each guess is scored against the candidates one by
  one, and dropped as soon as its partial score (worst class so far, for minimax) shows it
  cannot beat the best guess found. Before that, a guess's colours alone bound its score: its
  hits against each candidate depend only on its colour multiset, and the blacks split a
  class of h hits into at most h + 1 answers. Guesses whose colours cannot beat the best
  guess found, and every guess beginning with such colours, are never scored (about 94% of
  the guesses that are not candidates in the 5 pegs x 8 colours Knuth sweep).
* **The best possible score ends the search.** Candidates are scored first; once a guess
  reaches the lowest score any guess could reach (for minimax: the candidates spread evenly over
  every non-winning answer), no later guess can beat it.

Every space the solver accepts is searched exactly; the approximate search (`SearchLimits`)
is kept for a move whose exact search would overrun the move budget (see `budget`).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

import numpy as np

from bot.engine import budget
from bot.engine.codes import CodeSpace
from bot.engine.scoring import (
    MULTISET_TABLE_LIMIT,
    TABLE_LIMIT,
    Scorer,
    encode,
    multiset_count,
)
from bot.engine.strategies import ENTROPY_SCALE, Strategy

MAX_CODES = 1_000_000
"""Larger code spaces are refused before any work starts."""

EXACT_LIMIT = MAX_CODES
"""Code spaces up to this size are searched exactly, over every (canonical) guess: every space
the solver accepts (the second moves of the largest come from the opening book, `book`)."""

SYMMETRIES_LIMIT = 1024
"""Symmetries passed to the compiled search (any subset of them is correct)."""

CHUNK_GUESSES = 256
"""The approximate search checks its deadline after each chunk of this many guesses."""


class TooLarge(ValueError):
    """The variant's code space is beyond what the solver can search in its time budget.
    `pegs`, `colours`, `size` and `limit` let any language say so with the numbers."""

    code = "too-large"

    def __init__(self, message: str, *, pegs: int, colours: int, size: int, limit: int) -> None:
        super().__init__(message)
        self.pegs, self.colours, self.size, self.limit = pegs, colours, size, limit

    def __reduce__(self) -> tuple[Any, ...]:
        """Raised in a solver worker, it crosses to the bot process by pickle, numbers too."""
        numbers = {"pegs": self.pegs, "colours": self.colours, "size": self.size}
        return (_too_large, (str(self), numbers, self.limit))


def _too_large(message: str, numbers: dict[str, int], limit: int) -> TooLarge:
    return TooLarge(message, limit=limit, **numbers)


@dataclass(frozen=True)
class SearchLimits:
    """How the approximate search of a very large space is bounded.

    It scores at most `guess_pool` guesses (half seeded-random candidates, half seeded-random
    canonical codes) against at most `target_sample` seeded-random candidates, and stops
    scoring further chunks once `time_budget` seconds have passed. Candidates are scored first,
    so each guess it returns can still win. It plays only the moves whose exact search would
    overrun the budget (`exact_seconds`).
    """

    time_budget: float = 2.0
    guess_pool: int = 4096
    target_sample: int = 2048
    exact_seconds: float | None = budget.EXACT_SECONDS
    """A move whose exact search is estimated above this many seconds is searched
    approximately (see `budget`); None: every move exactly, however long it takes."""


def colour_mask(codes: Iterable[Iterable[int]], mask: int = 0) -> int:
    """`mask` plus a bit for every colour the codes use: the search's `used_colours`."""
    for code in codes:
        for colour in code:
            mask |= 1 << int(colour)
    return mask


def symmetries(
    space: CodeSpace, guesses: Sequence[Sequence[int]], limit: int | None = SYMMETRIES_LIMIT
) -> np.ndarray:
    """The symmetries that map every guess onto itself, as rows: a permutation of the
    positions, then a permutation of the colours (identity first, at most `limit` rows).

    Such a symmetry maps the candidates onto themselves, so guesses it maps onto each other
    split them alike and the search scores only the lowest (`kernels.lowest_in_orbit`). With
    no guess, they are the position permutations (free colours are handled apart). After
    1122: swap the 1s, swap the 2s, swap 1s with 2s (8); after 11223 on 5 pegs: 8.
    """
    if not guesses:
        perms = _permutations(space.pegs)
        identity = np.broadcast_to(np.arange(space.colours), (len(perms), space.colours))
        return np.ascontiguousarray(np.hstack([perms, identity])[:limit])
    rows = _stabiliser(space.pegs, space.colours, tuple(int(c) for c in guesses[0]))
    for guess in guesses[1:]:
        code = np.asarray(guess, dtype=np.int64)
        images = np.take_along_axis(rows[:, space.pegs :], code[rows[:, : space.pegs]], axis=1)
        rows = rows[(images == code).all(axis=1)]
    return np.ascontiguousarray(rows[:limit])


@cache
def _permutations(pegs: int) -> np.ndarray:
    """Every permutation of the positions, the identity first."""
    return np.array(list(itertools.permutations(range(pegs))), dtype=np.int64)


@cache
def _stabiliser(pegs: int, colours: int, code: tuple[int, ...]) -> np.ndarray:
    """Every symmetry (rows as in `symmetries`) mapping `code` onto itself, identity first.

    A colour may only go to a colour with as many pegs in the code (a colour the code lacks
    stays: free colours are reduced apart); then the positions of each colour go, in any
    order, to the positions of its image.
    """
    where = {c: [p for p in range(pegs) if code[p] == c] for c in sorted(set(code))}
    by_count: dict[int, list[int]] = {}
    for c, places in where.items():
        by_count.setdefault(len(places), []).append(c)
    rows = []
    for images in itertools.product(*(itertools.permutations(cs) for cs in by_count.values())):
        sigma = list(range(colours))
        for colours_of, images_of in zip(by_count.values(), images, strict=True):
            for source_colour, image in zip(colours_of, images_of, strict=True):
                sigma[source_colour] = image
        # position p (colour code[p]) takes its colour from a position of colour sigma^-1(...)
        inverse = {sigma[c]: c for c in where}
        choices = [itertools.permutations(where[inverse[c]]) for c in where]
        for picked in itertools.product(*choices):
            perm = [0] * pegs
            for c, sources in zip(where, picked, strict=True):
                for target, source in zip(where[c], sources, strict=True):
                    perm[target] = source
            rows.append(perm + sigma)
            if len(rows) >= SYMMETRIES_LIMIT:
                break
        if len(rows) >= SYMMETRIES_LIMIT:
            break
    table = np.array(rows, dtype=np.int64)
    identity = np.array([*range(pegs), *range(colours)])
    first = int(np.flatnonzero((table == identity).all(axis=1))[0])
    table[[0, first]] = table[[first, 0]]
    return table


def check_size(space: CodeSpace) -> None:
    """Refuse a space too large to solve, with its numbers (the UI words them)."""
    if space.size > MAX_CODES:
        raise TooLarge(
            f"too-large: {space.pegs} pegs x {space.colours} colours = {space.size:,} codes "
            f"> {MAX_CODES:,}",
            pegs=space.pegs,
            colours=space.colours,
            size=space.size,
            limit=MAX_CODES,
        )


class SearchContext:
    """Per code space: the scorer's tables. Cheap to keep per worker, shared by strategies."""

    def __init__(self, space: CodeSpace) -> None:
        check_size(space)
        self.space = space
        self.scorer = Scorer(space)
        self.win = encode(space.pegs, space.pegs, 0)
        self.answers_without_win = len(space.answers()) - 1

    @property
    def exact(self) -> bool:
        return self.space.size <= EXACT_LIMIT

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays this context holds now (tables are built lazily, so this grows).

        A worker's context cache is bounded by it.
        """
        held = self.scorer.nbytes
        if "plogp" in vars(self):
            held += int(self.plogp.nbytes)
        if "multisets" in vars(self):
            held += sum(int(array.nbytes) for array in self.multisets)
        return held

    @cached_property
    def plogp(self) -> np.ndarray:
        """c * log2(c) as fixed-point integers for c = 0 .. the most codes a search counts (N,
        at most EXACT_LIMIT: the approximate search samples fewer): the entropy rule's terms."""
        c = np.arange(min(self.space.size, EXACT_LIMIT) + 1, dtype=np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = np.where(c > 0, c * np.log2(np.maximum(c, 1)), 0.0)
        return np.round(terms * ENTROPY_SCALE).astype(np.int64)

    @cached_property
    def multisets(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The colour multisets of up to `pegs` pegs, for the search's multiset cut (see
        `kernels.multisets`): a few thousand at most."""
        from bot.engine import kernels

        return kernels.multisets(self.scorer.tables, self.space.duplicates)

    def canonical_guesses(self, used_colours: int, absent_colours: int = 0) -> np.ndarray:
        """Indices of the lowest guess of each class (see `kernels.canonical_pool`), sorted.

        `used_colours` is a bit mask of the colours any guess so far has contained;
        `absent_colours` one of colours no remaining candidate contains.
        """
        from bot.engine import kernels

        space = self.space
        out = np.empty(space.size, dtype=np.int32)
        count = kernels.canonical_pool(
            space.pegs, space.colours, space.duplicates, used_colours, absent_colours, out
        )
        return out[:count].copy()

    def exact_fits(
        self, rule: int, candidates: np.ndarray, used_colours: int, symmetry: np.ndarray | None,
        limits: SearchLimits | None,
    ) -> bool:  # fmt: skip
        """Whether the exact search of this move is expected within the move budget
        (`budget`): always for spaces up to `budget.ALWAYS_EXACT` codes and without a limit."""
        limit = (limits or SearchLimits()).exact_seconds
        if not self.exact:
            return False
        if limit is None or self.space.size <= budget.ALWAYS_EXACT or len(candidates) <= 2:
            return True
        space = self.space
        absent = budget.absent_colours(self.scorer.tables[2], candidates, space.colours)
        pool = self.pool_size(used_colours, absent)
        syms = 1 if symmetry is None else len(symmetry)
        estimate = budget.estimated_seconds(
            space.pegs, space.duplicates, rule, pool, len(candidates), syms
        )
        return estimate <= limit

    def pool_size(self, used_colours: int, absent_colours: int = 0) -> int:
        """How many canonical guesses there are (see `canonical_guesses`)."""
        from bot.engine import kernels

        space = self.space
        out = np.empty(space.size, dtype=np.int32)
        return int(
            kernels.canonical_pool(
                space.pegs, space.colours, space.duplicates, used_colours, absent_colours, out
            )
        )

    def best_guess(
        self,
        strategy: Strategy,
        candidates: np.ndarray,
        used_colours: int,
        rng: np.random.Generator | None,
        limits: SearchLimits | None = None,
        symmetry: np.ndarray | None = None,
        exact: bool = True,
    ) -> int:
        """The index of the strategy's next guess. `candidates` must be sorted and non-empty;
        `rng` is needed only by random strategies and by the approximate search; `symmetry`
        (rows of `symmetries`) only makes the exact search faster; `exact` False plays the
        approximate search (see `exact_fits`)."""
        n = len(candidates)
        if strategy.rule is None:
            assert rng is not None, "a random strategy needs a generator"
            return int(candidates[rng.integers(n)])
        if n <= 2:
            return int(candidates[0])
        if not self.exact or not exact:
            assert rng is not None, "the approximate search needs a generator"
            return self._approximate(strategy.rule, candidates, used_colours, rng, limits)
        if symmetry is None:
            symmetry = symmetries(self.space, (), 1)
        return self._exact(strategy.rule, candidates, used_colours, symmetry)

    def warm_approximate(self) -> None:
        """Run the approximate search's compiled parts once on a tiny problem (see jobs)."""
        every = np.arange(min(self.space.size, 64))
        self._approximate(0, every, 0, np.random.default_rng(0), SearchLimits(1.0, 16, 16))

    def _exact(
        self, rule: int, candidates: np.ndarray, used_colours: int, symmetry: np.ndarray
    ) -> int:
        from bot.engine import kernels

        space = self.space
        cands = np.ascontiguousarray(candidates, dtype=np.int32)
        return int(
            kernels.exact_best(
                self.scorer.tables,
                space.duplicates,
                self.answers_without_win,
                rule,
                self.plogp,
                cands,
                used_colours,
                symmetry,
                np.zeros(space.size, dtype=np.uint8),
                self.multisets,
            )
        )

    def _approximate(
        self,
        rule: int,
        candidates: np.ndarray,
        used_colours: int,
        rng: np.random.Generator,
        limits: SearchLimits | None,
    ) -> int:
        """Sampled guesses against sampled candidates, within the time budget."""
        from bot.engine import kernels

        limits = limits or SearchLimits()
        deadline = time.perf_counter() + limits.time_budget
        half = limits.guess_pool // 2
        from_candidates = _sample(candidates, half, rng)
        from_canonical = _sample(self.canonical_guesses(used_colours), half, rng)
        # Candidates are scored first, so even a search cut short by the deadline holds some.
        pool = np.concatenate([from_candidates, np.setdiff1d(from_canonical, from_candidates)])
        pool = pool.astype(np.int32)
        sample = min(limits.target_sample, len(self.plogp) - 1)  # the entropy table's reach
        targets = _sample(candidates, sample, rng).astype(np.int32)
        mark = np.zeros(self.space.size, dtype=np.uint8)
        mark[candidates] = 1
        best, guess, is_candidate = int(kernels.NO_SCORE), -1, 0
        for start in range(0, len(pool), CHUNK_GUESSES):
            chunk = pool[start : start + CHUNK_GUESSES]
            best, guess = kernels.scan(
                self.scorer.tables,
                rule,
                self.plogp,
                chunk,
                mark,
                targets,
                best,
                guess,
                is_candidate,
                -kernels.NO_SCORE,
            )
            is_candidate = int(mark[guess])
            if time.perf_counter() > deadline:
                break
        return int(guess)


def expected_bytes(space: CodeSpace) -> int:
    """About how many bytes a context for `space` holds once its tables are built, so a cache
    can make room before building one."""
    # codes and counts (uint8); a colour mask, a multiset number (int32) per code; the entropy
    # terms (int64, up to EXACT_LIMIT); the multiset table; the full answer table if small
    multisets = multiset_count(space)
    hits = multisets * multisets if multisets <= MULTISET_TABLE_LIMIT else 0
    table = space.size * space.size if space.size <= TABLE_LIMIT else 0
    per_code = space.pegs + space.colours + 4 + 4
    entropy = 8 * (min(space.size, EXACT_LIMIT) + 1)
    # the colour multisets of up to `pegs` pegs (kernels.multisets): int32 per colour each,
    # and for the full ones an int64 number and a uint8 per colour
    if space.duplicates:
        subsets = math.comb(space.pegs + space.colours, space.pegs)
    else:
        subsets = sum(math.comb(space.colours, k) for k in range(space.pegs + 1))
    sets = subsets * 4 * space.colours + multisets * (8 + space.colours) + 8 * (space.pegs + 2)
    return space.size * per_code + entropy + hits + table + sets + 64  # + 1 x 1 placeholders


def _sample(values: np.ndarray, k: int, rng: np.random.Generator) -> np.ndarray:
    """Up to k values, sorted, chosen by the seeded generator."""
    if len(values) <= k:
        return values
    return np.sort(rng.choice(values, size=k, replace=False))
