"""Discord's side of an Activity: the app's Activities flag, its Entry Point command, activity
instances, the OAuth2 code grant and the bearer tokens it hands out.

What Discord does, as its developer documentation describes it (application commands: Entry
Point commands; interactions: the LAUNCH_ACTIVITY callback; resources/application: Get
Application Activity Instance; topics/oauth2: the authorization code grant):

- Enabling Activities gives the app a global Entry Point command (type 4) that Discord itself
  handles (handler 2, DISCORD_LAUNCH_ACTIVITY: the App Launcher opens the Activity and the bot
  hears nothing). A bulk overwrite of the global commands that would remove it is refused with
  50240; it can be deleted on its own.
- One instance runs per location (a guild channel, "gc", or a DM / group DM, "pc"); launching
  where one runs joins it. It ends when its last user leaves.
- An authorization code is minted by the Discord client when a user authorizes the app inside
  the Activity (the SDK's `authorize`); the app's server exchanges it, once, with the client
  secret, for a bearer token that reads `/users/@me`.

This module holds the state and the rules; `server.py` serves the routes and the driver offers
the helpers tests call.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from tests.discord_fake.errors import HttpError, OAuthError
from tests.discord_fake.rules import Problem
from tests.discord_fake.world import FakeChannel, FakeUser, SnowflakeFactory, World

if TYPE_CHECKING:
    from tests.discord_fake.models import InteractionHandle

#: Application flag EMBEDDED: the app has Activities.
EMBEDDED = 1 << 17
ENTRY_POINT = 4
"""Application command type PRIMARY_ENTRY_POINT."""
APP_HANDLER, DISCORD_LAUNCH_ACTIVITY = 1, 2
"""An Entry Point command's `handler`: the app answers it, or Discord launches the Activity."""
LAUNCH_ACTIVITY = 12
"""Interaction callback type LAUNCH_ACTIVITY."""

ENTRY_POINT_REMOVED = 50240
"""A bulk overwrite that would remove the Entry Point command (seen in Discord's answers; its
documented code list has no entry for it yet)."""
ACTIVITIES_NOT_ENABLED = 50234
"""LAUNCH_ACTIVITY from an app without Activities. Discord documents the refusal ("only
available for apps with Activities enabled") but no code for it; this is the code the three
Activity helpers agreed on (coord/ACTIVITY.md). The bot must not depend on the number."""
MISSING_PERMISSIONS = 50013

USE_ACTIVITIES = discord.Permissions(use_embedded_activities=True).value
CODE_LIFETIME = 600.0
"""Seconds an authorization code can be exchanged (Discord's codes are short-lived)."""
TOKEN_LIFETIME = 604800
"""Seconds an access token lives: Discord's `expires_in` (7 days)."""

DEFAULT_ENTRY_POINT: dict[str, Any] = {
    "type": ENTRY_POINT,
    "name": "launch",
    "description": "Open the Activity",
    "handler": DISCORD_LAUNCH_ACTIVITY,
    "integration_types": [0, 1],
    "contexts": [0, 1, 2],
}
"""The Entry Point Discord creates when an app enables Activities."""


@dataclass(eq=False)
class FakeActivityInstance:
    """One running Activity in one location, and who is in it now."""

    instance_id: str
    launch_id: int
    channel: FakeChannel
    users: list[FakeUser] = field(default_factory=list)
    ended: bool = False

    @property
    def kind(self) -> str:
        """ "gc" in a guild channel, "pc" in a DM or group DM."""
        return "gc" if self.channel.guild_id is not None else "pc"

    @property
    def location_id(self) -> str:
        """Discord's location id: gc-<guild>-<channel> or pc-<channel>."""
        if self.channel.guild_id is not None:
            return f"gc-{self.channel.guild_id}-{self.channel.id}"
        return f"pc-{self.channel.id}"

    def payload(self, application_id: int) -> dict[str, Any]:
        """What `GET /applications/{id}/activity-instances/{instance_id}` answers."""
        location: dict[str, Any] = {
            "id": self.location_id,
            "kind": self.kind,
            "channel_id": str(self.channel.id),
        }
        if self.channel.guild_id is not None:
            location["guild_id"] = str(self.channel.guild_id)
        return {
            "application_id": str(application_id),
            "instance_id": self.instance_id,
            "launch_id": str(self.launch_id),
            "location": location,
            "users": [str(user.id) for user in self.users],
        }

    def __repr__(self) -> str:
        names = ",".join(user.name for user in self.users)
        state = " ended" if self.ended else ""
        return f"<FakeActivityInstance {self.instance_id} in #{self.channel.name} [{names}]{state}>"


@dataclass(frozen=True)
class Launch:
    """One launch: from the Entry Point (no interaction) or a LAUNCH_ACTIVITY callback."""

    user: FakeUser
    instance: FakeActivityInstance
    interaction: InteractionHandle | None = None


@dataclass(frozen=True)
class AuthorizationCode:
    """A code the Discord client got for `user` when they authorized the app."""

    code: str
    user: FakeUser
    scopes: tuple[str, ...]
    redirect_uri: str | None
    minted_at: float


@dataclass(frozen=True)
class AccessToken:
    """A bearer token for `user`, from an exchanged code."""

    token: str
    user: FakeUser
    scopes: tuple[str, ...]
    expires_at: float


class ActivitySide:
    """The Activity's state in the fake: the flag, instances, codes and tokens."""

    def __init__(
        self, world: World, ids: SnowflakeFactory, clock: Callable[[], float], *, enabled: bool
    ) -> None:
        self.world = world
        self.ids = ids
        self.clock = clock
        self.enabled = False
        #: The application's client secret: what the bot's server sends to exchange a code.
        self.client_secret = secrets.token_urlsafe(24)
        self.instances: dict[str, FakeActivityInstance] = {}
        self.launches: list[Launch] = []
        #: Every token exchange: (form sent, status answered).
        self.exchanges: list[tuple[dict[str, str], int]] = []
        self._codes: dict[str, AuthorizationCode] = {}
        self._tokens: dict[str, AccessToken] = {}
        if enabled:
            self.set_enabled(True)

    def set_enabled(self, on: bool) -> None:
        """Turn the Activities flag on or off (the Entry Point is the server's to add)."""
        self.enabled = on
        if on:
            self.world.application_flags |= EMBEDDED
        else:
            self.world.application_flags &= ~EMBEDDED

    # commands ------------------------------------------------------------------------------

    def command_problems(self, guild: int | None, commands: list[dict[str, Any]]) -> list[Problem]:
        """Entry Point commands in a command write: only with Activities, only global, one."""
        problems = []
        for index, command in enumerate(commands):
            if not isinstance(command, dict) or command.get("type") != ENTRY_POINT:
                continue
            if not self.enabled:
                problems.append(
                    Problem("command", f"{index}.type", "Entry Point commands need Activities")
                )
            elif guild is not None:
                problems.append(
                    Problem("command", f"{index}.type", "Entry Point commands are global only")
                )
            elif command.get("handler", APP_HANDLER) not in (APP_HANDLER, DISCORD_LAUNCH_ACTIVITY):
                problems.append(Problem("command", f"{index}.handler", "must be 1 or 2"))
        if sum(1 for c in commands if isinstance(c, dict) and c.get("type") == ENTRY_POINT) > 1:
            problems.append(Problem("command", "", "an app has at most one Entry Point command"))
        return problems

    @staticmethod
    def check_keeps_entry_point(
        existing: list[dict[str, Any]], commands: list[dict[str, Any]]
    ) -> None:
        """A bulk overwrite of global commands may not drop the Entry Point (50240)."""
        had = any(c.get("type") == ENTRY_POINT for c in existing)
        keeps = any(isinstance(c, dict) and c.get("type") == ENTRY_POINT for c in commands)
        if had and not keeps:
            raise HttpError(
                400,
                ENTRY_POINT_REMOVED,
                "A bulk update may not remove the app's Entry Point command: send it too, "
                "or delete it on its own",
            )

    # instances -----------------------------------------------------------------------------

    def running_in(self, channel: FakeChannel) -> FakeActivityInstance | None:
        """The instance running in `channel`, if any."""
        for instance in self.instances.values():
            if instance.channel.id == channel.id and not instance.ended:
                return instance
        return None

    def start(self, channel: FakeChannel, users: list[FakeUser]) -> FakeActivityInstance:
        """A new instance in `channel` with `users` in it (the first launched it)."""
        if self.running_in(channel) is not None:
            raise ValueError(f"an instance already runs in #{channel.name}; join it instead")
        launch_id = self.ids()
        instance = FakeActivityInstance(
            instance_id="", launch_id=launch_id, channel=channel, users=[]
        )
        instance.instance_id = f"i-{launch_id}-{instance.location_id}"
        for user in users:
            self.join(instance, user)
        self.instances[instance.instance_id] = instance
        return instance

    def join(self, instance: FakeActivityInstance, user: FakeUser) -> None:
        """`user` opens the running instance."""
        if instance.ended:
            raise ValueError(f"{instance.instance_id} has ended")
        if user not in instance.users:
            instance.users.append(user)

    def leave(self, instance: FakeActivityInstance, user: FakeUser) -> None:
        """`user` closes the Activity; the instance ends with its last user."""
        if user in instance.users:
            instance.users.remove(user)
        if not instance.users:
            instance.ended = True

    def launch(
        self, channel: FakeChannel, user: FakeUser, interaction: InteractionHandle | None = None
    ) -> FakeActivityInstance:
        """What a launch does: join the channel's running instance, or start one."""
        instance = self.running_in(channel)
        if instance is None:
            instance = self.start(channel, [user])
        else:
            self.join(instance, user)
        self.launches.append(Launch(user, instance, interaction))
        return instance

    def launch_refusal(self, handle: InteractionHandle) -> HttpError | None:
        """Why Discord refuses a LAUNCH_ACTIVITY answer to `handle`, or None."""
        if not self.enabled:
            return HttpError(
                400, ACTIVITIES_NOT_ENABLED, "This application does not have Activities enabled"
            )
        channel = handle.channel
        if channel.guild_id is not None and not (
            self.world.channel_permissions(handle.user, channel) & USE_ACTIVITIES
        ):
            return HttpError(403, MISSING_PERMISSIONS, "Missing Permissions")
        return None

    def instance_payload(self, instance_id: str) -> dict[str, Any]:
        """A running instance's payload; 404 for an unknown or ended one."""
        instance = self.instances.get(instance_id)
        if instance is None or instance.ended:
            raise HttpError(404, 0, "404: Not Found")
        return instance.payload(self.world.application_id)

    # OAuth2 --------------------------------------------------------------------------------

    def mint_code(self, user: FakeUser, scopes: tuple[str, ...], redirect_uri: str | None) -> str:
        """A fresh authorization code for `user`, as after the SDK's `authorize`."""
        code = secrets.token_urlsafe(20)
        self._codes[code] = AuthorizationCode(code, user, scopes, redirect_uri, self.clock())
        return code

    def mint_token(self, user: FakeUser, scopes: tuple[str, ...]) -> str:
        """A bearer token for `user` with `scopes`."""
        token = secrets.token_urlsafe(24)
        self._tokens[token] = AccessToken(token, user, scopes, self.clock() + TOKEN_LIFETIME)
        return token

    def exchange(self, form: dict[str, str], authorization: str) -> dict[str, Any]:
        """`POST /oauth2/token`: a code (and the client's credentials) for a token."""
        try:
            answer = self._exchange(form, authorization)
        except OAuthError as error:
            self.exchanges.append((dict(form), error.status))
            raise
        self.exchanges.append((dict(form), 200))
        return answer

    def _exchange(self, form: dict[str, str], authorization: str) -> dict[str, Any]:
        client_id, client_secret = form.get("client_id"), form.get("client_secret")
        if authorization.startswith("Basic "):
            try:
                decoded = base64.b64decode(authorization[6:], validate=True).decode()
            except (binascii.Error, UnicodeDecodeError):
                raise OAuthError("invalid_client", "Invalid client credentials") from None
            client_id, _, client_secret = decoded.partition(":")
        grant = form.get("grant_type")
        if grant is None:
            raise OAuthError("invalid_request", 'Missing "grant_type" in request.')
        if grant != "authorization_code":
            raise OAuthError("unsupported_grant_type", f"Unsupported grant type {grant!r}.")
        if client_id != str(self.world.application_id) or not secrets.compare_digest(
            (client_secret or "").encode(), self.client_secret.encode()
        ):
            raise OAuthError("invalid_client", "Invalid client credentials")
        code = self._codes.pop(form.get("code") or "", None)
        if code is None or self.clock() - code.minted_at > CODE_LIFETIME:
            raise OAuthError("invalid_grant", 'Invalid "code" in request.')
        if form.get("redirect_uri") != code.redirect_uri:
            raise OAuthError("invalid_grant", 'Invalid "redirect_uri" in request: mismatch.')
        token = self.mint_token(code.user, code.scopes)
        return {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": TOKEN_LIFETIME,
            "refresh_token": secrets.token_urlsafe(24),
            "scope": " ".join(code.scopes),
        }

    def bearer_user(self, authorization: str) -> dict[str, Any]:
        """`GET /users/@me` with a bearer token: the user, with the `identify` scope's fields."""
        found = self._tokens.get(authorization.removeprefix("Bearer ").strip())
        if found is None or self.clock() > found.expires_at or "identify" not in found.scopes:
            raise HttpError(401, 0, "401: Unauthorized")
        data = found.user.payload()
        data.update(
            {
                "locale": self.world.user_locales.get(found.user.id, "en-US"),
                "mfa_enabled": False,
                "flags": 0,
                "premium_type": 0,
                "banner": None,
                "accent_color": None,
            }
        )
        return data
