"""Boards converge to the store: a refused edit, a late edit, and SIGKILL in each window between
a stored move and its board (issue #8). The move is told once and truthfully, and after a
restart the board shows the stored game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.interactions import boards
from tests.bot.helpers import board_shows, move_count, query, secret_text
from tests.discord_fake import FakeDiscord

ENV = {"LOG_LEVEL": "INFO", "DEV_GUILD_ID": "", "SOLVER_WORKERS": "1", "SOLVER_TIME_BUDGET": "2"}


def _wrong(db_path: Path) -> str:
    secret = secret_text(db_path)
    return ("2" if secret[0] == "1" else "1") + secret[1:]


async def test_a_refused_board_edit_still_counts_the_guess_once(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    failure = fake_discord.fail_message_edit(board, status=403)
    line = await (
        await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": _wrong(db_path)}
        )
    ).response()
    assert not line.ephemeral and "9 guesses left" in line.text  # told once, truthfully
    await fake_discord.wait_for(lambda: failure.hits == 1, what="the board edit refused")
    assert move_count(db_path) == 1 and "**10** of 10" in board.text
    assert query(db_path, "SELECT rendered_version < version FROM games") == [(1,)]
    # The next use of the game redraws the board it left behind.
    picker = await (await fake_discord.click(board, "Guess", user="carol")).response()
    assert picker.ephemeral
    await board_shows(fake_discord, board, "**9** of 10")
    assert move_count(db_path) == 1


async def test_a_late_edit_never_replaces_a_newer_board(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    wrong = _wrong(db_path)
    stall = fake_discord.stall_next("PATCH", f"/channels/{board.channel.id}/messages/{board.id}")
    await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": wrong})
    ).response()
    await stall.wait_arrived()
    second = await fake_discord.slash(
        "general", "carol", "mastermind", "guess", options={"code": wrong}
    )
    await second.response()
    stall.release(serve=True)  # the first edit arrives late
    await board_shows(fake_discord, board, "**8** of 10")
    await asyncio.sleep(0.3)  # nothing later may take it back
    assert "**8** of 10" in board.text and "move 2" in board.text


async def test_boards_behind_are_redrawn_by_the_reconcile_pass(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    fake_discord.fail_message_edit(board, status=503)
    await (
        await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": _wrong(db_path)}
        )
    ).response()
    await fake_discord.wait_for(
        lambda: query(db_path, "SELECT rendered_version FROM games") == [(0,)],
        what="the failed edit to leave the board behind",
    )
    assert await boards.reconcile(bot) == 1
    assert "**9** of 10" in board.text
    assert await boards.reconcile(bot) == 0


async def test_sigkill_between_a_stored_guess_and_its_board_edit(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    env = {**ENV, "DATABASE_PATH": str(db_path)}
    first = await fake_discord.spawn_bot(env=env)
    await first.wait_ready(timeout=30.0, commands=True)
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    stall = fake_discord.stall_next("PATCH", f"/channels/{board.channel.id}/messages/{board.id}")
    line = await (
        await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": _wrong(db_path)}
        )
    ).response()
    assert "9 guesses left" in line.text
    await stall.wait_arrived()
    first.kill()
    await first.wait()
    stall.release(serve=False)
    assert move_count(db_path) == 1 and "**10** of 10" in board.text

    second = await fake_discord.spawn_bot(env=env)
    try:
        await second.wait_ready(timeout=30.0)
        await board_shows(fake_discord, board, "**9** of 10")  # redrawn at start
        assert move_count(db_path) == 1
    finally:
        await second.stop()


async def test_sigkill_right_after_a_game_is_stored_before_its_board_is_drawn(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    env = {**ENV, "DATABASE_PATH": str(db_path)}
    first = await fake_discord.spawn_bot(env=env)
    await first.wait_ready(timeout=30.0, commands=True)
    stall = fake_discord.stall_next("PATCH", r"/webhooks/\d+/[^/]+/messages/@original")
    handle = await fake_discord.slash("general", "alice", "mastermind", "play")
    placeholder = await handle.response()
    await stall.wait_arrived()
    first.kill()
    await first.wait()
    stall.release(serve=False)
    assert placeholder.loading
    ((channel, message, rendered),) = query(
        db_path, "SELECT board_channel_id, board_message_id, rendered_version FROM games"
    )
    assert (channel, message, rendered) == (placeholder.channel.id, placeholder.id, -1)

    second = await fake_discord.spawn_bot(env=env)
    try:
        await second.wait_ready(timeout=30.0)
        await board_shows(fake_discord, placeholder, "**10** of 10")
        assert not placeholder.loading
        picker = await (await fake_discord.click(placeholder, "Guess", user="bob")).response()
        assert picker.ephemeral and "Pick a colour" in picker.text
    finally:
        await second.stop()
