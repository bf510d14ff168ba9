"""Drawing a chart into PNG bytes with matplotlib: a bare `Figure` saved as PNG goes through the
Agg renderer, with no pyplot, so no global figure state and no GUI back end.

Imported only in a chart worker (`bot.charts.jobs`): matplotlib costs the importing process about
40 MB and most of a second. Every word and number comes written in the spec; the only font is
the DejaVu Sans that matplotlib ships, so nothing is fetched at run time.
"""

from __future__ import annotations

import io
from typing import Any, Literal

import matplotlib
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from bot.charts import style
from bot.charts.spec import Chart, HistogramChart, ReviewChart, StatsChart

RC: dict[Any, Any] = {
    "font.family": "DejaVu Sans",
    "font.size": style.TEXT_PT,
    "text.color": style.INK,
    "axes.edgecolor": style.MUTED,
    "axes.labelcolor": style.INK,
    "xtick.color": style.INK,
    "ytick.color": style.INK,
    "hatch.linewidth": 1.2,
}


def render(chart: Chart) -> bytes:
    """The chart as a PNG."""
    with matplotlib.rc_context(RC):
        figure = Figure(
            figsize=(style.WIDTH_PX / style.DPI, style.HEIGHT_PX / style.DPI),
            dpi=style.DPI,
            facecolor=style.CARD,
            layout="constrained",
        )
        axes = figure.add_subplot()
        axes.set_facecolor(style.CARD)
        if isinstance(chart, StatsChart):
            _stats(figure, axes, chart)
        elif isinstance(chart, ReviewChart):
            _review(figure, axes, chart)
        else:
            _histogram(figure, axes, chart)
        out = io.BytesIO()
        figure.savefig(out, format="png", facecolor=style.CARD, metadata={"Software": None})
    return out.getvalue()


def _frame(axes: Axes, *, keep: str) -> None:
    """Only the axis line `keep` ("left" or "bottom") shows; the others are clutter."""
    for side, spine in axes.spines.items():
        spine.set_visible(side == keep)


def _stats(figure: Figure, axes: Axes, chart: StatsChart) -> None:
    data = chart.data
    figure.suptitle(chart.labels.title, fontsize=style.TITLE_PT, fontweight="bold")
    axes.set_title(chart.subtitle, color=style.MUTED, fontsize=style.TEXT_PT)
    colours = {kind: colour for kind, _, colour in chart.kinds}
    left = [0] * len(data.rows)
    for series in data.series:
        hatch = (style.HARD_HATCH if series.hard else "") + (
            style.HINT_HATCH if series.hinted else ""
        )
        axes.barh(
            data.rows,
            series.counts,
            left=left,
            color=colours[series.kind],
            edgecolor=style.INK,
            linewidth=0.8,
            hatch=hatch or None,
            height=0.7,
        )
        left = [a + b for a, b in zip(left, series.counts, strict=True)]
    widest = max(data.totals)
    for row, total, label in zip(data.rows, data.totals, chart.totals, strict=True):
        axes.text(total + widest * 0.02, row, label, va="center", fontsize=style.TEXT_PT)
    if data.today is not None:
        total = data.totals[data.today - 1]
        axes.barh(
            [data.today],
            [total],
            color="none",
            edgecolor=style.HIGHLIGHT,
            linewidth=3.5,
            height=0.86,
        )
    axes.set_yticks(data.rows, chart.rows)
    axes.set_ylabel(chart.labels.y)
    axes.invert_yaxis()
    axes.set_xlim(0, widest * 1.18)
    axes.set_xticks([])
    _frame(axes, keep="left")
    handles = [Patch(facecolor=colour, edgecolor=style.INK) for _, _, colour in chart.kinds]
    names = [name for _, name, _ in chart.kinds]
    hard, hinted, today = chart.labels.legend
    marks: tuple[tuple[bool, str, dict[str, Any]], ...] = (
        (any(s.hard for s in data.series), hard, {"hatch": style.HARD_HATCH}),
        (any(s.hinted for s in data.series), hinted, {"hatch": style.HINT_HATCH}),
        (data.today is not None, today, {"edgecolor": style.HIGHLIGHT, "linewidth": 3}),
    )
    for shown, name, look in marks:
        if shown:
            handles.append(Patch(**{"facecolor": style.CARD, "edgecolor": style.INK, **look}))
            names.append(name)
    figure.legend(
        handles, names, loc="outside lower center", ncols=min(len(names), 3), frameon=False
    )


def _review(figure: Figure, axes: Axes, chart: ReviewChart) -> None:
    data = chart.data
    figure.suptitle(chart.labels.title, fontsize=style.TITLE_PT, fontweight="bold")
    steps = list(range(len(data.yours) + 1))
    yours = [data.start, *data.yours]
    axes.plot(steps, yours, color=style.YOURS, linewidth=3, marker="o", markersize=9)
    knuth = [(n, left) for n, left in enumerate(data.knuth, 1) if left is not None]
    axes.plot(
        [n for n, _ in knuth],
        [left for _, left in knuth],
        color=style.KNUTH,
        linewidth=0,
        marker="D",
        markersize=10,
        markeredgecolor=style.INK,
    )
    marks: tuple[tuple[tuple[int, ...], dict[str, Any]], ...] = (
        (data.broke, {"marker": "X", "markersize": 17, "color": style.HIGHLIGHT}),
        (data.hinted, {"marker": "o", "markersize": 21, "fillstyle": "none", "color": style.INK}),
    )
    for numbers, look in marks:
        axes.plot(
            numbers,
            [data.yours[number - 1] for number in numbers],
            linewidth=0,
            markeredgewidth=2.5 if look.get("fillstyle") else 1.0,
            markeredgecolor=style.INK,
            **look,
        )
    axes.set_yscale("log")
    axes.set_ylim(0.7, data.start * 1.6)
    axes.set_yticks(data.ticks, chart.y_ticks)
    axes.minorticks_off()
    axes.set_xticks(steps, chart.x_ticks)
    axes.set_xlim(-0.4, len(data.yours) + 0.4)
    axes.set_xlabel(chart.labels.x)
    axes.set_ylabel(chart.labels.y)
    axes.grid(axis="y", color=style.GRID)
    axes.set_axisbelow(True)
    _frame(axes, keep="bottom")
    handles = [
        _line(style.YOURS, "o", linewidth=3),
        _line(style.KNUTH, "D"),
    ]
    mine, knuth_name, broke, hinted = chart.labels.legend
    names = [mine, knuth_name]
    if data.broke:
        handles.append(_line(style.HIGHLIGHT, "X"))
        names.append(broke)
    if data.hinted:
        handles.append(_line(style.INK, "o", fillstyle="none"))
        names.append(hinted)
    figure.legend(handles, names, loc="outside lower center", ncols=2, frameon=False)


def _line(
    colour: str, marker: str, linewidth: float = 0, fillstyle: Literal["full", "none"] = "full"
) -> Line2D:
    return Line2D(
        [],
        [],
        color=colour,
        marker=marker,
        markersize=10,
        linewidth=linewidth,
        fillstyle=fillstyle,
        markeredgecolor=style.INK if fillstyle == "full" else colour,
    )


def _histogram(figure: Figure, axes: Axes, chart: HistogramChart) -> None:
    data = chart.data
    figure.suptitle(chart.labels.title, fontsize=style.TITLE_PT, fontweight="bold")
    axes.bar(data.guesses, data.secrets, color=style.BARS, edgecolor=style.INK, linewidth=0.8)
    tallest = max(data.secrets)
    for x, height, label in zip(data.guesses, data.secrets, chart.counts, strict=True):
        if height:
            axes.text(x, height + tallest * 0.02, label, ha="center", va="bottom")
    axes.axvline(data.average, color=style.HIGHLIGHT, linewidth=2.5, linestyle="--")
    axes.text(
        data.average,
        tallest * 1.2,
        chart.labels.legend[0],
        color=style.HIGHLIGHT,
        ha="center",
        va="bottom",
        fontweight="bold",
    )
    axes.set_ylim(0, tallest * 1.35)
    axes.set_yticks([])
    axes.set_xticks(data.guesses, chart.x_ticks)
    axes.set_xlabel(chart.labels.x)
    _frame(axes, keep="bottom")
