"""Scoring: properties on random pairs, and the vectorised paths equal a plain reference."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.codes import CodeSpace
from bot.engine.scoring import Scorer, class_counts, decode, encode, score, score_against

VARIANTS = [
    (p, c, d) for p in range(2, 9) for c in range(2, 11) for d in (True, False) if (d or c >= p)
]


def reference(guess: tuple[int, ...], secret: tuple[int, ...]) -> tuple[int, int]:
    """The textbook rule, written as plainly as possible."""
    black = 0
    rest_guess, rest_secret = [], []
    for g, s in zip(guess, secret, strict=True):
        if g == s:
            black += 1
        else:
            rest_guess.append(g)
            rest_secret.append(s)
    white = 0
    for colour in set(rest_guess):
        white += min(rest_guess.count(colour), rest_secret.count(colour))
    return black, white


@st.composite
def pair(draw):
    pegs, colours, dups = draw(st.sampled_from(VARIANTS))
    space = CodeSpace(pegs, colours, dups)
    a = space.code_at(draw(st.integers(0, space.size - 1)))
    b = space.code_at(draw(st.integers(0, space.size - 1)))
    return space, a, b


@given(pair())
def test_score_properties(case) -> None:
    space, a, b = case
    black, white = score(a, b)
    assert score(b, a) == (black, white)
    assert black + white <= space.pegs
    assert (black, white) != (space.pegs - 1, 1)
    assert (black, white) == reference(a, b)
    assert decode(space.pegs, encode(space.pegs, black, white)) == (black, white)


def test_classic_examples() -> None:
    space = CodeSpace(4, 6)
    assert score(space.parse("1122"), space.parse("1234")) == (1, 1)
    assert score(space.parse("NNOO"), space.parse("NNON")) == (3, 0)  # seed 000
    assert score(space.parse("1111"), space.parse("1222")) == (1, 0)
    assert score(space.parse("1221"), space.parse("2112")) == (0, 4)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([v for v in VARIANTS if CodeSpace(*v).size <= 1_000_000]), st.data())
def test_vectorised_scoring_equals_reference(variant, data) -> None:
    space = CodeSpace(*variant)
    scorer = Scorer(space)
    indices = st.integers(0, space.size - 1)
    guesses = np.array(sorted(set(data.draw(st.lists(indices, min_size=1, max_size=6)))))
    codes = np.array(sorted(set(data.draw(st.lists(indices, min_size=1, max_size=40)))))
    block = scorer.block(guesses, codes)
    for i, g in enumerate(guesses):
        guess = space.code_at(int(g))
        expected = [encode(space.pegs, *reference(guess, space.code_at(int(c)))) for c in codes]
        assert block[i].tolist() == expected
        assert scorer.against(int(g), codes).tolist() == expected
        assert score_against(space, guess, space.codes[codes]).tolist() == expected


@pytest.mark.parametrize("variant", [(4, 6, True), (3, 5, False)])
def test_the_full_table_of_small_spaces_equals_the_computed_answers(variant) -> None:
    space = CodeSpace(*variant)
    scorer = Scorer(space)
    table = scorer.tables[-1]
    assert table.shape == (space.size, space.size)
    every = np.arange(space.size)
    assert (table == scorer.block(every, every)).all()
    assert Scorer(CodeSpace(5, 8)).tables[-1].shape == (1, 1)  # large: no N x N table


def test_class_counts() -> None:
    feedback = np.array([[0, 0, 5], [1, 2, 3]], dtype=np.uint8)
    counts = class_counts(feedback, 6)
    assert counts.tolist() == [[2, 0, 0, 0, 0, 1], [0, 1, 1, 1, 0, 0]]
    assert Counter(feedback[0].tolist()) == {0: 2, 5: 1}
