"""A process serves a shard only while it holds the shard's lease.

Cut off from the database (an outage longer than LEASE_SECONDS), a process cannot renew its
shard leases, and once they lapse another process may take its shards: it disconnects each
such shard from Discord a little before its lease runs out, so no server is ever answered by
two processes, and connects it again once the lease is its own again (not while another holds
it). On SQLite the lease never lapses and nothing happens.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence

from discord.ext import commands

from bot.cluster.leases import LeaseKeeper
from bot.cluster.shards import SHARD_LEASE

log = logging.getLogger(__name__)

MARGIN = 0.1
"""The part of the lease time before its end at which a shard is let go."""


async def follow(bot: commands.AutoShardedBot, keepers: Sequence[LeaseKeeper]) -> None:
    """Keep each shard connected exactly while its lease is safely held; runs until cancelled."""
    await asyncio.gather(*(_follow(bot, keeper) for keeper in keepers))


def shards_of(bot: commands.AutoShardedBot, lease_name: str) -> list[int]:
    """The shards a shard lease stands for: one, or every shard of the process."""
    match = SHARD_LEASE.fullmatch(lease_name)
    if match is None:
        return []
    return sorted(bot.shards) if match["all"] else [int(match["shard"])]


async def _follow(bot: commands.AutoShardedBot, keeper: LeaseKeeper) -> None:
    ttl = keeper.lease.ttl
    if not math.isfinite(ttl):
        return  # SQLite: this process is the only one
    margin = ttl * MARGIN
    serving = True
    while True:
        left = keeper.expires_in
        safe = left > margin
        if safe != serving:
            serving = safe
            await _switch(bot, shards_of(bot, keeper.lease.name), serving, keeper.lease.name)
        if safe:
            await asyncio.sleep(left - margin)  # a renewal meanwhile moves the end on
        else:
            await keeper.wait_changed(ttl / 3)


async def _switch(bot: commands.AutoShardedBot, shards: list[int], on: bool, name: str) -> None:
    for shard_id in shards:
        shard = bot.get_shard(shard_id)
        if shard is None:
            continue
        if on:
            log.info("lease %s is ours again: connecting shard %s", name, shard_id)
            try:
                await shard.connect()
            except Exception:  # Discord unreachable: discord.py's own reconnect takes over
                log.warning("could not connect shard %s again", shard_id, exc_info=True)
        else:
            log.warning(
                "lease %s could not be renewed: disconnecting shard %s before another process "
                "may take it",
                name,
                shard_id,
            )
            await shard.disconnect()
