"""The fake's cast: the bot's application, its guilds with channels and members, snowflake ids.

One guild by default ("Fake Guild", channels "general" and "games"). With `guilds=n`, guild k
(k = 2..n, "Fake Guild k") has channels "general-k" and "games-k" (the same names with "-k"),
the same members and roles; with `shard_count=s`, guild k is made to live on shard (k-1) % s,
as Discord routes it: `(guild_id >> 22) % s`.

Everything here is plain data plus the JSON payloads Discord would send for it, shaped so that
discord.py 2.7 parses them without complaint (see discord/guild.py, member.py, channel.py).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord

DISCORD_EPOCH_MS = 1420070400000

#: What a plain member may do in every channel (the @everyone role).
EVERYONE_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    create_public_threads=True,
    send_messages_in_threads=True,
    use_embedded_activities=True,
).value
#: The "Moderator" role adds Manage Messages, which the bot may check for admin commands.
MODERATOR_PERMISSIONS = discord.Permissions(manage_messages=True, manage_threads=True).value
#: What the bot was invited with; sent as `app_permissions` in every interaction.
BOT_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    manage_messages=True,
).value
ALL_PERMISSIONS = discord.Permissions.all().value
#: What an app may do in a DM with a user (Discord sends a fixed set as `app_permissions` there).
DM_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    use_external_emojis=True,
    mention_everyone=True,
    use_application_commands=True,
).value

#: `app_permissions` where the bot is not a member (a user install in a server that never
#: invited it, a group DM): what its interaction responses may carry, nothing more.
USER_APP_PERMISSIONS = discord.Permissions(
    embed_links=True, attach_files=True, mention_everyone=True, use_external_emojis=True
).value

_VIEW_CHANNEL = discord.Permissions(view_channel=True).value
_SEND_MESSAGES = discord.Permissions(send_messages=True).value
_ADMINISTRATOR = discord.Permissions(administrator=True).value
#: Lost implicitly with Send Messages in a text channel (Discord's "implicit permissions").
_NEEDS_SEND = discord.Permissions(
    mention_everyone=True, send_tts_messages=True, attach_files=True, embed_links=True
).value

PermissionsLike = discord.Permissions | int


def permission_value(value: PermissionsLike) -> int:
    """The bit field of a `discord.Permissions` or an int."""
    return value.value if isinstance(value, discord.Permissions) else int(value)


class SnowflakeFactory:
    """Increasing 64-bit ids with a real timestamp, as discord.py derives times from ids."""

    def __init__(self, worker: int = 1) -> None:
        self._worker = worker & 0x1F
        self._increment = itertools.count()
        self._last = 0

    def __call__(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = (ms << 22) | (self._worker << 17) | (next(self._increment) & 0xFFF)
        self._last = max(candidate, self._last + 1)
        return self._last

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new id that Discord would route to `shard_id`: (id >> 22) % shard_count == shard_id
        (its timestamp moved at most shard_count - 1 ms ahead)."""
        candidate = self()
        ms = candidate >> 22
        ms += (shard_id - ms) % shard_count
        self._last = max(self._last, (ms << 22) | (candidate & ((1 << 22) - 1)))
        return self._last


def iso_now() -> str:
    """A Discord-style ISO-8601 timestamp."""
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class FakeUser:
    """A Discord user; `bot` is true for the application's own user."""

    id: int
    name: str
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        """The user object as Discord sends it."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.capitalize(),
            "discriminator": "0",
            "avatar": None,
            "public_flags": 0,
            "avatar_decoration_data": None,
        }
        if self.bot:
            data["bot"] = True
        return data


@dataclass
class FakeRole:
    """A guild role; the role whose id equals the guild id is @everyone."""

    id: int
    name: str
    permissions: int
    position: int = 0

    def payload(self) -> dict[str, Any]:
        """The role object as Discord sends it."""
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


@dataclass
class FakeMember:
    """A user's membership in the guild."""

    user: FakeUser
    role_ids: list[int] = field(default_factory=list)
    joined_at: str = field(default_factory=iso_now)

    @property
    def id(self) -> int:
        """The member's user id."""
        return self.user.id

    @property
    def name(self) -> str:
        """The member's username."""
        return self.user.name

    def payload(self, *, permissions: int | None = None) -> dict[str, Any]:
        """The member object; with `permissions` as in an interaction's `member` field."""
        data: dict[str, Any] = {
            "user": self.user.payload(),
            "roles": [str(r) for r in self.role_ids],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "banner": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class PermissionOverwrite:
    """A channel's overwrite for a role (type 0) or a member (type 1)."""

    id: int
    type: int
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        """The overwrite as in a channel's `permission_overwrites`."""
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass(frozen=True)
class FakeChannel:
    """A text channel in a guild, a DM channel with the bot (type 1, no guild), or a group DM
    (type 3, no guild, the bot not among its `recipients`)."""

    id: int
    name: str
    guild_id: int | None
    position: int = 0
    type: int = 0
    recipient: FakeUser | None = None
    #: A group DM's members (its first is its owner).
    recipients: tuple[FakeUser, ...] = field(default=(), compare=False, hash=False, repr=False)
    #: Permission overwrites, changed in place by `World.set_overwrite`.
    overwrites: list[PermissionOverwrite] = field(
        default_factory=list, compare=False, hash=False, repr=False
    )

    def payload(self) -> dict[str, Any]:
        """The channel object as Discord sends it."""
        if self.type == 3:
            return {
                "id": str(self.id),
                "type": 3,
                "name": self.name,
                "icon": None,
                "owner_id": str(self.recipients[0].id),
                "last_message_id": None,
                "recipients": [user.payload() for user in self.recipients],
                "flags": 0,
            }
        if self.type == 1:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [o.payload() for o in self.overwrites],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


class World:
    """The guild the bot is in, its channels and members, and the bot's own identity."""

    def __init__(
        self,
        *,
        ids: SnowflakeFactory,
        members: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
        channels: tuple[str, ...] = ("general", "games"),
        bot_name: str = "Mastermind",
        bot_permissions: PermissionsLike | None = None,
        guilds: int = 1,
        shard_count: int = 1,
    ) -> None:
        self.ids = ids
        self.application_id = ids()
        #: The application's flags (EMBEDDED, 1 << 17, once it has Activities).
        self.application_flags = 0
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.owner = FakeUser(ids(), "owner")
        self.shard_count = shard_count
        self.guild_id = ids.on_shard(0, shard_count)
        self.guild_name = "Fake Guild"
        #: Every guild the bot is in, id -> name; the first is `guild_id`.
        self.guilds: dict[int, str] = {self.guild_id: self.guild_name}
        for number in range(2, guilds + 1):
            self.guilds[ids.on_shard((number - 1) % shard_count, shard_count)] = (
                f"Fake Guild {number}"
            )
        self.everyone_role = FakeRole(self.guild_id, "@everyone", EVERYONE_PERMISSIONS)
        self.mod_role = FakeRole(ids(), "Moderator", MODERATOR_PERMISSIONS, position=2)
        self.bot_role = FakeRole(ids(), bot_name, BOT_PERMISSIONS, position=1)
        self.roles = [self.everyone_role, self.bot_role, self.mod_role]
        #: With `bot_permissions`, @everyone grants nothing and people get theirs from "Member".
        self.member_role: FakeRole | None = None
        if bot_permissions is not None:
            self.bot_role.permissions = permission_value(bot_permissions)
            self.member_role = FakeRole(ids(), "Member", EVERYONE_PERMISSIONS, position=1)
            self.everyone_role.permissions = 0
            self.roles.append(self.member_role)
        people = [self.member_role.id] if self.member_role else []
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.members: dict[int, FakeMember] = {}
        self._add_member(self.owner, list(people))
        for name in members:
            self._add_member(FakeUser(ids(), name), list(people))
        self.mod = FakeUser(ids(), "mod")
        self._add_member(self.mod, [*people, self.mod_role.id])
        self._add_member(self.bot_user, [self.bot_role.id])
        self.channels: dict[int, FakeChannel] = {}
        for number, guild_id in enumerate(self.guilds, start=1):
            for position, name in enumerate(channels):
                label = name if number == 1 else f"{name}-{number}"
                channel = FakeChannel(ids(), label, guild_id, position=position)
                self.channels[channel.id] = channel
        self.dm_channels: dict[int, FakeChannel] = {}  # by recipient user id
        #: Servers that never invited the bot (id -> name): reached only through user installs.
        self.foreign_guilds: dict[int, str] = {}
        #: Group DMs by id; the bot is never one of their members.
        self.group_dms: dict[int, FakeChannel] = {}
        #: Users who installed the app to their account (user install).
        self.user_installs: set[int] = set()
        #: Each guild's preferred locale (guild_locale of its interactions); "en-US" if unset.
        self.guild_locales: dict[int, str] = {}
        #: Each user's client language (locale of their interactions); "en-US" if unset.
        self.user_locales: dict[int, str] = {}

    def _add_member(self, user: FakeUser, role_ids: list[int] | None = None) -> None:
        self.users[user.id] = user
        self.members[user.id] = FakeMember(user, role_ids or [])

    # lookups -----------------------------------------------------------------------------

    def user(self, ref: str | int | FakeUser | FakeMember) -> FakeUser:
        """A user by name, id or object; raises KeyError naming the known users."""
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, FakeMember):
            return ref.user
        for user in self.users.values():
            if ref in (user.id, user.name, str(user.id)):
                return user
        raise KeyError(f"no user {ref!r}; known: {sorted(u.name for u in self.users.values())}")

    def member(self, ref: str | int | FakeUser | FakeMember) -> FakeMember:
        """A guild member by name, id or object."""
        return self.members[self.user(ref).id]

    def channel(self, ref: str | int | FakeChannel) -> FakeChannel:
        """A channel by name, id or object; DM channels count once opened."""
        if isinstance(ref, FakeChannel):
            return ref
        known = (*self.channels.values(), *self.dm_channels.values(), *self.group_dms.values())
        for channel in known:
            if ref in (channel.id, channel.name, str(channel.id)):
                return channel
        names = sorted(c.name for c in self.channels.values())
        raise KeyError(f"no channel {ref!r}; known: {names}")

    def open_dm(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and `user`, created on first use."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.ids(), f"dm:{user.name}", None, type=1, recipient=user)
            self.dm_channels[user.id] = channel
        return channel

    def add_foreign_guild(self, name: str, channels: tuple[str, ...]) -> int:
        """A server the bot was never invited to, with these text channels (unique names);
        its members are the same people as the bot's guild, with the same roles."""
        guild_id = self.ids()
        self.foreign_guilds[guild_id] = name
        for position, label in enumerate(channels):
            channel = FakeChannel(self.ids(), label, guild_id, position=position)
            self.channels[channel.id] = channel
        return guild_id

    def open_group_dm(self, name: str, members: list[FakeUser]) -> FakeChannel:
        """A group DM of `members` (the first owns it); the bot is not in it."""
        if len(members) < 2:
            raise ValueError("a group DM has at least two people")
        channel = FakeChannel(self.ids(), name, None, type=3, recipients=tuple(members))
        self.group_dms[channel.id] = channel
        return channel

    def bot_present(self, channel: FakeChannel) -> bool:
        """The bot is a member there: a channel of a guild it joined, or its own DM."""
        if channel.guild_id is None:
            return channel.type == 1
        return channel.guild_id in self.guilds

    def app_permissions(self, channel: FakeChannel) -> int:
        """What an interaction from `channel` carries as `app_permissions`."""
        if not self.bot_present(channel):
            return USER_APP_PERMISSIONS
        return self.bot_permissions(channel)

    def role(self, ref: str | int | FakeRole) -> FakeRole:
        """A role by name ("@everyone", "Moderator", the bot's name), id or object; "bot" is the
        bot's own role."""
        if isinstance(ref, FakeRole):
            return ref
        if ref == "bot":
            return self.bot_role
        for role in self.roles:
            if ref in (role.id, role.name, str(role.id)):
                return role
        raise KeyError(f"no role {ref!r}; known: {[r.name for r in self.roles]}")

    def permissions(self, user: FakeUser) -> int:
        """A member's guild permissions: @everyone plus their roles, everything for the owner."""
        if user.id == self.owner.id:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        value = self.everyone_role.permissions
        if member is not None:
            for role in self.roles:
                if role.id in member.role_ids:
                    value |= role.permissions
        if value & _ADMINISTRATOR:
            return ALL_PERMISSIONS
        return value

    def channel_permissions(self, user: FakeUser, channel: FakeChannel) -> int:
        """What `user` may do in `channel`, computed as Discord does.

        Guild permissions, then the channel's @everyone overwrite, the member's roles' overwrites
        (denies, then allows, combined) and the member's own overwrite. Administrators (and the
        owner) keep everything. Without View Channel nothing else applies; without Send
        Messages, Embed Links, Attach Files, Send TTS and Mention Everyone are lost too
        (https://discord.com/developers/docs/topics/permissions, "Permission Overwrites" and
        "Implicit Permissions"). In a DM the app has `DM_PERMISSIONS`.
        """
        if user.id == self.bot_user.id and not self.bot_present(channel):
            return 0
        if channel.guild_id is None:
            return DM_PERMISSIONS
        value = self.permissions(user)
        if value & _ADMINISTRATOR:
            return ALL_PERMISSIONS
        member = self.members.get(user.id)
        role_ids = set(member.role_ids) if member is not None else set()
        by_id = {(o.type, o.id): o for o in channel.overwrites}
        everyone = by_id.get((0, self.everyone_role.id))
        if everyone is not None:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for (kind, target), overwrite in by_id.items():
            if kind == 0 and target in role_ids:
                allow |= overwrite.allow
                deny |= overwrite.deny
        value = (value & ~deny) | allow
        own = by_id.get((1, user.id))
        if own is not None:
            value = (value & ~own.deny) | own.allow
        if not value & _VIEW_CHANNEL:
            return 0
        if not value & _SEND_MESSAGES:
            value &= ~_NEEDS_SEND
        return value

    def bot_permissions(self, channel: FakeChannel) -> int:
        """The bot's permissions in `channel` (what `app_permissions` carries)."""
        return self.channel_permissions(self.bot_user, channel)

    def set_overwrite(
        self,
        channel: FakeChannel,
        target: str | int | FakeUser | FakeRole,
        *,
        allow: PermissionsLike = 0,
        deny: PermissionsLike = 0,
    ) -> PermissionOverwrite | None:
        """Set (replace) the overwrite of a role or a member on a guild channel.

        `target` is a role ("@everyone", "bot" for the bot's role, a role name or object) or a
        user ("alice", or the bot's user object `world.bot_user`). `allow=deny=0` removes it.
        """
        if channel.guild_id is None:
            raise ValueError(f"#{channel.name} is a DM channel: it has no overwrites")
        if isinstance(target, FakeRole) or (
            not isinstance(target, FakeUser) and self._is_role(target)
        ):
            kind, target_id = 0, self.role(target).id  # type: ignore[arg-type]
        else:
            kind, target_id = 1, self.user(target).id  # type: ignore[arg-type]
        channel.overwrites[:] = [
            o for o in channel.overwrites if (o.type, o.id) != (kind, target_id)
        ]
        allow_value, deny_value = permission_value(allow), permission_value(deny)
        if not allow_value and not deny_value:
            return None
        overwrite = PermissionOverwrite(target_id, kind, allow_value, deny_value)
        channel.overwrites.append(overwrite)
        return overwrite

    def _is_role(self, ref: str | int) -> bool:
        try:
            self.role(ref)
        except KeyError:
            return False
        return True

    # payloads ----------------------------------------------------------------------------

    def application_payload(self) -> dict[str, Any]:
        """`GET /oauth2/applications/@me`."""
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "A fake application for tests.",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.payload(),
            "team": None,
            "flags": self.application_flags,
            "bot": self.bot_user.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
            "approximate_guild_count": len(self.guilds),
        }

    def guild_locale(self, guild_id: int | None = None) -> str:
        """A guild's preferred locale (the first guild's unless `guild_id` names another)."""
        return self.guild_locales.get(self.guild_id if guild_id is None else guild_id, "en-US")

    def shard_of(self, guild_id: int) -> int:
        """The shard Discord sends this guild's events to."""
        return (guild_id >> 22) % self.shard_count

    def guild_roles(self, guild_id: int) -> list[FakeRole]:
        """A guild's roles: every guild has the same ones, each with its own @everyone."""
        if guild_id == self.guild_id:
            return self.roles
        everyone = FakeRole(guild_id, "@everyone", self.everyone_role.permissions)
        return [everyone, *(role for role in self.roles if role is not self.everyone_role)]

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """The full guild (the first one unless `guild_id` names another), as in GUILD_CREATE."""
        guild_id = self.guild_id if guild_id is None else guild_id
        return {
            "id": str(guild_id),
            "name": self.guilds[guild_id],
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "owner_id": str(self.owner.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in self.guild_roles(guild_id)],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.guild_locale(guild_id),
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [member.payload() for member in self.members.values()],
            "channels": [c.payload() for c in self.channels.values() if c.guild_id == guild_id],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
