"""The Activity trusts nothing the page says (#33): a user Discord does not list in the
instance, a forged session, another channel's game, a replayed move and a stale version are
each refused with nothing stored; the client secret is in no response and in no log line,
DEBUG included."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import aiohttp
import pytest

from bot.logs import keep_payloads_out
from bot.ui.i18n import messages
from bot.web.errors import WORDS
from tests.bot.helpers import move_count, secret_text
from tests.discord_fake import FakeDiscord
from tests.web.conftest import Page


def digits(code: str) -> list[int]:
    return [int(peg) for peg in code]


def wrong(secret: str) -> str:
    return ("2" if secret[0] == "1" else "1") + secret[1:]


async def _play(fake: FakeDiscord, channel: str = "general") -> None:
    await (await fake.slash(channel, "alice", "mastermind", "play")).settled()


async def _playing(fake: FakeDiscord, pages, *users: str) -> list[Page]:
    """A play game in #general started by alice, and a page for each of `users` there."""
    await _play(fake)
    instance = fake.start_activity("general", users=users)
    return [await pages(fake, user, instance.instance_id) for user in users]


async def test_a_user_not_in_the_instance_gets_no_session(
    fake_discord: FakeDiscord, bot, pages
) -> None:
    instance = fake_discord.start_activity("general", users=("alice",))
    with pytest.raises(AssertionError, match="not_in_instance"):
        await pages(fake_discord, "bob", instance.instance_id)
    alice = await pages(fake_discord, "alice", instance.instance_id)
    status, body = await alice.call(
        "POST",
        "/api/session",
        {"code": fake_discord.oauth_code("bob"), "instance_id": "no-such-instance"},
    )
    assert status == 403 and body["error"] == "not_in_instance"


async def test_a_forged_or_missing_session_is_refused(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    [alice] = await _playing(fake_discord, pages, "alice")
    game = await alice.game()
    assert game is not None
    for forged in ("", "x" * 43, alice.session[:-1] + ("A" if alice.session[-1] != "A" else "B")):
        alice_forged = Page(alice.http, alice.base, forged)
        status, body = await alice_forged.act(game, "guess", "nonce-forged", code=[1, 1, 1, 1])
        assert status == 401 and body["error"] == "bad_session" and body["message"]
        status, body = await alice_forged.call("GET", "/api/game")
        assert status == 401 and body["error"] == "bad_session"
    assert move_count(db_path) == 0


async def test_another_channels_game_is_refused(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    [alice] = await _playing(fake_discord, pages, "alice")
    game = await alice.game()
    assert game is not None
    elsewhere = fake_discord.start_activity("games", users=("bob",))
    bob = await pages(fake_discord, "bob", elsewhere.instance_id)
    assert await bob.game() is None  # bob's channel has no game
    status, body = await bob.act(game, "guess", "nonce-elsewhere", code=[1, 1, 1, 1])
    assert status == 403 and body["error"] == "not_here"
    status, body = await bob.act(game, "giveup", "nonce-elsewhere-2")
    assert status == 403 and body["error"] == "not_here"
    assert move_count(db_path) == 0


async def test_a_replayed_move_is_stored_once(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    [alice] = await _playing(fake_discord, pages, "alice")
    game = await alice.game()
    code = digits(wrong(secret_text(db_path)))
    status, _ = await alice.act(game, "guess", "nonce-once", code=code)
    assert status == 200
    status, body = await alice.act(game, "guess", "nonce-once", code=code)
    assert status == 409 and body["error"] == "already_applied"
    assert move_count(db_path) == 1


async def test_a_stale_version_is_refused(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    alice, bob = await _playing(fake_discord, pages, "alice", "bob")
    seen = await bob.game()
    code = digits(wrong(secret_text(db_path)))
    status, _ = await alice.act(seen, "guess", "nonce-first", code=code)
    assert status == 200
    status, body = await bob.act(seen, "guess", "nonce-second", code=code)
    assert status == 409 and body["error"] == "stale_game" and "changed" in body["message"]
    status, body = await bob.act(seen, "giveup", "nonce-third")
    assert status == 409
    assert move_count(db_path) == 1


async def test_bad_arguments_and_actions_are_refused_in_polish(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    await _play(fake_discord)
    fake_discord.set_user_locale("alice", "pl")
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    assert alice.signed_in["locale"] == "pl"
    game = await alice.game()
    status, body = await alice.act(game, "answer", "nonce-answer", black=1, white=0)
    assert status == 400 and body["error"] == "unknown_action"
    status, body = await alice.act(game, "guess", "nonce-three", code=[1, 2, 3])
    assert status == 409 and body["error"] == "invalid_guess"
    status, body = await alice.act(game, "guess", "nonce-text", code="1234")
    assert status == 400 and body["error"] == "bad_arguments"
    english = await _english_words(alice)
    assert body["message"] not in english
    assert move_count(db_path) == 0


async def _english_words(page: Page) -> set[str]:
    return {said(messages("en")) for said in WORDS.values()}


async def test_the_client_secret_is_in_no_response_and_no_log(
    fake_discord: FakeDiscord, bot, pages, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    keep_payloads_out()
    caplog.set_level(logging.DEBUG)
    await _play(fake_discord)
    instance = fake_discord.start_activity("general", users=("alice",))
    bodies: list[str] = []
    alice = await pages(fake_discord, "alice", instance.instance_id)
    for method, path, body in [
        ("GET", "/api/config", None),
        ("GET", "/api/strings", None),
        ("GET", "/api/game", None),
        ("POST", "/api/session", {"code": "used-or-bad", "instance_id": instance.instance_id}),
        ("POST", "/api/session", {"code": fake_discord.oauth_code("alice"), "instance_id": "x"}),
        ("GET", "/", None),
        ("GET", "/nowhere", None),
    ]:
        async with alice.http.request(
            method, alice.base + path, json=body, headers=alice.headers()
        ) as response:
            bodies.append(await response.text())
            bodies.append(str(dict(response.headers)))
    game = await alice.game()
    _, body = await alice.act(game, "guess", "nonce-scan", code=[1, 1, 1, 1])
    bodies.append(str(body))
    secret = fake_discord.client_secret
    assert all(secret not in text for text in bodies)
    logged = "\n".join(record.getMessage() for record in caplog.records)
    assert "oauth2/token" in logged  # discord.py's or our DEBUG lines were captured
    assert secret not in logged
    assert alice.session not in logged


async def test_sign_ins_waiting_on_discord_are_bounded(
    fake_discord: FakeDiscord, bot, pages
) -> None:
    """Each sign-in asks Discord three questions: past SIGN_INS_AT_ONCE waiting at once, one
    more is refused at once, without asking Discord anything."""
    from bot.web.api import SIGN_INS_AT_ONCE

    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    stalls = [fake_discord.stall_next("POST", "/oauth2/token") for _ in range(SIGN_INS_AT_ONCE)]
    body = {"code": "never-used", "instance_id": instance.instance_id}
    waiting = [
        asyncio.create_task(alice.call("POST", "/api/session", body))
        for _ in range(SIGN_INS_AT_ONCE)
    ]
    for stall in stalls:
        await stall.wait_arrived()
    status, refused = await alice.call("POST", "/api/session", body)
    assert status == 429 and refused["error"] == "too_many"
    for stall in stalls:
        stall.release(serve=True)
    answers = await asyncio.gather(*waiting)
    assert all(status == 401 and answer["error"] == "bad_code" for status, answer in answers)


async def test_a_page_that_keeps_sending_junk_is_closed(
    fake_discord: FakeDiscord, bot, pages
) -> None:
    from bot.web.live import MOST_REFUSALS

    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    async with alice.live() as socket:
        await socket.send_json({"type": "hello", "session": alice.session})
        for n in range(MOST_REFUSALS + 5):
            await socket.send_str(f"junk {n}")
        errors = 0
        while True:
            message = await asyncio.wait_for(socket.receive(), 5)
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            errors += message.json()["type"] == "error"
        assert errors == MOST_REFUSALS
