"""Leases on PostgreSQL: one holder at a time, renewed while it lives, taken over once it stops
renewing (a dead process), handed over at once on release. SQLite's lease is always held."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cluster import JOBS_LEASE, LeaseKeeper, open_lease
from bot.store import open_store
from bot.store.leases import LocalLease
from bot.store.postgres_dialect import PostgresLease
from tests.store.postgres_server import query


async def test_one_holder_renewal_expiry_and_release(postgres_url: str) -> None:
    async with await open_store(postgres_url) as store:
        a = open_lease(store, JOBS_LEASE, holder="a", ttl=0.6)
        b = open_lease(store, JOBS_LEASE, holder="b", ttl=0.6)
        assert isinstance(a, PostgresLease)
        assert await a.claim() and not await b.claim()
        assert await a.claim() and not await b.claim()  # renewed, still a's
        assert await b.current_holder() == "a"
        await asyncio.sleep(0.7)  # a stopped renewing: it lapses
        assert await b.current_holder() is None
        assert await b.claim() and not await a.claim()
        await b.release()
        assert await a.claim()  # at once after a release
    assert query(postgres_url, "SELECT name, holder FROM leases") == [(JOBS_LEASE, "a")]


async def test_keepers_hold_it_one_at_a_time_and_take_over(postgres_url: str) -> None:
    """Three processes keep the lease; at every instant at most one believes it holds it, and
    when the holder dies (stops renewing without releasing) another takes over."""
    stores = [await open_store(postgres_url) for _ in range(3)]
    keepers = [
        LeaseKeeper(open_lease(s, JOBS_LEASE, holder=f"p{i}", ttl=0.6))
        for i, s in enumerate(stores)
    ]
    try:
        held = [await keeper.start() for keeper in keepers]
        assert held.count(True) == 1
        first = held.index(True)
        for _ in range(20):  # 1 s: renewals keep it with the first holder
            assert [k.held for k in keepers].count(True) <= 1
            await asyncio.sleep(0.05)
        assert keepers[first].held and keepers[first].term == 1

        task = keepers[first]._task
        assert task is not None
        task.cancel()  # the holder dies: no renewal, no release
        await asyncio.sleep(0)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 3.0
        while not any(k.held for i, k in enumerate(keepers) if i != first):
            assert [k.held for k in keepers].count(True) <= 1
            assert loop.time() < deadline, "nobody took the lease over"
            await asyncio.sleep(0.02)
        assert not keepers[first].held  # the dead holder's own view lapsed first
        taker = next(k for i, k in enumerate(keepers) if i != first and k.held)
        assert taker.term == 1

        await taker.close()  # a clean stop hands it over without waiting for the expiry
        others = [k for i, k in enumerate(keepers) if i != first and k is not taker]
        await asyncio.wait_for(others[0].wait_held(), 1.0)
    finally:
        for keeper in keepers:
            await keeper.close()
        for store in stores:
            await store.close()


async def test_sqlite_always_holds_its_leases(tmp_path: Path) -> None:
    async with await open_store(tmp_path / "games.db") as store:
        keeper = LeaseKeeper(open_lease(store, JOBS_LEASE))
        assert isinstance(keeper.lease, LocalLease)
        assert await keeper.start() and keeper.held and keeper.term == 1
        await keeper.close()


async def test_a_shard_runs_in_one_process_and_a_crashed_holder_is_taken_over(
    postgres_url: str,
) -> None:
    """Two processes told to run shard 1 would answer its interactions twice: the second is
    refused in one line naming the first, holding nothing. A holder on this host whose process
    has exited (a crash) is taken over at once rather than after its lease lapses."""
    import socket
    import subprocess
    import sys

    import pytest

    from bot.cluster import ShardTaken, hold_shards

    async with (
        await open_store(postgres_url) as first,
        await open_store(postgres_url) as second,
    ):
        held = await hold_shards(first, [0, 1], 3, ttl=30)
        with pytest.raises(ShardTaken, match=r"^shard 1 is already run by .* pid ") as refused:
            await hold_shards(second, [1, 2], 3, ttl=30)
        assert "\n" not in str(refused.value)
        rows = query(postgres_url, "SELECT name FROM leases ORDER BY name")
        # Shard 2 was not kept by the refused one. (The names carry the count since #22.)
        assert rows == [("shard:0/3",), ("shard:1/3",)]
        for keeper in held:
            await keeper.close()
        taken = await hold_shards(second, [1, 2], 3, ttl=30)  # released: at once
        for keeper in taken:
            await keeper.close()

        exited = subprocess.run(
            [sys.executable, "-c", "import os; print(os.getpid())"],
            capture_output=True,
            text=True,
            check=True,
        )
        dead = f"{socket.gethostname()} pid {exited.stdout.strip()} (abc123)"
        query(
            postgres_url,
            "INSERT INTO leases (name, holder, expires_at) "
            "VALUES ('shard:all', $1, clock_timestamp() + interval '1 hour')",
            (dead,),
        )
        revived = await hold_shards(first, None, None, ttl=30)
        assert await revived[0].lease.current_holder() == revived[0].lease.holder
        for keeper in revived:
            await keeper.close()
        alive = f"{socket.gethostname()} pid 1 (abc123)"  # pid 1 lives: never taken over
        query(
            postgres_url,
            "INSERT INTO leases (name, holder, expires_at) "
            "VALUES ('shard:all', $1, clock_timestamp() + interval '1 hour')",
            (alive,),
        )
        with pytest.raises(ShardTaken, match="pid 1 "):
            await hold_shards(second, None, None, ttl=30)


async def test_on_sqlite_every_shard_is_this_process(tmp_path: Path) -> None:
    from bot.cluster import hold_shards

    async with await open_store(tmp_path / "bot.db") as store:
        keepers = await hold_shards(store, [0, 1], 2, ttl=30)
        assert [k.held for k in keepers] == [True, True]
        for keeper in keepers:
            await keeper.close()


SHARD_SETS: dict[str, tuple[list[int] | None, int | None]] = {
    "every shard": (None, None),
    "every shard of 2": (None, 2),
    "shard 0 of 2": ([0], 2),
    "shard 1 of 2": ([1], 2),
    "shards 0,1 of 4": ([0, 1], 4),
    "shards 2,3 of 4": ([2, 3], 4),
    "shard 2 of 4": ([2], 4),
}
"""What SHARD_IDS and SHARD_COUNT ask a process to run."""


@pytest.mark.parametrize(
    ("running", "starting", "why"),
    [
        ("every shard", "every shard", "shard all is already run by"),
        ("every shard", "shard 1 of 2", "every shard is already run by"),
        ("every shard of 2", "shards 0,1 of 4", "every shard is already run by"),
        ("shard 1 of 2", "every shard", "shard 1 of 2 is already run by"),
        ("shard 0 of 2", "shard 2 of 4", "SHARD_COUNT=4"),  # guilds of shard 2 of 4 are in both
        ("shard 2 of 4", "shard 1 of 2", "SHARD_COUNT=2"),  # apart today, not once both grow
        ("shards 0,1 of 4", "shard 1 of 2", "SHARD_COUNT=2"),
        ("shards 0,1 of 4", "shards 2,3 of 4", None),
        ("shard 0 of 2", "shard 1 of 2", None),
    ],
)
async def test_a_process_is_refused_beside_one_that_runs_any_of_its_servers(
    postgres_url: str, running: str, starting: str, why: str | None
) -> None:
    """Lease names never conflict across SHARD_COUNTs or with every-shard: what the processes
    run is compared, and the one that starts second is refused in one line naming the first."""
    from bot.cluster import ShardTaken, hold_shards

    async with (
        await open_store(postgres_url) as first,
        await open_store(postgres_url) as second,
    ):
        held = await hold_shards(first, *SHARD_SETS[running], ttl=30)
        try:
            if why is None:  # both run: the second holds a lease of its own for each shard
                started = await hold_shards(second, *SHARD_SETS[starting], ttl=30)
                try:
                    assert started and all(keeper.held for keeper in started)
                    names = [name for (name,) in query(postgres_url, "SELECT name FROM leases")]
                    ours = [keeper.lease.name for keeper in [*held, *started]]
                    assert sorted(names) == sorted(ours) and len(set(ours)) == len(ours)
                finally:
                    for keeper in started:
                        await keeper.close()
                return
            with pytest.raises(ShardTaken) as refused:
                await hold_shards(second, *SHARD_SETS[starting], ttl=30)
            line = str(refused.value)
            assert why in line and held[0].lease.holder in line and "\n" not in line
            names = query(postgres_url, "SELECT name FROM leases")
            assert len(names) == len(held)  # the refused one keeps nothing
        finally:
            for keeper in held:
                await keeper.close()
