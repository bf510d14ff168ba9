"""The numbers behind each chart, on their own: the distribution, the two curves, the
histogram; and the words around them (alt text in one sentence, Polish numbers)."""

from __future__ import annotations

import dataclasses

from bot.charts import data
from bot.engine.job_types import SimulationResult
from bot.ui import charts
from bot.ui.i18n import messages
from tests.charts import samples


def test_the_distribution_counts_wins_per_guesses_kind_and_marks() -> None:
    found = data.distribution(samples.WINS, samples.TODAY, samples.ORDER)
    assert found is not None
    assert found.rows == (1, 2, 3, 4, 5, 6)
    assert found.totals == (0, 0, 3, 3, 2, 1)
    assert found.wins == 9 and found.today == 3
    assert found.kinds == ("play", "solve", "daily", "race")
    hard = {(s.kind, s.hinted): s.counts for s in found.series if s.hard}
    assert hard == {
        ("play", False): (0, 0, 0, 0, 1, 0),
        ("daily", True): (0,) * 5 + (1,),
    }
    assert [found.of_kind(kind) for kind in found.kinds] == [3, 2, 3, 1]


def test_no_wins_is_no_distribution_and_an_old_win_is_not_todays() -> None:
    assert data.distribution([], samples.TODAY, samples.ORDER) is None
    old = data.distribution(samples.WINS[:1], samples.TODAY, samples.ORDER)
    assert old is not None and old.today is None


def test_the_narrowing_is_yours_against_knuths_with_marks() -> None:
    found = data.narrowing(samples.REVIEW, hinted=(4, 4))
    assert found is not None
    assert found.start == 1296 and found.yours == (256, 44, 9, 2, 1)
    assert found.knuth == (256, 44, 6, 2, None)
    assert found.broke == (3,) and found.hinted == (4,)
    assert found.ticks == (1, 10, 100, 1000)
    assert data.narrowing([]) is None


def test_the_histogram_has_every_guess_count_up_to_the_worst() -> None:
    found = data.histogram(samples.SIMULATION)
    assert found is not None
    assert found.guesses == (1, 2, 3, 4, 5) and found.secrets == (1, 6, 62, 533, 694)
    assert round(found.average, 4) == 4.4761
    gap = SimulationResult(3, 4, True, "knuth", "112", ((2, 3), (4, 1)), 4, True, 0.1)
    assert data.histogram(gap) == data.Histogram((1, 2, 3, 4), (0, 3, 0, 1), 2.5)


def test_alt_text_says_the_data_in_one_sentence() -> None:
    review = charts.review(data.narrowing(samples.REVIEW, (4,)) or _never(), 7, messages("en"))
    assert review.alt == (
        "Codes still possible from the start and after each guess: 1,296, 256, 44, 9, 2, 1; the "
        "most Knuth's guess could have left at each guess: 256, 44, 6, 2, –; guesses 3 broke a "
        "clue; guesses 4 came after a hint."
    )
    simulation = charts.simulation(
        data.histogram(samples.SIMULATION) or _never(), "Knuth, 4 × 6", messages("en")
    )
    assert simulation.alt == (
        "Secrets by guesses needed, Knuth, 4 × 6: 1 in 1 guess, 6 in 2 guesses, 62 in 3 guesses, "
        "533 in 4 guesses, 694 in 5 guesses; 4.476 on average."
    )
    for picture in (review, simulation):
        assert picture.alt.count(". ") == 0 and len(picture.alt) <= charts.MAX_ALT_TEXT


def test_polish_charts_use_polish_words_and_cldr_numbers() -> None:
    simulation = charts.simulation(
        data.histogram(samples.SIMULATION) or _never(), "Knuth, 4 × 6", messages("pl")
    )
    assert "694 w 5 próbach" in simulation.alt and "średnio 4,476" in simulation.alt
    chart = samples.review_chart("pl")
    assert chart.y_ticks == ("1", "10", "100", "1\xa0000")  # Polish groups with a no-break space
    assert chart.labels.title == "Wciąż możliwe kody, gra 7"
    stats = samples.stats_chart("pl")
    assert stats.subtitle == "9 wygranych · graj 3, rozwiąż 2, dzienna 3, wyścig 1"


def test_a_long_alt_text_is_cut_to_discords_limit() -> None:
    wins = [samples.win("play", guesses, 1) for guesses in range(1, 400)]
    picture = charts.stats(
        data.distribution(wins, samples.TODAY, samples.ORDER) or _never(),
        samples.LOOKS,
        messages("en"),
    )
    assert len(picture.alt) == charts.MAX_ALT_TEXT and picture.alt.endswith("…")


def _never() -> data.Narrowing:
    raise AssertionError("no data")


def test_the_review_marks_the_guesses_made_after_a_hint() -> None:
    from bot.engine.game import Move, MoveKind
    from bot.modes.play.rules import new_play_game
    from bot.modes.review.actions import hinted_guesses

    game = new_play_game(guild_id=1, channel_id=2, starter_id=3, secret=(0, 0, 1, 1))
    log = (
        Move(MoveKind.HINT, 3),
        Move(MoveKind.GUESS, 3, (1, 1, 1, 1), 2, 0),
        Move(MoveKind.GUESS, 4, (0, 0, 0, 0), 2, 0),
        Move(MoveKind.HINT, 4),
        Move(MoveKind.GUESS, 3, (0, 0, 1, 1), 4, 0),
    )
    game = dataclasses.replace(game, log=log)
    clues = tuple((m.code, (m.black, m.white)) for m in log if m.kind is MoveKind.GUESS)
    assert hinted_guesses(game, clues, 3) == (1, 3)  # a shared game: anyone's hint counts
    assert hinted_guesses(game, clues[::2], 3) == (1,)  # alone: only the player's own hints
