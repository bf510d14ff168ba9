"""The browser harness: Debian's chromium driven by Playwright, the Activity's page in an iframe
of a test parent page that plays the Discord client (discord_client.html/.js).

The parent is served by Playwright's router at https://discord.com/activities/..., the origin
the real client has (the SDK accepts messages only from Discord's origins and checks every
message's shape), and frames the bot's own web server on loopback with the query Discord adds
(frame_id, instance_id, platform, channel_id, guild_id). Codes and tokens come from the fake
Discord, as the real client gets them from Discord after the user authorizes.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import struct
import uuid
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.async_api import Browser, BrowserContext, ConsoleMessage, FrameLocator, Page, Route

from tests.discord_fake import FakeDiscord
from tests.discord_fake.activities import FakeActivityInstance

HERE = Path(__file__).resolve().parent
PARENT = "https://discord.com/activities/"
CDN = "https://cdn.discordapp.com/"


def _png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x58\x65\xf2\xff")
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    )


AVATAR = _png()
"""A 1x1 PNG: Discord's CDN as the tests' browser sees it (the machine has no internet)."""
FLAGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    # Discord's page frames a public host; here the Activity is on loopback, which Chrome's
    # Local Network Access checks would hold back from a public page.
    "--disable-features=LocalNetworkAccessChecks",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 412, "height": 915}


def chromium_path() -> str:
    """Debian's chromium (apt); CI installs it, so CI never skips the browser tests."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI"):
        pytest.fail("no chromium: .ci/run installs it with apt-get (apt-get install chromium)")
    pytest.skip("no chromium on this machine (apt-get install chromium)")


@dataclass
class Player:
    """One user's Discord window with the Activity open in it."""

    user: str
    page: Page
    context: BrowserContext
    touch: bool = False
    """A phone: buttons are tapped, not clicked."""
    problems: list[str] = field(default_factory=list)

    @property
    def app(self) -> FrameLocator:
        return self.page.frame_locator("#activity")

    @property
    def frame(self) -> Any:
        frame = self.page.frames[1] if len(self.page.frames) > 1 else None
        assert frame is not None, "the Activity's frame is not there"
        return frame

    async def ready(self) -> None:
        await self.app.locator("body[data-ready]").wait_for(state="attached", timeout=20_000)

    async def signed_in(self) -> None:
        await self.app.locator('body[data-ready="true"]').wait_for(state="attached", timeout=20_000)

    def rows(self) -> Any:
        return self.app.locator("#game .rows .row")

    async def row_codes(self) -> list[str]:
        return [
            "".join(await row.locator(".pegs .peg").all_inner_texts())
            for row in await self.rows().all()
        ]

    async def wait_rows(self, count: int) -> None:
        await self.app.locator(f"#game .rows .row[data-row='{count}']").wait_for(timeout=20_000)

    async def press(self, selector: str) -> None:
        """Tap a button on a phone, click it elsewhere."""
        button = self.app.locator(selector)
        await (button.tap() if self.touch else button.click())

    async def pick(self, code: str) -> None:
        """The palette: one button per digit (0 is the tenth colour)."""
        for peg in code:
            await self.press(f"button[data-pick='{10 if peg == '0' else int(peg)}']")

    async def guess(self, code: str) -> None:
        rows = await self.rows().count()
        await self.pick(code)
        await self.press("button[data-submit='guess']")
        await self.wait_rows(rows + 1)

    async def text(self, selector: str) -> str:
        return str(await self.app.locator(selector).inner_text())

    def unexpected(self, *expected: str) -> list[str]:
        """The problems seen but those expected (a refused call logs its status as an error)."""
        return [p for p in self.problems if not any(e in p for e in expected)]

    async def notice(self) -> str:
        box = self.app.locator("#notice")
        await box.wait_for(state="visible", timeout=20_000)
        return str(await box.inner_text())

    async def drift(self) -> list[str]:
        return list(await self.page.evaluate("window.__drift"))

    async def commands(self) -> list[str]:
        return list(await self.page.evaluate("window.__commands"))


class DiscordClients:
    """Opens the Activity for users of the fake Discord, each in a browser context of its own."""

    def __init__(self, fake: FakeDiscord, browser: Browser, base: str) -> None:
        self.fake = fake
        self.browser = browser
        self.base = base
        self.players: list[Player] = []
        self.avatars: list[str] = []

    async def open(
        self,
        user: str,
        instance: FakeActivityInstance,
        *,
        viewport: dict[str, int] | None = None,
        platform: str = "desktop",
        wait: bool = True,
        reduced_motion: str = "reduce",
    ) -> Player:
        mobile = platform == "mobile"
        context = await self.browser.new_context(
            viewport=viewport or (PHONE if mobile else DESKTOP),
            has_touch=mobile,
            is_mobile=mobile,
            reduced_motion=reduced_motion,  # type: ignore[arg-type]
        )
        page = await context.new_page()
        player = Player(user, page, context, touch=mobile)
        page.on("console", lambda message: self._console(player, message))
        page.on("pageerror", lambda error: player.problems.append(f"page error: {error}"))
        await page.route(f"{PARENT}**", self._serve_parent)
        await context.route(f"{CDN}**", self._serve_avatar)
        await page.expose_function("discordMintCode", lambda who: self.fake.oauth_code(who))
        await page.expose_function("discordWhoIs", self._who_is)
        frame_id = str(uuid.uuid4())
        location = instance.payload(self.fake.application_id)["location"]
        query: dict[str, str] = {
            "frame_id": frame_id,
            "instance_id": instance.instance_id,
            "platform": platform,
            "channel_id": str(location["channel_id"]),
        }
        if location.get("guild_id"):
            query["guild_id"] = str(location["guild_id"])
        src = f"{self.base}/?{urlencode(query)}"
        parent = urlencode(
            {"app": str(self.fake.application_id), "frame": frame_id, "user": user, "src": src}
        )
        await page.goto(f"{PARENT}discord_client.html?{parent}")
        self.players.append(player)
        if wait:
            await player.signed_in()
        return player

    def _who_is(self, token: str) -> dict[str, Any] | None:
        try:
            return self.fake.activity_side.bearer_user(f"Bearer {token}")
        except Exception:
            return None

    @staticmethod
    def _console(player: Player, message: ConsoleMessage) -> None:
        # A CSP refusal, a script error, a failed load: each is a problem the test fails on.
        # (A refused API call logs "Failed to load resource" with its status; the tests that
        # expect one say so.)
        if message.type == "error":
            player.problems.append(f"console: {message.text}")

    @staticmethod
    async def _serve_parent(route: Route) -> None:
        name = route.request.url.split("?", 1)[0].rsplit("/", 1)[-1]
        path = HERE / name
        if name not in {"discord_client.html", "discord_client.js"}:
            await route.fulfill(status=404, body="")
            return
        kind = "text/html" if name.endswith(".html") else "text/javascript"
        await route.fulfill(path=path, content_type=kind)

    def _serve_avatar(self, route: Route) -> Any:
        self.avatars.append(route.request.url)
        return route.fulfill(body=AVATAR, content_type="image/png")

    async def close(self) -> list[str]:
        """Close every window; the drift each parent saw, as problems."""
        found: list[str] = []
        for player in self.players:
            with contextlib.suppress(Exception):  # a window that never opened its parent
                found += [f"{player.user}: drift: {d}" for d in await player.drift()]
            await player.context.close()
        return found
