"""Fixed charts for the tests and the benchmark: the same data every run."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.charts import data
from bot.charts.spec import HistogramChart, ReviewChart, StatsChart
from bot.engine.job_types import Leave, ReviewedGuess, SimulationResult
from bot.modes import registry
from bot.store.values import Win
from bot.ui import charts
from bot.ui.i18n import messages

TODAY = date(2026, 11, 26)
ORDER = tuple(mode.kind for mode in registry.MODES)
LOOKS = {mode.kind: mode.chart for mode in registry.MODES}


def win(kind: str, guesses: int, day: int, hard: bool = False, hinted: bool = False) -> Win:
    return Win(kind, guesses, hard, hinted, datetime(2026, 11, day, 20, tzinfo=UTC))


WINS = (
    win("play", 4, 1),
    win("play", 5, 2, hard=True),
    win("play", 3, 3, hinted=True),
    win("solve", 5, 4),
    win("solve", 4, 5),
    win("daily", 4, 6),
    win("daily", 6, 7, hard=True, hinted=True),
    win("race", 3, 8),
    win("daily", 3, 26),
)


def reviewed(
    number: int, before: int, after: int, knuth: int | None, fits: bool = True
) -> ReviewedGuess:
    leaves = Leave(after * 2, after * 1.5)
    return ReviewedGuess(
        number=number,
        guess=(0, 0, 1, 1),
        answer=(0, 1),
        before=before,
        after=after,
        could_be_secret=fits,
        leaves=leaves,
        knuth_guess=None if knuth is None else (0, 1, 2, 3),
        knuth_leaves=None if knuth is None else Leave(knuth, knuth * 0.7),
    )


REVIEW = (
    reviewed(1, 1296, 256, 256),
    reviewed(2, 256, 44, 44),
    reviewed(3, 44, 9, 6, fits=False),
    reviewed(4, 9, 2, 2),
    reviewed(5, 2, 1, None),
)

SIMULATION = SimulationResult(
    pegs=4,
    colours=6,
    duplicates=True,
    strategy="knuth",
    first_guess="1122",
    distribution=((1, 1), (2, 6), (3, 62), (4, 533), (5, 694)),
    planned=1296,
    all_secrets=True,
    seconds=1.5,
)


def stats_chart(language: str = "en") -> StatsChart:
    distribution = data.distribution(WINS, TODAY, ORDER)
    assert distribution is not None
    chart = charts.stats(distribution, LOOKS, messages(language)).chart
    assert isinstance(chart, StatsChart)
    return chart


def review_chart(language: str = "en") -> ReviewChart:
    narrowing = data.narrowing(REVIEW, hinted=(4,))
    assert narrowing is not None
    chart = charts.review(narrowing, 7, messages(language)).chart
    assert isinstance(chart, ReviewChart)
    return chart


def histogram_chart(language: str = "en") -> HistogramChart:
    histogram = data.histogram(SIMULATION)
    assert histogram is not None
    chart = charts.simulation(histogram, "Knuth minimax, 4 × 6", messages(language)).chart
    assert isinstance(chart, HistogramChart)
    return chart


CHARTS = {
    "stats": stats_chart,
    "review": review_chart,
    "simulation": histogram_chart,
}
"""Each chart kind's sample, by name (its baseline is tests/charts/baseline/<name>-<lang>.png)."""
