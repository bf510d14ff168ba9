"""Shard leases: a process runs a shard of Discord's servers only while it holds that shard's
lease, so no server is ever answered by two processes."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from bot.cluster.leases import LEASE_SECONDS, LeaseKeeper, dead_here, open_lease, process_name
from bot.store import Lease, Store

log = logging.getLogger(__name__)

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
