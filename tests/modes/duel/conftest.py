"""The duel end to end: the real bot, in-process, against the loopback fake Discord and a real
database file (the same fixtures as tests/bot)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import MastermindBot
from bot.config import Settings
from bot.engine.game import Variant
from tests.discord_fake import FakeDiscord

SOLVER_READY = 120.0


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mastermind.db"


@pytest.fixture
async def bot(fake_discord: FakeDiscord, db_path: Path) -> AsyncIterator[MastermindBot]:
    settings = Settings(token=fake_discord.token, database_path=db_path)
    async with fake_discord.run_in_process(
        lambda: MastermindBot(settings), timeout=30.0, commands=True
    ) as running:
        # Every round asks the solver: wait until its worker has loaded the kernels (seconds,
        # up to half a minute on a busy shared machine), so a test's waits measure the bot.
        await asyncio.wait_for(running.solver.remaining(Variant(4, 6, True), []), SOLVER_READY)
        yield running
