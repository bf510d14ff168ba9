"""Issue #16, permissions tested: the README's bot permissions, and nothing else, are enough.

The fake gives the bot exactly View Channels, Send Messages and Embed Links (its role grants
them, @everyone grants nothing) and refuses on REST whatever Discord would refuse without the
others: 403 Missing Access / Missing Permissions, or embeds silently dropped. Each of those is
a `missing-permissions` violation, which fails the test. Every command is played here.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import discord
import pytest

from bot.engine.codes import CodeSpace
from tests.bot.helpers import (
    answer_label,
    board_shows,
    bot_guess,
    move_count,
    press,
    query,
    secret_text,
)
from tests.discord_fake import FakeDiscord, FakeMessage

#: The README's list ("Under bot permissions, tick View Channels, Send Messages and Embed Links").
README_PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
CLASSIC = CodeSpace(4, 6)


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """The fake Discord with the bot holding exactly the README's permissions (overrides the
    plugin's fixture, so the `bot` fixture of conftest runs against this one)."""
    fake = FakeDiscord(bot_permissions=README_PERMISSIONS)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()
    fake.assert_no_violations()


def assert_nothing_refused(fake: FakeDiscord) -> None:
    """No request was refused for permissions and no embed was dropped."""
    refused = [str(r) for r in fake.requests if r.status in (401, 403)]
    assert refused == [], refused
    assert [v for v in fake.violations if v.rule == "missing-permissions"] == []
    for handle in fake.interactions:
        assert int(handle.payload["app_permissions"]) == README_PERMISSIONS.value


def other_code(secret: str) -> str:
    return ("2" if secret[0] == "1" else "1") + secret[1:]


async def test_the_bot_has_exactly_the_readme_permissions(fake_discord: FakeDiscord) -> None:
    for channel in ("general", "games"):
        assert fake_discord.bot_permissions_in(channel) == README_PERMISSIONS
    assert not fake_discord.bot_permissions_in("general").read_message_history
    assert fake_discord.permissions_in("general", "alice").read_message_history  # people may


async def test_play_guess_picker_board_and_giveup(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    rules = await (await fake_discord.slash("general", "dave", "mastermind", "rules")).settled()
    assert rules.ephemeral and "How to play Mastermind" in rules.text

    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    assert board.embed is not None and "**10** of 10" in board.text
    secret = secret_text(db_path)
    typed = await (
        await fake_discord.slash(
            "general", "bob", "mastermind", "guess", options={"code": other_code(secret)}
        )
    ).settled()
    assert not typed.ephemeral and "9 guesses left" in typed.text
    await board_shows(fake_discord, board, "**9** of 10")  # a board edit on the channel route

    picker = await (await fake_discord.click(board, "Guess", user="carol")).response()
    for peg, colour in enumerate("3456"):
        select = picker.selects[peg]["custom_id"]
        await (
            await fake_discord.select(picker, select, [str(int(colour) - 1)], user="carol")
        ).response()
    sent = await fake_discord.click(picker, "Submit guess", user="carol")
    await sent.response()
    assert "🔵🟡🟠🟤" in (await sent.followup()).text
    await board_shows(fake_discord, board, "🔵🟡🟠🟤")

    copy = await (await fake_discord.slash("general", "bob", "mastermind", "board")).settled()
    assert copy.id != board.id and not copy.ephemeral and copy.embed is not None
    assert "🔵🟡🟠🟤" in copy.text

    confirm = await (await fake_discord.slash("general", "alice", "mastermind", "giveup")).settled()
    assert confirm.ephemeral
    ended = await fake_discord.click(confirm, "Yes, end the game", user="alice")
    await ended.response()
    assert "ended the game. The secret was" in (await ended.followup()).text
    await board_shows(fake_discord, copy, "Given up by")
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]
    assert move_count(db_path) == 3
    assert_nothing_refused(fake_discord)


async def test_a_won_game_a_long_code_and_the_statistics(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash(
            "games", "alice", "mastermind", "play", options={"pegs": 5, "colours": 6}
        )
    ).settled()
    secret = secret_text(db_path)
    modal = await (await fake_discord.click(board, "Guess", user="bob")).modal()
    won = await (await fake_discord.submit_modal(modal, {"code": secret}, user="bob")).response()
    assert "cracked the code in 1 guess!" in won.text
    await fake_discord.wait_for(lambda: "Knuth's algorithm" in won.text, what="the Knuth note")
    await board_shows(fake_discord, board, "Cracked by")
    assert [b["custom_id"].split(":")[1] for b in board.buttons] == ["review"]  # review only

    bob = fake_discord.user("bob").id
    stats = await (
        await fake_discord.slash("games", "alice", "mastermind", "stats", options={"player": "bob"})
    ).settled()
    assert stats.embed is not None and "1 (100%)" in stats.text
    leaders = await (
        await fake_discord.slash("games", "carol", "mastermind", "leaderboard")
    ).settled()
    assert leaders.embed is not None and f"<@{bob}>" in leaders.text
    assert_nothing_refused(fake_discord)


async def test_a_game_that_times_out(fake_discord: FakeDiscord, bot, db_path: Path) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    assert await bot.expire_stale_games(timedelta(0)) == 1
    await board_shows(fake_discord, board, "Timed out")
    assert "Secret" in board.text
    assert [b["custom_id"].split(":")[1] for b in board.buttons] == ["review"]  # review only
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]
    assert query(db_path, "SELECT kind FROM moves") == [("timeout",)]
    assert_nothing_refused(fake_discord)


async def crack(fake: FakeDiscord, board: FakeMessage, secret: str) -> int:
    for _ in range(8):
        number, guess = bot_guess(board)
        await press(fake, board, answer_label(CLASSIC, guess, secret), "alice")
        if "Solved in" in board.text:
            return number
    raise AssertionError(f"not solved: {board.text}")


async def test_solve_with_answers_undo_board_and_simulate(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    secret = "1234"
    board = await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled()
    assert board.embed is not None and "`1122`" in board.text
    await press(fake_discord, board, answer_label(CLASSIC, "1122", secret), "alice")
    assert bot_guess(board)[0] == 2
    await press(fake_discord, board, "Undo last answer", "alice")
    assert bot_guess(board)[0] == 1 and "Took back" in board.text

    copy = await (await fake_discord.slash("general", "alice", "mastermind", "board")).settled()
    assert copy.id != board.id and copy.embed is not None and "`1122`" in copy.text
    assert await crack(fake_discord, copy, secret) <= 5
    assert "🎯 Solved in" in copy.text

    chart = await (
        await fake_discord.slash(
            "games", "bob", "mastermind", "simulate", options={"pegs": 3, "colours": 4}
        )
    ).settled()
    assert "every secret" in chart.text and "█" in chart.text
    assert_nothing_refused(fake_discord)
