"""The real `python -m bot` process against the fake Discord: a quiet start, a clean stop on
SIGTERM or SIGINT, command sync keyed by application and scope, and the sync commands."""

from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

import aiohttp
import pytest

from bot.about import version
from bot.runner import EXIT_TOKEN_REFUSED
from tests.discord_fake import BotProcess, FakeDiscord

pytest_plugins = ["tests.discord_fake.fixtures"]

ANSI = "\x1b["


def _env(db_path: Path, **overrides: str) -> dict[str, str]:
    """Every setting explicit: a developer's own .env must not leak into the test."""
    env = {
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "INFO",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "SOLVER_TIME_BUDGET": "2",
        "GAME_TIMEOUT_HOURS": "24",
        "NO_COLOR": "",
    }
    env.update(overrides)
    return env


def _levels(output: str) -> set[str]:
    return set(re.findall(r"^\S+ \S+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) ", output, re.MULTILINE))


async def _group_gone(pgid: int, timeout: float = 10.0) -> bool:
    """Wait until no process of the bot's group (solver workers, resource tracker) is left, so
    whatever they print at exit is in the output too."""
    deadline = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        await asyncio.sleep(0.05)
    return False


async def _one_shot(fake: FakeDiscord, db_path: Path, *args: str, **env: str) -> BotProcess:
    process = await fake.spawn_bot(env=_env(db_path, **env), args=args)
    await process.wait(60.0)
    return process


def _global_syncs(fake: FakeDiscord) -> int:
    return sum(1 for guild, _ in fake.command_syncs if guild is None)


def _guild_syncs(fake: FakeDiscord, guild: int) -> int:
    return sum(1 for synced, _ in fake.command_syncs if synced == guild)


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mastermind.db"


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_quiet_start_and_clean_stop(
    fake_discord: FakeDiscord, db_path: Path, stop: signal.Signals
) -> None:
    bot = await fake_discord.spawn_bot(env=_env(db_path))
    await bot.wait_ready(timeout=30.0, commands=True)
    rules = await fake_discord.slash("general", "alice", "mastermind", "rules")
    await rules.response()  # it really serves, and the database is in use
    bot.send_signal(stop)
    assert await bot.wait(30.0) == 0
    assert await _group_gone(bot.pid)  # the solver workers exited with it
    output = bot.output

    assert f"mastermind-bot {version()} starting: database {db_path}, 1 solver worker" in output
    start, _, stopping = output.partition(f"{stop.name} received")
    assert _levels(start) == {"INFO"}, output  # no WARNING or ERROR on a clean start
    assert not _levels(stopping) & {"ERROR", "CRITICAL"}, output
    assert "PyNaCl" not in output and "davey" not in output
    assert ANSI not in output  # written to a file, not a terminal
    assert "Traceback" not in output and "leaked semaphore" not in output, output
    assert f"{stop.name} received" in output and "closed cleanly" in output
    assert fake_discord.token not in output
    wal = db_path.with_name(db_path.name + "-wal")
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed and closed


async def test_a_wrong_token_is_one_line(fake_discord: FakeDiscord, db_path: Path) -> None:
    bot = await fake_discord.spawn_bot(env=_env(db_path), token="not.the.token")
    # Its own exit code (#23: was 1), so systemd's RestartPreventExitStatus stops retrying.
    assert await bot.wait(30.0) == EXIT_TOKEN_REFUSED == 3
    errors = [line for line in bot.output_lines if line.startswith("mastermind-bot:")]
    assert len(errors) == 1 and "Discord refused the token" in errors[0], bot.output
    assert "Traceback" not in bot.output and "not.the.token" not in bot.output


async def test_sync_is_keyed_by_application_and_scope(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    guild = fake_discord.guild_id
    for _ in range(2):  # global: the second start syncs nothing
        bot = await fake_discord.spawn_bot(env=_env(db_path))
        await bot.wait_ready(timeout=30.0)
        assert await bot.stop(30.0) == 0
    assert _global_syncs(fake_discord) == 1
    assert "commands unchanged since the last sync globally" in bot.output

    for _ in range(2):  # DEV_GUILD_ID: that server only, synced once, each command once
        bot = await fake_discord.spawn_bot(env=_env(db_path, DEV_GUILD_ID=str(guild)))
        await bot.wait_ready(timeout=30.0)
        assert await bot.stop(30.0) == 0
    assert _guild_syncs(fake_discord, guild) == 1 and _global_syncs(fake_discord) == 1
    assert [c["name"] for c in fake_discord.synced_commands(guild)] == ["mastermind"]
    # The global commands from the first runs are still there: the log says how to remove them.
    assert "server" in bot.output and "`python -m bot unsync`" in bot.output

    unsync = await _one_shot(fake_discord, db_path, "unsync")
    assert unsync.returncode == 0, unsync.output
    assert "removed 1 command(s) globally" in unsync.output
    assert fake_discord.synced_commands() == []

    bot = await fake_discord.spawn_bot(env=_env(db_path, DEV_GUILD_ID=str(guild)))
    await bot.wait_ready(timeout=30.0)
    assert await bot.stop(30.0) == 0
    assert _levels(bot.output) == {"INFO"}, bot.output  # nothing shows twice any more

    # Back to global: the dev server's copies are removed, so nothing shows twice there.
    bot = await fake_discord.spawn_bot(env=_env(db_path))
    await bot.wait_ready(timeout=30.0, commands=True)
    assert await bot.stop(30.0) == 0
    assert fake_discord.synced_commands(guild) == []
    assert [c["name"] for c in fake_discord.synced_commands()] == ["mastermind"]

    async with FakeDiscord() as other:  # a new application, the same database: syncs again
        bot = await other.spawn_bot(env=_env(db_path))
        await bot.wait_ready(timeout=30.0, commands=True)
        assert await bot.stop(30.0) == 0
        assert [c["name"] for c in other.synced_commands()] == ["mastermind"]
        other.assert_no_violations()


async def test_a_wrong_dev_guild_is_one_line_and_the_bot_keeps_running(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    wrong = "123456789012345678"
    bot = await fake_discord.spawn_bot(env=_env(db_path, DEV_GUILD_ID=wrong))
    await bot.wait_ready(timeout=30.0)
    rules = await fake_discord.slash("general", "alice", "mastermind", "rules")
    assert (await rules.response()).text  # it still answers
    assert bot.returncode is None
    assert await bot.stop(30.0) == 0
    errors = [line for line in bot.output_lines if " ERROR " in line]
    assert len(errors) == 1, bot.output
    assert wrong in errors[0] and "not in that server" in errors[0]
    assert "applications.commands" in errors[0]
    assert "Traceback" not in bot.output


async def test_sync_and_unsync_commands(fake_discord: FakeDiscord, db_path: Path) -> None:
    guild = fake_discord.guild_id
    first = await _one_shot(fake_discord, db_path, "sync")
    assert first.returncode == 0, first.output
    assert "synced 1 command(s) globally" in first.output
    again = await _one_shot(fake_discord, db_path, "sync")  # forced: syncs although unchanged
    assert again.returncode == 0 and _global_syncs(fake_discord) == 2

    bot = await fake_discord.spawn_bot(env=_env(db_path))
    await bot.wait_ready(timeout=30.0)
    assert _global_syncs(fake_discord) == 2  # `sync` stored what it synced: no sync at start

    # While the bot runs (and holds the database), the one-shot commands still work.
    to_guild = await _one_shot(fake_discord, db_path, "sync", "--guild", str(guild))
    assert to_guild.returncode == 0, to_guild.output
    assert [c["name"] for c in fake_discord.synced_commands(guild)] == ["mastermind"]
    removed = await _one_shot(fake_discord, db_path, "unsync", "--guild", str(guild))
    assert removed.returncode == 0 and f"removed 1 command(s) from server {guild}" in removed.output
    assert fake_discord.synced_commands(guild) == []
    assert [c["name"] for c in fake_discord.synced_commands()] == ["mastermind"]
    assert bot.returncode is None
    assert await bot.stop(30.0) == 0

    refused = await _one_shot(fake_discord, db_path, "sync", "--guild", "42")
    assert refused.returncode == 1
    errors = [line for line in refused.output_lines if line.startswith("mastermind-bot:")]
    assert len(errors) == 1 and "server 42" in errors[0] and "applications.commands" in errors[0]
    assert "(--guild)" in errors[0] and "DEV_GUILD_ID" not in errors[0]  # what was typed
    assert "keeps running" not in errors[0]  # it exits
    assert "Traceback" not in refused.output
    for one_shot in (first, again, to_guild, removed, refused):  # no "Guilds intent" WARNING
        assert " WARNING " not in one_shot.output, one_shot.output
    assert fake_discord.token not in first.output + refused.output


def _global_commands(fake: FakeDiscord) -> list[tuple[int, str, str]]:
    return [(c["type"], c["name"], c["id"]) for c in fake.synced_commands()]


def _with_activities(fake: FakeDiscord) -> str:
    """Activities on: Discord's Entry Point is a global command (its id returned), and a bulk
    overwrite that leaves it out is refused with 50240."""
    fake.enable_activities()
    [entry] = fake.synced_commands()
    return str(entry["id"])


async def test_the_start_up_sync_keeps_the_entry_point(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    """The bot syncs at start beside the Entry Point (handler unchanged: still Discord's to
    handle); with DEV_GUILD_ID the warning about global copies does not count it."""
    entry = _with_activities(fake_discord)
    bot = await fake_discord.spawn_bot(env=_env(db_path))
    await bot.wait_ready(timeout=30.0, commands=True)
    assert await bot.stop(30.0) == 0
    assert _levels(bot.output) == {"INFO"}, bot.output
    [mastermind] = [c for c in fake_discord.synced_commands() if c["type"] == 1]
    assert _global_commands(fake_discord) == [
        (1, "mastermind", mastermind["id"]),
        (4, "launch", entry),
    ]
    assert fake_discord.synced_commands()[1]["handler"] == 2

    fake_discord.commands[None] = [
        c for c in fake_discord.synced_commands() if c["type"] == 4
    ]  # only the Entry Point is global now: no copy of the bot's commands to warn about
    dev = await fake_discord.spawn_bot(env=_env(db_path, DEV_GUILD_ID=str(fake_discord.guild_id)))
    await dev.wait_ready(timeout=30.0, commands=True)
    assert await dev.stop(30.0) == 0
    assert _levels(dev.output) == {"INFO"}, dev.output


async def test_sync_keeps_the_entry_point(fake_discord: FakeDiscord, db_path: Path) -> None:
    entry = _with_activities(fake_discord)
    forced = await _one_shot(fake_discord, db_path, "sync")
    assert forced.returncode == 0, forced.output
    assert "synced 1 command(s) globally" in forced.output
    [mastermind] = [c for c in fake_discord.synced_commands() if c["type"] == 1]
    assert _global_commands(fake_discord) == [
        (1, "mastermind", mastermind["id"]),
        (4, "launch", entry),
    ]


async def test_unsync_removes_the_bots_commands_and_keeps_the_entry_point(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    entry = _with_activities(fake_discord)
    launch = {k: fake_discord.synced_commands()[0][k] for k in ("type", "name", "handler")}
    mastermind = {"type": 1, "name": "mastermind", "description": "Play Mastermind"}
    url = f"{fake_discord.rest_base}/applications/{fake_discord.application_id}/commands"
    async with (  # the bot's command beside the Entry Point, as an earlier sync left them
        aiohttp.ClientSession(headers={"Authorization": f"Bot {fake_discord.token}"}) as http,
        http.put(url, json=[mastermind, launch]) as response,
    ):
        assert response.status == 200
    removed = await _one_shot(fake_discord, db_path, "unsync")
    assert removed.returncode == 0, removed.output
    assert "removed 1 command(s) globally" in removed.output
    assert _global_commands(fake_discord) == [(4, "launch", entry)]
