"""The timer service: everything that must happen at a time, in one place the bot owns.

A mode's deadlines (a lobby closing, a game's time limit) live in the store with its games, so they
survive a restart and a take-over; what lives here is only this process's wait for the next
one. Each mode declares, in its `ModeSpec.timers`, how its timers are set again from the store:
the app calls it when this process is ready (for the servers it serves) and in the lease
holder's pass (for every server: a process that died owes its deadlines to the cluster), and
the mode sets each timer with `at` as its games move. A rule is checked when a move arrives
whatever the timers do (a late Submit is refused at its deadline), so a timer only decides when
the channel is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime

log = logging.getLogger(__name__)

SLACK_SECONDS = 0.2
"""A timer wakes this much after its moment, so the moment has surely passed."""


class Timers:
    """This process's timers, one per key (a mode's kind and a game id, say)."""

    def __init__(self, clock: Callable[[], datetime]) -> None:
        self._clock = clock
        self._waiting: dict[str, asyncio.Task[None]] = {}
        self._closed = False

    def at(self, key: str, when: float, action: Callable[[], Awaitable[None]]) -> None:
        """Run `action` at `when` (seconds since the epoch, the bot's clock), unless a timer
        for `key` is already set (the first one set runs; it sets the next itself)."""
        current = self._waiting.get(key)
        if self._closed or (current is not None and not current.done()):
            return
        self._waiting[key] = asyncio.get_running_loop().create_task(
            self._wait(key, when, action), name=f"timer-{key}"
        )

    def is_set(self, key: str) -> bool:
        """A timer for `key` is waiting."""
        current = self._waiting.get(key)
        return current is not None and not current.done()

    async def _wait(self, key: str, when: float, action: Callable[[], Awaitable[None]]) -> None:
        delay = when - self._clock().timestamp() + SLACK_SECONDS
        if delay > 0:
            await asyncio.sleep(delay)
        self._waiting.pop(key, None)  # this timer is done: its action may set the next
        try:
            await action()
        except Exception:
            log.exception("the timer %s failed; the next pass sets it again", key)

    async def close(self) -> None:
        """Cancel every timer (at stop; the next start sets them again from the store)."""
        self._closed = True
        waiting = list(self._waiting.values())
        self._waiting.clear()
        for task in waiting:
            task.cancel()
        for task in waiting:
            with contextlib.suppress(asyncio.CancelledError):
                await task
