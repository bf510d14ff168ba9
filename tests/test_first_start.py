"""The first start of the real `python -m bot`, against the fake Discord: online at once while
the solver compiles in the background, wherever its cache is (empty, absent, read-only, not
creatable), and a clean stop by any signal at any moment of it (#23)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.engine.cache_dir import COMPILE_SECONDS
from tests.discord_fake import BotProcess, FakeDiscord

STOP_SECONDS = 10.0
"""The README's bound on a stop: running interactions get 4 s, the workers 1 s, then a kill."""


def _env(tmp_path: Path, cache: Path) -> dict[str, str]:
    return {
        "DATABASE_PATH": str(tmp_path / "mastermind.db"),
        "CACHE_DIR": str(cache),
        "LOG_LEVEL": "INFO",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "NO_COLOR": "",
    }


def _levels(output: str) -> list[str]:
    return re.findall(r"^\S+ \S+ (DEBUG|INFO|WARNING|ERROR|CRITICAL) ", output, re.MULTILINE)


def _warm_copy(tmp_path: Path) -> Path:
    """A copy of the suite's cache, which conftest filled: the kernels load, nothing compiles."""
    copy = tmp_path / "warm-cache"
    shutil.copytree(os.environ["NUMBA_CACHE_DIR"], copy)
    return copy


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """`folder` cannot be written, even by root (whom mode bits do not stop): immutable."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        try:
            yield
        finally:
            folder.chmod(0o755)


async def _stopped(bot: BotProcess, how: str) -> int:
    """Stop the bot as a service manager (SIGTERM), a `kill -INT` (SIGINT) or a terminal's
    Ctrl-C (SIGINT to the whole process group, workers included) does; its exit code."""
    if how == "group-SIGINT":
        os.killpg(bot.pid, signal.SIGINT)
    else:
        bot.send_signal(signal.Signals[how])
    code = await bot.wait(STOP_SECONDS)
    for _ in range(200):  # the workers and the resource tracker are gone too
        try:
            os.killpg(bot.pid, 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"the bot's workers outlived it:\n{bot.output}")
    return code


def _assert_clean(output: str) -> None:
    for sign in ("Traceback", "ERROR", "CRITICAL", "abandoned", "Task was destroyed", "leaked"):
        assert sign not in output, output
    assert "closed cleanly" in output, output


@pytest.mark.parametrize(
    ("cache", "how"),
    [("empty", "SIGTERM"), ("absent", "SIGINT"), ("empty", "group-SIGINT")],
)
async def test_a_cold_cache_compiles_in_the_background_and_any_stop_is_clean(
    fake_discord: FakeDiscord, tmp_path: Path, cache: str, how: str
) -> None:
    folder = tmp_path / "cache" if cache == "empty" else tmp_path / "not" / "yet" / "there"
    if cache == "empty":
        folder.mkdir()
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, folder))
    await bot.wait_ready(timeout=15.0, commands=True)  # online long before the compile ends
    rules = await fake_discord.slash("general", "alice", "mastermind", "rules")
    assert (await rules.response()).text  # it answers while the solver compiles
    assert f"compiling the solver, once per install, about {COMPILE_SECONDS} s" in bot.output
    assert folder.is_dir()

    assert await _stopped(bot, how) == 0
    _assert_clean(bot.output)
    assert set(_levels(bot.output)) == {"INFO"}, bot.output


async def test_a_solve_asked_while_the_solver_starts_is_answered_when_it_is_ready(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    cache = _warm_copy(tmp_path)
    lock = os.open(cache / "compile.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(lock, fcntl.LOCK_EX)  # as if another process were compiling into this cache
    try:
        bot = await fake_discord.spawn_bot(env=_env(tmp_path, cache))
        await bot.wait_ready(timeout=15.0, commands=True)
        solve = await fake_discord.slash("general", "alice", "mastermind", "solve")
        placeholder = await solve.response()
        await asyncio.sleep(2.0)
        assert placeholder.loading and "solver ready" not in bot.output  # waiting, not refused
    finally:
        os.close(lock)  # the other process is done: the workers load its cache
    board = await solve.settled(timeout=30.0)
    assert "`1122`" in board.text, board.text  # Knuth's opening: the solver answered
    for _ in range(100):  # the simulation worker may still be loading
        if "solver ready in" in bot.output:
            break
        await asyncio.sleep(0.1)
    assert "solver ready in" in bot.output
    assert await _stopped(bot, "SIGTERM") == 0
    _assert_clean(bot.output)


async def test_a_read_only_cache_is_one_warning_and_still_loads(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    cache = _warm_copy(tmp_path)
    with _read_only(cache):
        bot = await fake_discord.spawn_bot(env=_env(tmp_path, cache))
        await bot.wait_ready(timeout=15.0, commands=True)
        solve = await fake_discord.slash("general", "alice", "mastermind", "solve")
        assert "`1122`" in (await solve.settled(timeout=30.0)).text
        assert await _stopped(bot, "SIGTERM") == 0
    warnings = [line for line in bot.output.splitlines() if " WARNING " in line]
    assert len(warnings) == 1, bot.output
    assert f"cannot write the solver's cache in {cache}" in warnings[0]
    assert "CACHE_DIR" in warnings[0]
    assert "compiling the solver" not in bot.output  # what it held was copied and loaded
    _assert_clean(bot.output)


async def test_a_cache_that_cannot_be_made_is_one_warning_not_a_crash(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, blocker / "numba"))
    await bot.wait_ready(timeout=15.0, commands=True)
    assert "compiling the solver, for this run only" in bot.output
    assert "once per install" not in bot.output  # the WARNING said every start compiles
    assert await _stopped(bot, "SIGTERM") == 0
    assert _levels(bot.output).count("WARNING") == 1, bot.output
    assert "Not a directory" in bot.output
    _assert_clean(bot.output)


@pytest.mark.parametrize("how", ["SIGTERM", "group-SIGINT"])
async def test_a_stop_during_a_game_is_clean(
    fake_discord: FakeDiscord, tmp_path: Path, how: str
) -> None:
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, _warm_copy(tmp_path)))
    await bot.wait_ready(timeout=15.0, commands=True)
    board = await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled(
        timeout=30.0
    )
    await fake_discord.click(board, "⚫", user="alice")  # a move in flight as the stop comes
    assert await _stopped(bot, how) == 0
    _assert_clean(bot.output)
    assert set(_levels(bot.output)) == {"INFO"}, bot.output


@pytest.mark.parametrize("how", ["SIGTERM", "group-SIGINT"])
async def test_a_stop_while_a_solve_waits_for_the_first_compile_answers_it_and_is_quick(
    fake_discord: FakeDiscord, tmp_path: Path, how: str
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, cache))
    await bot.wait_ready(timeout=15.0, commands=True)
    solve = await fake_discord.slash("general", "alice", "mastermind", "solve")
    placeholder = await solve.response()
    await asyncio.sleep(1.0)
    assert placeholder.loading and "solver ready" not in bot.output  # it waits for the compile

    started = asyncio.get_running_loop().time()
    assert await _stopped(bot, how) == 0
    took = asyncio.get_running_loop().time() - started
    assert took < 3.0, f"the stop took {took:.1f} s:\n{bot.output}"
    _assert_clean(bot.output)
    assert set(_levels(bot.output)) == {"INFO"}, bot.output
    # The player's "thinking..." is answered, privately, not left spinning.
    assert placeholder.deleted or not placeholder.loading
    told = [m.text for m in solve.followups if m.ephemeral]
    assert any("shutting down" in text for text in told), (told, bot.output)


async def test_a_start_after_a_first_start_killed_mid_compile_says_it_compiles(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    first = await fake_discord.spawn_bot(env=_env(tmp_path, cache))
    await first.wait_ready(timeout=15.0, commands=True)
    for _ in range(300):  # some kernels are cached, not all: the compile is under way
        if any(cache.glob("*/kernels.*.nbi")):
            break
        await asyncio.sleep(0.1)
    assert "solver ready" not in first.output and any(cache.glob("*/kernels.*.nbi"))
    first.kill_group()  # SIGKILL, the workers too: a power cut mid-compile
    await first.wait(STOP_SECONDS)

    second = await fake_discord.spawn_bot(env=_env(tmp_path, cache))
    await second.wait_ready(timeout=15.0)  # the commands were synced by the first
    assert f"compiling the solver, once per install, about {COMPILE_SECONDS} s" in second.output
    assert await _stopped(second, "SIGTERM") == 0
    _assert_clean(second.output)


async def test_a_home_that_cannot_be_written_leaves_charts_quiet(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """matplotlib keeps its cache beside the solver's, not under a HOME a service user may
    not have: no raw lines from the chart worker (#31)."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = _env(tmp_path, _warm_copy(tmp_path))
    env.update(HOME=str(blocker / "home"), XDG_CACHE_HOME="", XDG_CONFIG_HOME="", MPLCONFIGDIR="")
    bot = await fake_discord.spawn_bot(env=env)
    await bot.wait_ready(timeout=15.0, commands=True)
    options = {"pegs": 3, "colours": 4}
    chart = await (
        await fake_discord.slash("general", "alice", "mastermind", "simulate", options=options)
    ).settled(timeout=30.0)
    assert "every secret" in chart.text
    kept = tmp_path / "warm-cache" / "matplotlib"
    for _ in range(600):  # the chart worker's first import lists the fonts (slow when loaded)
        if any(kept.glob("fontlist*")):
            break
        await asyncio.sleep(0.1)
    assert await _stopped(bot, "SIGTERM") == 0
    assert "atplotlib" not in bot.output and "mkdir" not in bot.output, bot.output
    assert any(kept.glob("fontlist*")), bot.output  # its font list, kept for the next start
    _assert_clean(bot.output)


async def test_a_stop_while_the_start_redraws_a_board_left_behind_is_clean(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The start after a crash redraws the boards the crash left behind; a stop a moment later,
    with that redraw still waiting on Discord, is clean too (#31: it once logged 'the board of
    game 1 could not be redrawn ... the store is closed')."""
    env = _env(tmp_path, _warm_copy(tmp_path))
    first = await fake_discord.spawn_bot(env=env)
    await first.wait_ready(timeout=15.0, commands=True)
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    edit = fake_discord.stall_next("PATCH", r"/channels/\d+/messages/\d+")
    guess = {"code": "1122"}
    await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options=guess)
    ).response()
    await edit.wait_arrived()
    first.kill_group()  # the move is stored, its board edit never applied
    await first.wait(STOP_SECONDS)
    edit.release(serve=False)

    redraw = fake_discord.stall_next("PATCH", r"/channels/\d+/messages/\d+")
    second = await fake_discord.spawn_bot(env=env)
    await second.wait_ready(timeout=15.0)
    await redraw.wait_arrived()  # the start's redraw of the board behind, held by Discord
    second.send_signal(signal.SIGTERM)
    await asyncio.sleep(0.5)
    redraw.release(serve=False)
    assert await second.wait(STOP_SECONDS) == 0
    _assert_clean(second.output)
    assert "could not be redrawn" not in second.output and "store is closed" not in second.output
