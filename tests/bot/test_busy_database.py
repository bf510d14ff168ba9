"""A busy database never leaves a player unanswered (#30): while another program holds SQLite's
write lock, every guess gets its answer within Discord's 3 s (the move, or a private "busy, try
again" in the player's language), nothing refused is stored and nothing acknowledged is lost."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.ui.i18n import messages
from tests.bot.helpers import query
from tests.discord_fake import FakeDiscord

HOLD_SECONDS = 9.0
ARRIVING_EVERY = 0.6
PLAYERS = ("alice", "bob", "carol", "dave", "mod")
BUSY_EN = "The game database is busy right now"
BUSY_PL = messages("pl").gettext(
    "The game database is busy right now, so that was not recorded. Please try again in a moment."
)

HOLDER = """
import sqlite3, sys, time
other = sqlite3.connect(sys.argv[1], isolation_level=None)
other.execute("BEGIN IMMEDIATE")
print("held", flush=True)
time.sleep(float(sys.argv[2]))
other.execute("ROLLBACK")
"""


@asynccontextmanager
async def write_lock_held(db_path: Path, seconds: float) -> AsyncIterator[asyncio.Task[int]]:
    """Another program (a plain sqlite3 shell would do the same) holds the write lock."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLDER, str(db_path), str(seconds), stdout=asyncio.subprocess.PIPE
    )
    assert holder.stdout is not None
    assert await asyncio.wait_for(holder.stdout.readline(), 10) == b"held\n"
    released = asyncio.ensure_future(holder.wait())
    try:
        yield released
    finally:
        await released


async def test_every_guess_is_answered_in_time_while_another_program_holds_the_lock(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    fake_discord.set_user_locale("bob", "pl")
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    assert board.embed is not None
    async with write_lock_held(db_path, HOLD_SECONDS) as released:
        handles = []
        for n, user in enumerate(PLAYERS):  # one every 0.6 s: each meets the others' waits
            handles.append(
                await fake_discord.slash(
                    "general", user, "mastermind", "guess", options={"code": f"{n + 1}111"}
                )
            )
            await asyncio.sleep(ARRIVING_EVERY)
        answers = [await handle.response(timeout=6.0) for handle in handles]
        assert not released.done(), "the lock must still be held while they are answered"
        for handle in handles:
            assert handle.latency is not None and handle.latency <= 3.0, handle.latency
        moved = [a for a in answers if not a.ephemeral]
        refused = [a for a in answers if a.ephemeral]
        for player, answer in zip(PLAYERS, answers, strict=True):
            if answer.ephemeral:
                assert (BUSY_PL if player == "bob" else BUSY_EN) in answer.text, answer.text
    stored = query(db_path, "SELECT code FROM moves ORDER BY move_no")
    assert len(stored) == len(moved), "every move acknowledged is stored, none refused is"
    assert len(moved) + len(refused) == len(PLAYERS)
    # Once the other program lets go, the same players are served again.
    retry = await (
        await fake_discord.slash(
            "general", "carol", "mastermind", "guess", options={"code": "6666"}
        )
    ).response()
    assert not retry.ephemeral
    assert len(query(db_path, "SELECT code FROM moves")) == len(moved) + 1
