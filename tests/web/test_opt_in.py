"""The Activity is opt-in (#33): `python -m bot` without ACTIVITY_PORT imports nothing of
bot/web and listens nowhere; with it, it serves the page's API on that port. Python's own
import log (PYTHONPROFILEIMPORTTIME) names every module the real process imported."""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from pathlib import Path

from tests.discord_fake import FakeDiscord
from tests.web.conftest import free_port


def _env(tmp_path: Path, port: int | None, secret: str) -> dict[str, str]:
    cache = tmp_path / "cache"
    shutil.copytree(os.environ["NUMBA_CACHE_DIR"], cache)  # conftest filled it: no compile
    return {
        "DATABASE_PATH": str(tmp_path / "mastermind.db"),
        "CACHE_DIR": str(cache),
        "DEV_GUILD_ID": "",
        "ACTIVITY_PORT": "" if port is None else str(port),
        "DISCORD_CLIENT_SECRET": "" if port is None else secret,
        "PYTHONPROFILEIMPORTTIME": "1",
    }


def _imported(output: str) -> set[str]:
    """The modules of `python -X importtime`'s lines (`import time: ... | name`)."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in output.splitlines()
        if line.startswith("import time:") and "|" in line
    }


async def test_without_a_port_nothing_of_it_is_imported(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, None, fake_discord.client_secret))
    await bot.wait_ready(timeout=20.0, commands=True)
    assert await bot.stop(15.0) == 0
    imported = _imported(bot.output)
    assert "bot.app" in imported and "bot.modes.registry" in imported  # the log is complete
    assert not {name for name in imported if name == "bot.web" or name.startswith("bot.web.")}
    assert "the Activity listens" not in bot.output


async def test_with_a_port_it_serves(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    port = free_port()
    bot = await fake_discord.spawn_bot(env=_env(tmp_path, port, fake_discord.client_secret))
    await bot.wait_ready(timeout=20.0, commands=True)
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/config", timeout=5) as response:
        config = json.loads(response.read())
        policy = response.headers["Content-Security-Policy"]
    assert config == {"client_id": str(fake_discord.application_id)}
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert await bot.stop(15.0) == 0
    assert "bot.web.service" in _imported(bot.output)
    assert f"the Activity listens on http://127.0.0.1:{port}" in bot.output
    assert fake_discord.client_secret not in bot.output
