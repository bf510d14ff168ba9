"""The chart workers: drawing happens in a process of their own, the bot's process never
imports matplotlib, and with CHARTS=off nothing starts at all."""

from __future__ import annotations

import subprocess
import sys

from bot.charts.pool import ChartPool
from tests.charts import samples


def modules_after_importing(module: str) -> set[str]:
    script = f"import sys, {module}; print(' '.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.split())


def test_the_bots_process_never_imports_matplotlib() -> None:
    """Everything the bot loads (the app, every mode, the chart pool and the chart words) leaves
    matplotlib (and PIL) to the chart worker."""
    loaded = modules_after_importing("bot.app")
    assert {"bot.charts.pool", "bot.ui.charts", "bot.modes.registry"} <= loaded
    assert not {m for m in loaded if m.split(".")[0] in ("matplotlib", "PIL")}
    assert "bot.charts.draw" not in loaded


async def test_a_chart_is_drawn_in_a_worker_process() -> None:
    pool = ChartPool()
    try:
        png = await pool.render(samples.histogram_chart(), wait=30.0)
        assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(pool.pids) == 1
    finally:
        pool.shutdown()
    assert await pool.render(samples.histogram_chart()) is None  # shut down: no chart, no error


async def test_charts_off_draws_nothing_and_starts_no_process() -> None:
    pool = ChartPool(enabled=False)
    await pool.warm_up()
    assert await pool.render(samples.stats_chart()) is None
    assert pool.pids == [] and not pool.enabled


async def test_a_full_queue_skips_the_chart_instead_of_waiting() -> None:
    pool = ChartPool(in_flight=0)
    try:
        assert await pool.render(samples.stats_chart()) is None
        assert pool.pids == []
    finally:
        pool.shutdown()
