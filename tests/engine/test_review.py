"""The review of a finished game: counts before and after each guess match the solver's, and
Knuth's own opening is reviewed as the best first guess by the worst case."""

from __future__ import annotations

import time
from collections import Counter
from itertools import pairwise

import pytest

from bot.engine import jobs
from bot.engine.codes import CodeSpace
from bot.engine.job_types import VariantSpec
from bot.engine.review import ReviewSummary, review, review_guess, reviewer, summarise
from bot.engine.scoring import score
from bot.engine.solver import Solver

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


# --- the numbers, checked against a brute force over every code ----------------------------------


def brute(history: list[tuple[tuple[int, ...], tuple[int, int]]]) -> list[tuple[int, ...]]:
    """Every code that earns each answer: what `before` and `after` count."""
    codes = [CLASSIC.code_at(i) for i in range(CLASSIC.size)]
    return [c for c in codes if all(score(g, c) == a for g, a in history)]


def brute_worst(guess: tuple[int, ...], candidates: list[tuple[int, ...]]) -> int:
    return max(Counter(score(guess, c) for c in candidates).values())


def test_every_number_of_a_review_matches_a_brute_force() -> None:
    history = play("BYGR", ["RRGG", "NNNN", "RGYB", "GRBY", "BYGR"])
    rows = review(CLASSIC, history)
    solver = Solver(CLASSIC, "knuth")
    for row in rows:
        earlier = history[: row.number - 1]
        before = brute(earlier)
        after = brute(history[: row.number])
        assert (row.before, row.after) == (len(before), len(after))
        assert row.could_be_secret == (row.guess in before)
        assert row.leaves.worst == brute_worst(row.guess, before)
        if row.knuth_guess is not None:
            assert row.knuth_guess == solver.next_move(earlier).guess
            assert row.knuth_leaves is not None
            assert row.knuth_leaves.worst == brute_worst(row.knuth_guess, before)
    assert [r.before for r in rows] == [1296, 208, 120, 5, 4]
    assert rows[-1].after == 1 and rows[-1].answer == (4, 0)
    last = review(CLASSIC, play("RGBY", ["RRGG", "RGYB", "RGBB", "RGBY"]))[-1]
    assert last.before == 1 and last.knuth_guess is None  # the only code left: nothing to beat
    assert last.as_good_as_knuth


def test_one_guess_at_a_time_gives_the_same_rows() -> None:
    """How the workers review (a job per guess, nothing carried over) agrees with the walk."""
    history = play("RGBY", ["RRGG", "NNNN", "RGYB", "RGBY"])
    plain = [(list(g), b, w) for g, (b, w) in history]
    spec = VariantSpec(4, 6, True)
    rows = [jobs.review_guess(spec, plain, n) for n in range(1, len(history) + 1)]
    assert rows == review(CLASSIC, history)
    solver = reviewer(CLASSIC)
    row, after = review_guess(solver, history, 2)
    assert row == rows[1] and len(after) == row.after


def test_the_summary_counts_guesses_as_good_as_knuths_and_names_the_worst() -> None:
    rows = review(CLASSIC, play("RGBY", ["RRGG", "NNNN", "RGYB", "RGBY"]))
    summary = summarise(rows)
    assert summary.guesses == 4
    assert summary.as_good == sum(r.as_good_as_knuth for r in rows)
    assert not rows[1].as_good_as_knuth  # NNNN could have left more than Knuth's choice
    behind = [r for r in rows if not r.as_good_as_knuth]
    assert summary.furthest_behind is not None and summary.furthest_behind in behind
    ratios = [r.leaves.worst / r.knuth_leaves.worst for r in behind if r.knuth_leaves]
    furthest = summary.furthest_behind
    assert furthest.knuth_leaves is not None
    assert furthest.leaves.worst / furthest.knuth_leaves.worst == max(ratios)
    knuth_game = review(CLASSIC, play("RGBY", ["RRGG"]))
    assert summarise(knuth_game) == ReviewSummary(1, 1, None)
    assert summarise([]) == ReviewSummary(0, 0, None)


def test_contradicting_answers_are_refused() -> None:
    history = [(CLASSIC.parse("RRGG"), (4, 0)), (CLASSIC.parse("BBYY"), (1, 0))]
    with pytest.raises(ValueError, match="answer 2"):
        review(CLASSIC, history)


def test_a_larger_variant_is_reviewed_within_a_deadline() -> None:
    """5 x 8 is searched exactly; the deadline only bounds an approximate search."""
    space = CodeSpace(5, 8)
    secret = space.parse("RGBYO")
    history = [(g, score(g, secret)) for g in map(space.parse, ["RRGGB", "YYOON", "RGBYO"])]
    solver = reviewer(space)
    row, _ = review_guess(solver, history, 2, deadline=time.perf_counter() + 2.0)
    assert row.knuth_guess is not None and row.before == len(solver.candidates(history[:1]))


def test_the_benchmarks_plain_baseline_agrees_with_the_engine() -> None:
    """benchmarks/review.py times a plain NumPy review beside the engine's: same numbers."""
    from benchmarks.review import baseline_row

    space = CodeSpace(4, 5)
    secret = space.parse("RGBY")
    for guesses in (["RRGG", "BBYY", "RGBY"], ["OOOO", "RGGR", "RGBY"]):
        history = [(g, score(g, secret)) for g in map(space.parse, guesses)]
        for row in review(space, history)[1:]:
            before, knuth = baseline_row(space, history, row.number)
            assert (before, knuth) == (row.before, row.knuth_guess)
