"""bot/bucket_waits.py on discord.py's own Ratelimit: a wait counts only when Discord's headers
said the bucket was empty, not discord.py's zero-second yield on a bucket with no headers
(a loopback soak without limits once counted 777 such 'waits', 1.1 s in all)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from discord.http import Ratelimit, Route

from bot import bucket_waits


class Http:
    """discord.py's HTTPClient as far as buckets go: one Ratelimit per key, made on demand."""

    def __init__(self) -> None:
        self.buckets: dict[str, Ratelimit] = {}

    def get_ratelimit(self, key: str) -> Ratelimit:
        if key not in self.buckets:
            self.buckets[key] = Ratelimit(None)
        return self.buckets[key]


BOARD_EDIT = "/channels/{channel_id}/messages/{message_id}"


def headers(limit: int, remaining: int, reset_after: float) -> SimpleNamespace:
    return SimpleNamespace(
        headers={
            "X-Ratelimit-Limit": str(limit),
            "X-Ratelimit-Remaining": str(remaining),
            "X-Ratelimit-Reset-After": str(reset_after),
        }
    )


async def test_a_bucket_without_headers_is_not_a_wait() -> None:
    http, held = Http(), []
    assert bucket_waits.time_waits(http, lambda route, s: held.append(s))  # type: ignore[arg-type]

    async def request() -> None:
        async with http.get_ratelimit("GET /gateway/bot"):
            await asyncio.sleep(0.01)

    await asyncio.gather(*(request() for _ in range(5)))
    assert held == []


async def test_an_emptied_bucket_holds_its_request_and_the_next_until_reset() -> None:
    http, held = Http(), []
    assert bucket_waits.time_waits(http, lambda route, s: held.append((route, s)))  # type: ignore[arg-type]
    edit = Route("PATCH", BOARD_EDIT, channel_id=1, message_id=2)

    async def request(remaining: int) -> None:
        being_made = bucket_waits.ROUTE.set(edit)
        try:
            async with (bucket := http.get_ratelimit("channel-messages:1")):
                bucket.update(headers(2, remaining, 0.3))  # type: ignore[arg-type]
        finally:
            bucket_waits.ROUTE.reset(being_made)

    await request(1)
    assert held == []  # a token left: no wait
    await asyncio.gather(request(0), request(1))  # the first empties it, the second waits
    assert len(held) == 2, held
    assert all(route is edit and 0.2 < seconds < 1.0 for route, seconds in held), held
