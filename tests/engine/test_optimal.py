"""The `optimal` strategy: the shipped tree replays every secret in 5625 guesses (Koyama and
Lai), the search that writes it is exact on small variants, and other variants fall back."""

from __future__ import annotations

from collections import Counter
from functools import cache

import numpy as np

from bot.engine.codes import CodeSpace
from bot.engine.optimal import TREES, DecisionTree, tree_for
from bot.engine.optimal_search import OptimalSearch, perfect_costs
from bot.engine.scoring import encode, score
from bot.engine.simulate import format_table, main, simulate
from bot.engine.solver import Solver

CLASSIC = CodeSpace(4, 6)


def replay(tree: DecisionTree) -> Counter[int]:
    """Every secret through the tree at once (secrets with the same answers so far share a
    position): how many need 1, 2, ... guesses. Positions not written must have 1 or 2 codes
    left, where the lowest is guessed."""
    space = tree.space
    counts: Counter[int] = Counter()
    stack: list[tuple[list[tuple[int, int]], list[int]]] = [([], list(range(space.size)))]
    while stack:
        history, candidates = stack.pop()
        guess = tree.guess_at(history)
        if guess is None:
            assert history and 1 <= len(candidates) <= 2
            guess = candidates[0]
        groups: dict[tuple[int, int], list[int]] = {}
        for code in candidates:
            groups.setdefault(score(space.code_at(guess), space.code_at(code)), []).append(code)
        for answer, group in groups.items():
            if answer[0] == space.pegs:
                counts[len(history) + 1] += 1
            else:
                stack.append(([*history, (guess, encode(space.pegs, *answer))], group))
    return counts


def test_the_shipped_tree_solves_every_secret_in_5625_guesses() -> None:
    tree = tree_for(CLASSIC)
    assert tree is not None and CLASSIC.digits(tree.first_guess) == "1123"
    counts = replay(tree)
    assert sum(counts.values()) == CLASSIC.size
    assert sum(k * n for k, n in counts.items()) == 5625
    assert max(counts) == 6
    assert TREES[CLASSIC.key].stat().st_size < 16_000  # small: one line per position


def test_the_solver_plays_the_tree() -> None:
    result = simulate(CLASSIC, "optimal")
    assert (result.total, result.worst, result.first_guess, result.note) == (5625, 6, "1123", None)
    solver = Solver(CLASSIC, "optimal")
    assert solver.next_move([]).guess == (0, 0, 1, 2)
    tree = tree_for(CLASSIC)
    assert tree is not None
    assert solver.next_move([((0, 0, 1, 2), (0, 0))]).guess == CLASSIC.code_at(
        tree.guesses[(encode(4, 0, 0),)]
    )


def test_other_variants_fall_back_to_most_parts_and_say_so() -> None:
    space = CodeSpace(3, 5)
    optimal, kooi = simulate(space, "optimal"), simulate(space, "most-parts")
    assert optimal.distribution == kooi.distribution
    assert optimal.note and "most-parts" in optimal.note
    assert "note: optimal" in format_table(optimal)
    off_tree = Solver(CLASSIC, "optimal", first_guess=(0, 1, 2, 3))
    assert off_tree.tree is None and off_tree.note


def test_the_cli_prints_the_distribution(capsys) -> None:
    assert main(["--strategy", "optimal"]) == 0
    out = capsys.readouterr().out
    assert "total    5625" in out and "worst    6" in out


def brute_force_total(space: CodeSpace) -> int:
    """The fewest guesses for all secrets, by trying every guess everywhere (tiny spaces)."""
    codes = [space.code_at(i) for i in range(space.size)]

    @cache
    def cost(cands: frozenset[int]) -> int:
        if len(cands) == 1:
            return 1
        best = None
        for guess in range(space.size):
            groups: dict[tuple[int, int], set[int]] = {}
            for c in cands:
                groups.setdefault(score(codes[guess], codes[c]), set()).add(c)
            if len(groups) == 1 and guess not in cands:
                continue  # learns nothing
            total = len(cands) + sum(
                cost(frozenset(g)) for a, g in groups.items() if a[0] != space.pegs
            )
            best = total if best is None else min(best, total)
        assert best is not None
        return best

    return cost(frozenset(range(space.size)))


def test_the_search_is_exact_on_tiny_variants() -> None:
    for variant in [(2, 3), (3, 3), (2, 4)]:
        space = CodeSpace(*variant)
        search = OptimalSearch(space)
        best = min(search.total(first) for first in range(space.size))
        assert best == brute_force_total(space)


def test_perfect_costs_are_a_lower_bound() -> None:
    assert perfect_costs(6, 13).tolist() == [0, 1, 3, 5, 7, 9, 11]
    assert perfect_costs(17, 3)[-1] == 1 + 2 * 3 + 3 * 9 + 4 * 4
    assert np.all(np.diff(perfect_costs(100, 13)) >= 1)
