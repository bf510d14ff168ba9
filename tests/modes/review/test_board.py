"""A review says when Knuth's guess is only an estimate (the approximate search found it, the
exact one would have overrun the move budget), and a solve board says so of the bot's guess."""

from __future__ import annotations

from bot.engine.codes import CodeSpace
from bot.engine.job_types import Leave, ReviewedGuess
from bot.modes.review.board import row_text
from bot.modes.solve.board import approximate_note
from bot.ui.i18n import ENGLISH, messages

SPACE = CodeSpace(7, 7)
POLISH_ESTIMATE = (
    "Szacunek: dokładne przeszukanie Knutha trwałoby za długo na tym etapie tak dużej gry."
)


def reviewed(*, knuth_exact: bool) -> ReviewedGuess:
    return ReviewedGuess(
        number=3,
        guess=(0, 0, 1, 1, 2, 2, 3),
        answer=(1, 2),
        before=4_000,
        after=300,
        could_be_secret=False,
        leaves=Leave(worst=600, average=250.0),
        knuth_guess=(0, 1, 2, 3, 4, 5, 6),
        knuth_leaves=Leave(worst=420, average=190.0),
        knuth_exact=knuth_exact,
    )


def test_an_exact_knuth_guess_is_stated_and_an_approximate_one_is_hedged() -> None:
    exact = row_text(SPACE, reviewed(knuth_exact=True), t=ENGLISH)
    estimate = row_text(SPACE, reviewed(knuth_exact=False), t=ENGLISH)
    assert "Knuth would have guessed" in exact and "estimate" not in exact
    assert "Knuth would have guessed" in estimate and "**420** codes" in estimate
    assert estimate.endswith(
        "≈ An estimate: Knuth's exact search would take too long at this point of so large a game."
    )
    polish = row_text(SPACE, reviewed(knuth_exact=False), t=messages("pl"))
    assert "**420** kodów" in polish and polish.endswith("≈ " + POLISH_ESTIMATE)


def test_an_approximate_solve_guess_is_marked_in_both_languages() -> None:
    assert approximate_note(ENGLISH).startswith("≈ An approximate guess")
    assert approximate_note(messages("pl")).startswith("≈ Próba przybliżona")
