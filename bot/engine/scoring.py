"""Black/white scoring: one pair, one guess against many codes, and many against many.

Black pegs count positions where guess and secret agree; white pegs count the rest of the colour
overlap (the multiset intersection minus the blacks), so repeated colours are scored exactly.

Vectorised results use one small integer per answer, `black * (pegs + 1) + white`, which fits a
uint8 for every variant. Many-against-many scoring goes through a `Scorer`:

* small spaces (up to `FULL_TABLE_LIMIT` codes) keep the whole feedback table in memory;
* larger ones split each code into position groups and a colour multiset. Blacks are the sum of
  small per-group tables and hits (black + white) come from a multiset-against-multiset table, so
  any block of feedback is three row-gathers and two additions, and nothing of size N x N is ever
  materialised.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property

import numpy as np

from bot.engine.codes import Code, CodeSpace, colour_counts

FULL_TABLE_LIMIT = 8192
"""Spaces up to this many codes keep an N x N uint8 table (8192 codes: 64 MiB)."""

GROUP_TABLE_LIMIT = 512
"""A position group spans at most this many colour patterns, which keeps the per-node column
cache (patterns x candidates bytes) small: 45 MiB for all 32,768 codes of 5 pegs x 8 colours."""


def score(guess: Code, secret: Code) -> tuple[int, int]:
    """(black, white) pegs for one guess against one secret."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    hits = sum((Counter(guess) & Counter(secret)).values())
    return black, hits - black


def encode(pegs: int, black: int, white: int) -> int:
    """The compact answer number used by vectorised code."""
    return black * (pegs + 1) + white


def decode(pegs: int, feedback: int) -> tuple[int, int]:
    """Inverse of `encode`."""
    return divmod(int(feedback), pegs + 1)


def feedback_count(pegs: int) -> int:
    """How many answer numbers exist (some unused): the bincount width."""
    return (pegs + 1) ** 2


def score_against(space: CodeSpace, guess: Code, codes: np.ndarray) -> np.ndarray:
    """Answer numbers for one guess against rows of `codes` (shape (n, pegs)), vectorised."""
    guess_row = np.asarray(guess, dtype=np.uint8)
    black = (codes == guess_row).sum(axis=1, dtype=np.uint8)
    guess_counts = np.bincount(guess_row, minlength=space.colours).astype(np.uint8)
    counts = colour_counts(codes, space.colours)
    hits = np.minimum(counts, guess_counts).sum(axis=1, dtype=np.uint8)
    return (black * np.uint8(space.pegs) + hits).astype(np.uint8)


class Scorer:
    """Feedback for blocks of (guess indices x code indices) of one code space."""

    def __init__(self, space: CodeSpace) -> None:
        self.space = space
        self.pegs = space.pegs
        self.width = feedback_count(space.pegs)

    @cached_property
    def uses_full_table(self) -> bool:
        return self.space.size <= FULL_TABLE_LIMIT

    @cached_property
    def table(self) -> np.ndarray:
        """The whole N x N feedback table (small spaces only)."""
        if not self.uses_full_table:
            raise MemoryError(f"{self.space} is too large for a full feedback table")
        codes = np.arange(self.space.size)
        return self._block_from_parts(self._columns(codes), codes)

    def against(self, guess: int, codes: np.ndarray) -> np.ndarray:
        """Answer numbers of one guess (an index) against many code indices."""
        if self.uses_full_table:
            return self.table[guess, codes]
        hits_table, ms_keys = self._hits_part
        out = hits_table[ms_keys[guess]][ms_keys[codes]]
        for table, keys in self._black_parts:
            out += table[keys[guess]][keys[codes]]
        return out

    def block(self, guesses: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Answer numbers, shape (len(guesses), len(codes)), uint8."""
        if self.uses_full_table:
            return self.table[guesses][:, codes]
        return self._block_from_parts(self.columns(codes), guesses)

    def columns(self, codes: np.ndarray, rows_hint: int | None = None) -> ColumnCache:
        """Precompute the column side for a fixed set of codes; rows are then cheap gathers.

        With a full table and few rows to come (`rows_hint`), gathering rows first is cheaper,
        so the cache just remembers the codes.
        """
        if self.uses_full_table:
            if rows_hint is not None and rows_hint < self.space.size // 2:
                return ColumnCache(codes=codes)
            return ColumnCache(full=self.table[:, codes])
        return self._columns(codes)

    def rows(self, cache: ColumnCache, guesses: np.ndarray) -> np.ndarray:
        """Answer numbers of `guesses` against the codes a `ColumnCache` was built for."""
        if cache.full is not None:
            return cache.full[guesses]
        if cache.codes is not None:
            return self.table[guesses][:, cache.codes]
        return self._block_from_parts(cache, guesses)

    # --- decomposed tables -----------------------------------------------------------------

    def _columns(self, codes: np.ndarray) -> ColumnCache:
        parts = [table[:, keys[codes]] for table, keys in self._black_parts]
        hits_table, ms_keys = self._hits_part
        return ColumnCache(black_parts=parts, hits=hits_table[:, ms_keys[codes]])

    def _block_from_parts(self, cache: ColumnCache, guesses: np.ndarray) -> np.ndarray:
        _, ms_keys = self._hits_part
        out = cache.hits[ms_keys[guesses]]
        for part, (_, keys) in zip(cache.black_parts, self._black_parts, strict=True):
            out += part[keys[guesses]]
        return out

    @cached_property
    def _groups(self) -> list[range]:
        """Consecutive positions grouped so each group has at most GROUP_TABLE_LIMIT patterns."""
        per_group = 1
        while self.space.colours ** (per_group + 1) <= GROUP_TABLE_LIMIT:
            per_group += 1
        return [
            range(start, min(start + per_group, self.pegs))
            for start in range(0, self.pegs, per_group)
        ]

    @cached_property
    def _black_parts(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per position group: (pattern x pattern blacks * pegs, each code's pattern number)."""
        colours, codes = self.space.colours, self.space.codes
        parts = []
        for group in self._groups:
            width = len(group)
            keys = np.zeros(self.space.size, dtype=np.int32)
            for p in group:
                keys = keys * colours + codes[:, p]
            patterns = np.indices((colours,) * width).reshape(width, -1).T
            equal = np.zeros((len(patterns), len(patterns)), dtype=np.uint8)
            for j in range(width):
                equal += patterns[:, None, j] == patterns[None, :, j]
            parts.append((equal * np.uint8(self.pegs), keys))
        return parts

    @cached_property
    def _hits_part(self) -> tuple[np.ndarray, np.ndarray]:
        """(multiset x multiset common-colour counts, each code's multiset number)."""
        counts = self.space.counts
        radix = (self.pegs + 1) ** np.arange(self.space.colours, dtype=np.int64)
        _, first, keys = np.unique(counts @ radix, return_index=True, return_inverse=True)
        multisets = counts[first]
        hits = np.zeros((len(multisets), len(multisets)), dtype=np.uint8)
        for colour in range(self.space.colours):
            hits += np.minimum(multisets[:, None, colour], multisets[None, :, colour])
        return hits, keys.reshape(-1).astype(np.int32)


class ColumnCache:
    """The code-side half of a block computation, reused for every chunk of guesses."""

    __slots__ = ("black_parts", "codes", "full", "hits")

    def __init__(
        self,
        full: np.ndarray | None = None,
        black_parts: list[np.ndarray] | None = None,
        hits: np.ndarray | None = None,
        codes: np.ndarray | None = None,
    ) -> None:
        self.full = full
        self.codes = codes
        self.black_parts = black_parts or []
        self.hits = hits


def class_counts(feedback: np.ndarray, width: int) -> np.ndarray:
    """Per row of a (guesses x codes) feedback block, how many codes give each answer."""
    rows = feedback.shape[0]
    offsets = (np.arange(rows, dtype=np.intp) * width)[:, None]
    flat = (feedback + offsets).ravel()
    return np.bincount(flat, minlength=rows * width).reshape(rows, width)
