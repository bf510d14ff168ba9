"""What a chart worker draws: a chart's data with every word and number already written in the
reader's language (the UI writes them), so the drawing needs no catalogue and no locale and
shows no number of its own making. Plain frozen values, cheap to send to a worker."""

from __future__ import annotations

from dataclasses import dataclass

from bot.charts.data import Distribution, Histogram, Narrowing


@dataclass(frozen=True)
class Labels:
    """A chart's words: its title, its axes' names and its legend's entries (each chart says
    which entries, in which order)."""

    title: str
    x: str = ""
    y: str = ""
    legend: tuple[str, ...] = ()


@dataclass(frozen=True)
class StatsChart:
    """A player's wins by guesses: horizontal bars, a stack per kind, hard-mode and hinted
    wins hatched, today's row outlined; each bar's total written at its end. Legend: hard mode,
    with hints, today (after each kind's name in `kinds`)."""

    data: Distribution
    labels: Labels
    subtitle: str
    rows: tuple[str, ...]
    """The guess counts as written beside the bars, then each bar's total."""
    totals: tuple[str, ...]
    kinds: tuple[tuple[str, str, str], ...]
    """Each kind shown, in the registry's order: (kind, its name in the reader's language, its
    colour), as its mode declares them."""


@dataclass(frozen=True)
class ReviewChart:
    """The codes still possible after each guess (log scale): the player's, and the most
    Knuth's guess could have left; broken clues and hinted guesses marked. Legend: yours,
    Knuth's, broke a clue, after a hint."""

    data: Narrowing
    labels: Labels
    x_ticks: tuple[str, ...]
    """Guesses 0 (the start) to the last."""
    y_ticks: tuple[str, ...]
    """`data.ticks`, written."""


@dataclass(frozen=True)
class HistogramChart:
    """A simulation: secrets per number of guesses, each bar's count above it, the average as a
    dashed line (its label the legend's one entry)."""

    data: Histogram
    labels: Labels
    x_ticks: tuple[str, ...]
    counts: tuple[str, ...]


Chart = StatsChart | ReviewChart | HistogramChart
"""Anything a chart worker draws."""
