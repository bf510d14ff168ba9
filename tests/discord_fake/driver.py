"""`FakeDiscord`: the fake server plus a driver that acts as users and runs the bot under test."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import sys
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import discord

from tests.discord_fake.activities import (
    DISCORD_LAUNCH_ACTIVITY,
    ENTRY_POINT,
    FakeActivityInstance,
    Launch,
)
from tests.discord_fake.models import FakeDiscordError, FakeMessage, FakeModal, InteractionHandle
from tests.discord_fake.patching import patch_discord
from tests.discord_fake.process import BotProcess
from tests.discord_fake.rules import LOCALES, SELECT_TYPES
from tests.discord_fake.server import (
    FakeDiscordServer,
    InjectedFailure,
    Session,
    StalledRequest,
)
from tests.discord_fake.world import (
    FakeChannel,
    FakeRole,
    FakeUser,
    PermissionsLike,
    permission_value,
)

ROOT = Path(__file__).resolve().parents[2]

UserRef = str | int | FakeUser
ChannelRef = str | int | FakeChannel
MessageRef = FakeMessage | int
ClientT = TypeVar("ClientT", bound=discord.Client)
RoleOrUser = str | int | FakeUser | FakeRole

# Option types of application commands.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10


class FakeDiscord(FakeDiscordServer):
    """A loopback Discord plus a driver; see the package docstring for the whole API."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.processes: list[BotProcess] = []
        self._clients: list[discord.Client] = []

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Stop bot processes and in-process clients still running, then the server."""
        for process in self.processes:
            await process.stop()
        for client in list(self._clients):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.close(), 5.0)
        await self.stop()

    # readiness -----------------------------------------------------------------------------

    def is_ready(self, *, commands: bool = False, since_identify: int = 0) -> bool:
        """The newest IDENTIFY led to discord.py's `ready` (and a command sync since login).

        `since_identify` ignores readiness from IDENTIFYs up to that number, so a restarted
        bot is not taken for ready because its predecessor was.
        """
        if self.identify_count <= since_identify:
            return False
        if self.ready_identify_number != self.identify_count:
            return False
        if not any(s.connection is not None for s in self._sessions.values()):
            return False
        if commands:
            return any(login == self.login_count for _, login in self.command_syncs)
        return True

    async def wait_ready(
        self,
        timeout: float = 10.0,
        *,
        commands: bool = False,
        since_identify: int = 0,
        alive: Callable[[], str | None] | None = None,
    ) -> None:
        """Wait until the bot identified and got `ready`; with `commands`, also synced.

        `alive` returns a reason when the bot died (a process exited, a task failed); the wait
        then stops at once with that reason instead of running into the timeout.
        """

        def ready() -> bool:
            return self.is_ready(commands=commands, since_identify=since_identify)

        def done() -> bool:
            return ready() or (alive is not None and alive() is not None)

        what = "the bot to be ready" + (" and to sync its commands" if commands else "")
        await self.wait_for(done, timeout, what)
        reason = alive() if alive is not None else None
        if reason is not None and not ready():
            raise FakeDiscordError(f"the bot stopped before it was ready: {reason}")

    # running the bot -----------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def run_in_process(
        self,
        client: ClientT | Callable[[], ClientT],
        *,
        timeout: float = 10.0,
        commands: bool = False,
    ) -> AsyncIterator[ClientT]:
        """Run a discord.py client (or a factory of one) in this event loop until the block ends.

        discord.py is patched to point at the fake while the block runs; the client is built by
        the factory inside the patch, so its guild_ready_timeout is lowered too. Yields the
        client once `wait_ready(commands=commands)` holds.
        """
        with patch_discord(
            self.rest_base, self.gateway_url, guild_ready_timeout=self.guild_ready_timeout
        ):
            bot = client if isinstance(client, discord.Client) else client()
            state = bot._connection
            if state.guild_ready_timeout == 2.0:  # the library default: shorten it
                state.guild_ready_timeout = self.guild_ready_timeout
            self._clients.append(bot)
            since = self.identify_count
            task = asyncio.create_task(bot.start(self.token), name="fake-discord-bot")

            def alive() -> str | None:
                if not task.done():
                    return None
                error = None if task.cancelled() else task.exception()
                return f"client.start() ended: {error!r}"

            task.add_done_callback(lambda _: self.changed())
            try:
                await self.wait_ready(timeout, commands=commands, since_identify=since, alive=alive)
                yield bot
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bot.close(), 5.0)
                if not task.done():
                    task.cancel()
                with contextlib.suppress(BaseException):
                    await task
                self._clients.remove(bot)

    async def spawn_bot(
        self,
        module: str = "bot",
        *,
        env: Mapping[str, str] | None = None,
        token: str | None = None,
        args: Sequence[str] = (),
    ) -> BotProcess:
        """Start `python -m tests.discord_fake.launch <rest> <gateway> <module>` in a subprocess.

        The environment is this one plus DISCORD_TOKEN (the fake's token unless `token` is
        given), the FAKE_DISCORD_* variables and `env`. Await `.wait_ready()` on the result.
        """
        full_env = dict(os.environ)
        full_env.update(
            DISCORD_TOKEN=self.token if token is None else token,
            FAKE_DISCORD_REST=self.rest_base,
            FAKE_DISCORD_GATEWAY=self.gateway_url,
            FAKE_DISCORD_GUILD_READY_TIMEOUT=str(self.guild_ready_timeout),
            PYTHONUNBUFFERED="1",
            PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        )
        full_env.update(env or {})
        launcher = [sys.executable, "-m", "tests.discord_fake.launch"]
        command = [*launcher, self.rest_base, self.gateway_url, module, *args]
        process = await BotProcess.start(
            self, command, env=full_env, cwd=ROOT, since_identify=self.identify_count
        )
        self.processes.append(process)
        return process

    def _extra_timeout_context(self) -> list[str]:
        lines: list[str] = []
        for process in self.processes:
            lines.append(f"bot process {process.pid} (exit code {process.returncode}), output:")
            lines += [f"  | {line}" for line in process.output_lines[-15:]] or ["  | (none)"]
        return lines

    # users and channels ----------------------------------------------------------------------

    def user(self, ref: UserRef) -> FakeUser:
        """A user by name ("alice"), id or object."""
        return self.world.user(ref)

    def channel(self, ref: ChannelRef) -> FakeChannel:
        """A channel by name ("general"), id or object."""
        return self.world.channel(ref)

    def dm_channel(self, user: UserRef) -> FakeChannel:
        """The DM channel between the bot and `user` (opened if needed)."""
        return self.world.open_dm(self.user(user))

    def add_foreign_guild(
        self, name: str = "Other Guild", channels: tuple[str, ...] = ("elsewhere",)
    ) -> int:
        """A server that never invited the bot: no GUILD_CREATE, no gateway events, and every
        bot-token route of its channels is 403 Missing Access (a `not-a-member` violation).
        Users who installed the app (`install_for_user`) run its commands there; the bot
        only answers those interactions. Channel names must be unique in the fake."""
        return self.world.add_foreign_guild(name, channels)

    def group_dm(self, name: str, members: Sequence[UserRef]) -> FakeChannel:
        """A group DM of `members` (the first owns it) that the bot is not in: interactions
        come with context 2 and only a user install authorizes commands there."""
        return self.world.open_group_dm(name, [self.user(m) for m in members])

    def install_for_user(self, user: UserRef) -> None:
        """`user` adds the app to their account (user install, `integration_types` 1): its
        commands then work for them in any server, DM and group DM, where the command allows."""
        self.world.user_installs.add(self.user(user).id)

    def age_interaction(self, handle: InteractionHandle, seconds: float) -> None:
        """Pretend `handle` was sent `seconds` earlier: past 900 s its token has expired, so
        followups and @original edits through it are refused with 401 Invalid Webhook Token
        (a `token-expired` violation). Other interactions keep their age."""
        handle.dispatched_at -= seconds
        self.changed()

    def interaction_context(
        self, channel: ChannelRef, user: UserRef, message: FakeMessage | None = None
    ) -> tuple[int, dict[str, str]]:
        """Discord's `context` (0 guild, 1 the bot's DM, 2 a private channel) of an interaction
        by `user` in `channel`, and the installs that authorize it there
        (`authorizing_integration_owners`: "0" the server install, "1" the user's own).

        The bot's guilds and its DM are authorized by the server install ("0": guild id, or "0"
        in the DM), plus "1" for a user who installed the app; elsewhere only a user install
        authorizes anything. A click on a message carries the owners of the command that
        created it."""
        where = self.channel(channel)
        who = self.user(user)
        context = 0 if where.guild_id is not None else {1: 1}.get(where.type, 2)
        if message is not None and message.integration_owners:
            return context, dict(message.integration_owners)
        owners: dict[str, str] = {}
        if self.world.bot_present(where):
            owners["0"] = str(where.guild_id or 0)
        if who.id in self.world.user_installs:
            owners["1"] = str(who.id)
        return context, owners

    def _check_available(
        self, spec: dict[str, Any], channel: FakeChannel, user: FakeUser, command: str
    ) -> None:
        """Refuse, as Discord's client does, a global command its synced `contexts` and
        `integration_types` do not offer to this user in this channel."""
        context, owners = self.interaction_context(channel, user)
        contexts = spec.get("contexts")
        if contexts is None:  # Discord's default, narrowed by the older dm_permission
            contexts = [0, 1, 2] if spec.get("dm_permission", True) else [0]
        installs = [
            int(kind) for kind in owners if int(kind) in (spec.get("integration_types") or [0])
        ]
        names = {0: "a server", 1: "the bot's DM", 2: "a group DM or another DM"}
        if context not in contexts:
            raise FakeDiscordError(
                f"/{command} is not offered in {names[context]} (context {context}): its synced "
                f"contexts are {contexts}"
            )
        if not installs:
            raise FakeDiscordError(
                f"/{command} is not available to {user.name} in {names[context]}: authorized by "
                f"{sorted(owners) or 'no install'}, the command allows integration_types "
                f"{spec.get('integration_types') or [0]} (user installs: install_for_user())"
            )

    @property
    def guild_id(self) -> int:
        """The id of the fake guild (use it as DEV_GUILD_ID)."""
        return self.world.guild_id

    @property
    def guild_ids(self) -> list[int]:
        """Every guild's id, the first guild's first (see `guilds=`)."""
        return list(self.world.guilds)

    def shard_of(self, ref: ChannelRef | int) -> int:
        """The shard that receives a guild's events: a guild id, or a guild channel."""
        if isinstance(ref, int) and ref in self.world.guilds:
            return self.world.shard_of(ref)
        guild_id = self.channel(ref).guild_id
        if guild_id is None:
            return 0  # DMs go to shard 0
        return self.world.shard_of(guild_id)

    @property
    def application_id(self) -> int:
        """The bot's application id, which is also its user id."""
        return self.world.application_id

    # acting as users -------------------------------------------------------------------------

    async def slash(
        self,
        channel: ChannelRef,
        user: UserRef,
        command: str,
        *path: str,
        options: Mapping[str, Any] | None = None,
        locale: str | None = None,
    ) -> InteractionHandle:
        """`user` runs `/command *path` with `options` in `channel`; returns at dispatch.
        `locale` is the user's client language (default: theirs, see `set_user_locale`)."""
        target = self.channel(channel)
        who = self.user(user)
        data = self._command_data(target, who, command, path, dict(options or {}), None)
        name = " ".join(("/" + command, *path))
        return await self._send_interaction(
            2, who, target, data, description=f"{name} by {who.name}", locale=locale
        )

    async def autocomplete(
        self,
        channel: ChannelRef,
        user: UserRef,
        command: str,
        *path: str,
        options: Mapping[str, Any] | None = None,
        focused: str,
    ) -> InteractionHandle:
        """`user` types into option `focused`; await `.choices()` on the result."""
        target = self.channel(channel)
        who = self.user(user)
        data = self._command_data(target, who, command, path, dict(options or {}), focused)
        name = " ".join(("/" + command, *path))
        return await self._send_interaction(
            4, who, target, data, description=f"autocomplete of {name} {focused} by {who.name}"
        )

    async def click(
        self, message: MessageRef, target: str, *, user: UserRef | None = None
    ) -> InteractionHandle:
        """`user` clicks the button whose custom_id or label is `target`.

        `user` defaults to whoever triggered the message's interaction. Before dispatching, the
        fake waits until the bot has processed every REST answer it got (a gateway heartbeat
        round trip), since discord.py registers a view only after the message's request returns.
        """
        msg = self._live_message(message)
        component = msg.component(target)
        if component.get("type") != 2:
            raise ValueError(f"{target!r} is not a button; use select()")
        if component.get("style") in (5, 6):
            raise ValueError(f"{target!r} is a link or premium button: it sends no interaction")
        if component.get("disabled"):
            raise ValueError(f"button {target!r} is disabled: a user cannot click it")
        who = self._message_user(msg, user)
        data = {"custom_id": component["custom_id"], "component_type": 2}
        if "id" in component:
            data["id"] = component["id"]
        label = component.get("label") or component["custom_id"]
        return await self._send_interaction(
            3, who, msg.channel, data, message=msg, description=f"click on {label!r} by {who.name}"
        )

    async def select(
        self,
        message: MessageRef,
        target: str,
        values: Sequence[Any],
        *,
        user: UserRef | None = None,
    ) -> InteractionHandle:
        """`user` picks `values` in the select `target` (custom_id or placeholder-free label).

        For a string select the values are option values; for user/channel selects they are
        user or channel references (names work).
        """
        msg = self._live_message(message)
        component = msg.component(target)
        kind = component.get("type")
        if kind not in SELECT_TYPES:
            raise ValueError(f"{target!r} is not a select; use click()")
        if component.get("disabled"):
            raise ValueError(f"select {target!r} is disabled")
        who = self._message_user(msg, user)
        picked, resolved = self._select_values(component, list(values), msg.channel)
        data: dict[str, Any] = {
            "custom_id": component["custom_id"],
            "component_type": kind,
            "values": picked,
        }
        if resolved:
            data["resolved"] = resolved
        return await self._send_interaction(
            3,
            who,
            msg.channel,
            data,
            message=msg,
            description=f"select {picked} in {component['custom_id']!r} by {who.name}",
        )

    async def submit_modal(
        self,
        modal: FakeModal | InteractionHandle,
        values: Mapping[str, Any],
        *,
        user: UserRef | None = None,
    ) -> InteractionHandle:
        """Fill the modal's inputs by custom_id with `values` and submit it.

        Inputs not in `values` keep their pre-filled value. Raises ValueError for input the
        Discord client would refuse (missing required field, wrong length, unknown field).
        """
        if isinstance(modal, InteractionHandle):
            modal = await modal.modal()
        if modal.submitted:
            raise ValueError(f"modal {modal.custom_id!r} was already submitted")
        who = self.user(user) if user is not None else modal.user
        if who.id != modal.user.id:
            raise ValueError(f"only {modal.user.name} sees modal {modal.custom_id!r}")
        known = {c["custom_id"] for c in modal.fields()}
        unknown = set(values) - known
        if unknown:
            raise ValueError(f"modal {modal.custom_id!r} has no field {sorted(unknown)}; {known}")
        opener = modal.opened_by
        components = [self._modal_answer(top, values, opener.channel) for top in modal.components]
        data = {
            "custom_id": modal.custom_id,
            "components": [c for c in components if c is not None],
        }
        message = opener.message
        modal.submitted = True
        return await self._send_interaction(
            5,
            who,
            opener.channel,
            data,
            message=message,
            description=f"submit of modal {modal.custom_id!r} by {who.name}",
        )

    async def forge_interaction(
        self,
        channel: ChannelRef,
        user: UserRef,
        *,
        type: int,
        custom_id: str,
        component_type: int = 2,
        values: Sequence[str] | None = None,
        fields: Mapping[str, str] | None = None,
        data: Mapping[str, Any] | None = None,
        message: MessageRef | None = None,
        payload: Mapping[str, Any] | None = None,
        expect_answer: bool = True,
        settle: bool = True,
    ) -> InteractionHandle:
        """Send an interaction as a malicious client could: nothing is checked against any
        message, modal or command.

        `type` 3 (component) sends `{"custom_id", "component_type", "values"?}`; `type` 5 (modal
        submit) sends `{"custom_id", "components"}` with one text input row per entry of
        `fields` ({custom_id: value}). `data` replaces the whole `data` object instead. `channel`
        may be any guild channel or a DM (`dm_channel(user)`: the payload then has `user` and no
        `guild_id`, as Discord sends it). `message` (any message, from any channel) is attached
        as `message`, or left out. `payload` entries are merged into the top-level payload last
        (None removes a key). With `expect_answer=False` no answer within 3 s is not a
        violation: discord.py drops a component interaction whose custom_id is not on the
        attached message (or that has no message), before the bot sees it. With `settle=False`
        it is sent at once, without first waiting for the bot to have read every REST answer (a
        gateway round trip, which discord.py rate-limits): for inputs the bot matches by
        custom_id alone (dynamic items, modal routes), as a fuzzer sends thousands.
        """
        target = self.channel(channel)
        who = self.user(user)
        msg = None
        if message is not None:
            msg = message if isinstance(message, FakeMessage) else self.message(message)
        if data is not None:
            body: dict[str, Any] = dict(data)
        elif type == 3:
            body = {"custom_id": custom_id, "component_type": component_type}
            if values is not None or component_type in SELECT_TYPES:
                body["values"] = [str(v) for v in values or []]
        elif type == 5:
            body = {
                "custom_id": custom_id,
                "components": [
                    {"type": 1, "components": [{"type": 4, "custom_id": key, "value": value}]}
                    for key, value in (fields or {}).items()
                ],
            }
        else:
            raise ValueError("forge_interaction builds type 3 or 5; pass data=... for others")
        where = "a DM" if target.guild_id is None else f"#{target.name}"
        return await self._send_interaction(
            type,
            who,
            target,
            body,
            message=msg,
            description=f"forged type {type} {custom_id!r} by {who.name} in {where}",
            overrides=payload,
            forged=True,
            expect_answer=expect_answer,
            settle=settle,
        )

    # permissions and injected failures -------------------------------------------------------

    def bot_permissions_in(self, channel: ChannelRef) -> discord.Permissions:
        """The bot's permissions in a channel, from roles and overwrites (as in app_permissions)."""
        return discord.Permissions(self.world.bot_permissions(self.channel(channel)))

    def permissions_in(self, channel: ChannelRef, user: UserRef) -> discord.Permissions:
        """A user's permissions in a channel (as in an interaction's `member.permissions`)."""
        return discord.Permissions(
            self.world.channel_permissions(self.user(user), self.channel(channel))
        )

    async def set_role_permissions(
        self, role: str | int | FakeRole, value: PermissionsLike
    ) -> None:
        """Change a role's permissions ("bot" is the bot's role); the bot gets GUILD_ROLE_UPDATE."""
        target = self.world.role(role)
        target.permissions = permission_value(value)
        await self._guild_event(
            "GUILD_ROLE_UPDATE", {"guild_id": str(self.world.guild_id), "role": target.payload()}
        )

    async def set_bot_permissions(self, value: PermissionsLike) -> None:
        """Set the bot role's permissions (the bot still gets what @everyone grants)."""
        await self.set_role_permissions("bot", value)

    async def set_overwrite(
        self,
        channel: ChannelRef,
        target: RoleOrUser,
        *,
        allow: PermissionsLike = 0,
        deny: PermissionsLike = 0,
    ) -> None:
        """Set a channel overwrite for a role ("@everyone", "bot", "Moderator") or a member
        ("alice"; the bot's member is `fake.world.bot_user`); allow=deny=0 removes it. The bot
        gets CHANNEL_UPDATE."""
        where = self.channel(channel)
        self.world.set_overwrite(where, target, allow=allow, deny=deny)
        await self._guild_event("CHANNEL_UPDATE", where.payload())

    def set_user_locale(self, user: UserRef, locale: str) -> None:
        """The language of `user`'s Discord client, e.g. "pl": every interaction they send
        from now on carries it as `locale`."""
        if locale not in LOCALES:
            raise ValueError(f"{locale!r} is not a Discord locale; one of {sorted(LOCALES)}")
        self.world.user_locales[self.user(user).id] = locale

    async def set_guild_locale(self, locale: str, guild: int | None = None) -> None:
        """A guild's preferred locale (the first guild's by default): its interactions carry
        it as `guild_locale`, and a connected bot gets GUILD_UPDATE."""
        if locale not in LOCALES:
            raise ValueError(f"{locale!r} is not a Discord locale; one of {sorted(LOCALES)}")
        guild_id = self.world.guild_id if guild is None else guild
        self.world.guild_locales[guild_id] = locale
        data = self.world.guild_payload(guild_id)
        for key in ("members", "channels", "threads", "voice_states", "presences", "joined_at"):
            data.pop(key, None)
        await self._guild_event("GUILD_UPDATE", data, guild_id)

    # the Activity ----------------------------------------------------------------------------

    @property
    def client_secret(self) -> str:
        """The application's client secret, which `POST /oauth2/token` checks."""
        return self.activity_side.client_secret

    @property
    def activities_enabled(self) -> bool:
        """The application has Activities (`FakeDiscord(activities=True)`, `enable_activities`)."""
        return self.activity_side.enabled

    @property
    def activity_instances(self) -> list[FakeActivityInstance]:
        """Every instance that ran, oldest first (`ended` for those that stopped)."""
        return list(self.activity_side.instances.values())

    @property
    def activity_launches(self) -> list[Launch]:
        """Every launch: from the Entry Point or a LAUNCH_ACTIVITY answer (`interaction`)."""
        return list(self.activity_side.launches)

    def activity_instance(self, instance_id: str) -> FakeActivityInstance:
        """The instance with this id (KeyError if none ever ran)."""
        return self.activity_side.instances[instance_id]

    def start_activity(
        self, channel: ChannelRef, users: Sequence[UserRef] = ("alice",)
    ) -> FakeActivityInstance:
        """A new instance in `channel` with `users` in it, as if the first launched it and the
        others joined (ValueError if one already runs there)."""
        return self.activity_side.start(self.channel(channel), [self.user(u) for u in users])

    def launch_from_entry_point(self, channel: ChannelRef, user: UserRef) -> FakeActivityInstance:
        """`user` runs the Entry Point from the App Launcher in `channel`. With Discord's handler
        (2) Discord opens the Activity and the bot hears nothing; the instance is returned."""
        if not self.activities_enabled:
            raise FakeDiscordError("the application has no Activities: no Entry Point to run")
        entry = [c for c in self.commands.get(None, []) if c.get("type") == ENTRY_POINT]
        if not entry:
            raise FakeDiscordError("the application has no Entry Point command")
        if entry[0].get("handler") != DISCORD_LAUNCH_ACTIVITY:
            raise FakeDiscordError("the Entry Point is the app's to handle (handler 1)")
        instance = self.activity_side.launch(self.channel(channel), self.user(user))
        self.changed()
        return instance

    def join_activity(self, instance: FakeActivityInstance, user: UserRef) -> None:
        """`user` opens the running instance."""
        self.activity_side.join(instance, self.user(user))
        self.changed()

    def leave_activity(self, instance: FakeActivityInstance, user: UserRef) -> None:
        """`user` closes the Activity; the instance ends when its last user leaves (its GET
        answers 404 from then on)."""
        self.activity_side.leave(instance, self.user(user))
        self.changed()

    def oauth_code(
        self,
        user: UserRef,
        *,
        scopes: Sequence[str] = ("identify",),
        redirect_uri: str | None = None,
    ) -> str:
        """The code the Discord client hands the page after `user` authorized the app (the
        SDK's `authorize`): exchangeable once, within 10 minutes, at `POST /oauth2/token`."""
        return self.activity_side.mint_code(self.user(user), tuple(scopes), redirect_uri)

    def oauth_token(self, user: UserRef, *, scopes: Sequence[str] = ("identify",)) -> str:
        """A bearer token for `user`, as an exchange would give (for tests of what follows)."""
        return self.activity_side.mint_token(self.user(user), tuple(scopes))

    async def _guild_event(
        self, event: str, data: dict[str, Any], guild: int | None = None
    ) -> None:
        session = self._session_for(self.world.guild_id if guild is None else guild)
        if session is not None:
            await self._dispatch(session, event, data)
            if session.connection is not None:
                await self.gateway_round_trip(session)
        self.changed()

    def stall_next(self, method: str, path: str) -> StalledRequest:
        """Hold the next REST request `method path` (a regex over the path after /api/v10,
        matched in full) unserved until the returned object's `release(serve=...)`."""
        stall = StalledRequest(method=method.upper(), path=re.compile(path))
        self.stalls.append(stall)
        return stall

    def fail_next(
        self,
        method: str,
        path: str,
        *,
        status: int = 403,
        code: int | None = None,
        message: str | None = None,
        times: int = 1,
    ) -> InjectedFailure:
        """Answer the next `times` REST requests `method path` (a regex over the path after
        /api/v10, matched in full) with an error instead of serving them.

        Defaults: 403 is 50013 Missing Permissions, 404 10008 Unknown Message, 5xx code 0.
        discord.py retries 500, 502, 504 and 524 up to 5 times (sleeping 1, 3, 5, 7 s); 503
        fails at once. The returned object counts its `hits`.
        """
        defaults = {
            403: (50013, "Missing Permissions"),
            404: (10008, "Unknown Message"),
            429: (0, "You are being rate limited."),
        }
        fallback = (0, f"{status}: Server Error" if status >= 500 else f"{status}: Error")
        default_code, default_message = defaults.get(status, fallback)
        failure = InjectedFailure(
            method=method.upper(),
            path=re.compile(path),
            status=status,
            code=default_code if code is None else code,
            message=default_message if message is None else message,
            times=times,
        )
        self.injected_failures.append(failure)
        return failure

    def fail_message_edit(
        self, message: MessageRef, *, status: int = 403, times: int = 1, **options: Any
    ) -> InjectedFailure:
        """Refuse the bot's next `times` edits of `message` through the channel route
        (`PATCH /channels/{channel}/messages/{message}`, how a board is edited)."""
        msg = message if isinstance(message, FakeMessage) else self.message(message)
        path = rf"/channels/{msg.channel.id}/messages/{msg.id}"
        return self.fail_next("PATCH", path, status=status, times=times, **options)

    # gateway control -------------------------------------------------------------------------

    async def drop_gateway(
        self,
        code: int = 4000,
        *,
        abort: bool = False,
        wait_resumed: bool = True,
        timeout: float = 10.0,
    ) -> None:
        """Drop every bot connection from the server side (close `code`, or a TCP abort).

        By default waits until the bot has RESUMEd, so the next interaction can be sent.
        """
        conns = [c for c in self._connections if c.session is not None]
        if not conns:
            raise FakeDiscordError("there is no identified gateway connection to drop")
        before = self.resume_count
        for conn in conns:
            if abort and conn.transport is not None:
                conn.transport.abort()
            else:
                with contextlib.suppress(Exception):
                    await conn.ws.close(code=code)
        if wait_resumed:
            sessions = [c.session for c in conns]
            await self.wait_for(
                lambda: (
                    self.resume_count >= before + len(conns)
                    and all(s is not None and s.connection is not None for s in sessions)
                ),
                timeout,
                "the bot to RESUME after the gateway drop",
            )

    async def request_reconnect(self, *, timeout: float = 10.0) -> None:
        """Send op 7 RECONNECT, as Discord does before maintenance; waits for the RESUME."""
        conns = [c for c in self._connections if c.session is not None]
        before = self.resume_count
        for conn in conns:
            await conn.send({"op": 7, "d": None})
        await self.wait_for(
            lambda: self.resume_count >= before + len(conns), timeout, "a RESUME after op 7"
        )

    async def invalidate_session(self) -> None:
        """Send op 9 (not resumable): the bot must IDENTIFY again and gets a new READY."""
        for conn in [c for c in self._connections if c.session is not None]:
            assert conn.session is not None
            conn.session.invalidated = True
            await conn.send({"op": 9, "d": False})

    # internals -------------------------------------------------------------------------------

    def _live_message(self, message: MessageRef) -> FakeMessage:
        msg = message if isinstance(message, FakeMessage) else self.message(message)
        if msg.deleted:
            raise ValueError(f"message {msg.id} was deleted; nobody can interact with it")
        return msg

    def _message_user(self, message: FakeMessage, user: UserRef | None) -> FakeUser:
        if user is None:
            if message.interaction_user is None:
                raise ValueError(f"say which user acts on message {message.id} (user=...)")
            who = message.interaction_user
        else:
            who = self.user(user)
        owner = message.interaction_user
        if message.ephemeral and owner is not None and who.id != owner.id:
            raise ValueError(f"message {message.id} is ephemeral: only {owner.name} sees it")
        return who

    async def _barrier(self, session: Session) -> None:
        """Every REST answer written, then one heartbeat round trip through the bot's loop."""
        await self.requests_written()
        if self.heartbeat_before_clicks:
            await self.gateway_round_trip(session)

    def _interaction_payload(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None,
        locale: str,
        overrides: Mapping[str, Any] | None = None,
    ) -> tuple[int, str, dict[str, Any]]:
        interaction_id = self.ids()
        token = secrets.token_urlsafe(48)
        channel_payload = channel.payload()
        context, owners = self.interaction_context(channel, user, message)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.world.application_id),
            "type": kind,
            "data": data,
            "token": token,
            "version": 1,
            "locale": locale,
            "app_permissions": str(self.world.app_permissions(channel)),
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "channel_id": str(channel.id),
            "channel": channel_payload,
        }
        if channel.guild_id is not None:
            permissions = self.world.channel_permissions(user, channel)
            channel_payload["permissions"] = str(permissions)
            payload.update(
                guild_id=str(channel.guild_id),
                guild={
                    "id": str(channel.guild_id),
                    "locale": self.world.guild_locale(channel.guild_id),
                    "features": [],
                },
                guild_locale=self.world.guild_locale(channel.guild_id),
                member=self.world.member(user).payload(permissions=permissions),
                authorizing_integration_owners=owners,
                context=context,
            )
        else:
            payload.update(
                user=user.payload(), authorizing_integration_owners=owners, context=context
            )
        if message is not None:
            payload["message"] = message.payload()
        for key, value in (overrides or {}).items():
            if value is None:
                payload.pop(key, None)
            else:
                payload[key] = value
        return interaction_id, token, payload

    async def _send_interaction(
        self,
        kind: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        description: str,
        message: FakeMessage | None = None,
        locale: str | None = None,
        overrides: Mapping[str, Any] | None = None,
        forged: bool = False,
        expect_answer: bool = True,
        settle: bool = True,
    ) -> InteractionHandle:
        session = self._session_for(channel.guild_id)
        if session is None:
            raise FakeDiscordError(
                "no bot is connected to the gateway: start one with run_in_process() or "
                "spawn_bot() and wait until it is ready"
            )
        if kind in (3, 5) and settle:
            await self._barrier(session)
        if message is not None and message.deleted:
            raise ValueError(f"message {message.id} was deleted before {description}")
        interaction_id, token, payload = self._interaction_payload(
            kind,
            user,
            channel,
            data,
            message,
            locale or self.world.user_locales.get(user.id, "en-US"),
            overrides,
        )
        handle = InteractionHandle(
            fake=self,
            id=interaction_id,
            token=token,
            type=kind,
            user=user,
            channel=channel,
            description=description,
            payload=payload,
            dispatched_at=self.now(),
            dispatched_perf=time.perf_counter(),
            message=message if kind == 3 else None,
            opened_from_message=message if kind == 5 else None,
            forged=forged,
            expect_answer=expect_answer,
        )
        self.interactions.append(handle)
        self._by_token[token] = handle
        await self._dispatch(session, "INTERACTION_CREATE", payload)
        loop = asyncio.get_running_loop()
        self._timers.append(
            loop.call_later(self.interaction_deadline + 0.05, self._check_deadline, handle)
        )
        return handle

    # command payloads --------------------------------------------------------------------------

    def _find_command(self, name: str, guild_id: int | None) -> tuple[dict[str, Any] | None, bool]:
        """The synced command named `name` (guild first), and whether it is a guild command."""
        if guild_id is not None:
            for command in self.commands.get(guild_id, []):
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, True
        for command in self.commands.get(None, []):
            if command["name"] == name and command.get("type", 1) == 1:
                return command, False
        return None, False

    def _command_data(
        self,
        channel: FakeChannel,
        user: FakeUser,
        command: str,
        path: Sequence[str],
        options: dict[str, Any],
        focused: str | None,
    ) -> dict[str, Any]:
        spec, in_guild = self._find_command(command, channel.guild_id)
        if spec is None and any(self.commands.values()):
            synced = sorted({c["name"] for cs in self.commands.values() for c in cs})
            raise FakeDiscordError(
                f"/{command} is not a synced command, so no user could run it; synced: {synced}"
            )
        if spec is not None and not in_guild:
            self._check_available(spec, channel, user, command)
        data: dict[str, Any] = {
            "id": spec["id"] if spec else str(self.ids()),
            "name": command,
            "type": 1,
        }
        if spec is not None and in_guild:
            data["guild_id"] = str(channel.guild_id)
        resolved: dict[str, dict[str, Any]] = {}
        specs: list[dict[str, Any]] | None = spec.get("options") if spec else None
        holder = data
        for depth, name in enumerate(path):
            node_spec = None
            if specs is not None:
                node_spec = next((o for o in specs if o["name"] == name), None)
                if node_spec is None or node_spec.get("type") not in (1, 2):
                    choices = [o["name"] for o in specs if o.get("type") in (1, 2)]
                    raise ValueError(f"/{command} has no subcommand {name!r}; it has {choices}")
                kind = node_spec["type"]
            else:
                kind = SUB_COMMAND_GROUP if depth < len(path) - 1 else SUB_COMMAND
            node: dict[str, Any] = {"type": kind, "name": name, "options": []}
            holder["options"] = [node]
            holder = node
            specs = node_spec.get("options") or [] if node_spec is not None else None
        if specs is not None and any(o.get("type") in (1, 2) for o in specs):
            choices = [o["name"] for o in specs if o.get("type") in (1, 2)]
            raise ValueError(f"/{command} {' '.join(path)} needs a subcommand: one of {choices}")
        holder["options"] = self._leaf_options(specs, options, focused, resolved, channel)
        if resolved:
            data["resolved"] = resolved
        return data

    def _leaf_options(
        self,
        specs: list[dict[str, Any]] | None,
        options: dict[str, Any],
        focused: str | None,
        resolved: dict[str, dict[str, Any]],
        channel: FakeChannel,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in specs or []}
        if specs is not None:
            unknown = set(options) - set(by_name)
            if unknown:
                raise ValueError(
                    f"unknown options {sorted(unknown)}; the command has {sorted(by_name)}"
                )
            missing = [
                o["name"]
                for o in specs
                if o.get("required") and o["name"] not in options and o["name"] != focused
            ]
            if missing:
                raise ValueError(f"required options missing: {missing}")
        built: list[dict[str, Any]] = []
        for name, value in options.items():
            spec = by_name.get(name)
            kind = spec["type"] if spec else _infer_type(value)
            is_focused = name == focused
            entry: dict[str, Any] = {"name": name, "type": kind}
            if is_focused:
                entry["value"] = str(value)
                entry["focused"] = True
            else:
                entry["value"] = self._option_value(name, kind, value, spec, resolved, channel)
            built.append(entry)
        if focused is not None and focused not in options:
            spec = by_name.get(focused)
            kind = spec["type"] if spec else STRING
            built.append({"name": focused, "type": kind, "value": "", "focused": True})
        return built

    def _option_value(
        self,
        name: str,
        kind: int,
        value: Any,
        spec: dict[str, Any] | None,
        resolved: dict[str, dict[str, Any]],
        channel: FakeChannel,
    ) -> Any:
        spec = spec or {}
        if kind in (USER, MENTIONABLE):
            who = self.user(value)
            resolved.setdefault("users", {})[str(who.id)] = who.payload()
            if channel.guild_id is not None and who.id in self.world.members:
                member = self.world.member(who).payload(permissions=self.world.permissions(who))
                member.pop("user")
                resolved.setdefault("members", {})[str(who.id)] = member
            return str(who.id)
        if kind == CHANNEL:
            target = self.channel(value)
            data = target.payload()
            data["permissions"] = str(self.world.permissions(self.world.bot_user))
            resolved.setdefault("channels", {})[str(target.id)] = data
            return str(target.id)
        if kind == ROLE:
            role = next((r for r in self.world.roles if value in (r.id, r.name)), None)
            if role is None:
                raise ValueError(f"option {name}: no role {value!r}")
            resolved.setdefault("roles", {})[str(role.id)] = role.payload()
            return str(role.id)
        if kind == BOOLEAN:
            if not isinstance(value, bool):
                raise ValueError(f"option {name} takes true/false, got {value!r}")
        elif kind == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"option {name} takes an integer, got {value!r}")
        elif kind == NUMBER:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise ValueError(f"option {name} takes a number, got {value!r}")
        elif kind == STRING:
            if not isinstance(value, str):
                raise ValueError(f"option {name} takes a string, got {value!r}")
            low, high = spec.get("min_length", 0), spec.get("max_length", 6000)
            if not low <= len(value) <= high:
                raise ValueError(f"option {name} takes {low} to {high} characters")
        choices = spec.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            raise ValueError(f"option {name} must be one of {[c['value'] for c in choices]}")
        if kind in (INTEGER, NUMBER):
            if "min_value" in spec and value < spec["min_value"]:
                raise ValueError(f"option {name} is at least {spec['min_value']}")
            if "max_value" in spec and value > spec["max_value"]:
                raise ValueError(f"option {name} is at most {spec['max_value']}")
        return value

    def _select_values(
        self, component: dict[str, Any], values: list[Any], channel: FakeChannel
    ) -> tuple[list[str], dict[str, Any]]:
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {component['custom_id']!r} takes {low} to {high} values")
        kind = component["type"]
        resolved: dict[str, dict[str, Any]] = {}
        if kind == 3:
            allowed = [o["value"] for o in component.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"{bad} are not options of {component['custom_id']!r}: {allowed}")
            return [str(v) for v in values], {}
        option_type = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[kind]
        picked = [
            self._option_value("value", option_type, value, None, resolved, channel)
            for value in values
        ]
        return picked, resolved

    def _modal_answer(
        self, top: dict[str, Any], values: Mapping[str, Any], channel: FakeChannel
    ) -> dict[str, Any] | None:
        kind = top.get("type")
        if kind == 1:
            inner = (top.get("components") or [{}])[0]
            answer: dict[str, Any] = {
                "type": 1,
                "components": [self._field_answer(inner, values, channel)],
            }
        elif kind == 18:
            answer = {
                "type": 18,
                "component": self._field_answer(top.get("component") or {}, values, channel),
            }
        else:
            return None
        if "id" in top:
            answer["id"] = top["id"]
        return answer

    def _field_answer(
        self, item: dict[str, Any], values: Mapping[str, Any], channel: FakeChannel
    ) -> dict[str, Any]:
        custom_id = item.get("custom_id", "")
        answer: dict[str, Any] = {"type": item.get("type"), "custom_id": custom_id}
        if "id" in item:
            answer["id"] = item["id"]
        if item.get("type") == 4:
            value = values.get(custom_id, item.get("value") or "")
            if not isinstance(value, str):
                raise ValueError(f"field {custom_id!r} takes text, got {value!r}")
            if item.get("required", True) and not value:
                raise ValueError(f"field {custom_id!r} is required")
            low, high = item.get("min_length", 0), item.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise ValueError(f"field {custom_id!r} takes {low} to {high} characters")
            answer["value"] = value
        elif item.get("type") in SELECT_TYPES:
            raw = values.get(custom_id, [])
            chosen = [raw] if isinstance(raw, str) else list(raw)
            picked, _ = self._select_values(item, chosen, channel)
            answer["values"] = picked
        return answer


def _infer_type(value: Any) -> int:
    """The option type for a value when the command was never synced."""
    if isinstance(value, bool):
        return BOOLEAN
    if isinstance(value, int):
        return INTEGER
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, FakeUser):
        return USER
    if isinstance(value, FakeChannel):
        return CHANNEL
    return STRING
