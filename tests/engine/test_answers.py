"""Possible answers: the dynamic programme agrees with scoring the guess against every code."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bot.engine.answers import possible_answers
from bot.engine.codes import CodeSpace
from bot.engine.scoring import decode, score_against


def brute_force(space: CodeSpace, guess: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    found = np.unique(score_against(space, guess, space.codes))
    return tuple(sorted(decode(space.pegs, int(f)) for f in found))


@settings(max_examples=150, deadline=None)
@given(
    pegs=st.integers(2, 5),
    colours=st.integers(2, 7),
    duplicates=st.booleans(),
    data=st.data(),
)
def test_matches_scoring_every_code(
    pegs: int, colours: int, duplicates: bool, data: st.DataObject
) -> None:
    assume(duplicates or colours >= pegs)  # no such space: hypothesis draws another
    space = CodeSpace(pegs, colours, duplicates)
    guess = space.code_at(data.draw(st.integers(0, space.size - 1)))
    assert possible_answers(space, guess) == brute_force(space, guess)


@pytest.mark.parametrize(
    ("pegs", "colours", "duplicates", "guess", "expected"),
    [
        (4, 4, False, (0, 1, 2, 3), ((0, 4), (1, 3), (2, 2), (4, 0))),
        (4, 6, True, (0, 0, 1, 1), None),
    ],
)
def test_known_cases(
    pegs: int,
    colours: int,
    duplicates: bool,
    guess: tuple[int, ...],
    expected: tuple[tuple[int, int], ...] | None,
) -> None:
    space = CodeSpace(pegs, colours, duplicates)
    answers = possible_answers(space, guess)
    if expected is not None:
        assert answers == expected
    else:  # 1122 pairs its colours up: never exactly one or three black with all four pegs hit
        assert (1, 3) not in answers and (3, 1) not in answers and (2, 2) in answers
    assert len(answers) < len(space.answers())


def test_the_largest_variants_are_exact_too() -> None:
    space = CodeSpace(6, 10, True)
    for guess in [(0, 1, 2, 3, 4, 5), (0, 0, 1, 1, 2, 2), (0, 0, 0, 0, 0, 1)]:
        assert possible_answers(space, guess) == brute_force(space, guess)
