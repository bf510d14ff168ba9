"""The opt-in Prometheus endpoint (#31), scraped from the real `python -m bot` while players
play through the fake Discord: every listed series is there and counts what happened; without
METRICS_PORT nothing listens."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import urllib.request
from pathlib import Path

from tests.discord_fake import FakeDiscord


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _env(tmp_path: Path, port: int | None) -> dict[str, str]:
    cache = tmp_path / "cache"
    shutil.copytree(os.environ["NUMBA_CACHE_DIR"], cache)  # conftest filled it: no compile
    return {
        "DATABASE_PATH": str(tmp_path / "mastermind.db"),
        "CACHE_DIR": str(cache),
        "DEV_GUILD_ID": "",
        "METRICS_PORT": "" if port is None else str(port),
    }


def _scrape(port: int) -> dict[str, float]:
    """`name{labels}` -> value, for every sample."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    samples = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            samples[name] = float(value)
    return samples


def _value(samples: dict[str, float], pattern: str) -> float:
    """The sum of the samples whose `name{labels}` matches `pattern` (a regex)."""
    return sum(value for name, value in samples.items() if re.fullmatch(pattern, name))


async def test_a_scrape_during_play_has_every_series(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    port = _free_port()
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, port))
    await bot.wait_ready(timeout=15.0, commands=True)
    assert f"metrics at http://127.0.0.1:{port}/metrics" in bot.output
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    for code in ("1122", "3344"):
        guess = await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": code}
        )
        await guess.response()
    solve = await (await fake_discord.slash("games", "carol", "mastermind", "solve")).settled(
        timeout=30.0
    )
    await fake_discord.click(solve, "⚫", user="carol")
    await (await fake_discord.slash("general", "alice", "mastermind", "rules")).response()
    await asyncio.sleep(0.5)  # the last board edits land
    assert board.text

    samples = await asyncio.to_thread(_scrape, port)
    answered = r'mastermind_interactions_total\{kind="([^"]+)",outcome="answered"\}'
    assert _value(samples, answered.replace('([^"]+)', "command:guess")) == 2
    assert _value(samples, answered.replace('([^"]+)', "command:play")) == 1
    assert _value(samples, answered.replace('([^"]+)', "component")) == 1
    assert _value(samples, answered) >= 6
    assert _value(samples, r"mastermind_interaction_first_answer_seconds_count") >= 6
    assert _value(samples, r'mastermind_store_transaction_seconds_count\{access="write"\}') >= 4
    assert _value(samples, r'mastermind_store_transaction_seconds_count\{access="read"\}') >= 1
    assert _value(samples, r"mastermind_store_commit_seconds_count") >= 1
    assert _value(samples, r"mastermind_solver_job_seconds_count") >= 3  # warm-up, opening, move
    assert _value(samples, r"mastermind_solver_jobs_in_flight") == 0
    assert _value(samples, r"mastermind_board_edits_total") >= 1  # the guesses, drawn at once
    route = r"PATCH /channels/\{channel_id\}/messages/\{message_id\}"
    edits = rf'mastermind_discord_request_seconds_count\{{route="{route}"\}}'
    assert _value(samples, edits) == _value(samples, r"mastermind_board_edits_total")
    assert "mastermind_discord_rate_limited_total" in samples
    assert "mastermind_discord_rate_limit_wait_seconds_total" in samples
    assert _value(samples, r'mastermind_worker_resident_bytes\{pid="\d+",pool="solver"\}') > 50e6
    assert _value(samples, r"process_resident_memory_bytes") > 30e6
    await asyncio.sleep(0)
    # The running games are sampled every 15 s; the first sample comes at start (none yet).
    assert r'mastermind_games_running{mode="play"}' in samples
    assert await bot.stop(15.0) == 0
    assert "Traceback" not in bot.output


async def test_discord_py_s_waits_on_an_empty_bucket_are_counted_by_route(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Under the fake's real limits (5 sends and edits per 5 s per channel), one channel's
    board redrawn for 7 guesses in a row empties its bucket: discord.py then holds the edits
    until the bucket resets, with no 429, and the endpoint counts those waits and their
    seconds for the board's route."""
    assert fake_discord.rate_limiter is not None  # Discord's limits, as in production
    port = _free_port()
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, port))
    await bot.wait_ready(timeout=15.0, commands=True)
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()

    def shows(move: int) -> bool:
        return f"move {move}" in str(((board.embed or {}).get("footer") or {}).get("text"))

    codes = ("1122", "3344", "5566", "1234", "2345", "3456", "4561")
    for move, code in enumerate(codes, start=1):
        guess = await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": code}
        )
        await guess.response()
        await fake_discord.wait_for(lambda: shows(move), 10.0, f"move {move} drawn")  # noqa: B023

    samples = await asyncio.to_thread(_scrape, port)
    route = r"PATCH /channels/\{channel_id\}/messages/\{message_id\}"
    waits = _value(samples, rf'mastermind_discord_bucket_waits_total\{{route="{route}"\}}')
    held = _value(samples, rf'mastermind_discord_bucket_wait_seconds_total\{{route="{route}"\}}')
    assert waits >= 1, [f"{k} {v}" for k, v in samples.items() if k.startswith("mastermind_disc")]
    assert 0.5 < held < 6.0 * waits, (waits, held)  # up to a 5 s window per wait
    assert fake_discord.rate_limiter.hits == []  # pre-emptive waits, not 429s
    assert _value(samples, r"mastermind_discord_rate_limited_total") == 0
    assert await bot.stop(15.0) == 0
    assert "Traceback" not in bot.output


async def test_without_a_port_nothing_listens(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, None))
    await bot.wait_ready(timeout=15.0, commands=True)
    assert "metrics at" not in bot.output
    assert await bot.stop(15.0) == 0


def test_a_429_discord_py_waits_out_is_counted_with_its_wait() -> None:
    """discord.py's own WARNING for each 429 is what the endpoint counts (the fake's limits
    are met by discord.py's pre-emptive waits, so a real run seldom sees one)."""
    import logging

    from bot.prometheus import Prometheus

    class Client:
        class http:
            @staticmethod
            async def request(route: object, **options: object) -> None:
                return None

    from discord.webhook.async_ import async_context

    series = Prometheus()
    before = async_context.set(async_context.get())
    series.attach(Client())  # type: ignore[arg-type]
    async_context.reset(before)  # the other tests' clients keep discord.py's own adapter
    fmt = "We are being rate limited. %s %s responded with 429. Retrying in %.2f seconds."
    logging.getLogger("discord.http").warning(fmt, "PATCH", "/channels/1/messages/2", 1.5)
    logging.getLogger("discord.http").warning(fmt, "POST", "/channels/1/messages", 0.25)
    assert series.rate_limited._value.get() == 2
    assert series.rate_limit_wait._value.get() == 1.75
    logging.getLogger("discord.http").removeFilter(series._rate_limited)


async def test_a_port_in_use_is_one_line_and_exit_1(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        bot = await fake_discord.spawn_bot(env=_env(tmp_path, port))
        assert await bot.wait(30.0) == 1
    line = f"mastermind-bot: cannot serve metrics on 127.0.0.1:{port} (METRICS_PORT, "
    assert line in bot.output and "a port of its own" in bot.output, bot.output
    assert "Traceback" not in bot.output
