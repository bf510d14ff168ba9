"""Discord's rate limits, every number the fake enforces, in one place with where it comes from.

Discord's documentation (https://discord.com/developers/docs/topics/rate-limits) gives two
numbers and asks clients to read the rest from the headers, never to hard-code them:

- the global limit: 50 requests a second per bot on bot-token routes; interaction endpoints
  (the callback, and the webhook routes of an interaction's token) are not bound by it;
- invalid requests: a bot (an IP, in fact) that makes 10,000 requests answered 401, 403 or
  429 in 10 minutes is blocked for a while. A 429 whose `X-RateLimit-Scope` is `shared` does
  not count.

Per-route buckets are not documented; the figures below are what Discord's headers are known
to return (`X-RateLimit-Limit` and `X-RateLimit-Reset-After` as bots log them), rounded to the
commonly reported values. The bot reads them from the headers (discord.py does); only the fake
knows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Bucket:
    """`limit` requests per `per` seconds, counted per major parameter (a channel, a token)."""

    name: str
    """The `X-RateLimit-Bucket` hash the fake sends: routes that share a bucket share it."""
    limit: int
    per: float


MESSAGES = Bucket("channel-messages", 5, 5.0)
"""POST and PATCH /channels/{channel}/messages[/{message}]: 5 per 5 s in one channel (the
headers of a send or an edit; one busy channel's board edits and posts share it)."""

DELETES = Bucket("channel-message-deletes", 5, 1.0)
"""DELETE /channels/{channel}/messages/{message}: 5 per second in one channel (headers)."""

REACTIONS = Bucket("channel-reactions", 1, 0.25)
"""PUT/DELETE of the bot's reaction: 1 per 0.25 s in one channel (headers)."""

INTERACTION_WEBHOOK = Bucket("interaction-webhook", 5, 2.0)
"""Followups and @original edits of one interaction (POST/GET/PATCH/DELETE
/webhooks/{app}/{token}...): 5 per 2 s per interaction token (a webhook's headers)."""

OTHER = Bucket("route", 50, 1.0)
"""Every other bot-token route, one bucket per route and major parameter: never tighter than
the global limit, which is what binds there."""


@dataclass(frozen=True)
class Limits:
    """The limits one fake enforces; `DISCORD` is Discord's. Tests of the fake itself lower
    `invalid_requests` to trip the counter without sending 10,000 requests."""

    global_per_second: int = 50
    """Documented: 50 requests a second per bot on bot-token routes."""
    invalid_requests: int = 10_000
    """Documented: 10,000 invalid (401, 403, 429) requests in `invalid_window` ban the bot."""
    invalid_window: float = 600.0
    """Documented: 10 minutes."""
    messages: Bucket = field(default=MESSAGES)
    deletes: Bucket = field(default=DELETES)
    reactions: Bucket = field(default=REACTIONS)
    interaction_webhook: Bucket = field(default=INTERACTION_WEBHOOK)
    other: Bucket = field(default=OTHER)


DISCORD = Limits()
"""Discord's limits: what every fake enforces unless a test asks for an unlimited one."""
