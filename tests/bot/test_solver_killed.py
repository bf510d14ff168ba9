"""The solver's worker killed in the middle of a solve move (a 7x7 game, whose second guess
takes the worker about a second): the player is told privately that the solver restarted,
the game is unchanged, a new worker is started, and the same answer then works (issue #34)."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from tests.bot.helpers import bot_guess, move_count, query
from tests.discord_fake import FakeDiscord


async def test_a_worker_killed_mid_move_is_told_and_replaced(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "solve", options={"pegs": 7, "colours": 7}
        )
    ).settled(timeout=30.0)  # the worker's first job loads the kernels
    assert bot_guess(board)[0] == 1
    stored = query(db_path, "SELECT version FROM games"), move_count(db_path)
    (worker,) = bot.solver.pids

    answer = await fake_discord.select(board, board.selects[0]["custom_id"], ["1:0"], user="alice")
    assert await answer.answer() == 6  # deferred: the solver is working on the next guess
    await asyncio.sleep(0.2)
    os.kill(worker, signal.SIGKILL)

    told = await answer.followup(timeout=10.0)
    assert told.ephemeral and "The solver restarted; please try again." in told.text
    assert (query(db_path, "SELECT version FROM games"), move_count(db_path)) == stored
    assert bot_guess(board)[0] == 1 and "1122334" in board.text  # the board did not move

    again = await fake_discord.select(board, board.selects[0]["custom_id"], ["1:0"], user="alice")
    assert await again.answer() == 6
    await fake_discord.wait_for(lambda: bot_guess(board)[0] == 2, 30.0, "the second guess")
    (replacement,) = bot.solver.pids
    assert replacement != worker
    kinds = query(db_path, "SELECT kind FROM moves WHERE move_no > ? ORDER BY move_no", stored[1])
    assert [k for (k,) in kinds] == ["answer", "guess"]  # the answer once, and the next guess
