"""The `optimal` strategy's decision tree: the fewest guesses on average, where one is known.

The tree for 4 pegs x 6 colours is computed by this project's own exhaustive search
(`python -m bot.engine.optimal_search` writes it) and shipped as a small text file, one line per
position that needs a choice: the answers so far (`-` at the start) and the guess to make, e.g.

    -        1123
    01       1245
    01.10    2516

An answer is written as its black and white pegs. Positions with one or two codes left are not
written: the lowest one is guessed, which is optimal there. A history that leaves the tree (a
different guess) is played by the strategy's fallback rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from pathlib import Path

from bot.engine.codes import CodeSpace
from bot.engine.scoring import decode, encode

TREES = {(4, 6, True): Path(__file__).with_name("optimal_4x6.txt")}
"""The variants that have an optimal tree, and its file."""


class DecisionTree:
    """Guesses by position, a position being the answers so far."""

    def __init__(self, space: CodeSpace, guesses: dict[tuple[int, ...], int]) -> None:
        self.space = space
        self.guesses = guesses
        self.first_guess = space.code_at(guesses[()])

    def guess_at(self, history: Iterable[tuple[int, int]]) -> int | None:
        """The tree's guess after (guess index, answer number) pairs, or None when the history
        left the tree or the position is not written (one or two codes left)."""
        path: tuple[int, ...] = ()
        for guess, answer in history:
            if self.guesses.get(path) != guess:
                return None
            path = (*path, answer)
        return self.guesses.get(path)

    def lines(self) -> list[str]:
        """The file's lines, in the order a walk of the tree meets them."""
        pegs = self.space.pegs
        out = []
        for path in sorted(self.guesses, key=lambda p: (len(p), p)):
            written = ".".join("{}{}".format(*decode(pegs, a)) for a in path) or "-"
            out.append(f"{written:<24} {self.space.digits(self.space.code_at(self.guesses[path]))}")
        return out

    @classmethod
    def parse(cls, space: CodeSpace, text: str) -> DecisionTree:
        guesses: dict[tuple[int, ...], int] = {}
        for line in text.splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            written, guess = line.split()
            path = () if written == "-" else tuple(_answer(space, a) for a in written.split("."))
            guesses[path] = space.index_of(space.parse(guess))
        return cls(space, guesses)


def _answer(space: CodeSpace, written: str) -> int:
    black, white = int(written[0]), int(written[1])
    space.check_answer(black, white)
    return encode(space.pegs, black, white)


@cache
def _load(pegs: int, colours: int, duplicates: bool) -> DecisionTree | None:
    path = TREES.get((pegs, colours, duplicates))
    if path is None or not path.exists():
        return None
    space = CodeSpace(pegs, colours, duplicates)
    return DecisionTree.parse(space, path.read_text(encoding="ascii"))


def tree_for(space: CodeSpace) -> DecisionTree | None:
    """The shipped optimal tree of this variant, if it has one."""
    return _load(*space.key)
