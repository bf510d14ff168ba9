"""The chart workers, as the event loop sees it: `await charts.render(chart)` gives PNG bytes,
or None when there is no chart to show (charts are off, too many are waiting, the drawing took
too long or failed), and the answer then goes without its picture, as it did before charts.

A process of its own (started on the first chart, or by `warm_up`) keeps matplotlib out of the
bot's process and the drawing off the event loop; it never shares a worker with a move or a
simulation. Admission is bounded: beyond `in_flight` charts waiting, a new one is skipped.
"""

from __future__ import annotations

import asyncio
import logging
import os

from bot.charts import jobs
from bot.charts.spec import Chart
from bot.engine import cache_dir
from bot.worker_processes import WorkerProcesses

log = logging.getLogger(__name__)

WAIT_SECONDS = 2.0
"""The longest an answer waits for its chart (a drawing takes well under 0.3 s; a cold worker
imports matplotlib first, in about a second)."""


MATPLOTLIB_VARIABLE = "MPLCONFIGDIR"
"""matplotlib's config and font cache; by default under HOME, which a service user may not
have (it then prints raw warnings from the worker and rebuilds its font list every start)."""


class ChartPool:
    """A small bounded pool of chart workers; `enabled=False` (CHARTS=off) draws nothing and
    starts no process."""

    def __init__(self, enabled: bool = True, *, workers: int = 1, in_flight: int = 8) -> None:
        self.enabled = enabled
        self.limit = in_flight
        self._waiting = 0
        self._workers = WorkerProcesses("chart", workers) if enabled else None
        if enabled and not os.environ.get(MATPLOTLIB_VARIABLE):  # before its worker starts
            os.environ[MATPLOTLIB_VARIABLE] = str(cache_dir.current() / "matplotlib")

    async def warm_up(self) -> None:
        """Start the worker and import matplotlib there, so the first chart is as quick as any."""
        if self._workers is not None:
            await self._workers.run(jobs.warm_up)

    async def render(self, chart: Chart | None, wait: float = WAIT_SECONDS) -> bytes | None:
        """`chart` as PNG bytes, or None (nothing to draw, charts off, busy, slow or broken)."""
        if chart is None or self._workers is None or self._waiting >= self.limit:
            return None
        self._waiting += 1
        try:
            return await asyncio.wait_for(self._workers.run(jobs.render, chart), wait)
        except TimeoutError:
            log.warning(
                "a %s took over %.1f s to draw; sent without it", type(chart).__name__, wait
            )
        except Exception:  # a chart is an extra: its failure never costs the answer
            log.exception("drawing a %s failed; sent without it", type(chart).__name__)
        finally:
            self._waiting -= 1
        return None

    @property
    def pids(self) -> list[int]:
        return [] if self._workers is None else self._workers.pids

    def shutdown(self, grace: float = 0.5) -> None:
        """Stop the worker (a chart still drawing after `grace` seconds is abandoned)."""
        if self._workers is not None:
            self._workers.shutdown(grace)
