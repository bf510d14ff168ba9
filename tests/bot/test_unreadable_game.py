"""A game record this version cannot read (written by a newer version during a rolling upgrade
of a cluster, here a record format from the future) does not hold its channel for ever
(issue #34): every player is told why privately, its starter or a moderator ends it, the
channel then plays again, and the log names the game and why, once."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.bot.helpers import query
from tests.discord_fake import FakeDiscord

TOLD = "saved by a newer version of the bot"


def _from_the_future(db_path: Path, channel_id: int) -> None:
    import sqlite3

    with sqlite3.connect(db_path) as connection:
        connection.execute(
            "UPDATE games SET format = format + 1 WHERE channel_id = ?", (channel_id,)
        )


async def test_an_unreadable_game_is_explained_ended_by_its_starter_and_logged_once(
    fake_discord: FakeDiscord, bot, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    fake = fake_discord
    board = await (await fake.slash("general", "alice", "mastermind", "play")).settled()
    _from_the_future(db_path, fake.channel("general").id)
    ((game_id, version),) = query(db_path, "SELECT id, version FROM games")
    moves = query(db_path, "SELECT count(*) FROM moves")

    for user, command, options in [
        ("bob", "guess", {"code": "1122"}),
        ("carol", "play", None),
        ("bob", "giveup", None),  # neither its starter nor a moderator
    ]:
        reply = await (
            await fake.slash("general", user, "mastermind", command, options=options)
        ).response()
        assert reply.ephemeral and TOLD in reply.text and "/mastermind giveup" in reply.text
    clicked = await (await fake.click(board, "Guess", user="bob")).response()
    assert clicked.ephemeral and TOLD in clicked.text
    assert query(db_path, "SELECT count(*) FROM moves") == moves  # nothing stored
    assert query(db_path, "SELECT status FROM games") == [("active",)]

    ended = await (await fake.slash("general", "alice", "mastermind", "giveup")).response()
    assert not ended.ephemeral and "cannot read" in ended.text
    assert f"<@{fake.user('alice').id}>" in ended.text
    assert query(db_path, "SELECT status, version FROM games") == [("abandoned", version + 1)]
    assert query(db_path, "SELECT kind, player_id FROM moves WHERE move_no = ?", version + 1) == [
        ("give_up", fake.user("alice").id)
    ]
    again = await (await fake.slash("general", "carol", "mastermind", "play")).settled()
    assert not again.ephemeral and "Guesses left" in again.text  # the channel plays again

    told = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(told) == 1, told
    assert f"game {game_id} " in told[0] and "newer than this bot understands" in told[0]


async def test_a_moderator_ends_an_unreadable_game(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    fake = fake_discord
    await (await fake.slash("games", "alice", "mastermind", "solve")).settled(timeout=30.0)
    _from_the_future(db_path, fake.channel("games").id)
    ended = await (await fake.slash("games", "mod", "mastermind", "giveup")).response()
    assert not ended.ephemeral and "cannot read" in ended.text
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]
    assert not (await (await fake.slash("games", "bob", "mastermind", "play")).settled()).ephemeral
