"""Hard mode's check agrees with the solver's candidates, and names the first broken clue."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.codes import CodeSpace
from bot.engine.hard import Broken, first_broken_clue
from bot.engine.scoring import score
from bot.engine.solver import Solver

CLASSIC = CodeSpace(4, 6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, CLASSIC.size - 1), min_size=1, max_size=3), st.data())
def test_a_guess_passes_exactly_when_it_is_still_a_candidate(
    picks: list[int], data: st.DataObject
) -> None:
    secret = CLASSIC.code_at(data.draw(st.integers(0, CLASSIC.size - 1)))
    history = [(CLASSIC.code_at(i), score(CLASSIC.code_at(i), secret)) for i in picks]
    candidates = {int(i) for i in Solver(CLASSIC, "knuth").candidates(history)}
    for index in range(0, CLASSIC.size, 7):
        guess = CLASSIC.code_at(index)
        assert (first_broken_clue(history, guess) is None) == (index in candidates)


def test_the_first_broken_clue_says_how() -> None:
    rrby, rggb = CLASSIC.parse("RRBY"), CLASSIC.parse("RGGB")
    history = [(rrby, (1, 1)), (rggb, (0, 0))]
    too_few = first_broken_clue(history, CLASSIC.parse("GGGG"))
    assert too_few is not None and too_few.index == 0 and too_few.broken is Broken.TOO_FEW_COLOURS
    too_many = first_broken_clue(history, CLASSIC.parse("RRBN"))
    assert too_many is not None and too_many.broken is Broken.TOO_MANY_COLOURS
    misplaced = first_broken_clue(history, CLASSIC.parse("BYNN"))
    assert misplaced is not None and misplaced.broken is Broken.WRONG_PLACES
    assert (misplaced.index, misplaced.would_earn) == (0, (0, 2))
