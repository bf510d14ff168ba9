"""The Activity's WebSocket (#33): hello first (never a session in the URL), the current game
at once and again after a reconnect, presence, pings a silent page is closed on, and a hint
said to the player who asked."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiohttp

from tests.bot.helpers import secret_text
from tests.discord_fake import FakeDiscord


async def _messages(socket, kind: str, timeout: float = 5.0) -> dict:
    while True:
        message = await asyncio.wait_for(socket.receive(), timeout)
        if message.type is not aiohttp.WSMsgType.TEXT:
            return {"type": "closed"}
        data = message.json()
        if data["type"] == kind:
            return data


async def test_hello_first_then_the_game_presence_and_pings(
    fake_discord: FakeDiscord, bot, pages
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    bob = await pages(fake_discord, "bob", instance.instance_id)
    hub = bot.activity_server.hub
    hub.ping_seconds = 0.3

    async with alice.live() as refused:  # anything before a hello with a live session
        await refused.send_json({"type": "hello", "session": "forged"})
        error = await _messages(refused, "error")
        assert error["error"] == "bad_session"
        assert (await refused.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)

    async with alice.live() as silent, bob.live() as answering:
        await silent.send_json({"type": "hello", "session": alice.session})
        await answering.send_json({"type": "hello", "session": bob.session})
        assert (await _messages(silent, "game"))["game"]["kind"] == "play"
        presence = await _messages(answering, "presence")
        assert {p["id"] for p in presence["presence"]} <= {
            str(fake_discord.user(u).id) for u in ("alice", "bob")
        }
        for _ in range(4):  # bob answers every ping and stays
            await _messages(answering, "ping")
            await answering.send_json({"type": "pong"})
        closed = await _messages(silent, "never", timeout=3.0)  # alice never answers
        assert closed == {"type": "closed"}
        assert not answering.closed
        await answering.send_json({"type": "hello", "session": bob.session})  # a reconnect
        assert (await _messages(answering, "game"))["game"]["kind"] == "play"


async def test_a_hint_is_said_to_the_player_who_asked(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    game = await alice.game()
    status, body = await alice.act(game, "hint", "nonce-hint-1")
    assert status == 200, body
    assert "codes still fit" in body["note"] and body["game"]["extra"]["hints"] == 1


async def test_a_finished_game_is_reviewed_for_the_player_who_asks(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash("general", "alice", "mastermind", "play", options={"guesses": 2})
    ).settled()
    assert board is not None
    secret = [int(peg) for peg in secret_text(db_path)]
    wrong = [secret[0] % 6 + 1, *secret[1:]]
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    bob = await pages(fake_discord, "bob", instance.instance_id)
    game = await alice.game()
    status, body = await alice.act(game, "review", "nonce-review-early")
    assert status == 409 and body["error"] == "review_not_yet"  # nobody reviews a running game
    status, body = await alice.act(game, "guess", "nonce-r1", code=wrong)
    status, body = await alice.act(body["game"], "guess", "nonce-r2", code=secret)
    assert status == 200 and body["game"]["status"] == "won"
    assert "review" in body["game"]["actions"]
    status, body = await bob.act(body["game"], "review", "nonce-review-bob")
    assert status == 200, body
    assert body["note"] and body["game"]["status"] == "won"
    assert body["picture"] is None or body["picture"].startswith("data:image/png;base64,")


async def test_a_game_started_in_the_channel_reaches_a_waiting_page(
    fake_discord: FakeDiscord, bot, pages
) -> None:
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    async with alice.live() as socket:
        await socket.send_json({"type": "hello", "session": alice.session})
        assert (await _messages(socket, "game"))["game"] is None
        await (await fake_discord.slash("general", "bob", "mastermind", "play")).settled()
        started = (await _messages(socket, "game"))["game"]
        assert started["kind"] == "play" and started["status"] == "running"
