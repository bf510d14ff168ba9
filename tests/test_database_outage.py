"""PostgreSQL unreachable for 10 s under a single-process bot (issue #34): every interaction
meanwhile is told privately, within Discord's 3 s, to try again; nothing is half-stored; the
bot serves again by itself once the database is back; and the log has one WARNING for the
outage, not one per interaction."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.app import MastermindBot
from bot.config import Settings
from tests.bot.helpers import board_shows
from tests.discord_fake import FakeDiscord
from tests.store.outage import Outage
from tests.store.pg_fixtures import postgres_server, postgres_url
from tests.store.postgres_server import query

__all__ = ["postgres_server", "postgres_url"]  # the fixtures of a real PostgreSQL server

OUTAGE_SECONDS = 10.0


async def test_an_outage_of_postgresql_is_told_privately_and_passes_by_itself(
    fake_discord: FakeDiscord, postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with Outage(postgres_url) as outage:
        settings = Settings(token=fake_discord.token, database_url=outage.url)
        async with fake_discord.run_in_process(
            lambda: MastermindBot(settings), timeout=30.0, commands=True
        ):
            board = await (
                await fake_discord.slash("general", "alice", "mastermind", "play")
            ).settled()
            moves = query(postgres_url, "SELECT count(*) FROM moves")
            caplog.clear()

            outage.cut()
            started = time.monotonic()
            players = ["bob", "carol", "dave", "alice"]
            told = []
            while time.monotonic() - started < OUTAGE_SECONDS:
                player = players[len(told) % len(players)]
                guess = await fake_discord.slash(
                    "general", player, "mastermind", "guess", options={"code": "1122"}
                )
                reply = await guess.response()
                told.append(guess)
                assert reply.ephemeral and "try again" in reply.text, reply.text
                assert guess.latency is not None and guess.latency < 3.0
                await asyncio.sleep(0.5)
            assert len(told) >= 5
            warnings = [
                r for r in caplog.records if r.levelno >= logging.WARNING and "bot" in r.name
            ]

            outage.restore()
            assert query(postgres_url, "SELECT count(*) FROM moves") == moves  # nothing stored
            line = await (
                await fake_discord.slash(
                    "general", "bob", "mastermind", "guess", options={"code": "1122"}
                )
            ).response(timeout=10.0)
            assert not line.ephemeral and "9 guesses left" in line.text  # serves by itself
            await board_shows(fake_discord, board, "**9** of 10")
        assert len(warnings) == 1, [r.getMessage() for r in warnings]
        assert "cannot be reached" in warnings[0].getMessage()
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        back = [r.getMessage() for r in caplog.records if "can be reached again" in r.getMessage()]
        assert len(back) == 1, back
