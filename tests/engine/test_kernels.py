"""The compiled search against plain NumPy references: symmetry pools, the guess scan with
every rule and every scoring path, and the exact search against a search over every code."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bot.engine import kernels
from bot.engine.codes import CodeSpace
from bot.engine.scoring import class_counts
from bot.engine.search import colour_mask, symmetries
from bot.engine.solver import context_for
from bot.engine.strategies import STRATEGIES, Strategy, get_strategy

RULES = [get_strategy(name) for name in ("knuth", "expected-size", "entropy", "most-parts")]


def reference_best(
    strategy: Strategy, space: CodeSpace, pool, targets, mark, block=None
) -> tuple[int, int]:
    """(score, guess) by the rule's NumPy score and Knuth's tie-break, scoring all of `pool`
    (`block`: their answers against `targets`, if already known)."""
    scorer = context_for(*space.key).scorer
    assert strategy.score is not None
    if block is None:
        block = scorer.block(pool, targets)
    scores = strategy.score(class_counts(block, scorer.width))
    key = min((int(s), -int(mark[g]), int(g)) for s, g in zip(scores, pool, strict=True))
    return key[0], key[2]


def lowest_of_each_class(space: CodeSpace, used: int, absent: int) -> list[int]:
    """Canonical guesses written out: free colours in order, absent colours merged."""
    free = [c for c in range(space.colours) if not used >> c & 1 and not absent >> c & 1]
    gone = [c for c in range(space.colours) if absent >> c & 1]
    keep = []
    for index in range(space.size):
        code = space.code_at(index)
        seen_free = [c for i, c in enumerate(code) if c in free and c not in code[:i]]
        seen_gone = [c for i, c in enumerate(code) if c in gone and c not in code[:i]]
        ok = seen_free == free[: len(seen_free)]
        if space.duplicates:
            ok &= all(c == gone[0] for c in code if c in gone)
        else:
            ok &= seen_gone == gone[: len(seen_gone)]
        if ok:
            keep.append(index)
    return keep


@pytest.mark.parametrize("variant", [(4, 6, True), (3, 5, False), (4, 4, True)])
def test_canonical_pools_are_the_lowest_code_of_each_class(variant) -> None:
    space = CodeSpace(*variant)
    context = context_for(*variant)
    rng = np.random.default_rng(5)
    full = (1 << space.colours) - 1
    for used in [0, 0b1, 0b11, 0b1011, full]:
        for absent in [0, int(rng.integers(full + 1)) & ~1, 0b1]:
            got = context.canonical_guesses(used, absent).tolist()
            assert got == lowest_of_each_class(space, used, absent)
    assert len(context_for(4, 6, True).canonical_guesses(0b11)) == 151  # after 1122


@pytest.mark.parametrize("variant", [(4, 6, True), (5, 6, True)])  # with and without a table
@pytest.mark.parametrize("strategy", RULES, ids=lambda s: s.name)
def test_the_scan_equals_the_numpy_reference(variant, strategy: Strategy) -> None:
    space = CodeSpace(*variant)
    context = context_for(*variant)
    rng = np.random.default_rng(2)
    for n in (3, 20, 150):  # answers one by one, and as sums of rows
        targets = np.sort(rng.choice(space.size, n, replace=False)).astype(np.int32)
        pool = np.sort(rng.choice(space.size, 300, replace=False)).astype(np.int32)
        mark = np.zeros(space.size, dtype=np.uint8)
        mark[targets] = 1
        got = kernels.scan(
            context.scorer.tables, strategy.rule, context.plogp, pool, mark, targets,
            kernels.NO_SCORE, -1, 0, -kernels.NO_SCORE,
        )  # fmt: skip
        assert got == reference_best(strategy, space, pool, targets, mark)


def nodes(space: CodeSpace, first: str, depth: int) -> list[tuple[np.ndarray, int, list]]:
    """Every position `depth` guesses deep under knuth after `first`: (codes, used, guesses)."""
    context = context_for(*space.key)
    start = space.index_of(space.parse(first))
    out = []
    level = [(np.arange(space.size), [start])]
    for d in range(depth):
        nxt = []
        for codes, guesses in level:
            answers = context.scorer.against(guesses[-1], codes)
            for answer in np.unique(answers):
                group = codes[answers == answer]
                if len(group) <= 2 or answer == context.win:
                    continue
                used = colour_mask(space.codes[guesses])
                if d == depth - 1:
                    out.append((group, used, guesses))
                else:
                    best = context.best_guess(get_strategy("knuth"), group, used, None)
                    nxt.append((group, [*guesses, best]))
        level = nxt
    return out


@pytest.mark.parametrize(
    ("variant", "first", "depth"),
    [
        ((4, 6, True), "1123", 1),
        ((4, 6, True), "1122", 2),
        ((3, 5, False), "123", 1),
        ((5, 5, True), "11223", 1),  # no full table: guesses enumerated (`scan_canonical`)
        ((5, 7, False), "12345", 1),
    ],
)
def test_symmetry_reduction_picks_the_same_guess_as_a_full_search(variant, first, depth) -> None:
    """Free colours, absent colours, position symmetries and the multiset cut: the same guess
    as scoring every code, for every rule, at every position (with absent colours from depth 2
    on)."""
    space = CodeSpace(*variant)
    context = context_for(*variant)
    every = np.arange(space.size)
    for node, used, guesses in nodes(space, first, depth):
        mark = np.zeros(space.size, dtype=np.uint8)
        mark[node] = 1
        symmetry = symmetries(space, [space.codes[g] for g in guesses])
        block = context.scorer.block(every, node)
        for strategy in RULES:
            _, full = reference_best(strategy, space, every, node, mark, block)
            assert context.best_guess(strategy, node, used, None, symmetry=symmetry) == full


def test_symmetries_map_every_guess_onto_itself() -> None:
    space = CodeSpace(4, 6)
    rows = symmetries(space, [(0, 0, 1, 1)])
    assert len(rows) == 8 and rows[0].tolist() == [0, 1, 2, 3, 0, 1, 2, 3, 4, 5]
    for row in rows:
        perm, sigma = row[:4], row[4:]
        assert [int(sigma[c]) for c in np.array([0, 0, 1, 1])[perm]] == [0, 0, 1, 1]
    assert [2, 3, 0, 1, 1, 0, 2, 3, 4, 5] in rows.tolist()  # 1122 -> 2211 -> 1122
    assert len(symmetries(space, [(0, 0, 1, 1), (0, 1, 2, 3)])) == 1
    assert len(symmetries(CodeSpace(5, 8), [(0, 0, 1, 1, 2)])) == 8
    assert len(symmetries(CodeSpace(8, 4), [(0, 0, 0, 0, 1, 1, 1, 1)])) == 1024  # capped
    assert len(symmetries(space, ())) == 24  # before any guess: the position permutations


def test_every_strategy_has_a_kernel_rule_or_is_random() -> None:
    for strategy in STRATEGIES.values():
        assert strategy.rule in (None, *(s.rule for s in RULES))
        assert (strategy.rule is None) == (strategy.score is None)


@pytest.mark.parametrize("variant", [(4, 6, True), (5, 8, True), (3, 5, False), (4, 10, False)])
def test_multisets_are_numbered_like_the_tables(variant) -> None:
    """A code's first pegs, added peg by peg, lead to its full multiset, which has the number
    the tables give it (so its hits row is the tables' one)."""
    space = CodeSpace(*variant)
    tables = context_for(*variant).scorer.tables
    add, start, full_ms, full_counts = context_for(*variant).multisets
    expected = [
        math.comb(space.colours + k - 1, k) if space.duplicates else math.comb(space.colours, k)
        for k in range(space.pegs + 1)
    ]
    assert np.diff(start).tolist() == expected
    assert full_ms.tolist() == list(range(len(full_ms)))
    for index in np.random.default_rng(3).choice(space.size, 200):
        m = 0
        for colour in space.codes[index]:
            m = add[m, colour]
        assert m == start[space.pegs] + tables[3][index]
        assert full_counts[m - start[space.pegs]].tolist() == space.counts[index].tolist()
    if not space.duplicates:
        assert add[add[0, 2], 2] == -1  # a colour cannot repeat


@pytest.mark.parametrize("variant", [(5, 6, True), (4, 7, False)])
@pytest.mark.parametrize("strategy", RULES, ids=lambda s: s.name)
def test_the_multiset_cut_keeps_every_guess_that_could_win(variant, strategy: Strategy) -> None:
    """A guess that is not a candidate and scores s keeps its colours, and all their first
    pegs, viable for any bound above s; without a hits table (colour by colour) the cut is the
    same; and the cut drops something once the bound is the best score."""
    space = CodeSpace(*variant)
    context = context_for(*variant)
    tables, sets = context.scorer.tables, context.multisets
    none = np.zeros((1, 1), dtype=np.uint8)
    plain = (*tables[:3], np.zeros(1, dtype=np.int32), none, none)
    add, start = sets[0], sets[1]
    rng = np.random.default_rng(4)
    dropped = 0
    for n in (3, 12, 40, 300):
        targets = np.sort(rng.choice(space.size, n, replace=False)).astype(np.int32)
        mark = np.zeros(space.size, dtype=np.uint8)
        mark[targets] = 1
        guesses = np.setdiff1d(rng.choice(space.size, 60, replace=False), targets)
        assert strategy.score is not None
        scores = strategy.score(class_counts(context.scorer.block(guesses, targets), 64))
        best = int(scores.min())
        for cut_at in (best, best + 1, int(scores.max()) + 1):
            viable = np.zeros(len(add), dtype=np.bool_)
            groups, weights = kernels.target_groups(tables, targets)
            kernels.viable_multisets(
                tables, sets, strategy.rule, context.plogp, targets, groups, weights, cut_at,
                viable,
            )  # fmt: skip
            alike = np.zeros(len(add), dtype=np.bool_)
            groups, weights = kernels.target_groups(plain, targets)
            assert len(groups) == 0
            kernels.viable_multisets(
                plain, sets, strategy.rule, context.plogp, targets, groups, weights, cut_at,
                alike,
            )  # fmt: skip
            assert (viable == alike).all()
            for guess, scored in zip(guesses, scores, strict=True):
                m = 0
                for colour in space.codes[guess]:
                    m = add[m, colour]
                    if scored < cut_at:
                        assert viable[m], (n, guess, scored, cut_at)
                assert m == start[space.pegs] + tables[3][guess]
                dropped += not viable[m]
    assert dropped > 0
