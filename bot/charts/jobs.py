"""What a chart worker runs. The drawing module (and matplotlib with it) is imported inside the
job, in the worker: the bot's process names this function without importing either."""

from __future__ import annotations

from bot.charts.spec import Chart


def render(chart: Chart) -> bytes:
    """The chart as PNG bytes."""
    from bot.charts import draw

    return draw.render(chart)


def warm_up() -> None:
    """Import matplotlib and draw nothing, so the first chart costs only its drawing."""
    from bot.charts import draw  # noqa: F401
