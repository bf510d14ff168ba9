"""A play game on the Activity (#33): the real bot, the fake Discord, a real database file;
the page's side over HTTP and WebSocket. A move from the page is play's own action, and the
channel's board and the page show the same game."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.helpers import board_shows, move_count, query, secret_text
from tests.discord_fake import FakeDiscord


def digits(code: str) -> list[int]:
    return [int(peg) for peg in code]


def holds(value: object, code: list[int]) -> bool:
    """Whether `code` is anywhere in `value` as a list of pegs (not digits of some id)."""
    if value == code:
        return True
    if isinstance(value, dict):
        return any(holds(v, code) for v in value.values())
    if isinstance(value, list):
        return any(holds(v, code) for v in value)
    return False


def wrong(secret: str) -> str:
    return ("2" if secret[0] == "1" else "1") + secret[1:]


async def test_sign_in_says_who_and_where(fake_discord: FakeDiscord, bot, pages) -> None:
    instance = fake_discord.start_activity("general", users=("alice",))
    page = await pages(fake_discord, "alice", instance.instance_id)
    signed = page.signed_in
    assert signed["user"]["id"] == str(fake_discord.user("alice").id)
    assert signed["channel_id"] == str(fake_discord.channel("general").id)
    assert signed["locale"] == "en" and len(signed["session"]) >= 40
    assert await page.game() is None  # no game in the channel yet


async def test_a_guess_on_the_page_is_plays_own_move(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    bob = await pages(fake_discord, "bob", instance.instance_id)
    game = await bob.game()
    assert game is not None and game["kind"] == "play" and game["status"] == "running"
    assert game["rows"] == [] and game["remaining"] == 10 and game["secret"] is None
    assert game["actions"] == ["guess", "hint"]  # bob did not start it: no Give up
    secret = secret_text(db_path)
    assert not holds(game, digits(secret))

    status, body = await bob.act(game, "guess", "nonce-0001", code=digits(wrong(secret)))
    assert status == 200, body
    after = body["game"]
    assert after["version"] == game["version"] + 1 and after["remaining"] == 9
    [row] = after["rows"]
    assert row["code"] == digits(wrong(secret)) and row["black"] == 3
    assert row["by"]["id"] == str(fake_discord.user("bob").id) and row["by"]["name"]
    assert query(db_path, "SELECT source FROM moves WHERE kind = 'guess'") == [
        (f"web:{fake_discord.user('bob').id}:nonce-0001",)
    ]
    await board_shows(fake_discord, board, "**9** of 10")  # the channel's board follows

    status, body = await bob.act(after, "guess", "nonce-0002", code=digits(secret))
    assert status == 200 and body["game"]["status"] == "won"
    assert body["game"]["secret"] == digits(secret)  # shown once the game is over
    await board_shows(fake_discord, board, "Cracked by")


async def test_the_page_hears_a_slash_guess_at_once(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    async with alice.live() as socket:
        await socket.send_json({"type": "hello", "session": alice.session})
        first = await socket.receive_json(timeout=5)
        assert first["type"] == "game" and first["game"]["rows"] == []
        secret = secret_text(db_path)
        await (
            await fake_discord.slash(
                "general", "bob", "mastermind", "guess", options={"code": wrong(secret)}
            )
        ).response()
        pushed = await _next_game(socket)
        assert [r["code"] for r in pushed["rows"]] == [digits(wrong(secret))]
        assert not holds(pushed, digits(secret)) and pushed["secret"] is None
    assert move_count(db_path) >= 1


async def _next_game(socket) -> dict:
    while True:
        message = await asyncio.wait_for(socket.receive_json(), 5)
        if message["type"] == "game":
            return message["game"]
