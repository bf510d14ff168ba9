"""The move budget: which moves of large spaces the exact search plays, and that the others say
they are approximate."""

import numpy as np
import pytest

from bot.engine import book, budget
from bot.engine.codes import CodeSpace
from bot.engine.scoring import encode, score
from bot.engine.search import SearchLimits, colour_mask, symmetries
from bot.engine.solver import Solver, context_for
from bot.engine.strategies import MINIMAX, MOST_PARTS, get_strategy


def test_the_estimate_grows_with_the_work_and_thins_with_the_symmetries() -> None:
    base = budget.estimated_seconds(6, True, MINIMAX, 100_000, 1000, 1)
    assert budget.estimated_seconds(7, True, MINIMAX, 100_000, 1000, 1) > base  # a peg more
    assert budget.estimated_seconds(6, False, MINIMAX, 100_000, 1000, 1) > base  # no repeats
    assert budget.estimated_seconds(6, True, MINIMAX, 200_000, 1000, 1) > base
    assert budget.estimated_seconds(6, True, MINIMAX, 100_000, 2000, 1) > base
    assert budget.estimated_seconds(6, True, MINIMAX, 100_000, 1000, 4) < base
    assert budget.estimated_seconds(6, True, MINIMAX, 100_000, 10, 4) == pytest.approx(
        budget.estimated_seconds(6, True, MINIMAX, 100_000, 10, 1)
    )  # too few candidates: the search does not use the symmetries
    assert budget.estimated_seconds(6, True, MOST_PARTS, 100_000, 1000, 1) < base


def test_the_fit_reproduces_measured_moves_within_its_error() -> None:
    """Two moves timed on the development machine (docs/solver.md): 7 x 7 Knuth with 6,052
    codes left took 4.4 s; with 321 left, 0.07 s."""
    slow = budget.estimated_seconds(7, True, MINIMAX, 450_834, 6052, 2)
    fast = budget.estimated_seconds(7, True, MINIMAX, 279_936, 321, 1)
    assert 4.4 / 2.5 < slow < 4.4 * 2.5 and slow > budget.EXACT_SECONDS
    assert fast < budget.EXACT_SECONDS


def test_absent_colours_are_those_no_candidate_has() -> None:
    space = CodeSpace(4, 6)
    masks = context_for(*space.key).scorer.tables[2]
    candidates = np.array([space.index_of(space.parse(c)) for c in ("1122", "1133")])
    assert budget.absent_colours(masks, candidates, 6) == 0b111000  # 4, 5, 6


def history_of(space: CodeSpace, guesses: list[str], secret: str) -> list:
    code = space.parse(secret)
    return [(space.parse(g), score(space.parse(g), code)) for g in guesses]


def test_small_spaces_are_always_exact_whatever_the_limit() -> None:
    space = CodeSpace(5, 8)
    solver = Solver(space, "knuth", limits=SearchLimits(exact_seconds=0))
    move = solver.next_move(history_of(space, ["11223"], "12345"))
    assert move.exact
    assert (
        move.guess == Solver(space, "knuth").next_move(history_of(space, ["11223"], "12345")).guess
    )


def test_a_large_move_within_the_estimate_is_the_exact_search() -> None:
    space = CodeSpace(7, 7)
    history = history_of(space, ["1122334", "2556462", "3456712"], "7654321")
    solver = Solver(space, "knuth")
    move = solver.next_move(history)
    candidates = solver.candidates(history)
    codes = [g for g, _ in history]
    context = context_for(*space.key)
    used = colour_mask(codes)
    found = context.best_guess(
        get_strategy("knuth"), candidates, used, None, None, symmetries(space, codes)
    )
    assert move.exact and move.guess == space.code_at(found)
    assert context.exact_fits(MINIMAX, candidates, used, symmetries(space, codes), None)


def test_a_large_move_over_the_estimate_is_approximate_and_replays() -> None:
    """A third move of 7 x 7 with thousands of codes left: above the estimate, so the seeded
    approximate search plays it, the same on every replay."""
    space = CodeSpace(7, 7)
    history = history_of(space, ["1122334", "2556462"], "7654321")
    solver = Solver(space, "knuth", seed=5, limits=SearchLimits(time_budget=0.5))
    candidates = solver.candidates(history)
    assert len(candidates) > 1000
    move = solver.next_move(history)
    assert not move.exact
    assert space.index_of(move.guess) in candidates
    again = Solver(space, "knuth", seed=5, limits=SearchLimits(time_budget=0.5))
    assert again.next_move(history) == move


def test_a_review_says_when_knuths_guess_is_approximate() -> None:
    """The review's "Knuth would have": from the book after the opening (exact), then over the
    budget on a third guess with thousands of codes left (approximate, within the deadline)."""
    import time

    from bot.engine.review import review_guess, reviewer

    space = CodeSpace(7, 7)
    history = history_of(space, ["1122334", "2556462", "3456712"], "7654321")
    solver = reviewer(space, seed=1)
    second, _ = review_guess(solver, history, 2, deadline=time.perf_counter() + 2.0)
    assert second.knuth_exact and second.knuth_guess is not None
    opening, (black, white) = space.index_of(history[0][0]), history[0][1]
    from_book = book.second_guess(space, MINIMAX, opening, encode(7, black, white))
    assert from_book is not None and second.knuth_guess == space.code_at(from_book)
    started = time.perf_counter()
    third, _ = review_guess(solver, history, 3, deadline=started + 0.3)
    assert not third.knuth_exact and third.knuth_guess is not None
    assert time.perf_counter() - started < 2.0
