"""Leases: which process runs a job that must run once, when several bot processes share one
database (shard clusters on PostgreSQL).

A lease is a row of table `leases`: a name, its holder, and when it expires. Its holder renews
it well before then; any process may take it once it has expired, so when the holder dies (a
crash, SIGKILL, a lost machine), another process takes the job over within one lease time. Time
is the database server's clock, never the processes' own, so clocks of several machines need not
agree. A holder that could not renew in time stops the job before its lease runs out.

On SQLite there is nothing to share: one bot process per file (`filelock.py`) makes that process
the holder of every lease, always.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import re
import secrets
import socket
from collections.abc import Sequence
from typing import Protocol

from bot.store.interface import Store
from bot.store.postgres_dialect import Conn, PostgresDialect
from bot.store.sql import SqlStore

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0
JOBS_LEASE = "background-jobs"
"""The lease of the jobs that must run once: command sync, board reconcile, expiry."""
ALL_SHARDS = "all"


class ShardTaken(RuntimeError):
    """Another live process runs a shard this one was told to run: both would answer every
    interaction of its servers. `str(error)` is one line naming the holder."""


def shard_lease_name(shard: int | str, count: int | None) -> str:
    """`shard:3/4` (shard 3 of 4), or `shard:all` for a process that runs every shard (it lets
    Discord decide how many): the count is in the name, so a cluster whose processes disagree
    on it is seen."""
    return f"shard:{shard}" if count is None else f"shard:{shard}/{count}"


SHARD_LEASE = re.compile(r"shard:(?:(?P<all>all)|(?P<shard>[0-9]+)/(?P<count>[0-9]+))")
"""A shard lease's name, read back: every shard, or one shard of a count."""


def overlap(shard_ids: Sequence[int] | None, count: int | None, name: str) -> str | None:
    """Why a process running `shard_ids` of `count` (None: every shard) cannot run beside the
    live holder of shard lease `name`, as the middle of a sentence; None when both can."""
    other = SHARD_LEASE.fullmatch(name)
    if other is None:
        return None  # not a shard lease this version writes
    if other["all"]:
        return "every shard is already run by {holder} (no SHARD_IDS)"
    theirs = f"shard {other['shard']} of {other['count']} is already run by {{holder}}"
    if shard_ids is None:
        return f"{theirs}, and this process would run every shard (no SHARD_IDS)"
    if int(other["count"]) != count:
        return (
            f"{theirs}, and this process has SHARD_COUNT={count}: every process of a cluster "
            "needs the same SHARD_COUNT"
        )
    if int(other["shard"]) in shard_ids:
        return f"shard {other['shard']} is already run by {{holder}}"
    return None


def process_name() -> str:
    """Who holds a lease: this host and process, plus a random tag (a pid can be reused)."""
    return f"{socket.gethostname()} pid {os.getpid()} ({secrets.token_hex(3)})"


class Lease(Protocol):
    """One named lease, claimed for one holder."""

    name: str
    holder: str
    ttl: float
    """Seconds a claim holds for; math.inf when nobody else can ever take it."""

    async def claim(self) -> bool:
        """Take the lease (free or expired), or renew it if this holder has it. True: it is
        ours for `ttl` seconds from the call."""
        ...

    async def release(self) -> None:
        """Give it up now, so another process takes over without waiting for the expiry."""
        ...

    async def current_holder(self) -> str | None:
        """Who holds it now (None: nobody, or it expired)."""
        ...

    async def drop_holder(self, holder: str) -> None:
        """Free the lease if `holder` still has it (a process known to be dead)."""
        ...

    async def others(self, prefix: str) -> dict[str, str]:
        """Every live lease whose name starts with `prefix` that another holder has: name to
        holder."""
        ...


class LocalLease:
    """SQLite: this process is the only bot on its file, so it always holds every lease."""

    ttl = math.inf

    def __init__(self, name: str, holder: str) -> None:
        self.name, self.holder = name, holder

    async def claim(self) -> bool:
        return True

    async def release(self) -> None:
        return None

    async def current_holder(self) -> str | None:
        return self.holder

    async def drop_holder(self, holder: str) -> None:
        return None

    async def others(self, prefix: str) -> dict[str, str]:
        return {}


class PostgresLease:
    """A row of `leases` in the shared PostgreSQL database."""

    def __init__(self, dialect: PostgresDialect, name: str, holder: str, ttl: float) -> None:
        if not ttl > 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.dialect, self.name, self.holder, self.ttl = dialect, name, holder, ttl

    def _connection(self) -> contextlib.AbstractAsyncContextManager[Conn]:
        return self.dialect.connection(self.ttl / 3)

    async def claim(self) -> bool:
        async with self._connection() as conn:
            holder = await conn.fetchval(
                "INSERT INTO leases AS l (name, holder, expires_at) "
                "VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3)) "
                "ON CONFLICT (name) DO UPDATE "
                "SET holder = excluded.holder, expires_at = excluded.expires_at "
                "WHERE l.holder = excluded.holder OR l.expires_at < clock_timestamp() "
                "RETURNING holder",
                self.name,
                self.holder,
                self.ttl,
            )
        return bool(holder == self.holder)

    async def release(self) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "DELETE FROM leases WHERE name = $1 AND holder = $2", self.name, self.holder
            )

    async def current_holder(self) -> str | None:
        async with self._connection() as conn:
            holder = await conn.fetchval(
                "SELECT holder FROM leases WHERE name = $1 AND expires_at > clock_timestamp()",
                self.name,
            )
        return None if holder is None else str(holder)

    async def drop_holder(self, holder: str) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "DELETE FROM leases WHERE name = $1 AND holder = $2", self.name, holder
            )

    async def others(self, prefix: str) -> dict[str, str]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT name, holder FROM leases WHERE starts_with(name, $1) "
                "AND holder <> $2 AND expires_at > clock_timestamp()",
                prefix,
                self.holder,
            )
        return {str(row["name"]): str(row["holder"]) for row in rows}


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
    who = holder or process_name()
    if isinstance(store, SqlStore) and isinstance(store.dialect, PostgresDialect):
        return PostgresLease(store.dialect, name, who, ttl)
    return LocalLease(name, who)


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


async def hold_shards(
    store: Store,
    shard_ids: Sequence[int] | None,
    count: int | None,
    *,
    ttl: float = LEASE_SECONDS,
) -> list[LeaseKeeper]:
    """Claim one lease per shard this process runs, `shard_ids` of `count` (`None`: all of
    them), and keep them; raise ShardTaken, holding none, if another live process runs any of
    the same servers (the same shard, every shard, or a shard of another SHARD_COUNT). Each
    process claims its own leases before it looks at the others', so of two that start at the
    same moment at least one sees the other. On SQLite the file lock already makes this
    process the only one, so every claim succeeds."""
    if shard_ids is not None and count is None:
        raise ValueError("SHARD_IDS are shards of a SHARD_COUNT")
    shards: Sequence[int | str] = [ALL_SHARDS] if shard_ids is None else shard_ids
    holder = process_name()
    keepers: list[LeaseKeeper] = []
    try:
        for shard in shards:
            name = shard_lease_name(shard, None if shard_ids is None else count)
            keeper = LeaseKeeper(open_lease(store, name, holder=holder, ttl=ttl))
            keepers.append(keeper)
            if not await _claim_or_take_over(keeper):
                await _refuse(f"shard {shard} is already run by {{holder}}", keeper.lease)
        for name, other in (await keepers[0].lease.others("shard:")).items():
            why = overlap(shard_ids, count, name)
            if why is not None and not await _dropped_if_dead(store, name, other):
                raise ShardTaken(_refusal(why.format(holder=other)))
    except BaseException:
        for keeper in keepers:
            await keeper.close()
        raise
    return keepers


async def _claim_or_take_over(keeper: LeaseKeeper) -> bool:
    """Claim the lease, taking it over from a holder on this host whose process has exited."""
    if await keeper.start():
        return True
    holder = await keeper.lease.current_holder() or "another process"
    if not dead_here(holder):
        return False
    log.info("%s was held by %s, which has exited: taking it over", keeper.lease.name, holder)
    await keeper.lease.drop_holder(holder)
    return await keeper.start()


async def _dropped_if_dead(store: Store, name: str, holder: str) -> bool:
    """Free lease `name` of `holder` if that was a process of this host that has exited."""
    if not dead_here(holder):
        return False
    log.info("%s was held by %s, which has exited: dropping it", name, holder)
    await open_lease(store, name).drop_holder(holder)
    return True


async def _refuse(why: str, lease: Lease) -> None:
    holder = await lease.current_holder() or "another process"
    raise ShardTaken(_refusal(why.format(holder=holder)))


def _refusal(why: str) -> str:
    """One line: why, and what to do."""
    return (
        f"{why}; two processes on one server's shard would answer every interaction twice: "
        "give each process its own SHARD_IDS of one SHARD_COUNT."
    )
