"""Strategies, the solver and the simulator, against the published figures and each other."""

import numpy as np
import pytest

from bot.engine.codes import CodeError, CodeSpace
from bot.engine.scoring import encode, score
from bot.engine.search import SearchLimits, TooLarge, check_size
from bot.engine.simulate import format_table, main, simulate
from bot.engine.solver import Contradiction, Solver, context_for, solve_secret
from bot.engine.strategies import STRATEGIES

CLASSIC = CodeSpace(4, 6)


def test_knuth_1122_all_secrets_is_exactly_knuths_tree() -> None:
    result = simulate(CLASSIC, "knuth", CLASSIC.parse("1122"))
    assert result.total == 5801
    assert result.worst == 5
    assert result.counts() == [1, 6, 62, 533, 694]


@pytest.mark.parametrize(
    ("strategy", "first", "total", "worst"),
    [
        ("expected-size", "1123", 5696, 6),
        ("entropy", "1234", 5722, 6),
        ("most-parts", "1123", 5668, 6),
    ],
)
def test_published_sweeps(strategy: str, first: str, total: int, worst: int) -> None:
    result = simulate(CLASSIC, strategy, CLASSIC.parse(first))
    assert (result.total, result.worst) == (total, worst)
    assert result.first_guess == first
    assert simulate(CLASSIC, strategy).total == total  # the strategy's own default opening


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
@pytest.mark.parametrize("variant", [(3, 4, True), (3, 4, False), (2, 5, True), (4, 4, False)])
def test_every_strategy_solves_every_secret_of_small_variants(strategy, variant) -> None:
    space = CodeSpace(*variant)
    solver = Solver(space, strategy, seed=3)
    swept = simulate(space, strategy, seed=3)
    assert swept.games == space.size
    played = {}
    for index in range(space.size):
        secret = space.code_at(index)
        guesses = solve_secret(solver, secret)
        assert guesses[-1] == secret
        assert all(len(set(g)) == len(g) for g in guesses) or space.duplicates
        played[len(guesses)] = played.get(len(guesses), 0) + 1
    assert played == dict(swept.distribution)  # the shared tree plays exactly like the solver


def test_knuth_games_never_exceed_five_and_match_the_tree() -> None:
    solver = Solver(CLASSIC, "knuth")
    rng = np.random.default_rng(7)
    for index in rng.choice(CLASSIC.size, 60, replace=False):
        guesses = solve_secret(solver, CLASSIC.code_at(int(index)))
        assert len(guesses) <= 5
        assert guesses[0] == (0, 0, 1, 1)


def test_4x8_knuth_sweep_with_1234_matches_the_published_total() -> None:
    space = CodeSpace(4, 8)
    assert simulate(space, "knuth", space.parse("1234")).total == 21230


def test_a_sweep_on_several_threads_plays_the_same_tree() -> None:
    one = simulate(CLASSIC, "knuth", CLASSIC.parse("1122"), jobs=1)
    two = simulate(CLASSIC, "knuth", CLASSIC.parse("1122"), jobs=2)
    assert one.distribution == two.distribution
    space = CodeSpace(4, 5, False)
    assert (
        simulate(space, "entropy", jobs=3).distribution == simulate(space, "entropy").distribution
    )


def test_next_move_reports_candidates_and_follows_answers() -> None:
    solver = Solver(CLASSIC)
    move = solver.next_move([])
    assert move.guess == (0, 0, 1, 1) and move.remaining == 1296
    move = solver.next_move([((0, 0, 1, 1), (0, 0))])
    assert move.remaining == 256
    assert all(
        c not in (0, 1)
        for c in CLASSIC.code_at(int(solver.candidates([((0, 0, 1, 1), (0, 0))])[0]))
    )


def test_configurable_first_guess() -> None:
    solver = Solver(CLASSIC, "knuth", first_guess=CLASSIC.parse("1234"))
    assert solver.next_move([]).guess == (0, 1, 2, 3)
    with pytest.raises(CodeError):
        Solver(CLASSIC, "knuth", first_guess=(0, 1))


def test_impossible_answers_are_refused() -> None:
    solver = Solver(CLASSIC)
    for answer in [(3, 1), (4, 1), (2, 3)]:
        with pytest.raises(CodeError):
            solver.next_move([((0, 0, 1, 1), answer)])


def test_contradiction_names_the_answer_that_left_nothing() -> None:
    solver = Solver(CLASSIC)
    secret = CLASSIC.parse("1234")
    history = [((0, 0, 1, 1), score((0, 0, 1, 1), secret))]
    history.append((solver.next_move(history).guess, (0, 0)))  # a lie...
    history.append(((0, 1, 2, 3), (0, 0)))  # ...that later leaves nothing
    with pytest.raises(Contradiction) as error:
        solver.next_move(history)
    assert error.value.index in (1, 2)
    assert "undo" in str(error.value).lower()
    solver.candidates(history[: error.value.index])  # the prefix before it is still fine


def test_random_strategies_replay_identically() -> None:
    for name in ("random-consistent", "two-colour-random"):
        a, b = Solver(CLASSIC, name, seed=11), Solver(CLASSIC, name, seed=11)
        secret = (4, 2, 2, 0)
        assert solve_secret(a, secret) == solve_secret(b, secret)
        first = a.first_guess()
        if name == "two-colour-random":
            assert first[0] == first[1] != first[2] == first[3]


def test_too_large_is_refused_before_work() -> None:
    with pytest.raises(TooLarge, match="1,000,000"):
        check_size(CodeSpace(8, 10))
    with pytest.raises(TooLarge):
        Solver(CodeSpace(7, 8))


def test_a_move_over_the_budget_is_searched_approximately_and_says_so() -> None:
    space = CodeSpace(6, 10)
    limits = SearchLimits(time_budget=1.0, guess_pool=256, target_sample=256, exact_seconds=0)
    solver = Solver(space, "knuth", limits=limits)
    secret = (3, 1, 4, 1, 5, 9)
    history = []
    exact = []
    for _ in range(3):
        move = solver.next_move(history)
        still_possible = solver.candidates(history)
        if not move.exact:  # the approximate search guesses a code that can still win
            assert space.index_of(move.guess) in still_possible
        assert move.remaining == len(still_possible) > 2
        exact.append(move.exact)
        history.append((move.guess, score(move.guess, secret)))
    assert exact == [True, True, False]  # the opening, the book, then over the (zero) budget


def test_simulate_random_sample_and_table() -> None:
    result = simulate(CLASSIC, "knuth", games=50, seed=2)
    assert result.games == 50 and not result.all_secrets and result.worst <= 5
    table = format_table(result)
    assert "50 random secrets" in table and "worst    " in table


def test_cli(capsys) -> None:
    assert main(["--pegs", "3", "--colours", "4", "--strategy", "most-parts"]) == 0
    out = capsys.readouterr().out
    assert "all 64 secrets" in out and "average" in out
    assert main(["--pegs", "8", "--colours", "10"]) == 2
    assert "1,000,000" in capsys.readouterr().err
    assert main(["--first", "12"]) == 2


def test_encode_win_constant() -> None:
    assert context_for(4, 6, True).win == encode(4, 4, 0)
