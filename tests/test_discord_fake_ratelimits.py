"""The fake's rate limits: Discord's headers and 429s per bucket, the bucket one channel's sends
and edits share, the global limit, the unlimited interaction callback, retries that come too
soon, and the invalid-request ban; then the real discord.py client pacing itself on them."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_fake import FakeDiscord
from tests.discord_fake.limits import DISCORD, Bucket
from tests.sample_bot import SampleBot


async def _rest(
    fake: FakeDiscord, method: str, path: str, body: Any = None, *, token: str | None = None
) -> tuple[int, Any, dict[str, str]]:
    """One REST call that paces nothing (auth by the bot's token unless `token` is given):
    (status, JSON body, headers)."""
    headers = {"Authorization": f"Bot {token or fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.rest_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status not in (204, 429) else None
        if response.status == 429 and response.content_type == "application/json":
            data = await response.json()
        elif response.status == 429:
            data = await response.text()
        return response.status, data, dict(response.headers)


def _silent() -> discord.Client:
    """A connected client that answers no interaction itself (the test answers over REST)."""
    return discord.Client(intents=discord.Intents.default())


def _messages(fake: FakeDiscord, channel: str) -> str:
    return f"/channels/{fake.channel(channel).id}/messages"


async def test_a_channel_bucket_counts_down_then_answers_429_with_discords_headers() -> None:
    async with FakeDiscord() as fake:
        general = _messages(fake, "general")
        remaining = []
        for n in range(5):
            status, _, headers = await _rest(fake, "POST", general, {"content": f"m{n}"})
            assert status == 200
            assert headers["X-RateLimit-Limit"] == "5"
            assert headers["X-RateLimit-Bucket"] == "channel-messages"
            assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5.0
            assert float(headers["X-RateLimit-Reset"]) > time.time()
            remaining.append(int(headers["X-RateLimit-Remaining"]))
        assert remaining == [4, 3, 2, 1, 0]

        status, body, headers = await _rest(fake, "POST", general, {"content": "sixth"})
        assert status == 429
        assert body["global"] is False and 0 < body["retry_after"] <= 5.0
        assert headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in headers
        assert headers["X-RateLimit-Remaining"] == "0"
        assert int(headers["Retry-After"]) >= body["retry_after"]
        assert headers["Via"]  # without it discord.py takes a 429 for a Cloudflare ban
        assert [m.content for m in fake.messages("general")] == [f"m{n}" for n in range(5)]
        (hit,) = fake.rate_limiter.hits if fake.rate_limiter else []
        assert (hit.bucket, hit.scope, hit.method) == ("channel-messages", "user", "POST")
        assert fake.rate_limiter is not None and fake.rate_limiter.invalid_total == 1


async def test_sends_and_edits_share_one_bucket_per_channel() -> None:
    async with FakeDiscord() as fake:
        general, games = _messages(fake, "general"), _messages(fake, "games")
        _, board, _ = await _rest(fake, "POST", general, {"content": "board"})
        edit = f"{general}/{board['id']}"
        for n in range(4):
            assert (await _rest(fake, "PATCH", edit, {"content": f"{n}"}))[0] == 200
        status, _, headers = await _rest(fake, "PATCH", edit, {"content": "9"})
        assert (status, headers["X-RateLimit-Bucket"]) == (429, "channel-messages")
        assert (await _rest(fake, "POST", general, {"content": "more"}))[0] == 429
        status, _, headers = await _rest(fake, "POST", games, {"content": "elsewhere"})
        assert (status, headers["X-RateLimit-Remaining"]) == (200, "4")  # its own channel's
        fake.advance_time(5.0)
        assert (await _rest(fake, "POST", general, {"content": "later"}))[0] == 200


async def test_the_global_limit_binds_bot_token_routes_only() -> None:
    limits = dataclasses.replace(DISCORD, global_per_second=5)
    async with FakeDiscord(rate_limits=limits) as fake, fake.run_in_process(_silent):
        handle = await fake.slash("general", "alice", "ping")
        fake.advance_time(1.0)  # a fresh second, whatever the client's start-up sent
        for _ in range(5):
            assert (await _rest(fake, "GET", f"/channels/{fake.channel('games').id}"))[0] == 200
        status, body, headers = await _rest(fake, "GET", f"/guilds/{fake.guild_id}")
        assert (status, body["global"]) == (429, True)
        assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
        assert "X-RateLimit-Bucket" not in headers

        # The interaction callback has no limit at all, global or its own.
        callback = f"/interactions/{handle.id}/{handle.token}/callback"
        answer = {"type": 4, "data": {"content": "x"}}
        status, _, headers = await _rest(fake, "POST", callback, answer)
        assert status in (200, 204) and not any(h.startswith("X-RateLimit") for h in headers)
        assert (await handle.response()).content == "x"


async def test_the_interaction_callback_is_never_limited() -> None:
    async with FakeDiscord() as fake, fake.run_in_process(_silent):
        handles = [await fake.slash("general", "alice", "ping") for _ in range(80)]
        answers = await asyncio.gather(
            *(
                _rest(
                    fake,
                    "POST",
                    f"/interactions/{h.id}/{h.token}/callback",
                    {"type": 4, "data": {"content": "pong"}},
                )
                for h in handles
            )
        )
        assert {status for status, _, _ in answers} <= {200, 204}
        assert fake.rate_limiter is not None and fake.rate_limiter.hits == []


async def test_followups_are_limited_per_interaction_token() -> None:
    async with FakeDiscord() as fake, fake.run_in_process(_silent):
        first, second = [await fake.slash("general", "alice", "ping") for _ in range(2)]
        for handle in (first, second):
            callback = f"/interactions/{handle.id}/{handle.token}/callback"
            await _rest(fake, "POST", callback, {"type": 5})
        hook = f"/webhooks/{fake.application_id}/{first.token}"
        for n in range(5):
            status, _, headers = await _rest(fake, "POST", hook, {"content": f"f{n}"})
            assert status in (200, 204) and headers["X-RateLimit-Bucket"] == "interaction-webhook"
        assert (await _rest(fake, "POST", hook, {"content": "sixth"}))[0] == 429
        other = f"/webhooks/{fake.application_id}/{second.token}"
        assert (await _rest(fake, "POST", other, {"content": "its own bucket"}))[0] in (200, 204)


async def test_a_retry_sooner_than_retry_after_is_a_violation() -> None:
    async with FakeDiscord() as fake:
        general = _messages(fake, "general")
        for n in range(5):
            await _rest(fake, "POST", general, {"content": f"m{n}"})
        assert (await _rest(fake, "POST", general, {"content": "again"}))[0] == 429
        assert (await _rest(fake, "POST", general, {"content": "again"}))[0] == 429
        (violation,) = fake.take_violations("retry-too-soon")
        assert violation.method == "POST" and "before its 429's retry_after" in violation.detail
        fake.advance_time(5.0)  # the same request once its retry_after ran out is welcome
        assert (await _rest(fake, "POST", general, {"content": "again"}))[0] == 200
        assert fake.violations == []


async def test_ten_thousand_invalid_requests_in_ten_minutes_get_the_bot_banned() -> None:
    limits = dataclasses.replace(DISCORD, invalid_requests=30)  # 30 stands for 10,000
    async with FakeDiscord(rate_limits=limits) as fake:
        general = _messages(fake, "general")
        for _ in range(10):
            assert (await _rest(fake, "GET", general, token="not.the.token"))[0] == 401
        fake.advance_time(600.0)  # out of the window: forgotten
        for n in range(29):
            status, _, _ = await _rest(fake, "GET", general, token="not.the.token")
            assert status == 401 and fake.violations == [], n
        _, sent, _ = await _rest(fake, "POST", general, {"content": "fine"})  # 200 counts not
        assert fake.violations == [] and sent["content"] == "fine"
        assert (await _rest(fake, "GET", general, token="not.the.token"))[0] == 401
        (violation,) = fake.take_violations("invalid-requests")
        assert "30 requests answered 401, 403 or 429" in violation.detail
        status, body, _ = await _rest(fake, "GET", general)  # banned, even with the token
        assert (status, body) == (429, "error code: 1015")


async def test_discord_py_paces_a_busy_channel_on_the_headers_without_a_429() -> None:
    """The real client reads the headers (no limit is written in the bot): twelve edits of one
    message at once, in a bucket of 3 per 0.5 s, all land, the newest last, in >= 3 windows."""
    limits = dataclasses.replace(DISCORD, messages=Bucket("channel-messages", 3, 0.5))
    async with FakeDiscord(rate_limits=limits) as fake, fake.run_in_process(SampleBot) as bot:
        channel = bot.get_partial_messageable(fake.channel("general").id)
        board = await channel.send("board 0")
        started = time.monotonic()
        for n in range(1, 13):
            await board.edit(content=f"board {n}")
        elapsed = time.monotonic() - started
        edited = fake.message(board.id)
        assert edited.content == "board 12" and edited.edits == 12
        assert elapsed >= 1.5, elapsed  # 13 requests, 3 per window: the 5th window opens at 2 s
        assert fake.rate_limiter is not None and fake.rate_limiter.hits == []


async def test_discord_py_waits_out_a_429_from_a_bucket_it_could_not_know() -> None:
    """Another process emptied the bucket: discord.py's first request is refused and retried
    no sooner than retry_after (the fixture's check of `retry-too-soon` holds)."""
    async with FakeDiscord() as fake, fake.run_in_process(SampleBot) as bot:
        general = _messages(fake, "general")
        for n in range(5):
            await _rest(fake, "POST", general, {"content": f"other process {n}"})
        started = time.monotonic()
        await bot.get_partial_messageable(fake.channel("general").id).send("mine")
        waited = time.monotonic() - started
        (hit,) = fake.rate_limiter.hits if fake.rate_limiter else []
        assert waited >= hit.retry_after and fake.messages("general")[-1].content == "mine"
        assert fake.violations == []


async def test_an_unlimited_fake_limits_nothing() -> None:
    async with FakeDiscord(rate_limits=None) as fake:
        general = _messages(fake, "general")
        answers = [await _rest(fake, "POST", general, {"content": f"{n}"}) for n in range(12)]
        assert {status for status, _, _ in answers} == {200}
        assert not any(h.startswith("X-RateLimit") for h in answers[0][2])


async def test_the_fixture_enforces_discords_limits_by_default(fake_discord: FakeDiscord) -> None:
    assert fake_discord.rate_limiter is not None
    assert fake_discord.rate_limiter.limits == DISCORD


@pytest.mark.unlimited_discord
async def test_the_marker_asks_the_fixture_for_an_unlimited_fake(fake_discord: FakeDiscord) -> None:
    assert fake_discord.rate_limiter is None


def test_discords_documented_numbers() -> None:
    assert (DISCORD.global_per_second, DISCORD.invalid_requests) == (50, 10_000)
    assert DISCORD.invalid_window == 600.0
    assert (DISCORD.messages.limit, DISCORD.messages.per) == (5, 5.0)


def test_the_bot_hard_codes_no_rate_limit() -> None:
    """Discord asks bots to read limits from the headers: the bot neither passes discord.py a
    limit of its own nor names one of Discord's bucket figures."""
    import pathlib
    import re

    source = "\n".join(p.read_text() for p in pathlib.Path("bot").rglob("*.py"))
    assert not re.search(r"max_ratelimit_timeout|X-RateLimit|retry_after\s*=", source)
