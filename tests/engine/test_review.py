"""The review of a finished game: counts before and after each guess match the solver's, and
Knuth's own opening is reviewed as the best first guess by the worst case."""

from __future__ import annotations

from itertools import pairwise

from bot.engine.codes import CodeSpace
from bot.engine.review import review
from bot.engine.scoring import score

CLASSIC = CodeSpace(4, 6)


def play(secret: str, guesses: list[str]) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    code = CLASSIC.parse(secret)
    return [(CLASSIC.parse(g), score(CLASSIC.parse(g), code)) for g in guesses]


def test_a_game_reviewed_guess_by_guess() -> None:
    rows = review(CLASSIC, play("RGBY", ["RRGG", "RGYB", "RGBY"]))
    assert [r.number for r in rows] == [1, 2, 3]
    assert rows[0].before == 1296 and rows[0].could_be_secret
    assert rows[0].knuth_guess == CLASSIC.parse("RRGG")  # 1122 is Knuth's opening
    assert rows[0].leaves == rows[0].knuth_leaves and rows[0].leaves.worst == 256
    for earlier, later in pairwise(rows):
        assert earlier.after == later.before
    assert rows[-1].answer == (4, 0) and rows[-1].after == 1


def test_an_impossible_guess_is_marked_and_compared() -> None:
    history = play("RGBY", ["RRGG", "NNNN", "RGBY"])
    second = review(CLASSIC, history)[1]
    assert not second.could_be_secret  # NNNN shares nothing with RRGG's answer of ⚫⚪⚪
    assert second.knuth_leaves is not None and second.knuth_leaves.worst <= second.leaves.worst
