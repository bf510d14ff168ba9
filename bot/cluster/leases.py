"""Keeping a lease: which process runs a job that must run once, when several bot processes
share one database (shard clusters on PostgreSQL).

A lease (`bot.store.leases`) is claimed for a while; its holder renews it well before then, and
any process may take it once it has expired, so when the holder dies (a crash, SIGKILL, a lost
machine), another process takes the job over within one lease time. A holder that could not
renew in time stops the job before its lease runs out. On SQLite every lease is always this
process's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket

from bot.store import Lease, Store

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0
JOBS_LEASE = "background-jobs"
"""The lease of the jobs that must run once: command sync, the chores (boards behind, the
modes' timers after a take-over, expiry)."""


def process_name() -> str:
    """Who holds a lease: this host and process, plus a random tag (a pid can be reused)."""
    return f"{socket.gethostname()} pid {os.getpid()} ({secrets.token_hex(3)})"


def dead_here(holder: str) -> bool:
    """Whether `holder` (see `process_name`) was a process of this host that has exited: a
    restart after a crash need not wait for its lease to lapse."""
    host, _, rest = holder.partition(" pid ")
    pid = rest.split(" ", 1)[0]
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # alive, another user's
        return False
    return False


def open_lease(
    store: Store, name: str, *, holder: str | None = None, ttl: float = LEASE_SECONDS
) -> Lease:
    """The lease `name` on `store`'s database: shared on PostgreSQL, always ours on SQLite."""
    return store.lease(name, holder or process_name(), ttl)


class LeaseKeeper:
    """Holds one lease for as long as the process runs.

    `start()` claims it once, then a task claims it again every third of its time: a renewal
    while it is ours, a takeover once its holder stopped renewing. `held` is true only while the
    last successful claim is younger than the lease time (measured from before the claim was
    sent), so a process cut off from the database stops its jobs before anyone else may start
    them. `term` counts how many times it was gained; `changed()` wakes on every gain and loss.
    """

    def __init__(self, lease: Lease) -> None:
        self.lease = lease
        self.term = 0
        self._valid_until = -math.inf
        self._was_held = False
        self._event = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    @property
    def held(self) -> bool:
        return self.expires_in > 0

    @property
    def expires_in(self) -> float:
        """Seconds until this process's last claim lapses (0 or less: not held)."""
        return self._valid_until - asyncio.get_running_loop().time()

    async def start(self) -> bool:
        """Claim the lease now and keep it from then on; True if this process holds it."""
        await self._claim()
        if math.isfinite(self.lease.ttl) and self._task is None:
            self._task = asyncio.create_task(self._renew_forever(), name=f"lease-{self.lease.name}")
        return self.held

    async def wait_changed(self, timeout: float | None = None) -> None:
        """Return when the lease is gained or lost, or after `timeout` seconds."""
        self._event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)

    async def wait_held(self) -> None:
        """Return once this process holds the lease."""
        while not self.held:
            await self.wait_changed(self.lease.ttl / 3 if math.isfinite(self.lease.ttl) else None)

    async def close(self) -> None:
        """Stop renewing, and release the lease if it is ours, so another process takes over
        at once."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.held:
            self._valid_until = -math.inf
            try:
                await self.lease.release()
            except Exception as error:
                log.warning("could not release lease %s: %s", self.lease.name, error)

    async def _renew_forever(self) -> None:
        period = self.lease.ttl / 3
        while True:
            await asyncio.sleep(period)
            await self._claim()

    async def _claim(self) -> None:
        loop = asyncio.get_running_loop()
        began = loop.time()
        try:
            bound = self.lease.ttl / 3 if math.isfinite(self.lease.ttl) else None
            ours = await asyncio.wait_for(self.lease.claim(), bound)
        except Exception as error:  # the database is away: the lease lapses on its own
            # INFO: the store warns once per outage, and losing the lease is a WARNING below.
            log.info("could not renew lease %s: %s", self.lease.name, error or repr(error))
            ours = None
        if ours:
            self._valid_until = began + self.lease.ttl
        elif ours is False:
            self._valid_until = -math.inf
        self._note_change()
        if self._was_held and ours is None:
            # Not refused, only not answered: check again when the lease would run out.
            loop.call_at(self._valid_until, self._note_change)

    def _note_change(self) -> None:
        now_held = self.held
        if now_held == self._was_held:
            return
        self._was_held = now_held
        if now_held:
            self.term += 1
            if math.isfinite(self.lease.ttl):  # a shared lease: say which process has it
                log.info("this process now runs the jobs of lease %s", self.lease.name)
        else:
            log.warning("this process no longer holds lease %s", self.lease.name)
        self._event.set()
