"""The cluster: this process's part among the bot processes that share one database.

One object, `Cluster`, holds every lease of the process for its whole life: the shard leases
it serves under (claimed before it connects, `join`), the jobs lease of the chores that run
once in a cluster, the guard that lets a shard go before its lease lapses, and the chores'
loop; `close` releases them all, so another process takes over at once. On SQLite the process
is the only one and holds every lease, always.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from discord.ext import commands

from bot.cluster import chores, guard
from bot.cluster.chores import CHORES_SECONDS, Chore
from bot.cluster.leases import (
    JOBS_LEASE,
    LEASE_SECONDS,
    LeaseKeeper,
    dead_here,
    open_lease,
    process_name,
)
from bot.cluster.shards import ShardTaken, hold_shards, shard_lease_name
from bot.store import Store

log = logging.getLogger(__name__)

__all__ = [
    "CHORES_SECONDS",
    "JOBS_LEASE",
    "LEASE_SECONDS",
    "Chore",
    "Cluster",
    "LeaseKeeper",
    "ShardTaken",
    "dead_here",
    "hold_shards",
    "open_lease",
    "process_name",
    "shard_lease_name",
]


class Cluster:
    """Every lease this process holds, from its claim to its release."""

    def __init__(
        self, store: Store, *, ttl: float = LEASE_SECONDS, shards: Sequence[LeaseKeeper] = ()
    ) -> None:
        self.store, self.ttl = store, ttl
        self.shards: list[LeaseKeeper] = list(shards)
        """The leases of the shards this process serves (none: it runs in tests, unguarded)."""
        self.jobs = LeaseKeeper(open_lease(store, JOBS_LEASE, ttl=ttl))
        """The lease of the jobs that run once in a cluster: command sync, the chores."""
        self._tasks: list[asyncio.Task[None]] = []

    @classmethod
    async def join(
        cls,
        store: Store,
        shard_ids: Sequence[int] | None,
        count: int | None,
        *,
        ttl: float = LEASE_SECONDS,
    ) -> Cluster:
        """Claim the leases of the shards this process is to run (ShardTaken, holding none, if
        another live process runs any of their servers); before it connects to Discord."""
        return cls(store, ttl=ttl, shards=await hold_shards(store, shard_ids, count, ttl=ttl))

    async def start(
        self,
        bot: commands.AutoShardedBot,
        chores_now: Callable[[], Sequence[Chore]],
        on_gain: Callable[[], Awaitable[None]],
    ) -> bool:
        """Claim the jobs lease, guard the shards and run the chores while the jobs lease is
        held. `on_gain` runs first whenever this process gains the jobs lease (it has run for
        the first gain if it returns True: the caller does it at once). Whether it holds the
        jobs lease now."""
        held = await self.jobs.start()
        if held:
            await on_gain()
        else:
            log.info(
                "commands are synced, and stale games ended, by %s (lease %s); this process "
                "takes over if it stops",
                await self.jobs.lease.current_holder() or "another process",
                JOBS_LEASE,
            )
        looping = chores.run_forever(
            self.jobs, chores_now, on_gain, gained_term=self.jobs.term if held else 0
        )
        self._tasks = [
            asyncio.create_task(looping, name="cluster-chores"),
            asyncio.create_task(guard.follow(bot, self.shards), name="shard-guard"),
        ]
        return held

    async def run_chores(self, chores_now: Sequence[Chore]) -> None:
        """One round of the chores now, while the jobs lease is held (tests, and the loop)."""
        await chores.run_once(self.jobs, chores_now)

    async def stop_chores(self) -> None:
        """Stop the chores' loop and the guard (first, at stop: a stopping process starts no
        chore)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def close(self) -> None:
        """Stop the chores and the guard, and release every lease: another process of the
        cluster takes the jobs and these shards over at once."""
        await self.stop_chores()
        await self.jobs.close()
        for keeper in self.shards:
            await keeper.close()
