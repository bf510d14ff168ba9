"""The Activity's web server, a service the bot owns: started in the bot's event loop once it
knows its application id, closed (pages first) when the bot closes.

Every answer carries a strict Content-Security-Policy (no inline script; images also from
Discord's CDN, the avatars), is never cached when it is the API's, and nothing per request is
logged (URLs and bodies stay out of the log)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from aiohttp import web

from bot.failures import ServiceUnavailable
from bot.interactions.context import Host
from bot.web.api import MOST_BODY_BYTES, Api
from bot.web.discord_api import DiscordApi
from bot.web.live import Hub
from bot.web.sessions import Sessions
from bot.web.views import Looks

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
"""The page: plain HTML, CSS and ES modules, the SDK vendored (no build step)."""
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' "
    "https://cdn.discordapp.com data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)
"""The Content-Security-Policy of every answer."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every answer's headers; a route nobody serves is a plain 404 (no server's words)."""
    try:
        response = await handler(request)
    except web.HTTPException as refused:
        response = web.json_response(
            {"error": "not_found", "message": refused.reason}, status=refused.status
        )
    response.headers["Content-Security-Policy"] = POLICY
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    if request.path.startswith("/api/"):
        response.headers["Cache-Control"] = "no-store"
    return response


async def _index(request: web.Request) -> web.StreamResponse:
    page = STATIC / "index.html"
    if not page.is_file():
        raise web.HTTPNotFound()
    return web.FileResponse(page)


class ActivityServer:
    """The Activity's aiohttp server in the bot's event loop."""

    def __init__(self, bot: Host) -> None:
        settings = bot.settings
        assert settings.activity_port is not None and settings.client_secret is not None
        self.bot = bot
        self.host, self.port = settings.activity_host, settings.activity_port
        self.sessions = Sessions()
        self.looks = Looks(bot)
        self.hub = Hub(bot, self.sessions, self.looks)
        self.discord = DiscordApi(bot.http, bot.application_id or 0, settings.client_secret)
        self.api = Api(bot, self.discord, self.sessions, self.looks, self.hub)
        self._runner: web.AppRunner | None = None

    def application(self) -> web.Application:
        app = web.Application(middlewares=[_guarded], client_max_size=MOST_BODY_BYTES)
        app.add_routes(self.api.routes())
        app.router.add_get("/", _index)
        if STATIC.is_dir():
            app.router.add_static("/static/", STATIC, follow_symlinks=False)
        return app

    async def start(self) -> None:
        """Listen on ACTIVITY_HOST:ACTIVITY_PORT; ServiceUnavailable (one line) if it cannot."""
        await self.hub.start()
        self._runner = web.AppRunner(self.application(), access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        try:
            await site.start()
        except OSError as error:
            await self._runner.cleanup()
            self._runner = None
            raise ServiceUnavailable(
                f"cannot serve the Activity on {self.host}:{self.port} (ACTIVITY_PORT, "
                f"ACTIVITY_HOST): {error.strerror or error}; give it a free port, or leave "
                "ACTIVITY_PORT empty."
            ) from None
        log.info("the Activity listens on http://%s:%d", self.host, self.port)

    async def close(self) -> None:
        """Close every page's socket, then the server and the sign-in's client."""
        await self.hub.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        await self.discord.close()
