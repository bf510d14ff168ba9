"""Boards converge to the store: a refused edit, a late edit, and SIGKILL in each window between
a stored move and its board (issue #8). The move is told once and truthfully, and after a
restart the board shows the stored game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.helpers import assert_never_went_back, board_shows, move_count, query, secret_text
from tests.bot.test_rate_limits import spend_bucket
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
    since = len(board.history) - 1
    await bot.close()  # nothing later may take it back: what was under way lands or never will
    assert "**8** of 10" in board.text
    assert_never_went_back(board, "move 2", since)


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
    assert await bot.boards.reconcile() == 1
    assert "**9** of 10" in board.text
    assert await bot.boards.reconcile() == 0


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


async def test_a_typed_guess_whose_answer_fails_still_redraws_the_board(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    """Issue #29: the answer to `/mastermind guess` met 404 Unknown interaction (a slow store,
    say); the guess is stored and the channel board catches up all the same."""
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    failure = fake_discord.fail_next(
        "POST",
        r"/interactions/\d+/[^/]+/callback",
        status=404,
        code=10062,
        message="Unknown interaction",
        times=5,
    )
    handle = await fake_discord.slash(
        "general", "bob", "mastermind", "guess", options={"code": _wrong(db_path)}
    )
    await fake_discord.wait_for(lambda: failure.hits >= 1, what="the answer refused")
    await fake_discord.wait_for(lambda: move_count(db_path) == 1, what="the guess stored")
    await board_shows(fake_discord, board, "**9** of 10")
    assert not handle.answered
    fake_discord.advance_time(3.5)
    await fake_discord.wait_for(
        lambda: bool(fake_discord.violations), what="the unanswered interaction noted"
    )
    assert [v.rule for v in fake_discord.take_violations()] == ["interaction-deadline"]


async def test_a_move_made_while_the_board_is_posted_again_reaches_the_new_copy(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    """Issue #29: a guess stored while `/mastermind board` posts its new copy (held here, as a
    429 would) is drawn on the new copy, which the store then records; it never stays one move
    behind."""
    old = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    stall = fake_discord.stall_next("POST", r"/webhooks/\d+/[^/]+")
    again = await fake_discord.slash("general", "alice", "mastermind", "board")
    await stall.wait_arrived()
    line = await (
        await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": _wrong(db_path)}
        )
    ).response()
    assert "9 guesses left" in line.text
    await asyncio.sleep(0.3)  # its redraw now waits for the re-post
    stall.release(serve=True)
    new = await again.settled()
    assert new.id != old.id
    await board_shows(fake_discord, new, "**9** of 10")
    since = len(new.history) - 1
    await bot.close()  # nothing later takes it back: what was under way lands or never will
    assert_never_went_back(new, "move 1", since)
    assert query(db_path, "SELECT board_message_id, rendered_version FROM games") == [(new.id, 1)]


async def test_a_board_edited_faster_than_its_bucket_draws_the_newest_move_once_free(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    """Issue #29 under Discord's limits: the channel's bucket is spent, so the board's edit
    waits out retry_after; the guesses stored meanwhile are answered at once and coalesce into
    one pending redraw, drawn with the newest move when the bucket allows."""
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    edits = f"/channels/{board.channel.id}/messages/{board.id}"
    await spend_bucket(fake_discord, "general")
    wrong = _wrong(db_path)
    for n, player in enumerate(["bob", "carol", "dave", "alice", "bob"]):
        line = await (
            await fake_discord.slash(
                "general", player, "mastermind", "guess", options={"code": wrong}
            )
        ).response()
        assert f"{9 - n} guesses left" in line.text
    assert max(fake_discord.latencies()) < 1.0  # no answer waited for the bucket
    await board_shows(fake_discord, board, "**5** of 10")
    await bot.close()  # every edit the bot would still make lands or never will
    patched = [r for r in fake_discord.requests if r.method == "PATCH" and r.path == edits]
    assert 1 <= len([r for r in patched if r.status == 200]) <= 2, [str(r) for r in patched]
    assert "move 5" in board.text and move_count(db_path) == 5
