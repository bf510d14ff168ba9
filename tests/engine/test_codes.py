"""Code space: index order, round trips, and every way a player may write a code."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.engine.codes import COLOURS, CodeError, CodeSpace
from bot.ui.code_errors import code_problem
from bot.ui.i18n import ENGLISH

VARIANTS = [
    (p, c, d) for p in range(2, 9) for c in range(2, 11) for d in (True, False) if d or c >= p
]


@st.composite
def space_and_index(draw):
    pegs, colours, dups = draw(st.sampled_from(VARIANTS))
    space = CodeSpace(pegs, colours, dups)
    return space, draw(st.integers(0, space.size - 1))


@given(space_and_index())
def test_index_round_trip_every_variant(case) -> None:
    space, index = case
    code = space.code_at(index)
    assert len(code) == space.pegs
    assert space.index_of(code) == index
    if not space.duplicates:
        assert len(set(code)) == space.pegs


@given(space_and_index())
def test_every_format_parses_back(case) -> None:
    space, index = case
    code = space.code_at(index)
    for text in (space.letters(code), space.names(code), space.emoji(code)):
        assert space.parse(text) == code
    assert space.parse(" ".join(space.digits(code))) == code


@pytest.mark.parametrize(("pegs", "colours", "dups"), [(4, 6, True), (3, 5, False), (2, 10, True)])
def test_codes_are_ordered_like_numbers(pegs: int, colours: int, dups: bool) -> None:
    space = CodeSpace(pegs, colours, dups)
    rows = [tuple(int(c) for c in row) for row in space.codes]
    assert rows == sorted(rows)
    assert len(rows) == space.size == len(set(rows))
    assert all(space.code_at(i) == row for i, row in enumerate(rows))


def test_knuth_numbering() -> None:
    space = CodeSpace(4, 6)
    assert space.index_of(space.parse("1111")) == 0
    assert space.index_of(space.parse("1122")) == 7
    assert space.index_of(space.parse("6666")) == 1295
    assert space.size == 1296


@pytest.mark.parametrize(
    "text",
    [
        "1122",
        "1 1 2 2",
        "1,1,2,2",
        "RRGG",
        "rrgg",
        "r r g g",
        "red red green green",
        "redredgreengreen",
        "Red, Red, Green, Green",
        "🔴🔴🟢🟢",
        "🔴 🔴 🟢 🟢",
        "red R 2 🟢",
    ],
)
def test_many_spellings_of_one_code(text: str) -> None:
    assert CodeSpace(4, 6).parse(text) == (0, 0, 1, 1)


def test_aliases_and_ten_colours() -> None:
    space = CodeSpace(4, 10)
    assert space.parse("violet purple V P") == (6, 6, 6, 6)
    assert space.parse("teal olive pink brown") == (8, 9, 7, 5)
    assert space.parse("1290") == (0, 1, 8, 9)  # the tenth colour is 0, as on a keypad
    assert space.digits((9, 0, 0, 0)) == "0111"


def test_letters_names_and_emoji_are_unique() -> None:
    for attribute in ("letter", "name", "emoji"):
        values = [getattr(c, attribute) for c in COLOURS]
        assert len(set(values)) == len(values), attribute


@pytest.mark.parametrize(
    ("space", "text", "fragments"),
    [
        (CodeSpace(4, 6), "", ["Write a code of 4 colours"]),
        (CodeSpace(4, 6), "   ", ["Write a code"]),
        (CodeSpace(4, 6), "112", ["4 pegs", "has 3"]),
        (CodeSpace(4, 6), "1122334", ["4 pegs", "has 7"]),
        (CodeSpace(4, 6), "RGBX", ["'X'", "red", "brown"]),
        (CodeSpace(4, 6), "red red green magenta", ["'magenta'", "🔴 R red"]),
        (CodeSpace(4, 6), "1127", ["'7'", "1-6"]),
        (CodeSpace(4, 6), "teal red red red", ["Teal", "not in this game"]),
        (CodeSpace(4, 6, duplicates=False), "1123", ["may not repeat", "red"]),
        (CodeSpace(4, 6, duplicates=False), "RGGB", ["may not repeat", "green"]),
    ],
)
def test_bad_codes_say_what_to_fix(space: CodeSpace, text: str, fragments: list[str]) -> None:
    with pytest.raises(CodeError) as error:
        space.parse(text)
    for fragment in fragments:
        assert fragment in code_problem(error.value, ENGLISH)


@pytest.mark.parametrize(
    ("pegs", "colours", "dups"),
    [(1, 6, True), (9, 6, True), (4, 1, True), (4, 11, True), (5, 4, False)],
)
def test_bad_variants_are_refused(pegs: int, colours: int, dups: bool) -> None:
    with pytest.raises(CodeError):
        CodeSpace(pegs, colours, dups)


def test_answers_and_impossible_answers() -> None:
    space = CodeSpace(4, 6)
    answers = space.answers()
    assert len(answers) == 14
    assert (3, 1) not in answers and (4, 0) in answers
    for black, white in [(3, 1), (2, 3), (5, 0), (-1, 0)]:
        with pytest.raises(CodeError):
            space.check_answer(black, white)
    for black, white in answers:
        space.check_answer(black, white)


@pytest.mark.parametrize(
    "text",
    [
        "czerwony zielony niebieski żółty",
        "CZERWONY Zielony NIEBIESKI zolty",
        "czerwonyzielonyniebieskizółty",
        "czerwony G 3 🟡",
    ],
)
def test_polish_colour_names_with_and_without_diacritics(text: str) -> None:
    assert CodeSpace(4, 6).parse(text) == (0, 1, 2, 3)


def test_every_polish_colour_name() -> None:
    space = CodeSpace(5, 10)
    assert space.parse("pomarańczowy brązowy fioletowy różowy turkusowy") == (4, 5, 6, 7, 8)
    assert space.parse("pomaranczowy brazowy fioletowy rozowy oliwkowy") == (4, 5, 6, 7, 9)


def test_a_polish_name_outside_the_game_is_named_as_data() -> None:
    with pytest.raises(CodeError) as error:
        CodeSpace(4, 6).parse("oliwkowy red red red")
    assert error.value.problem == "not-in-game"
    assert error.value.details == {"colour": 9, "token": "oliwkowy", "colours": 6}
    assert "Olive ('oliwkowy') is not in this game" in code_problem(error.value, ENGLISH)
