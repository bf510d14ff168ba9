"""A game nobody plays ends at its deadline (its last move + GAME_TIMEOUT_HOURS), within
seconds, through the timer service (issue #29 point 5), not at the next 10-minute chore; and a
restart keeps the deadlines: they live in the store, a new bot on the same database ends at its
start what fell due while none ran, and the rest on time.

GAME_TIMEOUT_HOURS is tiny here (0.001 h = 3.6 s), so the tests wait out real deadlines."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from bot.app import MastermindBot
from bot.config import Settings
from tests.bot.helpers import query
from tests.discord_fake import FakeDiscord

TIMEOUT_HOURS = 0.001
DEADLINE = TIMEOUT_HOURS * 3600  # seconds after the last move
ON_TIME = 1.5  # seconds of slack: the timer's own 0.2 s, the board's redraw, a loaded machine


def _settings(fake: FakeDiscord, db_path: Path) -> Settings:
    return Settings(token=fake.token, database_path=db_path, game_timeout_hours=TIMEOUT_HOURS)


async def test_a_game_nobody_plays_times_out_at_its_deadline(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    fake = fake_discord
    settings = _settings(fake, db_path)
    async with fake.run_in_process(lambda: MastermindBot(settings), timeout=30.0, commands=True):
        board = await (await fake.slash("general", "alice", "mastermind", "play")).settled()
        started = time.monotonic()
        await asyncio.sleep(DEADLINE - 1.0 - (time.monotonic() - started))
        assert "Timed out" not in board.text  # not before its deadline
        assert query(db_path, "SELECT status FROM games") == [("active",)]
        await fake.wait_for(lambda: "Timed out" in board.text, DEADLINE + ON_TIME, "timed out")
        assert time.monotonic() - started <= DEADLINE + ON_TIME
        assert "Secret" in board.text  # the secret is shown as at any expiry
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]


async def test_deadlines_outlive_a_restart(fake_discord: FakeDiscord, db_path: Path) -> None:
    """One game's deadline falls while no bot runs (ended at the next start), another's after
    the next start (ended on time by the new bot, not 10 minutes later)."""
    fake = fake_discord
    settings = _settings(fake, db_path)
    async with fake.run_in_process(lambda: MastermindBot(settings), timeout=30.0, commands=True):
        early = await (await fake.slash("general", "alice", "mastermind", "play")).settled()
        first_started = time.monotonic()
        await asyncio.sleep(2.4)
        late = await (await fake.slash("games", "bob", "mastermind", "play")).settled()
        late_started = time.monotonic()
    assert "Timed out" not in early.text
    await asyncio.sleep(max(0.0, first_started + DEADLINE + 0.3 - time.monotonic()))
    async with fake.run_in_process(lambda: MastermindBot(settings), timeout=30.0):
        await fake.wait_for(lambda: "Timed out" in early.text, ON_TIME, "owed while down")
        assert "Timed out" not in late.text
        await fake.wait_for(lambda: "Timed out" in late.text, DEADLINE + ON_TIME, "late one")
        assert time.monotonic() - late_started <= DEADLINE + ON_TIME
        assert "Secret" in late.text
    assert query(db_path, "SELECT status FROM games ORDER BY id") == [("abandoned",)] * 2
