"""The Activity's live board: a WebSocket per page, fed by the store's commits.

The store tells every committed move and every new game at once (`Store.listen`, as it tells
the board keeper); the hub pushes the game, as each viewer of its channel sees it, to every
page watching that channel. Pushes for one channel go out in order from one task, the newest
version of a burst once. A page says hello with its session first (never in the URL: URLs reach
logs), gets the current game at once (also after a reconnect), and answers a ping every
PING_SECONDS; one that stays silent for two is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.engine.game import Game
from bot.interactions.activity import Viewer
from bot.interactions.context import Host
from bot.store import Applied
from bot.ui.i18n import Messages, messages
from bot.web import views
from bot.web.errors import refusal
from bot.web.sessions import Session, Sessions

log = logging.getLogger(__name__)

PING_SECONDS = 20.0
HELLO_SECONDS = 10.0
"""A page that has not said hello with a session by then is closed."""
SEND_SECONDS = 5.0
"""A page that takes longer than this to take one push is closed (it reconnects)."""
MOST_MESSAGE_BYTES = 4096
MOST_REFUSALS = 20
"""A page that sends this many messages it should not is closed (a page never does)."""


@dataclass(eq=False)
class Watcher:
    """One connected page: its socket, who watches and in which language, and which game
    it was last shown."""

    socket: web.WebSocketResponse
    session: Session
    t: Messages
    watched: int | None = None
    answered: bool = True
    """Whether the page answered the last ping (or has had none yet)."""
    shown_version: dict[int, int] = field(default_factory=dict)

    @property
    def viewer(self) -> Viewer:
        return self.session.viewer


class Hub:
    """Every page watching, by channel; fed by the store."""

    def __init__(self, bot: Host, sessions: Sessions, looks: views.Looks) -> None:
        self.bot, self.sessions, self.looks = bot, sessions, looks
        self._rooms: dict[int, set[Watcher]] = {}
        self._pending: dict[int, dict[int, Game]] = {}
        self._pushing: dict[int, asyncio.Task[None]] = {}
        self._closed = False
        self.ping_seconds = PING_SECONDS
        self.delivered = 0
        """Pushes delivered (for the benchmark)."""
        self.on_delivered: Callable[[int, int], None] | None = None
        """Told (game id, version) after each push reached a page (the benchmark's clock)."""

    async def start(self) -> None:
        """Hear of every game committed, by this process or (PostgreSQL) another one."""
        await self.bot.store.listen_everywhere(self.committed)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._pushing.values()):
            task.cancel()
        for room in list(self._rooms.values()):
            for watcher in list(room):
                with contextlib.suppress(Exception):
                    await watcher.socket.close()

    @property
    def watchers(self) -> int:
        return sum(len(room) for room in self._rooms.values())

    # --- commits ---------------------------------------------------------------------------

    def committed(self, applied: Applied[Any]) -> None:
        """A game changed (the store says so as it commits): its channel's pages are told."""
        game = applied.game
        if self._closed or game.id is None or game.channel_id not in self._rooms:
            return
        pending = self._pending.setdefault(game.channel_id, {})
        held = pending.get(game.id)
        if held is None or held.version < game.version:
            pending[game.id] = game
        if game.channel_id not in self._pushing:
            self._pushing[game.channel_id] = asyncio.get_running_loop().create_task(
                self._push_channel(game.channel_id), name=f"activity-{game.channel_id}"
            )

    async def _push_channel(self, channel_id: int) -> None:
        try:
            while pending := self._pending.pop(channel_id, None):
                for game in sorted(pending.values(), key=lambda g: g.id or 0):
                    await self._push(channel_id, game)
        except Exception:
            log.exception("pushing channel %s's game to its Activity pages failed", channel_id)
        finally:
            self._pushing.pop(channel_id, None)

    async def _push(self, channel_id: int, game: Game) -> None:
        """`game` to every page of the channel it concerns, as each sees it: drawn and encoded
        once per audience (`WebMode.audience`), sent one page after another (a send only
        waits when a page's buffer is full, and then at most SEND_SECONDS)."""
        encoded: dict[Hashable, str] = {}
        for watcher in list(self._rooms.get(channel_id, ())):
            if not self._concerns(watcher, game):
                continue
            key = views.audience_of(self.bot, game, watcher.viewer, watcher.t)
            text = encoded.get(key)
            if text is None:
                view = views.view_of(self.bot, self.looks, game, watcher.viewer, watcher.t)
                text = encoded[key] = json.dumps({"type": "game", "game": view})
            watcher.watched = game.id
            await self._send(watcher, text, game)

    def _concerns(self, watcher: Watcher, game: Game) -> bool:
        """Whether a page is shown `game`: a newer version than it has, of the game it watches,
        or of a game for the whole channel (a new one replacing what it watched)."""
        assert game.id is not None
        if watcher.shown_version.get(game.id, -1) >= game.version:
            return False
        if watcher.viewer.guild_id != game.guild_id:
            return False
        if watcher.watched == game.id or watcher.watched is None:
            return True
        return not views.private_to_others(self.bot, game, watcher.viewer)

    async def _send(self, watcher: Watcher, text: str, game: Game | None) -> None:
        try:
            async with asyncio.timeout(SEND_SECONDS):
                await watcher.socket.send_str(text)
        except (TimeoutError, ConnectionError, RuntimeError):
            await watcher.socket.close()
            return
        if game is not None and game.id is not None:
            watcher.shown_version[game.id] = game.version
            self.delivered += 1
            if self.on_delivered is not None:
                self.on_delivered(game.id, game.version)

    # --- pages -----------------------------------------------------------------------------

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        """`GET /api/live`: one page's socket, from its hello to its close."""
        socket = web.WebSocketResponse(max_msg_size=MOST_MESSAGE_BYTES, heartbeat=None)
        await socket.prepare(request)
        watcher = await self._hello(socket)
        if watcher is None:
            await socket.close()
            return socket
        channel = watcher.viewer.channel_id
        self._rooms.setdefault(channel, set()).add(watcher)
        pinging = asyncio.get_running_loop().create_task(self._ping(watcher), name="activity-ping")
        try:
            await self._show_current(watcher)
            await self._presence(channel)
            await self._listen(watcher)
        finally:
            pinging.cancel()
            room = self._rooms.get(channel)
            if room is not None:
                room.discard(watcher)
                if not room:
                    del self._rooms[channel]
            if not self._closed:
                await self._presence(channel)
        return socket

    async def _hello(self, socket: web.WebSocketResponse) -> Watcher | None:
        """The first message must be `{"type": "hello", "session": ...}` of a live session."""
        t = messages(None)
        try:
            first = await socket.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            return None
        said = _parsed(first.data) if first.type is WSMsgType.TEXT else None
        if said is None or said.get("type") != "hello":
            await self._refuse(socket, "bad_request", t)
            return None
        session = self.sessions.get(said.get("session"))
        if session is None:
            await self._refuse(socket, "bad_session", t)
            return None
        watcher = Watcher(socket, session, messages(session.language))
        self.looks.learn(session.viewer.user_id, session.name, session.avatar_url)
        return watcher

    async def _refuse(self, socket: web.WebSocketResponse, code: str, t: Messages) -> None:
        _, body = refusal(code, 400, t)
        with contextlib.suppress(Exception):
            await socket.send_str(json.dumps({"type": "error", **body}))

    async def _show_current(self, watcher: Watcher) -> None:
        game = await views.current(self.bot, watcher.viewer)
        if game is None:
            await self._send(watcher, '{"type": "game", "game": null}', None)
            return
        watcher.watched = game.id
        view = views.view_of(self.bot, self.looks, game, watcher.viewer, watcher.t)
        await self._send(watcher, json.dumps({"type": "game", "game": view}), game)

    async def _listen(self, watcher: Watcher) -> None:
        """Until the page goes: pongs, and a repeated hello (the page asks for the current
        game again); anything else is answered with an error and otherwise ignored."""
        refused = 0
        async for message in watcher.socket:
            if refused >= MOST_REFUSALS:
                break
            if message.type is not WSMsgType.TEXT:
                if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.ERROR):
                    break
                await self._refuse(watcher.socket, "bad_request", watcher.t)
                refused += 1
                continue
            said = _parsed(message.data)
            kind = said.get("type") if said is not None else None
            if kind == "pong":
                watcher.answered = True
            elif kind == "hello" and said is not None and said.get("session") is not None:
                if self.sessions.get(said.get("session")) is not watcher.session:
                    await self._refuse(watcher.socket, "bad_session", watcher.t)
                    break
                watcher.shown_version.clear()
                await self._show_current(watcher)
            else:
                await self._refuse(watcher.socket, "bad_request", watcher.t)
                refused += 1

    async def _ping(self, watcher: Watcher) -> None:
        """A ping every `ping_seconds`; a page that has not answered the last one by the next
        is closed (it reconnects, if it is still there)."""
        while not watcher.socket.closed:
            await asyncio.sleep(self.ping_seconds)
            if not watcher.answered:
                await watcher.socket.close()
                return
            watcher.answered = False
            await self._send_raw(watcher, '{"type": "ping"}')

    async def _presence(self, channel_id: int) -> None:
        """Who is watching the channel's board now, to every page of it."""
        room = self._rooms.get(channel_id)
        if not room:
            return
        message = json.dumps({"type": "presence", "presence": self.presence(channel_id)})
        await asyncio.gather(
            *(self._send_raw(w, message) for w in list(room)), return_exceptions=True
        )

    async def _send_raw(self, watcher: Watcher, message: str) -> None:
        try:
            await asyncio.wait_for(watcher.socket.send_str(message), SEND_SECONDS)
        except (TimeoutError, ConnectionError, RuntimeError):
            await watcher.socket.close()

    def presence(self, channel_id: int) -> list[dict[str, Any]]:
        """Everyone with a page open on the channel's board, once each."""
        seen: dict[int, dict[str, Any]] = {}
        for watcher in self._rooms.get(channel_id, ()):
            user = watcher.viewer.user_id
            seen.setdefault(user, self.looks.of(user))
        return list(seen.values())


def _parsed(data: object) -> dict[str, Any] | None:
    """A client message as a JSON object, or None."""
    if not isinstance(data, str) or len(data) > MOST_MESSAGE_BYTES:
        return None
    try:
        said = json.loads(data)
    except ValueError:
        return None
    return said if isinstance(said, dict) else None
