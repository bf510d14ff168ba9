"""The Open board button (#33): on every running board of a mode with an Activity view
(`ModeSpec.web`: play, solve, daily and race as each gets its `web.py`) when the Activity is
configured (ACTIVITY_PORT), on none otherwise; a click launches the Activity
(LAUNCH_ACTIVITY, recorded by the fake Discord), and where Discord refuses, the player is told
privately, in their language. The real bot, in-process, against the fake Discord."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.app import MastermindBot
from bot.config import Settings
from tests.bot.helpers import move_count
from tests.discord_fake import FakeDiscord, FakeMessage

OPEN = "Open board"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def configured(fake: FakeDiscord, db_path: Path) -> Settings:
    """Settings with the Activity on (the port is free: the Activity's server may bind it)."""
    return Settings(
        token=fake.token,
        database_path=db_path,
        activity_port=free_port(),
        client_secret="a-client-secret",
    )


@pytest.fixture
async def activity_bot(fake_discord: FakeDiscord, db_path: Path) -> AsyncIterator[MastermindBot]:
    """The bot with the Activity configured, on an application with Activities enabled (its
    Entry Point command there before the bot syncs)."""
    fake_discord.enable_activities()
    async with fake_discord.run_in_process(
        lambda: MastermindBot(configured(fake_discord, db_path)), timeout=30.0, commands=True
    ) as running:
        yield running


def has_view(bot: MastermindBot, kind: str) -> bool:
    """The mode `kind` declares an Activity view, so its boards carry the button."""
    return next(mode for mode in bot.modes() if mode.kind == kind).web is not None


def labels(message: FakeMessage) -> list[str]:
    return [b.get("label") or "" for b in message.buttons]


async def play_board(fake: FakeDiscord, channel: str = "general") -> FakeMessage:
    return await (await fake.slash(channel, "alice", "mastermind", "play")).settled()


async def test_without_the_activity_no_board_offers_it(fake_discord: FakeDiscord, bot) -> None:
    board = await play_board(fake_discord)
    assert labels(board) == ["Guess", "Hint", "Give up"]
    solve = await (await fake_discord.slash("games", "bob", "mastermind", "solve")).settled()
    assert OPEN not in labels(solve)
    daily = await (await fake_discord.slash("games", "carol", "mastermind", "daily")).response()
    assert OPEN not in labels(daily)


async def test_every_board_offers_it_when_configured(
    fake_discord: FakeDiscord, activity_bot: MastermindBot
) -> None:
    fake = fake_discord
    assert has_view(activity_bot, "play")
    board = await play_board(fake)
    assert labels(board) == ["Guess", "Hint", "Give up", OPEN]
    question = await (await fake.slash("general", "alice", "mastermind", "giveup")).response()
    await (await fake.click(question, "Yes, end the game", user="alice")).answer()
    await fake.wait_for(lambda: OPEN not in labels(board), what="the ended board without it")
    opens = {
        kind: [OPEN] if has_view(activity_bot, kind) else [] for kind in ("solve", "daily", "race")
    }
    solve = await (await fake.slash("games", "bob", "mastermind", "solve")).settled()
    assert (OPEN in labels(solve)) == bool(opens["solve"])
    if opens["solve"]:  # in a row of its own, after the answers
        assert [c.get("label") for c in solve.components[-1]["components"]][-1] == OPEN
    daily = await (await fake.slash("games", "carol", "mastermind", "daily")).response()
    assert daily.ephemeral and labels(daily) == ["Submit guess", "Type a code", *opens["daily"]]
    race = await (await fake.slash("general", "dave", "mastermind", "race")).settled()
    assert labels(race) == ["Join", "Start", "Give up", *opens["race"]]
    started = await fake.click(race, "Start", user="dave")
    mine = await started.followup(1)
    assert mine.ephemeral and labels(mine) == ["Submit guess", "Type a code", *opens["race"]]
    await fake.wait_for(lambda: labels(race) == ["My board", "Give up", *opens["race"]])


async def test_a_click_launches_the_activity_and_stores_nothing(
    fake_discord: FakeDiscord, activity_bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await play_board(fake)
    moves = move_count(db_path)
    click = await fake.click(board, OPEN, user="bob")
    instance = await click.launched()
    assert instance.channel == fake.channel("general") and instance.users == [fake.user("bob")]
    again = await fake.click(board, OPEN, user="carol")
    assert await again.launched() is instance  # the channel's one instance, joined
    assert [launch.interaction for launch in fake.activity_launches] == [click, again]
    assert move_count(db_path) == moves
    assert labels(board) == ["Guess", "Hint", "Give up", OPEN]  # the board is unchanged


async def test_where_discord_refuses_the_player_is_told_privately(
    fake_discord: FakeDiscord, activity_bot: MastermindBot
) -> None:
    fake = fake_discord
    board = await play_board(fake)
    await fake.set_overwrite(
        "general", "bob", deny=discord.Permissions(use_embedded_activities=True)
    )
    refused = await (await fake.click(board, OPEN, user="bob")).response()
    assert refused.ephemeral and "may not use Activities in this channel" in refused.text
    fake.set_user_locale("bob", "pl")
    polish = await (await fake.click(board, OPEN, user="bob")).response()
    assert polish.ephemeral and "Nie możesz używać aktywności na tym kanale" in polish.text

    fake.disable_activities()  # the application lost its Activities
    lost = await (await fake.click(board, OPEN, user="carol")).response()
    assert lost.ephemeral and "Discord could not open the board here" in lost.text
    assert fake.activity_instances == []


async def test_a_forged_click_from_another_channel_is_refused(
    fake_discord: FakeDiscord, activity_bot: MastermindBot
) -> None:
    fake = fake_discord
    board = await play_board(fake)
    custom_id = board.component(OPEN)["custom_id"]
    forged = await fake.forge_interaction(
        "games", "bob", type=3, custom_id=custom_id, message=board
    )
    answer = await forged.response()
    assert answer.ephemeral and fake.activity_launches == []


async def test_an_old_button_after_the_activity_was_turned_off(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    """A board drawn while the Activity was configured keeps its button after a restart
    without it: the click is answered privately, and the board's next drawing drops it."""
    fake = fake_discord
    fake.enable_activities()
    async with fake.run_in_process(
        lambda: MastermindBot(configured(fake, db_path)), timeout=30.0, commands=True
    ):
        board = await play_board(fake)
        assert OPEN in labels(board)
    plain = Settings(token=fake.token, database_path=db_path)
    async with fake.run_in_process(lambda: MastermindBot(plain), timeout=30.0):  # no new sync
        told = await (await fake.click(board, OPEN, user="bob")).response()
        assert told.ephemeral and "not open any more" in told.text
        assert fake.activity_launches == []
        guess = await fake.slash("general", "bob", "mastermind", "guess", options={"code": "1234"})
        await guess.response()
        await fake.wait_for(lambda: OPEN not in labels(board), what="the board redrawn")


async def test_it_opens_in_a_dm_too(fake_discord: FakeDiscord, activity_bot: MastermindBot) -> None:
    """In a DM with the bot the Activity runs in a private channel ("pc"), no guild."""
    dm = fake_discord.dm_channel("alice")
    board = await (await fake_discord.slash(dm, "alice", "mastermind", "play")).settled()
    instance = await (await fake_discord.click(board, OPEN, user="alice")).launched()
    assert instance.kind == "pc" and instance.channel == dm
