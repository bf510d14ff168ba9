"""The fake Discord itself: REST under /api/v10 and a gateway websocket, on 127.0.0.1.

`FakeDiscordServer` holds all state (messages, commands, interactions, gateway sessions) and
enforces the rules discord.py leaves to Discord. The user-facing driver (`FakeDiscord` in
driver.py) builds on it; tests should use that class.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from aiohttp import WSMsgType, web

from tests.discord_fake import limits, rules
from tests.discord_fake.activities import (
    DEFAULT_ENTRY_POINT,
    ENTRY_POINT,
    LAUNCH_ACTIVITY,
    ActivitySide,
)
from tests.discord_fake.errors import HttpError, OAuthError
from tests.discord_fake.models import (
    FakeDiscordError,
    FakeMessage,
    FakeModal,
    InteractionHandle,
    RecordedRequest,
    Violation,
    Waiter,
)
from tests.discord_fake.ratelimits import RateLimiter, Refusal
from tests.discord_fake.world import (
    FakeChannel,
    FakeUser,
    PermissionsLike,
    SnowflakeFactory,
    World,
    iso_now,
)

API_PREFIX = "/api/v10"
GATEWAY_PATH = "/gateway"

# Discord JSON error codes used below.
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_COMMAND = 10063
UNKNOWN_INTERACTION = 10062
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
CANNOT_EDIT_OTHERS = 50005
EMPTY_MESSAGE = 50006
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
ALREADY_ACKNOWLEDGED = 40060

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

#: Which interaction types (1 ping, 2 command, 3 component, 4 autocomplete, 5 modal submit)
#: each callback type may answer.
CALLBACK_ALLOWED: dict[int, frozenset[int]] = {
    1: frozenset({1}),
    4: frozenset({2, 3, 5}),
    5: frozenset({2, 3, 5}),
    6: frozenset({3, 5}),
    7: frozenset({3, 5}),
    8: frozenset({4}),
    9: frozenset({2, 3}),
    LAUNCH_ACTIVITY: frozenset({2, 3, 5}),
}


def _file_index(name: str | None) -> int | None:
    """The index discord.py gives an uploaded file's form field (`files[0]` -> 0)."""
    if name and name.startswith("files[") and name.endswith("]"):
        return int(name[6:-1])
    return None


def form_error(problems: list[rules.Problem]) -> HttpError:
    """Invalid Form Body (50035) with Discord's nested `_errors` layout."""
    errors: dict[str, Any] = {}
    for problem in problems:
        node = errors
        for part in (problem.path or "_body").split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append(
            {"code": problem.rule.upper().replace("-", "_"), "message": problem.message}
        )
    return HttpError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with Content-Type exactly `application/json`: discord.py compares it verbatim."""
    return web.Response(
        status=status,
        body=json.dumps(data).encode(),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


@dataclass
class Request:
    """A parsed REST request: JSON body (or multipart payload_json) and uploaded files."""

    method: str
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    body: Any
    files: list[dict[str, Any]]
    arrived_at: float
    arrived_perf: float


@dataclass(eq=False)
class Connection:
    """One gateway websocket; it belongs to a session once it identifies or resumes."""

    ws: web.WebSocketResponse
    transport: asyncio.BaseTransport | None = None
    session: Session | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Heartbeats the bot answered to the fake's op 1 requests, and the waiters on them:
    #: (number of the heartbeat that answers, future).
    heartbeats: int = 0
    last_ping: int = 0
    ping_waiters: list[tuple[int, asyncio.Future[None]]] = field(default_factory=list)

    async def send(self, data: dict[str, Any]) -> None:
        """Send one gateway payload as a text frame (never compressed)."""
        async with self.lock:
            if not self.ws.closed:
                await self.ws.send_str(json.dumps(data))


@dataclass(eq=False)
class Session:
    """A gateway session: its sequence, replay buffer for RESUME, and current connection."""

    id: str
    shard: tuple[int, int] | None
    intents: int
    identify_number: int
    seq: int = 0
    buffer: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=20000))
    connection: Connection | None = None
    invalidated: bool = False
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def owns_guild(self, guild_id: int) -> bool:
        """Discord routes a guild's events to shard (guild_id >> 22) % shard_count."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % max(count, 1) == shard_id


Handler = Callable[..., Awaitable[Any]]

VIEW_CHANNEL = discord.Permissions(view_channel=True).value
SEND_MESSAGES = discord.Permissions(send_messages=True).value
EMBED_LINKS = discord.Permissions(embed_links=True).value
READ_MESSAGE_HISTORY = discord.Permissions(read_message_history=True).value
MANAGE_MESSAGES = discord.Permissions(manage_messages=True).value
ADD_REACTIONS = discord.Permissions(add_reactions=True).value


@dataclass(eq=False)
class StalledRequest:
    """The next request matching method and path is held, unserved, until `release()`.

    For crash tests: hold the edit that follows a stored move, kill the bot while Discord has
    not applied it, then `release(serve=False)` so it is never applied, as if the process died
    before sending it.
    """

    method: str
    path: re.Pattern[str]
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    released: asyncio.Event = field(default_factory=asyncio.Event)
    serve: bool = False
    taken: bool = False

    def matches(self, method: str, path: str) -> bool:
        return not self.taken and method == self.method and bool(self.path.fullmatch(path))

    async def wait_arrived(self, timeout: float = 10.0) -> None:
        """Return once the bot sent the request."""
        await asyncio.wait_for(self.arrived.wait(), timeout)

    def release(self, *, serve: bool) -> None:
        """Let the held request go: served normally, or refused (503) and never applied."""
        self.serve = serve
        self.released.set()


@dataclass(eq=False)
class InjectedFailure:
    """A Discord error the fake answers to the next `times` requests matching method and path.

    `path` is a regular expression matched in full against the path after /api/v10, e.g.
    `/channels/123/messages/456`. `hits` counts the requests it answered.
    """

    method: str
    path: re.Pattern[str]
    status: int
    code: int
    message: str
    times: int = 1
    hits: int = 0

    @property
    def exhausted(self) -> bool:
        """It answered as many requests as it was asked to."""
        return self.hits >= self.times

    def matches(self, method: str, path: str) -> bool:
        """The request is one this failure is waiting for."""
        return not self.exhausted and method == self.method and bool(self.path.fullmatch(path))

    def error(self) -> HttpError:
        """The error response."""
        return HttpError(self.status, self.code, self.message)


class FakeDiscordServer:
    """State and protocol of the fake; see `FakeDiscord` for the API tests use."""

    def __init__(
        self,
        *,
        token: str | None = None,
        members: tuple[str, ...] = ("alice", "bob", "carol", "dave"),
        channels: tuple[str, ...] = ("general", "games"),
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        guild_ready_timeout: float = 0.1,
        message_events: bool = True,
        bot_permissions: PermissionsLike | None = None,
        guilds: int = 1,
        shard_count: int = 1,
        heartbeat_before_clicks: bool = True,
        rate_limits: limits.Limits | None = limits.DISCORD,
        activities: bool = False,
    ) -> None:
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        #: Discord's rate limits as this fake enforces them (None: unlimited, which a test
        #: must ask for); `rate_limiter.hits` lists every 429 it answered.
        self.rate_limiter = RateLimiter(rate_limits, self.now) if rate_limits else None
        self.ids = SnowflakeFactory()
        #: What GET /gateway/bot recommends; IDENTIFY must use at least this many shards.
        self.shard_count = shard_count
        self.world = World(
            ids=self.ids,
            members=members,
            channels=channels,
            bot_permissions=bot_permissions,
            guilds=guilds,
            shard_count=shard_count,
        )
        self.interaction_deadline = interaction_deadline
        #: Before a click, select or modal submit, also wait for a heartbeat round trip (see
        #: `FakeDiscord.click`). discord.py answers each through its gateway rate limiter (110
        #: a minute), so a load that clicks faster turns it off: routes matched by custom_id
        #: (DynamicItem) need no view registered, and real players click whenever they like.
        self.heartbeat_before_clicks = heartbeat_before_clicks
        self.token_lifetime = token_lifetime
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.guild_ready_timeout = guild_ready_timeout
        self.message_events = message_events

        self.violations: list[Violation] = []
        self.requests: list[RecordedRequest] = []
        self.interactions: list[InteractionHandle] = []
        self.modals: list[FakeModal] = []
        #: Failures to answer instead of serving (see `fail_next`), oldest first.
        self.injected_failures: list[InjectedFailure] = []
        #: Requests to hold until released (see `stall_next`).
        self.stalls: list[StalledRequest] = []
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int]] = []  # (guild id, login number)
        self.presence: dict[str, Any] | None = None
        self.login_count = 0
        self.identify_count = 0
        self.resume_count = 0
        self.ready_count = 0
        self.ready_identify_number = 0
        self.down = False
        """During `begin_outage` ... `end_outage`: Discord cannot be reached."""

        self._messages: dict[int, FakeMessage] = {}
        self.uploads: dict[str, bytes] = {}
        """Every uploaded attachment's bytes, by attachment id (`attachment_bytes`)."""
        self._by_token: dict[str, InteractionHandle] = {}
        self._sessions: dict[str, Session] = {}
        self._connections: set[Connection] = set()
        self._command_ids: dict[tuple[int | None, int, str], int] = {}
        self._time_offset = 0.0
        self._inflight: set[int] = set()
        self._request_numbers = itertools.count(1)
        self._timers: list[asyncio.TimerHandle] = []
        self._waiter = Waiter()
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self.port = 0
        self._routes: list[tuple[str, re.Pattern[str], Handler, bool, bool]] = []
        self._install_routes()
        #: The Activity's side: the flag, instances, OAuth codes and tokens (activities.py).
        self.activity_side = ActivitySide(self.world, self.ids, self.now, enabled=False)
        if activities:
            self.enable_activities()

    def enable_activities(self) -> None:
        """Turn Activities on, as in the Developer Portal: Discord adds the default Entry Point
        command to the global commands (unless the app has one)."""
        self.activity_side.set_enabled(True)
        current = self.commands.setdefault(None, [])
        if not any(c.get("type") == ENTRY_POINT for c in current):
            current.append(self._stored_command(None, DEFAULT_ENTRY_POINT))
        self.changed()

    def disable_activities(self) -> None:
        """Turn Activities off; the Entry Point command goes with them."""
        self.activity_side.set_enabled(False)
        current = self.commands.get(None, [])
        self.commands[None] = [c for c in current if c.get("type") != ENTRY_POINT]
        self.changed()

    # lifecycle ---------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on 127.0.0.1 at a free port."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(GATEWAY_PATH, self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=0.5
        )
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await self._site.start()
        self.port = self._runner.addresses[0][1]

    async def stop(self) -> None:
        """Close every gateway connection and the listener; pending deadlines are checked."""
        for timer in self._timers:
            timer.cancel()
        for handle in self.interactions:
            self._check_deadline(handle)
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.ws.close(code=1001), 2.0)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def begin_outage(self) -> None:
        """Discord unreachable, as a network outage looks to the bot: the listener closes (new
        connections are refused), every gateway connection is cut (a TCP abort, no close
        frame), and a request on a connection kept alive from before is cut too."""
        self.down = True
        if self._site is not None:
            await self._site.stop()
            self._site = None
        for conn in list(self._connections):
            if conn.transport is not None:
                conn.transport.abort()
        self.changed()

    async def end_outage(self) -> None:
        """Discord is back: listen again on the same port (the bot's URLs stay right)."""
        assert self._runner is not None, "start the fake first"
        self._site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await self._site.start()
        self.down = False
        self.changed()

    @property
    def rest_base(self) -> str:
        """What `discord.http.Route.BASE` must be set to."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """What `DiscordWebSocket.DEFAULT_GATEWAY` must be set to."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    # clock and waiting ---------------------------------------------------------------------

    def now(self) -> float:
        """The fake's clock (monotonic seconds), which `advance_time` moves forward."""
        return time.monotonic() + self._time_offset

    def advance_time(self, seconds: float) -> None:
        """Pretend `seconds` passed, for the 3-second and 15-minute rules, without sleeping."""
        self._time_offset += seconds
        for handle in self.interactions:
            self._check_deadline(handle)
        self._waiter.notify()

    def changed(self) -> None:
        """Wake everything waiting in `wait_for`."""
        self._waiter.notify()

    async def wait_for(
        self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = "a condition"
    ) -> None:
        """Wait until `predicate()` holds, re-checked on every change; explain a timeout."""
        await self._waiter.wait_for(predicate, timeout, lambda: self.explain_timeout(what, timeout))

    def explain_timeout(self, what: str, timeout: float) -> str:
        """The text of a timeout error: what was awaited, violations and the last requests."""
        lines = [f"timed out after {timeout:g} s waiting for {what}."]
        if self.violations:
            lines.append("violations so far:")
            lines += [f"  {v}" for v in self.violations[-10:]]
        lines.append("last REST requests from the bot:")
        lines += [f"  {r}" for r in self.requests[-10:]] or ["  (none)"]
        connected = [s for s in self._sessions.values() if s.connection is not None]
        lines.append(f"gateway: {len(connected)} connected session(s), ready={self.ready_count}")
        lines += self._extra_timeout_context()
        return "\n".join(lines)

    def _extra_timeout_context(self) -> list[str]:
        return []

    # violations ----------------------------------------------------------------------------

    def violate(self, rule: str, detail: str, request: Request | None = None) -> None:
        """Record a broken rule; the `fake_discord` fixture fails the test on any."""
        method, path = (request.method, request.path) if request else ("", "")
        self.violations.append(Violation(rule, detail, method, path))
        self.changed()

    def take_violations(self, rule: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of one rule), for tests that expect them."""
        taken = [v for v in self.violations if rule is None or v.rule == rule]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def assert_no_violations(self) -> None:
        """Fail with every recorded violation listed."""
        if self.violations:
            listing = "\n".join(f"  {v}" for v in self.violations)
            raise FakeDiscordError(f"the bot broke Discord's rules:\n{listing}")

    # messages ------------------------------------------------------------------------------

    def messages(
        self, channel: str | int | FakeChannel, *, include_deleted: bool = False
    ) -> list[FakeMessage]:
        """The channel's messages, oldest first, including ephemeral ones."""
        target = self.world.channel(channel)
        return [
            m
            for m in self._messages.values()
            if m.channel.id == target.id and (include_deleted or not m.deleted)
        ]

    def all_messages(self, *, include_deleted: bool = False) -> list[FakeMessage]:
        """Every message in every channel, oldest first."""
        return [m for m in self._messages.values() if include_deleted or not m.deleted]

    def message(self, message_id: int) -> FakeMessage:
        """A message by id (deleted ones too)."""
        return self._messages[int(message_id)]

    def synced_commands(self, guild: int | None = None) -> list[dict[str, Any]]:
        """The commands last synced globally (guild None) or to a guild id."""
        return list(self.commands.get(guild, []))

    def latencies(self) -> list[float]:
        """Seconds from dispatch to first answer, for every answered interaction."""
        return [h.latency for h in self.interactions if h.latency is not None]

    def _new_message(
        self,
        channel: FakeChannel,
        data: dict[str, Any],
        files: list[dict[str, Any]],
        *,
        interaction: InteractionHandle | None = None,
        flags: int | None = None,
    ) -> FakeMessage:
        keep = rules.SUPPRESS_EMBEDS | rules.SUPPRESS_NOTIFICATIONS | rules.COMPONENTS_V2
        if interaction is not None:
            keep |= rules.EPHEMERAL
        message = FakeMessage(
            id=self.ids(),
            channel=channel,
            author=self.world.bot_user,
            content=data.get("content") or "",
            embeds=list(data.get("embeds") or []),
            components=list(data.get("components") or []),
            attachments=self._attachments(data, files, []),
            flags=flags if flags is not None else int(data.get("flags") or 0) & keep,
        )
        if interaction is not None:
            message.webhook_id = self.world.application_id
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user
            message.interaction_type = interaction.type
            message.integration_owners = interaction.payload.get("authorizing_integration_owners")
        message.history.append(message.payload())
        message.history_times.append(time.time())
        self._messages[message.id] = message
        return message

    def _attachments(
        self, data: dict[str, Any], files: list[dict[str, Any]], existing: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        described = rules.attachment_descriptions(data)
        new = []
        for f in files:
            attachment = {
                "id": str(self.ids()),
                "filename": f["filename"],
                "size": f["size"],
                "url": f"http://127.0.0.1:{self.port}/attachments/{f['filename']}",
                "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{f['filename']}",
                "content_type": f.get("content_type"),
            }
            if described.get(f.get("index")) is not None:
                attachment["description"] = described[f.get("index")]
            self.uploads[attachment["id"]] = f.get("data", b"")
            new.append(attachment)
        if "attachments" not in data:
            return [*existing, *new]
        wanted = {str(a.get("id")) for a in data.get("attachments") or []}
        return [a for a in existing if a["id"] in wanted] + new

    def _apply_edit(
        self, message: FakeMessage, data: dict[str, Any], files: list[dict[str, Any]]
    ) -> None:
        if "content" in data:
            message.content = data["content"] or ""
        if "embeds" in data:
            message.embeds = list(data["embeds"] or [])
        if "components" in data:
            message.components = list(data["components"] or [])
        if "flags" in data and data["flags"] is not None:
            editable = rules.SUPPRESS_EMBEDS | rules.COMPONENTS_V2
            message.flags = (message.flags & ~editable) | (int(data["flags"]) & editable)
        message.attachments = self._attachments(data, files, message.attachments)
        message.flags &= ~rules.LOADING
        message.edits += 1
        message.edited_timestamp = iso_now()
        message.history.append(message.payload())
        message.history_times.append(time.time())

    async def _message_event(self, event: str, message: FakeMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE as the gateway sends them (never for ephemeral ones)."""
        if not self.message_events or message.ephemeral:
            return
        if not self.world.bot_present(message.channel):
            return  # no gateway events from where the bot is not a member
        guild_id = message.channel.guild_id
        intent = INTENT_GUILD_MESSAGES if guild_id is not None else INTENT_DIRECT_MESSAGES
        session = self._session_for(guild_id)
        if session is None or not session.intents & intent:
            return
        if event == "MESSAGE_DELETE":
            data: dict[str, Any] = {"id": str(message.id), "channel_id": str(message.channel.id)}
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
        else:
            data = message.payload()
        await self._dispatch(session, event, data)

    # REST plumbing -------------------------------------------------------------------------

    def _route(
        self, method: str, pattern: str, handler: Handler, auth: bool = True, bearer: bool = False
    ) -> None:
        """`auth`: the bot token is required; `bearer`: an OAuth2 bearer token is taken too
        (the handler checks it)."""
        regex = re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", pattern) + "$")
        self._routes.append((method, regex, handler, auth, bearer))

    async def _unknown(self, request: web.Request) -> web.Response:
        self.violate("unknown-route", f"{request.method} {request.path} is outside {API_PREFIX}")
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        if self.down and request.transport is not None:  # an outage: the connection breaks
            request.transport.abort()
        number = next(self._request_numbers)
        self._inflight.add(number)
        try:
            response = await self._serve(request)
            await response.prepare(request)
            await response.write_eof()
            return response
        finally:
            self._inflight.discard(number)
            self.changed()

    async def requests_written(self, timeout: float = 10.0) -> None:
        """Wait until every REST request in flight now has its answer fully written."""
        pending = set(self._inflight)
        await self.wait_for(
            lambda: not pending & self._inflight, timeout, "the bot's requests to be answered"
        )

    async def _parse(self, request: web.Request, path: str) -> Request:
        arrived_perf = time.perf_counter()
        arrived_at = self.now()
        body: Any = None
        files: list[dict[str, Any]] = []
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("application/json"):
            body = await request.json()
        elif content_type.startswith("application/x-www-form-urlencoded"):
            body = {key: str(value) for key, value in (await request.post()).items()}
        elif content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if part.name == "payload_json":
                    body = json.loads(await part.text())  # type: ignore[union-attr]
                else:
                    blob = await part.read()  # type: ignore[union-attr]
                    files.append(
                        {
                            "filename": getattr(part, "filename", None) or "file",
                            "size": len(blob),
                            "content_type": part.headers.get("Content-Type"),
                            "index": _file_index(part.name),
                            "data": blob,
                        }
                    )
        return Request(
            method=request.method,
            path=path,
            query=dict(request.query),
            headers=dict(request.headers),
            body=body,
            files=files,
            arrived_at=arrived_at,
            arrived_perf=arrived_perf,
        )

    async def _serve(self, request: web.Request) -> web.Response:
        path = request.path[len(API_PREFIX) :]
        req = await self._parse(request, path)
        limiter = self.rate_limiter
        if limiter is not None and limiter.banned:
            self.requests.append(RecordedRequest(req.method, path, 429, req.body, req.arrived_at))
            return web.Response(status=429, text="error code: 1015")  # Cloudflare's ban page
        status, data, headers, scope = 500, None, dict[str, str](), None
        try:
            for method, regex, handler, auth, bearer in self._routes:
                match = regex.match(path)
                if match is None or method != request.method:
                    continue
                authorization = req.headers.get("Authorization", "")
                as_bot = authorization == f"Bot {self.token}"
                if auth and not as_bot and not (bearer and authorization.startswith("Bearer ")):
                    raise HttpError(401, 0, "401: Unauthorized")
                if limiter is not None:
                    too_soon = limiter.early_retry(req.method, path, req.body)
                    if too_soon is not None:
                        self.violate(
                            "retry-too-soon",
                            f"retried {too_soon:.3f} s before its 429's retry_after ran out",
                            req,
                        )
                    verdict = limiter.admit(req.method, path, req.body, bot_token=auth and as_bot)
                    if isinstance(verdict, Refusal):
                        status, data, scope = 429, verdict.body, verdict.scope
                        headers = verdict.headers
                        break
                    headers = verdict
                if problems := rules.check_uploads(req.body, req.files):
                    for problem in problems:
                        self.violate(problem.rule, f"upload to {path}: {problem}", req)
                    raise form_error(problems)
                stall = next((s for s in self.stalls if s.matches(req.method, path)), None)
                if stall is not None:
                    stall.taken = True
                    stall.arrived.set()
                    await stall.released.wait()
                    if not stall.serve:
                        raise HttpError(503, 0, "503: held by the test and never served")
                injected = next(
                    (f for f in self.injected_failures if f.matches(req.method, path)), None
                )
                if injected is not None:
                    injected.hits += 1
                    raise injected.error()
                result = await handler(req, **match.groupdict())
                status, data = (204, None) if result is None else (200, result)
                break
            else:
                self.violate(
                    "unknown-route", f"the fake does not serve {request.method} {path}", req
                )
                raise HttpError(404, 0, "404: Not Found")
        except HttpError as error:
            status, data = error.status, error.body()
        self.requests.append(RecordedRequest(req.method, path, status, req.body, req.arrived_at))
        if limiter is not None and limiter.count(status, scope):
            self.violate(
                "invalid-requests",
                f"{limiter.limits.invalid_requests} requests answered 401, 403 or 429 within "
                f"{limiter.limits.invalid_window:g} s: Discord would now block the bot",
                req,
            )
        if status == 204:
            return web.Response(status=204, headers=headers)
        return json_response(data, status, headers)

    def _install_routes(self) -> None:
        r = self._route
        r("GET", "/users/@me", self._get_me, bearer=True)
        r("POST", "/oauth2/token", self._oauth_token, auth=False)
        r("GET", "/users/{user_id}", self._get_user)
        r("POST", "/users/@me/channels", self._open_dm)
        r("GET", "/oauth2/applications/@me", self._get_application)
        r("GET", "/applications/@me", self._get_application)
        r("GET", "/gateway/bot", self._get_gateway_bot)
        r("GET", "/gateway", self._get_gateway, auth=False)
        r("POST", "/__fake__/ready", self._ready_hook)
        app = "/applications/{app_id}"
        for prefix in (app, app + "/guilds/{guild_id}"):
            r("GET", prefix + "/commands", self._list_commands)
            r("PUT", prefix + "/commands", self._put_commands)
            r("POST", prefix + "/commands", self._post_command)
            r("GET", prefix + "/commands/{command_id}", self._get_command)
            r("PATCH", prefix + "/commands/{command_id}", self._patch_command)
            r("DELETE", prefix + "/commands/{command_id}", self._delete_command)
        r("GET", app + "/activity-instances/{instance_id}", self._get_activity_instance)
        r("POST", "/interactions/{interaction_id}/{token}/callback", self._callback, auth=False)
        hook = "/webhooks/{app_id}/{token}"
        r("POST", hook, self._followup, auth=False)
        r("GET", hook + "/messages/{message_id}", self._get_webhook_message, auth=False)
        r("PATCH", hook + "/messages/{message_id}", self._edit_webhook_message, auth=False)
        r("DELETE", hook + "/messages/{message_id}", self._delete_webhook_message, auth=False)
        chan = "/channels/{channel_id}"
        r("GET", chan, self._get_channel)
        r("POST", chan + "/typing", self._typing)
        r("GET", chan + "/messages", self._history)
        r("POST", chan + "/messages", self._send_message)
        r("POST", chan + "/messages/bulk-delete", self._bulk_delete)
        r("GET", chan + "/messages/{message_id}", self._get_message)
        r("PATCH", chan + "/messages/{message_id}", self._edit_message)
        r("DELETE", chan + "/messages/{message_id}", self._delete_message)
        reaction = chan + "/messages/{message_id}/reactions/{emoji}/@me"
        r("PUT", reaction, self._react)
        r("DELETE", reaction, self._unreact)
        r("GET", "/guilds/{guild_id}", self._get_guild)
        r("GET", "/guilds/{guild_id}/channels", self._get_guild_channels)
        r("GET", "/guilds/{guild_id}/members", self._list_members)
        r("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member)
        r("GET", "/guilds/{guild_id}/roles", self._get_roles)

    # login ---------------------------------------------------------------------------------

    async def _get_me(self, req: Request) -> Any:
        authorization = req.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            return self.activity_side.bearer_user(authorization)
        self.login_count += 1
        self.changed()
        return self.world.bot_user.payload()

    async def _get_user(self, req: Request, user_id: str) -> Any:
        try:
            return self.world.user(int(user_id)).payload()
        except (KeyError, ValueError):
            raise HttpError(404, 10013, "Unknown User") from None

    async def _open_dm(self, req: Request) -> Any:
        user = self._user_or_404(req.body.get("recipient_id"))
        return self.world.open_dm(user).payload()

    async def _get_application(self, req: Request) -> Any:
        return self.world.application_payload()

    async def _oauth_token(self, req: Request) -> Any:
        """The OAuth2 code exchange (form-encoded, as RFC 6749 and Discord require)."""
        if not isinstance(req.body, dict) or not req.headers.get("Content-Type", "").startswith(
            "application/x-www-form-urlencoded"
        ):
            raise OAuthError("invalid_request", "The body must be form-encoded.")
        return self.activity_side.exchange(req.body, req.headers.get("Authorization", ""))

    async def _get_activity_instance(self, req: Request, app_id: str, instance_id: str) -> Any:
        self._check_app(app_id, None)
        return self.activity_side.instance_payload(instance_id)

    async def _get_gateway_bot(self, req: Request) -> Any:
        return {
            "url": self.gateway_url,
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14400000,
                "max_concurrency": 1,
            },
        }

    async def _get_gateway(self, req: Request) -> Any:
        return {"url": self.gateway_url}

    async def _ready_hook(self, req: Request) -> Any:
        """The test-side patch reports discord.py's `ready` event here (see patching.py)."""
        self.ready_count += 1
        self.ready_identify_number = self.identify_count
        self.changed()
        return None

    # commands ------------------------------------------------------------------------------

    def _check_app(self, app_id: str, guild_id: str | None) -> int | None:
        if int(app_id) != self.world.application_id:
            raise HttpError(403, MISSING_ACCESS, "Missing Access")
        if guild_id is None:
            return None
        if not guild_id.isdigit() or int(guild_id) not in self.world.guilds:
            raise HttpError(403, MISSING_ACCESS, "Missing Access")
        return int(guild_id)

    def _stored_command(self, guild: int | None, data: dict[str, Any]) -> dict[str, Any]:
        kind = int(data.get("type", 1))
        key = (guild, kind, data.get("name", ""))
        command_id = self._command_ids.setdefault(key, self.ids())
        stored = {
            "id": str(command_id),
            "application_id": str(self.world.application_id),
            "version": str(self.ids()),
            "type": kind,
            "name": data.get("name"),
            "description": data.get("description", ""),
            "options": data.get("options") or [],
            "default_member_permissions": data.get("default_member_permissions"),
            "dm_permission": data.get("dm_permission", True),
            "nsfw": data.get("nsfw", False),
            "integration_types": data.get("integration_types") or [0],
            "contexts": data.get("contexts"),
            "name_localizations": data.get("name_localizations"),
            "description_localizations": data.get("description_localizations"),
        }
        if kind == ENTRY_POINT:
            stored["handler"] = int(data.get("handler") or 1)
        if guild is not None:
            stored["guild_id"] = str(guild)
        return stored

    async def _list_commands(self, req: Request, app_id: str, guild_id: str | None = None) -> Any:
        return self.synced_commands(self._check_app(app_id, guild_id))

    async def _put_commands(self, req: Request, app_id: str, guild_id: str | None = None) -> Any:
        guild = self._check_app(app_id, guild_id)
        problems = rules.check_commands(req.body)
        if not problems:
            problems = self.activity_side.command_problems(guild, req.body)
        if problems:
            for problem in problems:
                self.violate("command-sync", str(problem), req)
            raise form_error(problems)
        if guild is None:
            try:
                self.activity_side.check_keeps_entry_point(self.commands.get(None, []), req.body)
            except HttpError as error:
                self.violate("command-sync", f"{error.code}: {error.message}", req)
                raise
        self.commands[guild] = [self._stored_command(guild, c) for c in req.body]
        self.command_syncs.append((guild, self.login_count))
        self.changed()
        return self.commands[guild]

    async def _post_command(self, req: Request, app_id: str, guild_id: str | None = None) -> Any:
        guild = self._check_app(app_id, guild_id)
        problems = rules.check_commands([req.body])
        if not problems:
            problems = self.activity_side.command_problems(guild, [req.body])
        if problems:
            for problem in problems:
                self.violate("command-sync", str(problem), req)
            raise form_error(problems)
        stored = self._stored_command(guild, req.body)
        current = [c for c in self.commands.get(guild, []) if c["id"] != stored["id"]]
        self.commands[guild] = [*current, stored]
        self.command_syncs.append((guild, self.login_count))
        self.changed()
        return stored

    def _command_by_id(self, guild: int | None, command_id: str) -> dict[str, Any]:
        for command in self.commands.get(guild, []):
            if command["id"] == command_id:
                return command
        raise HttpError(404, UNKNOWN_COMMAND, "Unknown application command")

    async def _get_command(
        self, req: Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> Any:
        return self._command_by_id(self._check_app(app_id, guild_id), command_id)

    async def _patch_command(
        self, req: Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> Any:
        guild = self._check_app(app_id, guild_id)
        command = self._command_by_id(guild, command_id)
        command.update({k: v for k, v in req.body.items() if k != "id"})
        self.changed()
        return command

    async def _delete_command(
        self, req: Request, app_id: str, command_id: str, guild_id: str | None = None
    ) -> Any:
        guild = self._check_app(app_id, guild_id)
        command = self._command_by_id(guild, command_id)
        self.commands[guild].remove(command)
        self.changed()
        return None

    # interactions --------------------------------------------------------------------------

    def _handle_for(self, req: Request, token: str) -> InteractionHandle:
        handle = self._by_token.get(token)
        if handle is None:
            self.violate("unknown-interaction", "a webhook call used an unknown token", req)
            raise HttpError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if req.arrived_at - handle.dispatched_at > self.token_lifetime:
            self.violate(
                "token-expired",
                f"the token of {handle.description} was used "
                f"{req.arrived_at - handle.dispatched_at:.0f} s after the interaction; "
                f"it is valid for {self.token_lifetime:.0f} s",
                req,
            )
            raise HttpError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        return handle

    def _check_deadline(self, handle: InteractionHandle) -> None:
        if handle.answered or handle.deadline_reported or handle.type == 1:
            return
        if not handle.expect_answer:
            return
        if self.now() - handle.dispatched_at > self.interaction_deadline:
            handle.deadline_reported = True
            handle.late = True
            self.violate(
                "interaction-deadline",
                f"{handle.description} was not answered within "
                f"{self.interaction_deadline:g} s (Discord shows 'This interaction failed')",
            )

    async def _callback(self, req: Request, interaction_id: str, token: str) -> Any:
        handle = self._by_token.get(token)
        if handle is None or str(handle.id) != interaction_id:
            self.violate("unknown-interaction", f"callback for unknown {interaction_id}", req)
            raise HttpError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        if handle.answered:
            self.violate(
                "double-answer",
                f"{handle.description} was already answered (type {handle.answer_type}); "
                "later messages must be followups or edits",
                req,
            )
            raise HttpError(400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged.")
        elapsed = req.arrived_at - handle.dispatched_at
        if elapsed > self.interaction_deadline:
            handle.late = True
            if not handle.deadline_reported:
                handle.deadline_reported = True
                self.violate(
                    "interaction-deadline",
                    f"{handle.description} was first answered after {elapsed:.2f} s; "
                    f"Discord allows {self.interaction_deadline:g} s",
                    req,
                )
            raise HttpError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body = req.body or {}
        kind = body.get("type")
        data = body.get("data") or {}
        if handle.type not in CALLBACK_ALLOWED.get(kind, frozenset()):
            if kind == 9 and handle.type == 5:
                self.violate(
                    "modal-after-modal", f"{handle.description} answered a modal with a modal", req
                )
            else:
                self.violate(
                    "callback-type",
                    f"callback type {kind} cannot answer interaction type {handle.type} "
                    f"({handle.description})",
                    req,
                )
            raise HttpError(400, INVALID_FORM_BODY, "Invalid interaction response type")
        target = handle.message or handle.opened_from_message
        if kind in (6, 7) and target is None:
            self.violate(
                "callback-type", f"{handle.description} has no message to update (type {kind})", req
            )
            raise HttpError(400, INVALID_FORM_BODY, "Invalid interaction response type")
        if kind == 7 and target is not None and target.deleted:
            raise HttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        if kind == LAUNCH_ACTIVITY:
            refusal = self.activity_side.launch_refusal(handle)
            if refusal is not None:  # Discord refusing, not the bot breaking a rule
                raise refusal
        if kind == 4:
            problems = rules.check_message(data)
        elif kind == 7:
            assert target is not None
            problems = rules.check_message(data, previous=target.payload())
        elif kind == 9:
            problems = rules.check_modal(data)
        elif kind == 8:
            problems = _check_choices(data.get("choices") or [])
        else:
            problems = []
        if problems:
            for problem in problems:
                self.violate(problem.rule, f"{handle.description}: {problem}", req)
            raise form_error(problems)

        handle.answer_type = kind
        handle.answered_at = req.arrived_at
        handle.answer_perf = req.arrived_perf
        created: FakeMessage | None = None
        if kind == 4:
            created = self._new_message(handle.channel, data, req.files, interaction=handle)
            handle.original = created
        elif kind == 5:
            flags = rules.LOADING | (int(data.get("flags") or 0) & rules.EPHEMERAL)
            created = self._new_message(handle.channel, {}, [], interaction=handle, flags=flags)
            handle.original = created
        elif kind == 6:
            handle.original = target
        elif kind == 7:
            assert target is not None
            self._apply_edit(target, data, req.files)
            handle.original = target
        elif kind == 8:
            handle.autocomplete_choices = list(data.get("choices") or [])
        elif kind == LAUNCH_ACTIVITY:
            handle.activity_instance = self.activity_side.launch(
                handle.channel, handle.user, handle
            )
        elif kind == 9:
            modal = FakeModal(
                custom_id=data.get("custom_id", ""),
                title=data.get("title", ""),
                components=data.get("components") or [],
                opened_by=handle,
            )
            handle.opened_modal = modal
            self.modals.append(modal)
        self.changed()
        if created is not None:
            await self._message_event("MESSAGE_CREATE", created)
        elif kind == 7 and target is not None:
            await self._message_event("MESSAGE_UPDATE", target)
        if req.query.get("with_response") not in ("1", "true", "True"):
            return None
        return self._callback_body(handle, kind)

    def _callback_body(self, handle: InteractionHandle, kind: int) -> dict[str, Any]:
        """The interaction-callback response discord.py 2.7 asks for with ?with_response=1."""
        interaction: dict[str, Any] = {"id": str(handle.id), "type": handle.type}
        resource: dict[str, Any] = {"type": kind}
        message = handle.original if kind in (4, 5, 7) else None
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            interaction["response_message_loading"] = message.loading
            interaction["response_message_ephemeral"] = message.ephemeral
            resource["message"] = message.payload()
        if kind == LAUNCH_ACTIVITY and handle.activity_instance is not None:
            interaction["activity_instance_id"] = handle.activity_instance.instance_id
            resource["activity_instance"] = {"id": handle.activity_instance.instance_id}
        return {"interaction": interaction, "resource": resource}

    def _check_webhook_app(self, req: Request, app_id: str) -> None:
        if app_id != str(self.world.application_id):
            self.violate("unknown-webhook", f"webhook id {app_id} is not the application id", req)
            raise HttpError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")

    async def _followup(self, req: Request, app_id: str, token: str) -> Any:
        self._check_webhook_app(req, app_id)
        handle = self._handle_for(req, token)
        if not handle.answered:
            self.violate(
                "followup-before-answer",
                f"a followup to {handle.description} was sent before the interaction was answered",
                req,
            )
            raise HttpError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        data = req.body or {}
        original = handle.original
        if (
            handle.answer_type == 5
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: a followup sent while the defer is still loading resolves the defer.
            problems = rules.check_message(data, previous={"flags": original.flags})
            if problems:
                for problem in problems:
                    self.violate(problem.rule, f"followup to {handle.description}: {problem}", req)
                raise form_error(problems)
            self._apply_edit(original, data, req.files)
            message = original
            handle.followups.append(message)
            self.changed()
            await self._message_event("MESSAGE_UPDATE", message)
        else:
            problems = rules.check_message(data)
            if problems:
                for problem in problems:
                    self.violate(problem.rule, f"followup to {handle.description}: {problem}", req)
                raise form_error(problems)
            message = self._new_message(handle.channel, data, req.files, interaction=handle)
            handle.followups.append(message)
            self.changed()
            await self._message_event("MESSAGE_CREATE", message)
        if req.query.get("wait") in ("1", "true", "True"):
            return message.payload()
        return None

    def _webhook_message(
        self, req: Request, handle: InteractionHandle, message_id: str
    ) -> FakeMessage:
        if message_id == "@original":
            message = handle.original
            if message is None:
                self.violate(
                    "no-original-response",
                    f"@original of {handle.description} was used but it has no message "
                    f"(answer type {handle.answer_type})",
                    req,
                )
                raise HttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        else:
            message = self._messages.get(int(message_id))
            if message is None or (
                message is not handle.original and message not in handle.followups
            ):
                raise HttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        if message.deleted:
            raise HttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def _get_webhook_message(
        self, req: Request, app_id: str, token: str, message_id: str
    ) -> Any:
        self._check_webhook_app(req, app_id)
        handle = self._handle_for(req, token)
        return self._webhook_message(req, handle, message_id).payload()

    async def _edit_webhook_message(
        self, req: Request, app_id: str, token: str, message_id: str
    ) -> Any:
        self._check_webhook_app(req, app_id)
        handle = self._handle_for(req, token)
        message = self._webhook_message(req, handle, message_id)
        data = req.body or {}
        previous = message.payload()
        if message.loading:
            previous.update(content="", embeds=[], components=[])
        problems = rules.check_message(data, previous=previous)
        if problems:
            for problem in problems:
                self.violate(
                    problem.rule, f"edit of {handle.description}'s message: {problem}", req
                )
            raise form_error(problems)
        self._apply_edit(message, data, req.files)
        self.changed()
        await self._message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _delete_webhook_message(
        self, req: Request, app_id: str, token: str, message_id: str
    ) -> Any:
        self._check_webhook_app(req, app_id)
        handle = self._handle_for(req, token)
        message = self._webhook_message(req, handle, message_id)
        message.deleted = True
        self.changed()
        await self._message_event("MESSAGE_DELETE", message)
        return None

    # channels and messages -----------------------------------------------------------------

    def _channel_or_404(self, channel_id: str) -> FakeChannel:
        try:
            return self.world.channel(int(channel_id))
        except (KeyError, ValueError):
            raise HttpError(404, UNKNOWN_CHANNEL, "Unknown Channel") from None

    def _user_or_404(self, user_id: Any) -> FakeUser:
        try:
            return self.world.user(int(user_id))
        except (KeyError, ValueError, TypeError):
            raise HttpError(404, 10013, "Unknown User") from None

    def _require(self, req: Request, channel: FakeChannel, needed: int, what: str) -> int:
        """Refuse as Discord does when the bot lacks `needed` in a guild channel; returns the
        bot's permissions there.

        No View Channel is 403 Missing Access (50001), any other missing permission is 403
        Missing Permissions (50013). Each refusal is also a `missing-permissions` violation:
        a bot that checks `app_permissions` (or its channel permissions) never gets one.
        DM channels need nothing.
        """
        self._require_presence(req, channel, what)
        have = self.world.bot_permissions(channel)
        if channel.guild_id is None:
            return have
        missing = needed & ~have
        if not missing:
            return have
        names = [name for name, on in discord.Permissions(missing) if on]
        if missing & VIEW_CHANNEL:
            status, code, message = 403, MISSING_ACCESS, "Missing Access"
        else:
            status, code, message = 403, MISSING_PERMISSIONS, "Missing Permissions"
        self.violate(
            "missing-permissions",
            f"{what} in #{channel.name} needs {', '.join(names)}, which the bot lacks there "
            f"(Discord answers {status} {code} {message})",
            req,
        )
        raise HttpError(status, code, message)

    def _require_presence(self, req: Request, channel: FakeChannel, what: str) -> None:
        """Where the bot is not a member (a server only a user installed it in, a group DM),
        every bot-token route of the channel is 403 Missing Access (50001), as on Discord: the
        app may only answer interactions there. Each one is a `not-a-member` violation."""
        if self.world.bot_present(channel):
            return
        where = "a group DM" if channel.type == 3 else f"#{channel.name} of a server it is not in"
        self.violate(
            "not-a-member",
            f"{what} in {where}: the bot is not a member there, only interaction responses "
            f"work (Discord answers 403 {MISSING_ACCESS} Missing Access)",
            req,
        )
        raise HttpError(403, MISSING_ACCESS, "Missing Access")

    def _drop_embeds(
        self, req: Request, channel: FakeChannel, data: dict[str, Any], have: int, what: str
    ) -> dict[str, Any]:
        """Without Embed Links Discord silently drops a bot message's embeds (a `missing-
        permissions` violation here, since the player sees a message without its embed)."""
        if channel.guild_id is None or have & EMBED_LINKS or not data.get("embeds"):
            return data
        self.violate(
            "missing-permissions",
            f"{what} in #{channel.name}: its embeds were dropped, the bot lacks embed_links",
            req,
        )
        return {**data, "embeds": []}

    def _channel_message(self, channel_id: str, message_id: str) -> FakeMessage:
        channel = self._channel_or_404(channel_id)
        message = self._messages.get(int(message_id))
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel.id != channel.id
        ):
            raise HttpError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return message

    # Bot permissions on channel routes. Sources: the Message resource docs (Create Message
    # needs SEND_MESSAGES; Get Channel Message needs VIEW_CHANNEL and READ_MESSAGE_HISTORY; Get
    # Channel Messages needs VIEW_CHANNEL and returns nothing without READ_MESSAGE_HISTORY; a
    # reply needs READ_MESSAGE_HISTORY; Edit Message lists no permission for the author;
    # reactions need READ_MESSAGE_HISTORY, plus ADD_REACTIONS for a new emoji) and, for embeds,
    # discord/discord-api-docs#2601 and #5648: without EMBED_LINKS a message with only embeds is
    # refused with 403 Missing Permissions, other embeds are dropped silently (an edit left
    # empty is 50006). Interaction callbacks and webhooks (followups, @original) need none.

    async def _get_channel(self, req: Request, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._require(req, channel, VIEW_CHANNEL, "reading the channel")
        return channel.payload()

    async def _typing(self, req: Request, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._require(req, channel, VIEW_CHANNEL | SEND_MESSAGES, "typing")
        return None

    async def _history(self, req: Request, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        have = self._require(req, channel, VIEW_CHANNEL, "reading message history")
        if channel.guild_id is not None and not have & READ_MESSAGE_HISTORY:
            return []
        limit = int(req.query.get("limit", 50))
        found = [m for m in self.messages(channel) if not m.ephemeral]
        if "before" in req.query:
            found = [m for m in found if m.id < int(req.query["before"])]
        if "after" in req.query:
            found = [m for m in found if m.id > int(req.query["after"])][:limit]
        return [m.payload() for m in reversed(found[-limit:])]

    async def _send_message(self, req: Request, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        data = req.body or {}
        needed = VIEW_CHANNEL | SEND_MESSAGES
        if data.get("message_reference"):
            needed |= READ_MESSAGE_HISTORY
        embeds_only = data.get("embeds") and not (
            data.get("content") or data.get("components") or req.files or data.get("sticker_ids")
        )
        if embeds_only:
            needed |= EMBED_LINKS
        have = self._require(req, channel, needed, "sending a message")
        data = self._drop_embeds(req, channel, data, have, "a new message")
        problems = rules.check_message(
            {**data, "attachments": data.get("attachments") or req.files}
        )
        if problems:
            for problem in problems:
                self.violate(problem.rule, f"message in #{channel.name}: {problem}", req)
            raise form_error(problems)
        message = self._new_message(channel, data, req.files)
        self.changed()
        await self._message_event("MESSAGE_CREATE", message)
        return message.payload()

    async def _get_message(self, req: Request, channel_id: str, message_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._require(req, channel, VIEW_CHANNEL | READ_MESSAGE_HISTORY, "fetching a message")
        return self._channel_message(channel_id, message_id).payload()

    async def _edit_message(self, req: Request, channel_id: str, message_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        have = self._require(req, channel, VIEW_CHANNEL, "editing a message")
        message = self._channel_message(channel_id, message_id)
        if message.author.id != self.world.bot_user.id:
            raise HttpError(
                403, CANNOT_EDIT_OTHERS, "Cannot edit a message authored by another user"
            )
        data = self._drop_embeds(
            req, channel, req.body or {}, have, f"the edit of message {message.id}"
        )
        problems = rules.check_message(data, previous=message.payload())
        if problems:
            for problem in problems:
                self.violate(problem.rule, f"edit of message {message.id}: {problem}", req)
            raise form_error(problems)
        self._apply_edit(message, data, req.files)
        self.changed()
        await self._message_event("MESSAGE_UPDATE", message)
        return message.payload()

    async def _delete_message(self, req: Request, channel_id: str, message_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._require(req, channel, VIEW_CHANNEL, "deleting a message")
        message = self._channel_message(channel_id, message_id)
        if message.author.id != self.world.bot_user.id:
            self._require(req, channel, MANAGE_MESSAGES, "deleting another user's message")
        message.deleted = True
        self.changed()
        await self._message_event("MESSAGE_DELETE", message)
        return None

    async def _bulk_delete(self, req: Request, channel_id: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._require(req, channel, VIEW_CHANNEL | MANAGE_MESSAGES, "bulk-deleting messages")
        ids = (req.body or {}).get("messages") or []
        if not 2 <= len(ids) <= 100:
            problem = rules.Problem("bulk-delete", "messages", "2 to 100 message ids")
            self.violate(problem.rule, str(problem), req)
            raise form_error([problem])
        for message_id in ids:
            with contextlib.suppress(HttpError):
                message = self._channel_message(channel_id, message_id)
                message.deleted = True
                await self._message_event("MESSAGE_DELETE", message)
        self.changed()
        return None

    async def _react(self, req: Request, channel_id: str, message_id: str, emoji: str) -> Any:
        channel = self._channel_or_404(channel_id)
        needed = VIEW_CHANNEL | READ_MESSAGE_HISTORY | ADD_REACTIONS
        self._require(req, channel, needed, "adding a reaction")
        self._channel_message(channel_id, message_id)
        return None

    async def _unreact(self, req: Request, channel_id: str, message_id: str, emoji: str) -> Any:
        channel = self._channel_or_404(channel_id)
        self._require(req, channel, VIEW_CHANNEL, "removing a reaction")
        self._channel_message(channel_id, message_id)
        return None

    # guild -----------------------------------------------------------------------------------

    def _check_guild(self, guild_id: str, req: Request | None = None) -> int:
        if guild_id.isdigit() and int(guild_id) in self.world.foreign_guilds:
            self.violate(
                "not-a-member",
                f"guild {guild_id} was read, but the bot is not a member of it "
                f"(Discord answers 403 {MISSING_ACCESS} Missing Access)",
                req,
            )
            raise HttpError(403, MISSING_ACCESS, "Missing Access")
        if not guild_id.isdigit() or int(guild_id) not in self.world.guilds:
            raise HttpError(404, 10004, "Unknown Guild")
        return int(guild_id)

    async def _get_guild(self, req: Request, guild_id: str) -> Any:
        data = self.world.guild_payload(self._check_guild(guild_id, req))
        for key in ("members", "channels", "threads", "voice_states", "presences", "joined_at"):
            data.pop(key, None)
        return data

    async def _get_guild_channels(self, req: Request, guild_id: str) -> Any:
        guild = self._check_guild(guild_id, req)
        return [c.payload() for c in self.world.channels.values() if c.guild_id == guild]

    async def _list_members(self, req: Request, guild_id: str) -> Any:
        self._check_guild(guild_id, req)
        return [m.payload() for m in self.world.members.values()]

    async def _get_member(self, req: Request, guild_id: str, user_id: str) -> Any:
        self._check_guild(guild_id, req)
        member = self.world.members.get(int(user_id))
        if member is None:
            raise HttpError(404, 10007, "Unknown Member")
        return member.payload()

    async def _get_roles(self, req: Request, guild_id: str) -> Any:
        return [role.payload() for role in self.world.guild_roles(self._check_guild(guild_id, req))]

    # gateway -------------------------------------------------------------------------------

    def _session_for(self, guild_id: int | None) -> Session | None:
        """The newest live session that receives this guild's (or DM) events."""
        candidates = [
            s
            for s in self._sessions.values()
            if not s.invalidated and (guild_id is None or s.owns_guild(guild_id))
        ]
        if guild_id is None:
            candidates = [s for s in candidates if s.shard is None or s.shard[0] == 0]
        return max(candidates, key=lambda s: s.identify_number, default=None)

    async def _dispatch(self, session: Session, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH (op 0); sequence numbers go out in order, buffered for RESUME."""
        async with session.lock:
            await self._dispatch_locked(session, event, data)

    async def _dispatch_locked(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": 0, "t": event, "s": session.seq, "d": data}
        session.buffer.append(payload)
        conn = session.connection
        if conn is not None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await conn.send(payload)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if self.down and request.transport is not None:  # an outage: the connection breaks
            request.transport.abort()
        ws = web.WebSocketResponse(max_msg_size=0, autoclose=True)
        await ws.prepare(request)
        conn = Connection(ws, transport=request.transport)
        self._connections.add(conn)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._gateway_op(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            self._connections.discard(conn)
            if conn.session is not None and conn.session.connection is conn:
                conn.session.connection = None
            for _, waiter in conn.ping_waiters:
                if not waiter.done():
                    waiter.set_exception(ConnectionError("the gateway connection closed"))
            self.changed()
        return ws

    async def _gateway_op(self, conn: Connection, msg: dict[str, Any]) -> None:
        op, data = msg.get("op"), msg.get("d")
        if op == 1:
            conn.heartbeats += 1
            for number, waiter in conn.ping_waiters:
                if number <= conn.heartbeats and not waiter.done():
                    waiter.set_result(None)
            conn.ping_waiters = [(n, w) for n, w in conn.ping_waiters if not w.done()]
            await conn.send({"op": 11})
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 3:
            self.presence = data
        elif op == 8:
            await self._request_members(conn, data or {})
        elif op == 4:
            pass  # voice state: the fake has no voice
        else:
            self.violate("gateway-op", f"unexpected gateway op {op}")

    async def _identify(self, conn: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = tuple(data["shard"]) if data.get("shard") else None
        if shard is not None and not 0 <= shard[0] < shard[1]:
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        if self.shard_count > 1 and (shard is None or shard[1] < self.shard_count):
            await conn.ws.close(code=4011, message=b"Sharding required.")
            return
        self.identify_count += 1
        session = Session(
            id=secrets.token_hex(16),
            shard=shard,  # type: ignore[arg-type]
            intents=int(data.get("intents") or 0),
            identify_number=self.identify_count,
            connection=conn,
        )
        self._sessions[session.id] = session
        conn.session = session
        ready: dict[str, Any] = {
            "v": 10,
            "user": self.world.bot_user.payload(),
            "guilds": [
                {"id": str(guild_id), "unavailable": True}
                for guild_id in self.world.guilds
                if session.owns_guild(guild_id)
            ],
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "application": {
                "id": str(self.world.application_id),
                "flags": self.world.application_flags,
            },
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": ["local"],
            "session_type": "normal",
            "auth": {},
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await self._dispatch(session, "READY", ready)
        for guild_id in self.world.guilds:
            if session.owns_guild(guild_id):
                await self._dispatch(session, "GUILD_CREATE", self.world.guild_payload(guild_id))
        self.changed()

    async def _resume(self, conn: Connection, data: dict[str, Any]) -> None:
        session = self._sessions.get(data.get("session_id") or "")
        if session is None or session.invalidated or data.get("token") != self.token:
            await conn.send({"op": 9, "d": False})
            return
        old = session.connection
        if old is not None and old is not conn:
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        async with session.lock:
            session.connection = conn
            conn.session = session
            last = int(data.get("seq") or 0)
            for payload in list(session.buffer):
                if payload["s"] > last:
                    await conn.send(payload)
            self.resume_count += 1
            await self._dispatch_locked(session, "RESUMED", {})
        self.changed()

    async def _request_members(self, conn: Connection, data: dict[str, Any]) -> None:
        if conn.session is None:
            return
        members = list(self.world.members.values())
        if data.get("user_ids"):
            wanted = {int(u) for u in data["user_ids"]}
            members = [m for m in members if m.id in wanted]
        elif data.get("query"):
            members = [m for m in members if m.name.startswith(data["query"])]
        chunk: dict[str, Any] = {
            "guild_id": str(data.get("guild_id") or self.world.guild_id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    async def gateway_round_trip(self, session: Session, timeout: float = 5.0) -> None:
        """Ask the bot for a heartbeat and wait for it: proof its event loop ran since now.

        A connection that drops meanwhile is waited out: the round trip is redone once the bot
        has resumed.
        """
        for _ in range(3):
            await self.wait_for(
                lambda: session.connection is not None, timeout, "the bot to reconnect"
            )
            conn = session.connection
            assert conn is not None
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            # The bot answers each op 1 with one heartbeat, in order: ours is the next one
            # counted after every request already outstanding.
            conn.last_ping = max(conn.last_ping, conn.heartbeats) + 1
            conn.ping_waiters.append((conn.last_ping, waiter))
            await conn.send({"op": 1, "d": None})
            try:
                await asyncio.wait_for(waiter, timeout)
                return
            except ConnectionError:
                continue
            except TimeoutError:
                raise FakeDiscordError(self.explain_timeout("a heartbeat", timeout)) from None
        raise FakeDiscordError("the gateway connection kept dropping during a heartbeat")


def _check_choices(choices: list[dict[str, Any]]) -> list[rules.Problem]:
    problems: list[rules.Problem] = []
    if len(choices) > 25:
        problems.append(rules.Problem("autocomplete", "choices", "at most 25 choices"))
    for index, choice in enumerate(choices):
        name = choice.get("name") or ""
        if not 1 <= len(name) <= 100:
            problems.append(rules.Problem("autocomplete", f"choices.{index}.name", "1 to 100"))
        value = choice.get("value")
        if isinstance(value, str) and len(value) > 100:
            problems.append(rules.Problem("autocomplete", f"choices.{index}.value", "at most 100"))
    return problems
