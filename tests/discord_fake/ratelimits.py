"""The fake's rate limiter: Discord's buckets, global limit and invalid-request ban, with the
headers Discord sends, so the real discord.py client paces itself as it does against Discord.

The numbers are in limits.py. Buckets are fixed windows that open at their first request, as
Discord's headers describe them (`Remaining` counts down, `Reset-After` says when the window
closes). A refused request is answered 429 with Discord's body and headers (and `Via`, without
which discord.py takes a 429 for a Cloudflare ban) and is not charged to its bucket.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.discord_fake.limits import Bucket, Limits

_CALLBACK = re.compile(r"/interactions/[^/]+/[^/]+/callback")
_CHANNEL_MESSAGES = re.compile(r"/channels/(?P<channel>\d+)/messages(?:/(?P<message>\d+))?")
_REACTION = re.compile(r"/channels/(?P<channel>\d+)/messages/\d+/reactions/.+")
_WEBHOOK_TOKEN = re.compile(r"/webhooks/\d+/(?P<token>[^/]+)(?:/.*)?")
_MAJOR = re.compile(r"/(channels|guilds|webhooks)/(\d+)")


@dataclass(frozen=True)
class RateLimitHit:
    """One request the fake answered 429 (for a test or a soak to count and check)."""

    at: float
    method: str
    path: str
    bucket: str
    scope: str
    retry_after: float


@dataclass
class Refusal:
    """A 429: the JSON body and headers Discord sends with it."""

    body: dict[str, Any]
    headers: dict[str, str]
    scope: str


@dataclass
class _Window:
    """A bucket's current window: requests counted in it and when it closes."""

    used: int = 0
    closes: float = 0.0


@dataclass
class RateLimiter:
    """Decides, for each request, the rate-limit headers or a 429, and counts invalid ones.

    `clock` is the fake's clock (monotonic seconds, moved by `advance_time`)."""

    limits: Limits
    clock: Callable[[], float]
    hits: list[RateLimitHit] = field(default_factory=list)
    invalid_total: int = 0
    banned: bool = False
    _windows: dict[tuple[str, str], _Window] = field(default_factory=dict)
    _invalid: deque[float] = field(default_factory=deque)
    _not_before: dict[tuple[str, str, str], float] = field(default_factory=dict)

    def bucket_of(self, method: str, path: str, *, bot_token: bool) -> tuple[Bucket, str] | None:
        """The bucket a request is counted in and its major parameter; None for a route
        Discord does not limit (the interaction callback, unauthenticated routes)."""
        limits = self.limits
        if _CALLBACK.fullmatch(path):
            return None
        if found := _WEBHOOK_TOKEN.fullmatch(path):
            return limits.interaction_webhook, found["token"]
        if found := _REACTION.fullmatch(path):
            return limits.reactions, found["channel"]
        if found := _CHANNEL_MESSAGES.fullmatch(path):
            if method == "DELETE" and found["message"]:
                return limits.deletes, found["channel"]
            if (method == "POST" and not found["message"]) or (
                method == "PATCH" and found["message"]
            ):
                return limits.messages, found["channel"]
        if not bot_token:
            return None
        major = _MAJOR.match(path)
        route = _MAJOR.sub(r"/\1/{id}", path)
        route = re.sub(r"/\d+", "/{n}", route)
        return limits.other, f"{method} {route} {major.group(2) if major else ''}"

    def admit(
        self, method: str, path: str, body: Any, *, bot_token: bool
    ) -> Refusal | dict[str, str]:
        """Count one request: the headers to answer it with, or the 429 refusing it."""
        now = self.clock()
        bucket = self.bucket_of(method, path, bot_token=bot_token)
        if bot_token and bucket is not None:
            window = self._window("global", "", now, 1.0)
            if window.used >= self.limits.global_per_second:
                return self._refuse(method, path, body, now, window, None)
            window.used += 1
        if bucket is None:
            return {}
        spec, major = bucket
        window = self._window(spec.name, major, now, spec.per)
        if window.used >= spec.limit:
            return self._refuse(method, path, body, now, window, spec)
        window.used += 1
        return _headers(spec, spec.limit - window.used, window.closes - now)

    def early_retry(self, method: str, path: str, body: Any) -> float | None:
        """If this request repeats one refused less than its `retry_after` ago, the seconds it
        came too soon (discord.py retries the same request after sleeping `retry_after`)."""
        key = _request_key(method, path, body)
        not_before = self._not_before.get(key)
        if not_before is None:
            return None
        now = self.clock()
        if now >= not_before - 0.001:
            del self._not_before[key]
            return None
        return not_before - now

    def count(self, status: int, scope: str | None) -> bool:
        """Count an answered request; True when it is the one that gets the bot banned (401,
        403 and 429 but a shared-scope 429, `invalid_requests` in `invalid_window`)."""
        if not (status in (401, 403) or (status == 429 and scope != "shared")):
            return False
        now = self.clock()
        self.invalid_total += 1
        self._invalid.append(now)
        while self._invalid and self._invalid[0] <= now - self.limits.invalid_window:
            self._invalid.popleft()
        if not self.banned and len(self._invalid) >= self.limits.invalid_requests:
            self.banned = True
            return True
        return False

    def invalid_in_window(self) -> int:
        """Invalid requests in the last `invalid_window` seconds."""
        now = self.clock()
        return sum(1 for at in self._invalid if at > now - self.limits.invalid_window)

    def _window(self, name: str, major: str, now: float, per: float) -> _Window:
        window = self._windows.setdefault((name, major), _Window())
        if now >= window.closes:
            window.used, window.closes = 0, now + per
        return window

    def _refuse(
        self, method: str, path: str, body: Any, now: float, window: _Window, spec: Bucket | None
    ) -> Refusal:
        retry_after = math.ceil(max(window.closes - now, 0.001) * 1000) / 1000
        scope = "user" if spec is not None else "global"
        if len(self._not_before) > 10_000:
            self._not_before = {k: t for k, t in self._not_before.items() if t > now}
        self._not_before[_request_key(method, path, body)] = now + retry_after
        self.hits.append(
            RateLimitHit(now, method, path, spec.name if spec else "global", scope, retry_after)
        )
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if spec is None:
            headers["X-RateLimit-Global"] = "true"
        else:
            headers |= _headers(spec, 0, retry_after)
        message = "You are being rate limited."
        data = {"message": message, "retry_after": retry_after, "global": spec is None, "code": 0}
        return Refusal(data, headers, scope)


def _headers(spec: Bucket, remaining: int, reset_after: float) -> dict[str, str]:
    """Discord's rate-limit headers for a request counted in `spec`."""
    return {
        "X-RateLimit-Limit": str(spec.limit),
        "X-RateLimit-Remaining": str(remaining),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": spec.name,
    }


def _request_key(method: str, path: str, body: Any) -> tuple[str, str, str]:
    """What makes a request the same one again: a retry repeats method, path and body."""
    return method, path, json.dumps(body, sort_keys=True, default=str)
