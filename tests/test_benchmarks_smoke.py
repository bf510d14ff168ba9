"""The benchmark's baseline and fast path play the same algorithm, or no ratio means much."""

from collections import Counter

import pytest

from benchmarks import baseline_knuth
from benchmarks.solver import (
    SWEEPS,
    baseline_games,
    engine_games,
    engine_sweep,
    maxrss_mb,
    percentile,
)
from bot.engine.codes import CodeSpace
from bot.engine.scoring import score


@pytest.mark.parametrize(("pegs", "colours"), [(3, 3), (2, 4), (3, 4)])
def test_baseline_and_engine_give_the_same_distribution(pegs: int, colours: int) -> None:
    space = CodeSpace(pegs, colours)
    sweep = engine_sweep(space, "knuth")
    first = space.parse(sweep.first_guess)
    secrets = [space.code_at(i) for i in range(space.size)]

    played = baseline_games(space, first, secrets)

    assert Counter(len(guesses) for _, guesses, _ in played) == sweep.distribution
    ours = engine_games(space, first, secrets)
    assert [guesses for _, guesses, _ in played] == [[tuple(g) for g in o] for o in ours]


def test_baseline_score_matches_the_engine() -> None:
    codes = baseline_knuth.all_codes(3, 4)
    for guess in codes[::7]:
        for secret in codes:
            assert baseline_knuth.score(guess, secret) == score(guess, secret)


def test_helpers() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) in (2.0, 3.0)
    assert percentile(list(range(100)), 99) == 99
    assert maxrss_mb() > 1


def test_the_sweep_targets_are_issue_12s() -> None:
    targets = {(t.variant, t.first, t.total, t.seconds) for t in SWEEPS}
    assert targets == {
        ((4, 6, True), "1122", 5801, 0.005),
        ((4, 8, True), "1234", 21230, 0.080),
        ((5, 8, True), "11223", 183775, 3.0),
        ((6, 6, True), "111234", 248146, 12.0),
    }
    space = CodeSpace(3, 4)
    assert engine_sweep(space, jobs=2).distribution == engine_sweep(space).distribution
