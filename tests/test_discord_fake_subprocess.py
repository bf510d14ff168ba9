"""The fake Discord with bots in subprocesses: the launcher, a crash and restart, python -m bot."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.discord_fake import BotProcess, FakeDiscord

pytest_plugins = ["tests.discord_fake.fixtures"]

ROOT = Path(__file__).resolve().parents[1]


async def test_sample_bot_as_subprocess_survives_a_crash(fake_discord: FakeDiscord) -> None:
    """Every interaction path through a subprocess; after SIGKILL a new process takes over.

    The counter button is a DynamicItem, so a click on a message sent by the killed process is
    answered by its successor.
    """
    first = await fake_discord.spawn_bot("tests.sample_bot")
    await first.wait_ready(commands=True)

    play = await fake_discord.slash("general", "alice", "sample", "play", options={"pegs": 6})
    reply = await play.response()
    click = await fake_discord.click(reply, "Count 0", user="bob")
    await click.response()
    assert reply.content == "Count: 1"
    pick = await fake_discord.select(reply, "Pick a colour", ["blue"], user="bob")
    await pick.response()
    assert reply.content == "You picked blue"

    think = await fake_discord.slash("games", "carol", "sample", "think", options={"n": 50})
    assert (await think.settled()).content.startswith("sum of squares below 50")
    ask = await fake_discord.slash("games", "carol", "sample", "ask")
    submit = await fake_discord.submit_modal(ask, {"sample:guess": "RRGG"})
    assert (await submit.response()).content == "Guess RRGG noted (no note)"

    await fake_discord.drop_gateway()
    again = await fake_discord.slash("general", "dave", "sample", "play")
    await again.response()

    first.kill()
    assert await first.wait() == -9
    # The successor gets the URLs from the environment instead of the command line.
    env = {
        **os.environ,
        "DISCORD_TOKEN": fake_discord.token,
        "FAKE_DISCORD_REST": fake_discord.rest_base,
        "FAKE_DISCORD_GATEWAY": fake_discord.gateway_url,
        "PYTHONPATH": str(ROOT),
    }
    second = await BotProcess.start(
        fake_discord,
        [sys.executable, "-m", "tests.discord_fake.launch", "tests.sample_bot"],
        env=env,
        cwd=ROOT,
        since_identify=fake_discord.identify_count,
    )
    fake_discord.processes.append(second)  # stopped with the fake if the test fails
    await second.wait_ready(commands=True)
    assert fake_discord.identify_count == 2
    click = await fake_discord.click(reply, "Count 1", user="carol")
    await click.response()
    assert reply.content == "Count: 2"
    second.terminate()
    assert await second.wait() != 0


async def test_project_bot_runs_unmodified_against_the_fake(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """`python -m bot` through the launcher logs in, identifies and gets `ready`."""
    bot = await fake_discord.spawn_bot(
        "bot", env={"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    )
    await bot.wait_ready()
    assert fake_discord.login_count == 1
    await bot.stop()


def test_launcher_without_urls_prints_usage() -> None:
    """No URLs in the arguments or the environment: a usage line and exit code 2."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}
    result = subprocess.run(
        [sys.executable, "-m", "tests.discord_fake.launch"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "usage: python -m tests.discord_fake.launch" in result.stderr
