"""The opening book: it covers every large variant's openings and holds what the search finds."""

import numpy as np
import pytest

from bot.engine import book
from bot.engine.answers import possible_answers
from bot.engine.book_build import variant_positions
from bot.engine.codes import CodeSpace
from bot.engine.scoring import encode, score
from bot.engine.search import colour_mask, symmetries
from bot.engine.solver import Solver, context_for
from bot.engine.strategies import STRATEGIES, get_strategy


def test_the_book_covers_every_answer_of_every_large_variants_openings() -> None:
    shipped = book.load()
    assert {(k[0], k[1], k[2]) for k in shipped} == {s.key for s in book.variants()}
    for space in book.variants():
        assert space.size > book.BOOK_FROM
        for rule, first in book.openings(space):
            position = shipped[(*space.key, rule, space.index_of(first))]
            answers = {encode(space.pegs, b, w) for b, w in possible_answers(space, first)}
            assert set(position) == answers - {encode(space.pegs, space.pegs, 0)}


def test_every_strategy_with_a_fixed_opening_has_its_opening_in_the_book() -> None:
    space = CodeSpace(7, 7)
    pairs = book.openings(space)
    for name in ("knuth", "expected-size", "entropy", "most-parts", "optimal"):
        strategy = get_strategy(name)
        first = strategy.first_guess(space, np.random.default_rng(0))
        assert (strategy.rule, first) in pairs
    assert len(pairs) == 4  # optimal plays most-parts' rule and opening; random openings: none


def test_a_whole_variant_recomputed_is_the_shipped_book() -> None:
    """6 x 7 (117,649 codes), every rule and opening: the exact search, line for line."""
    space = CodeSpace(6, 7)
    lines = [p.line for p in variant_positions(space, jobs=2)]
    shipped = [line for line in book.PATH.read_text().splitlines() if line.startswith("6x7d ")]
    assert lines == shipped


@pytest.mark.parametrize("variant", [(7, 7, True), (6, 10, True), (8, 5, True), (7, 10, False)])
def test_the_smallest_positions_of_the_largest_variants_are_the_searchs(variant) -> None:
    """The positions with the fewest codes left (the cheap ones) of the largest variants."""
    space = CodeSpace(*variant)
    context = context_for(*space.key)
    every = np.arange(space.size)
    for rule, first in book.openings(space):
        index = space.index_of(first)
        answers = context.scorer.against(index, every)
        sizes = np.bincount(answers, minlength=256)
        sizes[context.win] = 0
        for answer in np.argsort(np.where(sizes > 0, sizes, space.size))[:3]:
            group = every[answers == answer]
            strategy = next(s for s in STRATEGIES.values() if s.rule == rule)
            symmetry = symmetries(space, [first])
            found = context.best_guess(strategy, group, colour_mask([first]), None, None, symmetry)
            assert book.second_guess(space, rule, index, int(answer)) == found


def test_the_solver_plays_the_book_after_its_opening_and_the_search_elsewhere(monkeypatch) -> None:
    space = CodeSpace(6, 7)
    solver = Solver(space, "knuth")
    first = solver.first_guess()
    secret = space.parse("654321")
    history = [(first, score(first, secret))]
    from_book = solver.next_move(history).guess
    monkeypatch.setattr(book, "load", lambda: {})
    assert solver.next_move(history).guess == from_book  # the search finds the same
    assert book.second_guess(space, 0, space.index_of(first), 0) is None


def test_small_variants_never_read_the_book() -> None:
    space = CodeSpace(5, 10)  # exactly BOOK_FROM codes
    assert space.size == book.BOOK_FROM
    assert book.second_guess(space, 0, space.index_of(space.parse("11223")), 1) is None


def test_a_line_round_trips_and_a_bad_answer_is_refused() -> None:
    space = CodeSpace(7, 7)
    first = space.parse("1122334")
    line = book.format_line(space, 0, first, encode(7, 1, 0), space.index_of((0,) * 7))
    assert line == "7x7d minimax 1122334 10 1111111"
    parsed = book.parse(line)
    assert parsed == {(7, 7, True, 0, space.index_of(first)): {encode(7, 1, 0): 0}}
    with pytest.raises(ValueError):
        book.parse("7x7d minimax 1122334 61 1111111")
