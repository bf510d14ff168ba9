"""discord.py's own rate-limit waits, timed: the requests it holds back because Discord's
headers said their bucket was empty (no requests remaining in it), with no 429 at all.

Under Discord's limits these waits, not 429s, are what a busy bot meets (a soak under the
fake's limits sees none of the latter), and they hold whoever awaits the request: the request
that emptied a bucket returns only once the bucket refills, the next ones wait before they
are sent. discord.py has no hook for them and logs them only at DEBUG, without how long, so
each bucket it makes (`HTTPClient.get_ratelimit`) becomes a subclass of its own `Ratelimit`
that times its two waits. The route comes from the caller (`ROUTE`, a context variable the
request wrapper in bot/prometheus.py sets). This leans on discord.py's internals (pinned in
constraints.txt); tests/test_metrics.py holds it against the fake Discord's real limits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from contextvars import ContextVar
from types import TracebackType
from typing import ClassVar, TypeVar

from discord.http import HTTPClient, Ratelimit, Route

log = logging.getLogger(__name__)
BE = TypeVar("BE", bound=BaseException)
Report = Callable[[Route | None, float], None]
"""Called once per held request: its route (None: unknown) and the seconds it was held."""

ROUTE: ContextVar[Route | None] = ContextVar("discord_request_route", default=None)
"""The route of the request being made in this task (set around `HTTPClient.request`)."""


class _TimedBucket(Ratelimit):
    """A discord.py bucket that reports each wait; `report` is set per HTTP client."""

    __slots__ = ()  # the same layout as Ratelimit's: an existing bucket can become one
    report: ClassVar[Report]

    async def acquire(self) -> None:
        """A request waits here for a token while the bucket is empty (before sending)."""
        if self.is_expired():
            self.reset()  # type: ignore[no-untyped-call]  # as acquire does first
        if self.remaining > 0 or self.expires is None:
            # expires None: no headers read yet (a new bucket, or a route with none), so this
            # waits on discord.py's one token for an unknown bucket, not on Discord's limit.
            return await super().acquire()
        started = time.perf_counter()
        try:
            await super().acquire()
        finally:
            type(self).report(ROUTE.get(), time.perf_counter() - started)

    async def __aexit__(
        self,
        type_: type[BE],
        value: BE,
        traceback: TracebackType,
    ) -> None:
        """The request that took the last token sleeps here until the bucket refills."""
        tokens = self.remaining - (self.outgoing - 1)
        if self._sleeping.locked() or tokens > 0 or self.reset_after <= 0:
            # reset_after 0: no headers, discord.py only yields (sleep(0)) and refills at once
            return await super().__aexit__(type_, value, traceback)
        started = time.perf_counter()
        try:
            await super().__aexit__(type_, value, traceback)
        finally:
            type(self).report(ROUTE.get(), time.perf_counter() - started)


def time_waits(http: HTTPClient, report: Report) -> bool:
    """From now on, every bucket of `http` reports its waits to `report`. False (and one
    WARNING) if this discord.py makes its buckets some other way: nothing is counted then."""
    make: Callable[[str], Ratelimit] | None = getattr(http, "get_ratelimit", None)
    if make is None or not hasattr(Ratelimit, "_sleeping"):
        log.warning("this discord.py makes its rate-limit buckets differently: waits not counted")
        return False
    timed = type("TimedBucket", (_TimedBucket,), {"__slots__": (), "report": staticmethod(report)})

    def get_ratelimit(key: str) -> Ratelimit:
        bucket = make(key)
        if type(bucket) is Ratelimit:
            bucket.__class__ = timed  # buckets made before (login) are converted on next use
        return bucket

    setattr(http, "get_ratelimit", get_ratelimit)  # noqa: B010 - an instance's method, wrapped
    return True
