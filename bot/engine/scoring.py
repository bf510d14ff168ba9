"""Black/white scoring: one pair, one guess against many codes, and many against many.

Black pegs count positions where guess and secret agree; white pegs count the rest of the colour
overlap (the multiset intersection minus the blacks), so repeated colours are scored exactly.

Vectorised results use one small integer per answer, `black * (pegs + 1) + white`, which fits a
uint8 for every variant. Many-against-many scoring goes through a `Scorer`, in compiled loops
(`kernels`): blacks are counted position by position and hits (black + white) come from a small
table of colour multiset against colour multiset. Only small spaces (up to
`TABLE_LIMIT` codes) keep the whole N x N table.
"""

from __future__ import annotations

import math
from collections import Counter
from functools import cached_property

import numpy as np

from bot.engine.codes import Code, CodeSpace, colour_counts

TABLE_LIMIT = 2048
"""Spaces up to this many codes keep the whole N x N answer table (4 x 7: 5.8 MB), so a guess's
answers are one row gather."""


MULTISET_TABLE_LIMIT = 5005
"""Spaces with up to this many colour multisets keep the multiset x multiset hits table: every
variant the solver accepts (6 x 10, the most, has 5,005: 25 MB). Without it the exact search's
multiset cut would count hits colour by colour for every target (a 6 x 10 second move: 20 s
instead of 0.6 s); larger spaces (refused anyway) would."""


def multiset_count(space: CodeSpace) -> int:
    """How many colour multisets (codes up to the order of their pegs) the space has."""
    if space.duplicates:
        return math.comb(space.pegs + space.colours - 1, space.pegs)
    return math.comb(space.colours, space.pegs)


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
    return np.asarray(black * np.uint8(space.pegs) + hits, dtype=np.uint8)


class Scorer:
    """Feedback for guesses (indices) against many codes (indices) of one code space, in
    compiled loops. Its arrays (`tables`) are built on first use."""

    def __init__(self, space: CodeSpace) -> None:
        self.space = space
        self.pegs = space.pegs
        self.width = feedback_count(space.pegs)

    def against(self, guess: int, codes: np.ndarray) -> np.ndarray:
        """Answer numbers of one guess (an index) against many code indices, uint8."""
        from bot.engine import kernels

        targets = np.ascontiguousarray(codes, dtype=np.int64)
        out = np.empty(len(targets), dtype=np.uint8)
        kernels.feedback(self.tables, guess, targets, out)
        return out

    def block(self, guesses: np.ndarray, codes: np.ndarray) -> np.ndarray:
        """Answer numbers, shape (len(guesses), len(codes)), uint8."""
        out = np.empty((len(guesses), len(codes)), dtype=np.uint8)
        for row, guess in enumerate(guesses):
            out[row] = self.against(int(guess), codes)
        return out

    @cached_property
    def tables(self) -> tuple[np.ndarray, ...]:
        """What the compiled loops take (see `kernels`): codes, colour counts, colour masks,
        multiset numbers, the multiset hits table and the full answer table (1 x 1 if none)."""
        from bot.engine import kernels

        space = self.space
        codes, counts = space.codes, space.counts
        cmask = np.zeros(space.size, dtype=np.int32)
        for p in range(self.pegs):
            cmask |= np.left_shift(1, codes[:, p].astype(np.int32))
        none = np.zeros((1, 1), dtype=np.uint8)
        if multiset_count(space) > MULTISET_TABLE_LIMIT:
            small = (codes, counts, cmask, np.zeros(1, dtype=np.int32), none, none)
            return small
        radix = (self.pegs + 1) ** np.arange(space.colours, dtype=np.int64)
        _, first, numbers = np.unique(counts @ radix, return_index=True, return_inverse=True)
        multisets = counts[first]
        hits = np.zeros((len(multisets), len(multisets)), dtype=np.uint8)
        for colour in range(space.colours):
            hits += np.minimum(multisets[:, None, colour], multisets[None, :, colour])
        ms = numbers.reshape(-1).astype(np.int32)
        small = (codes, counts, cmask, ms, hits, none)
        if space.size > TABLE_LIMIT:
            return small
        return (*small[:5], kernels.full_table(small))

    @property
    def nbytes(self) -> int:
        """Bytes of the arrays built so far, the code space's included."""
        built = vars(self)
        if "tables" in built:
            return sum(int(array.nbytes) for array in built["tables"])
        return sum(
            int(vars(self.space)[n].nbytes) for n in ("codes", "counts") if n in vars(self.space)
        )


def class_counts(feedback: np.ndarray, width: int) -> np.ndarray:
    """Per row of a (guesses x codes) feedback block, how many codes give each answer (a plain
    NumPy reference for the compiled scan)."""
    rows = feedback.shape[0]
    offsets = (np.arange(rows, dtype=np.intp) * width)[:, None]
    flat = (feedback + offsets).ravel()
    return np.bincount(flat, minlength=rows * width).reshape(rows, width)
