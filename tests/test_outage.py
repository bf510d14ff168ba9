"""A Discord outage as the real `python -m bot` meets it, against the fake Discord cut off
(#31): one WARNING when the connection is lost, one INFO when it is back, no traceback; and a
stop during the outage is quick and clean, whatever the reconnect's back-off is waiting for."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
from pathlib import Path

from tests.discord_fake import FakeDiscord

STOP_SECONDS = 5.0
"""Well inside a plain `docker stop`'s 10 s before its SIGKILL."""


def _env(tmp_path: Path) -> dict[str, str]:
    cache = tmp_path / "cache"
    shutil.copytree(os.environ["NUMBA_CACHE_DIR"], cache)  # conftest filled it: no compile
    return {
        "DATABASE_PATH": str(tmp_path / "mastermind.db"),
        "CACHE_DIR": str(cache),
        "LOG_LEVEL": "INFO",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "NO_COLOR": "",
    }


def _lines(output: str, level: str) -> list[str]:
    return [line for line in output.splitlines() if re.match(rf"\S+ \S+ {level} ", line)]


async def test_an_outage_is_one_warning_and_one_info_when_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = await fake_discord.spawn_bot(env=_env(tmp_path))
    await bot.wait_ready(timeout=15.0, commands=True)
    connected = fake_discord.resume_count + fake_discord.identify_count
    infos = len(_lines(bot.output, "INFO"))

    await fake_discord.begin_outage()
    await asyncio.sleep(8.0)  # several reconnects fail meanwhile
    await fake_discord.end_outage()
    await fake_discord.wait_for(
        lambda: fake_discord.resume_count + fake_discord.identify_count > connected,
        60.0,
        "the bot to connect again after the outage",
    )
    for _ in range(50):  # its line follows the connection
        if "connected to Discord again" in bot.output:
            break
        await asyncio.sleep(0.1)
    rules = await fake_discord.slash("general", "alice", "mastermind", "rules")
    assert (await rules.response()).text  # it answers again

    bot.send_signal(signal.SIGTERM)
    assert await bot.wait(STOP_SECONDS) == 0
    output = bot.output
    assert re.search(r"ready as Mastermind in 1 server$", output, re.MULTILINE), output
    assert "Traceback" not in output and not _lines(output, "ERROR"), output
    warnings = _lines(output, "WARNING")
    assert len(warnings) == 1 and "lost the connection to Discord" in warnings[0], output
    after = _lines(output, "INFO")[infos:]
    back = [line for line in after if "connected to Discord again" in line]
    assert len(back) == 1, output
    assert not [line for line in after if "discord." in line.split()[3]], output  # theirs, muted


async def test_a_stop_during_an_outage_is_quick_and_clean(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = await fake_discord.spawn_bot(env=_env(tmp_path))
    await bot.wait_ready(timeout=15.0, commands=True)
    await fake_discord.begin_outage()
    await asyncio.sleep(6.0)  # the reconnect's back-off has grown to several seconds

    started = asyncio.get_running_loop().time()
    bot.send_signal(signal.SIGTERM)
    assert await bot.wait(STOP_SECONDS + 5.0) == 0
    took = asyncio.get_running_loop().time() - started
    await fake_discord.end_outage()
    output = bot.output
    assert took < STOP_SECONDS, f"the stop took {took:.1f} s:\n{output}"
    assert "Traceback" not in output and not _lines(output, "ERROR"), output
    assert "closed cleanly" in output
    assert len(_lines(output, "WARNING")) == 1, output
