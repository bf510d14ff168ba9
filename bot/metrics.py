"""The bot's measurements, as the code that makes them sees them: a few calls on `SINK`, which
does nothing until `METRICS_PORT` turns the Prometheus endpoint on (bot/prometheus.py).

The calls live where they are unlikely to move (the store's one transaction entry point, the
solver pool's one job entry point, SQLite's COMMIT); everything Discord-side (interactions,
their first answers, board edits, rate limits) is read from the HTTP client's trace and the
gateway's events by bot/prometheus.py, so nothing in the input code knows about metrics. This
module imports nothing of the bot, so every floor may call it.
"""

from __future__ import annotations

from typing import Protocol


class Sink(Protocol):
    """Where the measurements go."""

    def transaction(self, write: bool, seconds: float) -> None:
        """A store transaction (a read, or a write) took `seconds`, queueing included."""

    def commit(self, seconds: float) -> None:
        """One COMMIT (SQLite's group commit: for every write waiting together)."""

    def solver_job(self, change: int, seconds: float | None = None) -> None:
        """A solver job was queued (+1) or ended (-1, with how long it took)."""


class _Off:
    """What the calls do without METRICS_PORT: nothing."""

    def transaction(self, write: bool, seconds: float) -> None:
        pass

    def commit(self, seconds: float) -> None:
        pass

    def solver_job(self, change: int, seconds: float | None = None) -> None:
        pass


SINK: Sink = _Off()


def use(sink: Sink) -> None:
    """Send every measurement to `sink` from now on (bot/prometheus.py, at start)."""
    global SINK
    SINK = sink
