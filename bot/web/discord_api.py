"""The three questions the Activity asks Discord when a player signs in: the OAuth2 code for an
access token (with the client secret), who that token belongs to, and which channel an Activity
instance is in and who is in it (with the bot token).

Every URL is built by `discord.http.Route`, so the base URL that points discord.py at Discord
(or at the tests' fake) points these calls there too. The instance is asked through the bot's
own HTTP client (its token, its rate limits); the two OAuth2 calls carry the player's
credentials, not the bot's, so they go through a session of their own. No body, token or
secret is ever logged or put in an error.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
from discord.http import Route

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 10.0


class DiscordRefused(Exception):
    """Discord said no (a bad or used code, an unknown instance) or could not be reached;
    `code` is the API's error code for the page."""

    def __init__(self, code: str, status: int) -> None:
        super().__init__(f"{code} (HTTP {status})")
        self.code, self.status = code, status


@dataclass(frozen=True)
class Player:
    """Who signed in, as Discord says."""

    user_id: int
    name: str
    avatar_url: str | None
    locale: str | None


@dataclass(frozen=True)
class Instance:
    """Where an Activity instance runs and who is in it, as Discord says."""

    instance_id: str
    channel_id: int
    guild_id: int | None
    users: frozenset[int]


def avatar_url(user_id: int, avatar: str | None) -> str | None:
    """The user's avatar on Discord's CDN (the only place the page loads images from)."""
    if not avatar:
        return None
    extension = "gif" if avatar.startswith("a_") else "png"
    return f"https://cdn.discordapp.com/avatars/{user_id}/{avatar}.{extension}?size=64"


class DiscordApi:
    """The sign-in's calls to Discord, for one application."""

    def __init__(self, http: discord.http.HTTPClient, client_id: int, secret: str) -> None:
        self._http, self._client_id, self._secret = http, client_id, secret
        self._session: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    def _oauth(self) -> aiohttp.ClientSession:
        if self._session is None:
            timeout = aiohttp.ClientTimeout(total=TIMEOUT_SECONDS)
            self._session = aiohttp.ClientSession(timeout=timeout)
        return self._session

    async def _call(
        self, route: Route, refused: str, **request: Any
    ) -> dict[str, Any]:  # pragma: no branch
        try:
            async with self._oauth().request(route.method, route.url, **request) as response:
                if response.status >= 400:
                    log.info(
                        "Discord refused %s %s: HTTP %d", route.method, route.path, response.status
                    )
                    raise DiscordRefused(refused, response.status)
                body = await response.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning(
                "Discord unreachable for %s %s: %s", route.method, route.path, type(error).__name__
            )
            raise DiscordRefused("discord_unavailable", 502) from None
        if not isinstance(body, dict):
            raise DiscordRefused("discord_unavailable", 502)
        return body

    async def exchange(self, code: str) -> str:
        """The access token for an authorization code the page got (used once)."""
        body = await self._call(
            Route("POST", "/oauth2/token"),
            "bad_code",
            data={
                "client_id": str(self._client_id),
                "client_secret": self._secret,
                "grant_type": "authorization_code",
                "code": code,
            },
        )
        token = body.get("access_token")
        if not isinstance(token, str) or not token:
            raise DiscordRefused("bad_code", 400)
        return token

    async def me(self, access_token: str) -> Player:
        """Who the access token belongs to."""
        body = await self._call(
            Route("GET", "/users/@me"),
            "bad_code",
            headers={"Authorization": f"Bearer {access_token}"},
        )
        try:
            user_id = int(body["id"])
        except (KeyError, TypeError, ValueError):
            raise DiscordRefused("bad_code", 502) from None
        name = body.get("global_name") or body.get("username") or str(user_id)
        avatar = body.get("avatar")
        locale = body.get("locale")
        return Player(
            user_id,
            str(name),
            avatar_url(user_id, avatar if isinstance(avatar, str) else None),
            locale if isinstance(locale, str) else None,
        )

    async def instance(self, instance_id: str) -> Instance:
        """Where the instance runs and who is in it, asked with the bot token."""
        route = Route(
            "GET",
            "/applications/{application_id}/activity-instances/{instance_id}",
            application_id=self._client_id,
            instance_id=instance_id,
        )
        try:
            body = await self._http.request(route)
        except discord.NotFound:
            raise DiscordRefused("not_in_instance", 404) from None
        except discord.HTTPException as error:
            log.info("Discord refused the activity instance: HTTP %d", error.status)
            raise DiscordRefused("not_in_instance", error.status) from None
        except (aiohttp.ClientError, TimeoutError):
            raise DiscordRefused("discord_unavailable", 502) from None
        try:
            location = body["location"]
            guild = location.get("guild_id")
            return Instance(
                instance_id,
                int(location["channel_id"]),
                int(guild) if guild else None,
                frozenset(int(user) for user in body.get("users") or ()),
            )
        except (KeyError, TypeError, ValueError, AttributeError):
            raise DiscordRefused("discord_unavailable", 502) from None
