"""Hints come from the answers alone: the count of codes that fit, Knuth's next guess, and in
hard mode the best code that fits when Knuth's own choice could not be the secret."""

from __future__ import annotations

import time
from collections import Counter

import numpy as np

from bot.engine import jobs
from bot.engine.codes import CodeSpace
from bot.engine.hard import first_broken_clue
from bot.engine.hints import best_fitting, hint
from bot.engine.job_types import Hint, VariantSpec
from bot.engine.scoring import score
from bot.engine.solver import Solver

CLASSIC = CodeSpace(4, 6)
OPENING = CLASSIC.parse("1122")


def fitting(history: list) -> list[tuple[int, ...]]:
    codes = [CLASSIC.code_at(i) for i in range(CLASSIC.size)]
    return [c for c in codes if all(score(g, c) == a for g, a in history)]


def test_the_first_hint_counts_the_codes_that_fit() -> None:
    history = [(OPENING, (1, 1))]
    assert hint(CLASSIC, history, 1) == Hint(remaining=len(fitting(history)))
    assert hint(CLASSIC, [], 1) == Hint(remaining=1296)


def test_the_second_hint_is_knuths_next_guess() -> None:
    history = [(OPENING, (1, 1))]  # Knuth plays 1134 here, which cannot be the secret
    given = hint(CLASSIC, history, 2)
    assert given.guess == Solver(CLASSIC, "knuth").next_move(history).guess
    assert given.guess == CLASSIC.parse("1134") and not given.fits
    assert hint(CLASSIC, [], 2).guess == OPENING  # no answer yet: Knuth's opening


def test_in_hard_mode_the_second_hint_fits_every_answer_and_is_the_best_that_does() -> None:
    history = [(OPENING, (1, 1))]
    given = hint(CLASSIC, history, 2, hard=True)
    assert given.guess is not None and given.fits
    assert first_broken_clue(history, given.guess) is None  # hard mode would accept it
    candidates = fitting(history)

    def worst(guess: tuple[int, ...]) -> int:
        return max(Counter(score(guess, c) for c in candidates).values())

    best = min(worst(c) for c in candidates)
    assert worst(given.guess) == best
    assert given.guess == min(c for c in candidates if worst(c) == best)  # the lowest of them
    fits_anyway = [(OPENING, (1, 0))]  # Knuth's 1344 fits here: hard mode changes nothing
    assert hint(CLASSIC, fits_anyway, 2, hard=True) == hint(CLASSIC, fits_anyway, 2)


def test_the_fitting_search_keeps_to_its_work_and_its_deadline() -> None:
    space = CodeSpace(5, 8)
    solver = Solver(space, "knuth")
    candidates = np.arange(space.size)  # 32,768 codes: a sample of guesses is tried
    started = time.perf_counter()
    chosen = best_fitting(solver, candidates, np.random.default_rng(1), started + 1.0)
    assert 0 <= chosen < space.size and time.perf_counter() - started < 5.0
    assert best_fitting(solver, candidates[:2], np.random.default_rng(1), started) == 0


def test_the_worker_job_gives_the_same_hint() -> None:
    plain = [([0, 0, 1, 1], 1, 1)]
    assert jobs.hint(VariantSpec(4, 6, True), plain, 2, True) == hint(
        CLASSIC, [(OPENING, (1, 1))], 2, hard=True
    )
