"""Search for the decision tree with the fewest guesses in total, and write `optimal`'s file.

    python -m bot.engine.optimal_search [--first 1123] [--check]

A depth-first branch and bound over every position: the cost of a set of candidates is the
number of guesses all of them need together, its size plus the best guess's sum over the
answers it leaves. Guesses are tried in the order of a lower bound computed from their split
(each class of k codes needs at least the guesses of a perfect tree for k), so the bound of
the best guess so far prunes the rest; the symmetry reduction of the exact search (free and
absent colours) keeps only one guess per class of equivalent ones. Results are memoised by
candidate set, exact or as a lower bound. Among equally good guesses it keeps the first in
the bound's order (then a candidate, then the lowest code), so reruns give the same tree.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

import numpy as np

from bot.engine.codes import CodeSpace
from bot.engine.optimal import TREES, DecisionTree
from bot.engine.search import SearchContext, colour_mask
from bot.engine.simulate import split
from bot.engine.solver import context_for

INFINITY = 1 << 60


def perfect_costs(size: int, classes: int) -> np.ndarray:
    """The fewest guesses k codes could need together, for k = 0 .. size: one solved by the
    first guess, `classes` by the second, classes**2 by the third... (a lower bound)."""
    costs = np.zeros(size + 1, dtype=np.int64)
    depth, room, left = 1, 1, 0
    for k in range(1, size + 1):
        if left == room:
            depth, room, left = depth + 1, room * classes, 0
        left += 1
        costs[k] = costs[k - 1] + depth
    return costs


class OptimalSearch:
    """The branch and bound of one code space, with its memo."""

    def __init__(self, space: CodeSpace) -> None:
        self.context: SearchContext = context_for(*space.key)
        self.space = self.context.space
        self.win = self.context.win
        self.low = perfect_costs(self.space.size, self.context.answers_without_win)
        self.memo: dict[bytes, tuple[int, int, bool]] = {}
        self.nodes = 0

    def cost(self, cands: np.ndarray, used: int, beta: int = INFINITY) -> int:
        """The fewest guesses all of `cands` need together, if below `beta`; else a value
        >= beta (a lower bound)."""
        n = len(cands)
        if n <= 2:
            return 2 * n - 1
        key = cands.tobytes()
        known = self.memo.get(key)
        if known is not None and (known[2] or known[0] >= beta):
            return known[0]
        self.nodes += 1
        best, best_guess = self._search(cands, used, beta)
        exact = best < beta
        self.memo[key] = (best if exact else beta, best_guess, exact)
        return best if exact else beta

    def guess(self, cands: np.ndarray, used: int) -> int:
        """The optimal guess at a position (searched if not memoised exactly)."""
        if len(cands) <= 2:
            return int(cands[0])
        self.cost(cands, used)
        return self.memo[cands.tobytes()][1]

    def _search(self, cands: np.ndarray, used: int, beta: int) -> tuple[int, int]:
        from bot.engine import kernels

        space, tables = self.space, self.context.scorer.tables
        n = len(cands)
        present = colour_mask(space.codes[cands])
        absent = ((1 << space.colours) - 1) & ~present
        pool = self.context.canonical_guesses(used, absent)
        sizes = np.empty((len(pool), self.context.scorer.width), dtype=np.int64)
        kernels.class_sizes(tables, pool, cands.astype(np.int64), sizes)
        is_candidate = sizes[:, self.win] == 1
        sizes[:, self.win] = 0
        bounds = n + self.low[sizes].sum(axis=1)
        order = np.lexsort((pool, ~is_candidate, bounds))
        best, best_guess = beta, -1
        for i in order:
            if bounds[i] >= best:
                break
            guess = int(pool[i])
            next_used = colour_mask([space.codes[guess]], used)
            groups = [g for a, g in split(self.context.scorer.against(guess, cands), cands)]
            groups = [g for g in groups if not (len(g) == 1 and g[0] == guess)]
            groups.sort(key=len, reverse=True)
            rest = int(sum(self.low[len(g)] for g in groups))
            total = n
            for group in groups:
                rest -= int(self.low[len(group)])
                total += self.cost(group, next_used, best - total - rest)
                if total + rest >= best:
                    break
            else:
                if total < best:
                    best, best_guess = total, guess
        return best, best_guess

    def tree(self, first: int) -> DecisionTree:
        """The optimal tree under opening `first`: every position with 3 or more codes."""
        guesses: dict[tuple[int, ...], int] = {(): first}
        every = np.arange(self.space.size)
        stack: list[tuple[tuple[int, ...], np.ndarray, int, int]] = [((), every, first, 0)]
        while stack:
            path, cands, guess, used = stack.pop()
            next_used = colour_mask([self.space.codes[guess]], used)
            for answer, group in split(self.context.scorer.against(guess, cands), cands):
                if answer == self.win or len(group) <= 2:
                    continue
                child = (*path, answer)
                guesses[child] = self.guess(group, next_used)
                stack.append((child, group, guesses[child], next_used))
        return DecisionTree(self.space, guesses)

    def total(self, first: int) -> int:
        """All secrets' guesses under opening `first`."""
        every = np.arange(self.space.size)
        used = colour_mask([self.space.codes[first]])
        groups = split(self.context.scorer.against(first, every), every)
        return self.space.size + sum(
            self.cost(group, used) for answer, group in groups if answer != self.win
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine.optimal_search", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--first", default="1123", help="the opening (Koyama and Lai: 1123)")
    parser.add_argument("--check", action="store_true", help="compare with the shipped file")
    args = parser.parse_args(argv)
    space = CodeSpace(4, 6)
    search = OptimalSearch(space)
    first = space.index_of(space.parse(args.first))
    started = time.perf_counter()
    total = search.total(first)
    tree = search.tree(first)
    seconds = time.perf_counter() - started
    print(f"opening {args.first}: {total} guesses in total for all {space.size} secrets")
    print(f"{len(tree.guesses)} positions, {search.nodes} searched, {seconds:.1f} s")
    path = TREES[space.key]
    text = "\n".join(tree.lines()) + "\n"
    if args.check:
        same = path.exists() and path.read_text(encoding="ascii") == text
        print(f"{path.name}: {'identical' if same else 'DIFFERENT'}")
        return 0 if same else 1
    path.write_text(text, encoding="ascii")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
