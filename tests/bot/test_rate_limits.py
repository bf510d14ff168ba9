"""The bot under Discord's rate limits (issue #34): a board edit that waits for its channel's
bucket never delays an answer, the bot retries no sooner than `retry_after` (the fixture fails
on `retry-too-soon`), and the board still ends up showing the stored game."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from tests.bot.helpers import board_shows, move_count, secret_text
from tests.discord_fake import FakeDiscord


def _wrong(db_path: Path) -> str:
    secret = secret_text(db_path)
    return ("2" if secret[0] == "1" else "1") + secret[1:]


async def spend_bucket(fake: FakeDiscord, channel: str) -> None:
    """Send as another process of the same bot would (a cluster shares the bot's buckets) until
    the channel's bucket of sends and edits is empty."""
    url = f"{fake.rest_base}/channels/{fake.channel(channel).id}/messages"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        while True:
            async with session.post(url, json={"content": "elsewhere"}) as response:
                assert response.status == 200
                if response.headers["X-RateLimit-Remaining"] == "0":
                    return


async def test_a_refusal_on_a_board_is_answered_while_its_edit_waits_out_a_429(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    await spend_bucket(fake_discord, "general")
    limiter = fake_discord.rate_limiter
    assert limiter is not None
    guess = await fake_discord.slash(
        "general", "bob", "mastermind", "guess", options={"code": _wrong(db_path)}
    )
    assert "9 guesses left" in (await guess.response()).text  # the callback is never limited
    await fake_discord.wait_for(lambda: bool(limiter.hits), what="the board edit to meet a 429")
    (hit,) = limiter.hits
    assert hit.method == "PATCH" and hit.bucket == "channel-messages"

    # While discord.py waits out retry_after on the board's edit, a click on that board that
    # is refused (only the starter may end it) is answered at once, not after the edit.
    refused = await fake_discord.click(board, "Give up", user="bob")
    reply = await refused.response()
    assert reply.ephemeral and refused.latency is not None and refused.latency < 1.0
    assert hit.at + hit.retry_after > fake_discord.now()  # the edit was still waiting

    await board_shows(fake_discord, board, "**9** of 10")  # the edit, after retry_after
    assert move_count(db_path) == 1 and len(limiter.hits) == 1


async def test_a_burst_of_guesses_is_answered_in_time_and_the_board_shows_the_last(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    """More moves than the channel's bucket allows edits: each is answered within Discord's
    3 s (the fixture fails the test otherwise), the bot meets no 429 (it paces itself on the
    headers), and the board converges to the last move."""
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    wrong = _wrong(db_path)
    players = ["bob", "carol", "dave", "alice"] * 2
    for n, player in enumerate(players):
        line = await (
            await fake_discord.slash(
                "general", player, "mastermind", "guess", options={"code": wrong}
            )
        ).response()
        assert f"{9 - n} guesses left" in line.text or (n == 8 and "1 guess left" in line.text)
    assert max(fake_discord.latencies()) < 3.0
    await board_shows(fake_discord, board, f"**{10 - len(players)}** of 10")
    assert fake_discord.rate_limiter is not None and fake_discord.rate_limiter.hits == []
    assert move_count(db_path) == len(players)
