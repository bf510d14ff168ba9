"""The Activity's JSON API (the contract in docs/activity.md): sign-in, the page's words, the
channel's game, and actions. Every answer is JSON; every refusal is `{"error", "message"}` in
the player's language. Who acts and where comes from the server's session only."""

from __future__ import annotations

import base64
import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from bot.engine.actor import Actor
from bot.engine.errors import NotHere
from bot.interactions.activity import Acted, Viewer
from bot.interactions.context import Host
from bot.ui.i18n import Messages, messages
from bot.web import views
from bot.web.discord_api import DiscordApi, DiscordRefused
from bot.web.errors import Refused, explained
from bot.web.live import Hub
from bot.web.sessions import Session, Sessions
from bot.web.strings import page_words

NONCE = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""A move's nonce, which makes its source: random, URL-safe, bounded."""
DISCORD_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
"""An instance id or a code as Discord gives them: short, plain characters."""
MOST_BODY_BYTES = 4096
ACTIONS_PER_WINDOW, WINDOW_SECONDS = 20, 10.0
"""A player's moves from the page: at most this many per window (a page clicks, never floods)."""
SIGN_INS_AT_ONCE = 16
"""Sign-ins asking Discord at the same moment; one more is `too_many` at once (each asks
Discord three questions: nobody makes the bot flood Discord)."""


@dataclass
class Api:
    """The handlers, sharing the bot, Discord's sign-in calls, the sessions and the hub."""

    bot: Host
    discord: DiscordApi
    sessions: Sessions
    looks: views.Looks
    hub: Hub

    def __post_init__(self) -> None:
        self._recent: dict[int, list[float]] = {}
        self._signing_in = 0
        self.most_actions = ACTIONS_PER_WINDOW
        """A player's moves per WINDOW_SECONDS (the web fuzz lifts it)."""

    def routes(self) -> list[web.RouteDef]:
        return [
            web.get("/api/config", self.config),
            web.post("/api/session", self.session),
            web.get("/api/strings", self.strings),
            web.get("/api/game", self.game),
            web.post("/api/action", self.action),
            web.get("/api/live", self.hub.serve),
        ]

    # --- handlers --------------------------------------------------------------------------

    async def config(self, request: web.Request) -> web.Response:
        """What the page needs before sign-in: the application's id (public)."""
        return _json({"client_id": str(self.bot.application_id or "")})

    async def session(self, request: web.Request) -> web.Response:
        """Sign in: the code exchanged with Discord (client secret), who it is, and where the
        instance is and whether they are in it (bot token); a session for the page."""
        t = _language(request)
        try:
            body = await _body(request)
            code, instance_id = body.get("code"), body.get("instance_id")
            if not _plain(code, 256) or not _plain(instance_id, 64):
                raise Refused("bad_request")
            assert isinstance(code, str) and isinstance(instance_id, str)
            if self._signing_in >= SIGN_INS_AT_ONCE:
                raise Refused("too_many", 429)
            self._signing_in += 1
            try:
                token = await self.discord.exchange(code)
                player = await self.discord.me(token)
                instance = await self.discord.instance(instance_id)
            finally:
                self._signing_in -= 1
            if player.user_id not in instance.users:
                raise Refused("not_in_instance", 403)
        except DiscordRefused as refused:
            status = 403 if refused.code == "not_in_instance" else 502
            status = 401 if refused.code == "bad_code" else status
            return self._refused(Refused(refused.code, status), t)
        except Exception as error:
            return self._refused(error, t)
        viewer = Viewer(player.user_id, instance.guild_id, instance.channel_id)
        language = messages(player.locale).language
        session = self.sessions.open(
            viewer, player.name, player.avatar_url, language, instance.instance_id
        )
        self.looks.learn(player.user_id, player.name, player.avatar_url)
        return _json(
            {
                "session": session,
                "access_token": token,
                "user": {
                    "id": str(player.user_id),
                    "name": player.name,
                    "avatar_url": player.avatar_url,
                },
                "channel_id": str(instance.channel_id),
                "guild_id": None if instance.guild_id is None else str(instance.guild_id),
                "locale": language,
            }
        )

    async def strings(self, request: web.Request) -> web.Response:
        """The page's own labels in the session's language."""
        try:
            session = self._signed_in(request)
        except Refused as refused:
            return self._refused(refused, _language(request))
        own = (spec.web.words for spec in self.bot.modes() if spec.web is not None)
        return _json(page_words(messages(session.language), own))

    async def game(self, request: web.Request) -> web.Response:
        """The game the session's viewer sees, and who is watching the channel's board."""
        t = _language(request)
        try:
            session = self._signed_in(request)
            t = messages(session.language)
            viewer = session.viewer
            game = await views.current(self.bot, viewer)
        except Exception as error:
            return self._refused(error, t)
        view = None if game is None else views.view_of(self.bot, self.looks, game, viewer, t)
        return _json({"game": view, "presence": self.hub.presence(viewer.channel_id)})

    async def action(self, request: web.Request) -> web.Response:
        """One move: the mode's own action, by the session's player in the session's channel,
        on the version the page showed, stored once per nonce."""
        t = _language(request)
        try:
            session = self._signed_in(request)
            t = messages(session.language)
            body = await _body(request)
            game_id, version = body.get("game_id"), body.get("version")
            name, args, nonce = body.get("action"), body.get("args", {}), body.get("nonce")
            if not (_whole(game_id) and _whole(version) and isinstance(args, dict)):
                raise Refused("bad_request")
            if not isinstance(name, str) or not isinstance(nonce, str):
                raise Refused("bad_request")
            if not NONCE.fullmatch(nonce) or len(name) > 32:
                raise Refused("bad_request")
            assert isinstance(game_id, int) and isinstance(version, int)
            self._pace(session)
            acted_view, acted = await self._act(session, game_id, version, name, args, nonce, t)
        except Exception as error:
            return self._refused(error, t)
        picture = None
        if acted.picture is not None:
            picture = "data:image/png;base64," + base64.b64encode(acted.picture).decode()
        return _json({"game": acted_view, "note": acted.note, "picture": picture})

    async def _act(
        self,
        session: Session,
        game_id: int,
        version: int,
        name: str,
        args: Mapping[str, Any],
        nonce: str,
        t: Messages,
    ) -> tuple[dict[str, Any], Acted]:
        viewer = session.viewer
        game = await self.bot.store.game(game_id)
        if game is None:
            raise Refused("unknown_game", 404)
        if not views.visible(self.bot, game, viewer):
            raise NotHere()
        spec = self.bot.kind_of(game)
        if spec.web is None:
            raise Refused("not_on_activity", 409)
        act = spec.web.actions.get(name)
        if act is None:
            raise Refused("unknown_action", 400)
        actor = Actor(
            user_id=viewer.user_id,
            guild_id=viewer.guild_id,
            channel_id=viewer.channel_id,
            source=f"web:{viewer.user_id}:{nonce}",
            version=version,
        )
        acted = await act(self.bot, game, actor, args, t)
        return views.view_of(self.bot, self.looks, acted.game, viewer, t), acted

    # --- shared ----------------------------------------------------------------------------

    def _signed_in(self, request: web.Request) -> Session:
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        session = self.sessions.get(token.strip()) if scheme == "Bearer" else None
        if session is None:
            raise Refused("bad_session", 401)
        return session

    def _pace(self, session: Session) -> None:
        """Refuse a player's move past ACTIONS_PER_WINDOW in WINDOW_SECONDS (`too_many`)."""
        now = time.monotonic()
        user = session.viewer.user_id
        recent = [at for at in self._recent.get(user, ()) if at > now - WINDOW_SECONDS]
        if len(recent) >= self.most_actions:
            self._recent[user] = recent
            raise Refused("too_many", 429)
        recent.append(now)
        self._recent[user] = recent
        if len(self._recent) > 10_000:  # forget the idle
            self._recent = {
                u: r for u, r in self._recent.items() if r and r[-1] > now - WINDOW_SECONDS
            }

    def _refused(self, error: BaseException, t: Messages) -> web.Response:
        status, body = explained(error, t, lambda: self.bot.words_for)
        return _json(body, status=status)


def _json(body: Any, status: int = 200) -> web.Response:
    return web.Response(
        text=json.dumps(body), status=status, content_type="application/json", charset="utf-8"
    )


def _language(request: web.Request) -> Messages:
    """Before a session says whose it is: English (the page's own words come after sign-in)."""
    return messages(None)


def _whole(value: object) -> bool:
    return type(value) is int and 0 <= value < 2**63


def _plain(value: object, most: int) -> bool:
    return isinstance(value, str) and len(value) <= most and DISCORD_ID.fullmatch(value) is not None


async def _body(request: web.Request) -> dict[str, Any]:
    """The request's JSON object (bounded), or Refused(bad_request)."""
    if request.content_length is not None and request.content_length > MOST_BODY_BYTES:
        raise Refused("bad_request", 413)
    raw = await request.content.read(MOST_BODY_BYTES + 1)
    if len(raw) > MOST_BODY_BYTES:
        raise Refused("bad_request", 413)
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Refused("bad_request") from None
    if not isinstance(body, dict):
        raise Refused("bad_request")
    return body
