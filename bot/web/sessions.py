"""The Activity's sign-ins, kept by the server: a random token the page holds, standing for who
signed in and where (as Discord said), until it expires. Nothing in a session comes from the
page."""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.interactions.activity import Viewer

LIFETIME_SECONDS = 12 * 3600.0
"""A sign-in lasts this long (the page signs in again after, as at each launch)."""
MOST_SESSIONS = 50_000
"""Past this many, the oldest sign-in is forgotten first (bounded memory)."""


@dataclass(frozen=True)
class Session:
    """One sign-in: the player, the instance's channel, their language and Discord's look of
    them (for the rows they make)."""

    viewer: Viewer
    name: str
    avatar_url: str | None
    language: str
    instance_id: str
    expires: float


class Sessions:
    """Every live sign-in of this process, by token."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._by_token: OrderedDict[str, Session] = OrderedDict()

    def open(
        self,
        viewer: Viewer,
        name: str,
        avatar_url: str | None,
        language: str,
        instance_id: str,
    ) -> str:
        """A new sign-in; its token (256 random bits) for the page."""
        token = secrets.token_urlsafe(32)
        expires = self._clock() + LIFETIME_SECONDS
        self._by_token[token] = Session(viewer, name, avatar_url, language, instance_id, expires)
        while len(self._by_token) > MOST_SESSIONS:
            self._by_token.popitem(last=False)
        return token

    def get(self, token: object) -> Session | None:
        """The sign-in `token` stands for, if it is one and has not expired."""
        if not isinstance(token, str) or len(token) > 100:
            return None
        found = self._by_token.get(token)
        if found is None:
            return None
        if found.expires <= self._clock():
            del self._by_token[token]
            return None
        return found
