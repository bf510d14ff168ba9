"""Shards and shard clusters: the settings, one process running every shard on SQLite, and two
`python -m bot` processes (two shards of one bot) sharing one real PostgreSQL database behind
the fake Discord, which routes each guild's events by `(guild_id >> 22) % shard_count`."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from pathlib import Path

import pytest

from bot.app import MastermindBot
from bot.cluster import JOBS_LEASE, Cluster, LeaseKeeper, ShardTaken, hold_shards, open_lease
from bot.config import ConfigError, Settings
from bot.modes.race.rules import RaceGame, new_race_game
from bot.store import open_store
from tests.bot.helpers import board_shows
from tests.discord_fake import BotProcess, FakeDiscord, FakeMessage
from tests.store.outage import Outage
from tests.store.pg_fixtures import postgres_server, postgres_url
from tests.store.postgres_server import query

__all__ = ["postgres_server", "postgres_url"]  # the fixtures of a real PostgreSQL server

PG = "postgresql://bot:s3cret@db.example:5432/mastermind"


# --- settings ------------------------------------------------------------------------------


def test_cluster_settings_are_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "t",
            "DATABASE_URL": PG,
            "SHARD_COUNT": "4",
            "SHARD_IDS": "3, 0-1",
            "LEASE_SECONDS": "10",
        }
    )
    assert settings.database == PG and settings.shard_ids == (0, 1, 3)
    assert (settings.shard_count, settings.lease_seconds) == (4, 10)
    assert settings.shards_label == "shard(s) 0,1,3 of 4"
    assert "s3cret" not in repr(settings) and "bot:***@db.example:5432" in repr(settings)
    default = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert default.database == Path("mastermind.db") and default.shard_ids is None
    one_process = Settings.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"})
    assert one_process.shard_count == 2 and one_process.shard_ids is None  # SQLite: all shards


@pytest.mark.parametrize(
    ("env", "fragment"),
    [
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "must share a PostgreSQL database"),
        ({"DATABASE_URL": PG, "SHARD_IDS": "1"}, "needs SHARD_COUNT"),
        ({"DATABASE_URL": PG, "SHARD_COUNT": "2", "SHARD_IDS": "2"}, "from 0 to 1"),
        ({"DATABASE_URL": PG, "SHARD_COUNT": "2", "SHARD_IDS": "0,0"}, "distinct"),
        ({"DATABASE_URL": PG, "SHARD_COUNT": "2", "SHARD_IDS": "one"}, "like 0,1"),
        ({"SHARD_COUNT": "0"}, "between"),
        ({"LEASE_SECONDS": "0"}, "between"),
        ({"DATABASE_URL": "mysql://u:pw@h/db"}, "PostgreSQL URL"),
    ],
)
def test_bad_cluster_settings_are_one_line(env: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment) as caught:
        Settings.from_env({"DISCORD_TOKEN": "t", **env})
    assert "\n" not in str(caught.value) and "pw@" not in str(caught.value)


# --- one process, every shard (SQLite) -----------------------------------------------------


async def play_game(fake: FakeDiscord, channel: str, user: str) -> FakeMessage:
    handle = await fake.slash(channel, user, "mastermind", "play")
    return await handle.settled()


class QuickIdentify(MastermindBot):
    """The bot, without discord.py's 5 s pause between its shards' IDENTIFYs (Discord's
    rate limit, which the fake does not enforce)."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


async def test_one_process_runs_every_shard_discord_asks_for(tmp_path: Path) -> None:
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        assert [fake.shard_of(g) for g in fake.guild_ids] == [0, 1]
        settings = Settings(token=fake.token, database_path=tmp_path / "m.db")
        async with fake.run_in_process(lambda: QuickIdentify(settings), timeout=30.0) as bot:
            assert bot.shard_count == 2 and len(bot.guilds) == 2  # from GET /gateway/bot
            for channel in ("general", "general-2"):
                board = await play_game(fake, channel, "alice")
                assert "Guesses left" in board.text
        fake.assert_no_violations()


# --- two processes, one PostgreSQL -----------------------------------------------------------


def cluster_env(url: str, shard: int, **extra: str) -> dict[str, str]:
    """Every setting explicit: a developer's own .env must not leak into the test."""
    return {
        "DATABASE_URL": url,
        "DATABASE_PATH": "",
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "LEASE_SECONDS": "2",
        "LOG_LEVEL": "INFO",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "SOLVER_TIME_BUDGET": "2",
        "GAME_TIMEOUT_HOURS": "24",
        "NO_COLOR": "1",
        **extra,
    }


def secret_of(url: str, channel_id: int) -> str:
    """The active game's secret as digits (the test peeks like a cheating player would)."""
    ((secret,),) = query(
        url, "SELECT secret FROM games WHERE channel_id = ? AND status = 'active'", (channel_id,)
    )
    return "".join(str(colour + 1) for colour in json.loads(secret))


def wrong(url: str, channel_id: int) -> str:
    """A code that is not the channel's secret."""
    secret = secret_of(url, channel_id)
    return ("2" if secret[0] == "1" else "1") + secret[1:]


def passes(*processes: BotProcess) -> list[str]:
    """The expiry passes that ended games, in every process's log."""
    return [line for p in processes for line in p.output_lines if "nobody played for" in line]


async def guess(fake: FakeDiscord, channel: str, user: str, code: str) -> str:
    handle = await fake.slash(channel, user, "mastermind", "guess", options={"code": code})
    return (await handle.response()).text


async def test_two_shard_processes_share_one_postgres(postgres_url: str) -> None:
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        first = await fake.spawn_bot(env=cluster_env(postgres_url, 0))
        await first.wait_ready(timeout=30.0, commands=True)
        second = await fake.spawn_bot(env=cluster_env(postgres_url, 1))
        await second.wait_ready(timeout=30.0)
        restarted: BotProcess | None = None
        try:
            # Each process runs its shard: only its guild, and each guild's games go to it.
            assert "ready as Mastermind in 1 server" in first.output
            assert "ready as Mastermind in 1 server" in second.output
            assert "now runs the jobs of lease background-jobs" in first.output
            assert "stale games ended, by" in second.output
            assert fake.shard_of("general") == 0 and fake.shard_of("general-2") == 1
            kept = {c: await play_game(fake, c, "alice") for c in ("general", "general-2")}
            stale = {c: await play_game(fake, c, "carol") for c in ("games", "games-2")}
            ids = {c: fake.channel(c).id for c in (*kept, *stale)}
            for channel in kept:
                assert "guessed" in await guess(
                    fake, channel, "bob", wrong(postgres_url, ids[channel])
                )
            query(
                postgres_url,
                "UPDATE games SET last_move_at = now() - interval '3 days' "
                f"WHERE channel_id IN ({ids['games']}, {ids['games-2']})",
            )

            first.kill()  # the lease holder dies; the other shard keeps playing
            await first.wait(10.0)
            await guess(fake, "general-2", "dave", wrong(postgres_url, ids["general-2"]))
            for board in stale.values():  # shard 1 took the jobs over and ended both
                await board_shows(fake, board, "Timed out")
            assert query(postgres_url, "SELECT count(*) FROM games WHERE status = 'abandoned'")[
                0
            ] == (2,)
            winning = secret_of(postgres_url, ids["general-2"])
            assert "cracked the code" in await guess(fake, "general-2", "bob", winning)

            restarted = await fake.spawn_bot(env=cluster_env(postgres_url, 0))
            await restarted.wait_ready(timeout=30.0)
            assert "stale games ended, by" in restarted.output  # the lease stays with shard 1
            winning = secret_of(postgres_url, ids["general"])
            assert "cracked the code" in await guess(fake, "general", "alice", winning)
            await board_shows(fake, kept["general"], "Cracked by")
        finally:
            processes = [p for p in (first, second, restarted) if p is not None]
            for process in reversed(processes):
                await process.stop(timeout=15.0)

        # The expiry job ran once: one pass, in the process that took the lease over.
        assert passes(first, restarted or first) == []
        assert len(passes(second)) == 1 and "ended 2 game(s)" in passes(second)[0]
        timeouts = query(postgres_url, "SELECT game_id FROM moves WHERE kind = 'timeout'")
        assert len(timeouts) == 2  # one timeout move per stale game, nothing twice
        rows = query(
            postgres_url,
            "SELECT g.channel_id, g.status, count(m.*) FROM games g JOIN moves m "
            "ON m.game_id = g.id GROUP BY g.id ORDER BY g.id",
        )
        assert rows == [  # nothing lost: every move of every game, in both guilds
            (ids["general"], "won", 2),
            (ids["general-2"], "won", 3),
            (ids["games"], "abandoned", 1),
            (ids["games-2"], "abandoned", 1),
        ]
        assert [sync for sync in fake.command_syncs if sync[0] is None] == [(None, 1)]
        assert second.returncode == 0 and (restarted is None or restarted.returncode == 0)
        fake.assert_no_violations()


async def test_a_process_whose_servers_another_runs_is_refused_at_start_in_one_line(
    postgres_url: str,
) -> None:
    """Beside `SHARD_COUNT=2 SHARD_IDS=0`, neither `SHARD_COUNT=4 SHARD_IDS=2` (its servers are
    some of shard 0's) nor a process with no SHARD_IDS (every server) may start: each exits
    before it connects, in one line naming the running process."""
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        first = await fake.spawn_bot(env=cluster_env(postgres_url, 0))
        try:
            await first.wait_ready(timeout=30.0)
            for extra in ({"SHARD_COUNT": "4", "SHARD_IDS": "2"}, {"SHARD_IDS": ""}):
                refused = await fake.spawn_bot(env=cluster_env(postgres_url, 0, **extra))
                assert await refused.wait(30.0) == 1, refused.output
                lines = [s for s in refused.output_lines if s.startswith("mastermind-bot:")]
                assert len(lines) == 1 and f"pid {first.pid} " in lines[0], refused.output
                assert "Traceback" not in refused.output and "ready as" not in refused.output
        finally:
            await first.stop(timeout=15.0)


# --- clocks in a cluster -----------------------------------------------------------------------


async def test_a_process_without_the_jobs_lease_rearms_the_clocks_of_its_own_races(
    postgres_url: str,
) -> None:
    """Timers live in memory: a process that starts while another holds the jobs lease (whose
    pass runs every ten minutes) starts its own shard's overdue lobby at once and sets the
    timers of its own races, and leaves the other shard's races to that shard's process."""
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        store = await open_store(postgres_url)
        jobs = LeaseKeeper(open_lease(store, JOBS_LEASE, holder="the other process", ttl=60))
        try:
            assert await jobs.start()
            opened = int(time.time()) - 61  # its lobby closed a second ago
            races: dict[str, RaceGame] = {}
            for name in ("general", "general-2"):
                channel = fake.channel(name)
                races[name] = await store.start(
                    new_race_game(
                        guild_id=channel.guild_id,
                        channel_id=channel.id,
                        starter_id=fake.user("alice").id,
                        opened_at=opened,
                        join_seconds=60,
                        time_limit=600,
                    )
                )
            assert fake.shard_of("general") == 0 and fake.shard_of("general-2") == 1
            settings = Settings(
                token=fake.token,
                database_url=postgres_url,
                shard_count=2,
                shard_ids=(1,),
                lease_seconds=60,
            )
            async with fake.run_in_process(lambda: QuickIdentify(settings), timeout=30.0) as bot:
                assert bot.jobs is not None and not bot.jobs.held
                await fake.wait_for(
                    lambda: any(
                        "The race has started" in m.text for m in fake.messages("general-2")
                    ),
                    what="shard 1's lobby started by its own process's clock",
                )
                ours, theirs = (races[name].id for name in ("general-2", "general"))
                await fake.wait_for(
                    lambda: bot.timers.is_set(f"race:{ours}"), what="the race's end armed"
                )
                assert not bot.timers.is_set(f"race:{theirs}")
            rows = query(postgres_url, "SELECT game_id FROM moves WHERE kind = 'start'")
            assert rows == [(ours,)]  # shard 0's race waits for shard 0's process
            assert fake.messages("general") == []
        finally:
            await jobs.close()
            await store.close()


# --- a process cut off from the database -------------------------------------------------------

LEASE = 2.0
"""LEASE_SECONDS of the outage tests: an outage of three of them outlasts every lease."""


async def test_a_process_cut_off_from_the_database_lets_its_shard_go_before_another_takes_it(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Shard 1's process loses PostgreSQL for longer than LEASE_SECONDS: it disconnects shard 1
    from Discord before a second process (which still reaches the database) can take the shard,
    and does not take it back when the database returns, since the second one runs it now."""
    caplog.set_level(logging.INFO)
    async with FakeDiscord(guilds=2, shard_count=2) as fake, Outage(postgres_url) as outage:
        store = await open_store(outage.url)
        keepers = await hold_shards(store, [1], 2, ttl=LEASE)
        settings = Settings(
            token=fake.token,
            database_url=outage.url,
            shard_count=2,
            shard_ids=(1,),
            lease_seconds=LEASE,
        )

        def cut_off_process() -> MastermindBot:
            cluster = Cluster(store, ttl=LEASE, shards=keepers)
            return QuickIdentify(settings, store=store, cluster=cluster)

        other = await open_store(postgres_url)
        taken: list[LeaseKeeper] = []
        try:
            async with fake.run_in_process(cut_off_process, timeout=30.0) as bot:
                assert "Guesses left" in (await play_game(fake, "general-2", "alice")).text
                shard = bot.get_shard(1)
                assert shard is not None and not shard.is_closed()
                outage.cut()
                deadline = time.monotonic() + 4 * LEASE
                while not taken:
                    assert time.monotonic() < deadline, "the lease never lapsed"
                    try:
                        taken = await hold_shards(other, [1], 2, ttl=LEASE)
                    except ShardTaken:  # still live: its holder may still serve it
                        await asyncio.sleep(0.02)
                assert shard.is_closed()  # it had let the shard go when the other took it
                refused: list[bool] = []
                lease = keepers[0].lease
                claim = lease.claim

                async def noted_claim() -> bool:
                    ours = await claim()
                    refused.append(not ours)
                    return ours

                lease.claim = noted_claim  # type: ignore[method-assign]
                outage.restore()
                await fake.wait_for(  # its keeper reaches the database again, and is refused
                    lambda: any(refused), 3 * LEASE, "the cut-off keeper's claim to be refused"
                )
                assert shard.is_closed() and not keepers[0].held  # and takes nothing back
            lines = [r.getMessage() for r in caplog.records if r.name == "bot.cluster.guard"]
            assert any("disconnecting shard 1" in line for line in lines), lines
        finally:
            outage.restore()
            for keeper in taken:
                await keeper.close()
            await other.close()


async def test_a_chore_that_lost_the_jobs_lease_stops_before_its_next_write(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """The jobs-lease holder's clock pass is held up on Discord (its announcement of the first
    overdue race) while its database is away for longer than LEASE_SECONDS and another process
    takes the jobs lease: when both come back it does not move the second race, whose clock is
    the new holder's to run now."""
    caplog.set_level(logging.INFO)
    async with FakeDiscord(guilds=1) as fake, Outage(postgres_url) as outage:
        settings = Settings(token=fake.token, database_url=outage.url, lease_seconds=LEASE)
        other = await open_store(postgres_url)
        taker = LeaseKeeper(open_lease(other, JOBS_LEASE, holder="the other process", ttl=LEASE))
        try:
            async with fake.run_in_process(lambda: QuickIdentify(settings), timeout=30.0) as bot:
                assert bot.jobs is not None and bot.jobs.held
                opened = int(time.time()) - 61  # both lobbies closed a second ago
                races = [
                    await bot.store.start(
                        new_race_game(
                            guild_id=fake.guild_id,
                            channel_id=fake.channel(name).id,
                            starter_id=fake.user("alice").id,
                            opened_at=opened,
                            join_seconds=60,
                            time_limit=600,
                        )
                    )
                    for name in ("general", "games")
                ]
                first = fake.channel("general").id
                held_up = fake.stall_next("POST", rf"/channels/{first}/messages")
                chores = asyncio.create_task(bot.chores_pass())
                await held_up.wait_arrived()  # the first race is started, its line not yet sent
                outage.cut()
                await fake.wait_for(lambda: not bot.jobs.held, LEASE * 2, "the lease lapsed")
                while not await taker.start():  # the other process takes the jobs over
                    await asyncio.sleep(0.05)
                outage.restore()
                held_up.release(serve=True)
                await asyncio.wait_for(chores, 10.0)
                started = query(postgres_url, "SELECT game_id FROM moves WHERE kind = 'start'")
                assert started == [(races[0].id,)]  # not the second: that is the new holder's
            lines = [r.getMessage() for r in caplog.records]
            assert not any("the clock moved 2 race(s)" in line for line in lines)
        finally:
            outage.restore()
            await taker.close()
            await other.close()
