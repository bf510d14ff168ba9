"""Charts in words: each chart's title, labels and numbers in the reader's language, and the
alt text (Discord's attachment description) that says the same data in one sentence for a
screen reader. The pictures themselves are drawn in a chart worker (`bot.charts`)."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import discord

from bot.charts.data import Distribution, Histogram, Narrowing
from bot.charts.spec import Chart, HistogramChart, Labels, ReviewChart, StatsChart
from bot.ui.i18n import Messages

MAX_ALT_TEXT = 1024
"""Discord refuses an attachment description longer than this."""


@dataclass(frozen=True)
class Picture:
    """A chart to draw and attach: what the worker draws, the file's name, its alt text."""

    chart: Chart
    filename: str
    alt: str

    def file(self, png: bytes) -> discord.File:
        """The drawn chart as an attachment an embed shows with `attachment://<filename>`."""
        return discord.File(io.BytesIO(png), filename=self.filename, description=self.alt)


@dataclass(frozen=True)
class ChartLook:
    """How a mode's games show in a chart: its name in the reader's language and its colour
    (one of `bot.charts.style.KIND_COLOURS`); each mode declares its own (`ModeSpec.chart`)."""

    name: Callable[[Messages], str]
    colour: str


def _sentence(text: str) -> str:
    """One sentence within Discord's limit (a long list is cut with an ellipsis)."""
    return text if len(text) <= MAX_ALT_TEXT else text[: MAX_ALT_TEXT - 1] + "…"


def no_wins(t: Messages) -> str:
    """The friendly line where a chart of no wins would be."""
    return t.gettext("📊 Your chart of wins by guesses appears here after your first win.")


def stats(data: Distribution, looks: Mapping[str, ChartLook], t: Messages) -> Picture:
    """A player's wins by guesses, as a chart and as a sentence; `looks`: each kind's."""
    kinds = tuple((kind, looks[kind].name(t), looks[kind].colour) for kind in data.kinds)
    by_kind = t.join(
        t.gettext("{kind} {count}", kind=name, count=t.number(data.of_kind(kind)))
        for kind, name, _ in kinds
    )
    wins = t.ngettext("{count} win", "{count} wins", data.wins)
    labels = Labels(
        title=t.gettext("Wins by number of guesses"),
        y=t.gettext("guesses"),
        legend=(t.gettext("hard mode"), t.gettext("with hints"), t.gettext("today")),
    )
    chart = StatsChart(
        data=data,
        labels=labels,
        subtitle=f"{wins} · {by_kind}",
        rows=tuple(t.number(row) for row in data.rows),
        totals=tuple(t.number(total) for total in data.totals),
        kinds=kinds,
    )
    rows = t.join(
        t.ngettext(
            "{count} in {guesses} guess",
            "{count} in {guesses} guesses",
            row,
            count=t.number(total),
            guesses=t.number(row),
        )
        for row, total in zip(data.rows, data.totals, strict=True)
        if total
    )
    hard = sum(sum(s.counts) for s in data.series if s.hard)
    hinted = sum(sum(s.counts) for s in data.series if s.hinted)
    alt = t.gettext(
        "Wins by number of guesses, {wins} ({kinds}): {rows}; {hard} in hard mode, {hinted} with "
        "hints{today}.",
        wins=wins,
        kinds=by_kind,
        rows=rows,
        hard=t.number(hard),
        hinted=t.number(hinted),
        today=""
        if data.today is None
        else t.ngettext("; today's in {count} guess", "; today's in {count} guesses", data.today),
    )
    return Picture(chart, "stats.png", _sentence(alt))


def review(data: Narrowing, game_id: int, t: Messages) -> Picture:
    """A reviewed game's two curves, as a chart and as a sentence."""
    legend = (
        t.gettext("yours: codes left"),
        t.gettext("Knuth's guess: at most"),
        t.gettext("broke a clue"),
        t.gettext("after a hint"),
    )
    chart = ReviewChart(
        data=data,
        labels=Labels(
            title=t.gettext("Codes still possible, game {game}", game=game_id),
            x=t.gettext("guess"),
            y=t.gettext("codes possible"),
            legend=legend,
        ),
        x_ticks=(t.gettext("start"), *(t.number(n) for n in data.guesses)),
        y_ticks=tuple(t.number(tick) for tick in data.ticks),
    )
    yours = t.join(t.number(n) for n in (data.start, *data.yours))
    knuth = t.join("–" if n is None else t.number(n) for n in data.knuth)
    marks = []
    if data.broke:
        marks.append(t.gettext("guesses {numbers} broke a clue", numbers=_numbers(t, data.broke)))
    if data.hinted:
        marks.append(
            t.gettext("guesses {numbers} came after a hint", numbers=_numbers(t, data.hinted))
        )
    alt = t.gettext(
        "Codes still possible from the start and after each guess: {yours}; the most Knuth's "
        "guess could have left at each guess: {knuth}{marks}.",
        yours=yours,
        knuth=knuth,
        marks="".join(f"; {mark}" for mark in marks),
    )
    return Picture(chart, "review.png", _sentence(alt))


def _numbers(t: Messages, numbers: tuple[int, ...]) -> str:
    return t.join(t.number(n) for n in numbers)


def simulation(data: Histogram, heading: str, t: Messages) -> Picture:
    """A simulation's histogram, as a chart and as a sentence (`heading`: its strategy and
    variant, as the message names them, without markup)."""
    average = t.decimal(data.average, 3)
    labels = Labels(
        title=heading,
        x=t.gettext("guesses to crack the secret"),
        legend=(t.gettext("average {average}", average=average),),
    )
    chart = HistogramChart(
        data=data,
        labels=labels,
        x_ticks=tuple(t.number(g) for g in data.guesses),
        counts=tuple(t.number(s) for s in data.secrets),
    )
    bars = t.join(
        t.ngettext(
            "{count} in {guesses} guess",
            "{count} in {guesses} guesses",
            g,
            count=t.number(s),
            guesses=t.number(g),
        )
        for g, s in zip(data.guesses, data.secrets, strict=True)
        if s
    )
    alt = t.gettext(
        "Secrets by guesses needed, {heading}: {bars}; {average} on average.",
        heading=heading,
        bars=bars,
        average=average,
    )
    return Picture(chart, "simulation.png", _sentence(alt))
