"""The real bot with its Activity on, in-process, against the fake Discord (with Activities)
and a real database file; a page's side is an aiohttp client on loopback."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import MastermindBot
from bot.config import Settings
from tests.discord_fake import FakeDiscord


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mastermind.db"


@pytest.fixture
def activity_port() -> int:
    return free_port()


@pytest.fixture
async def bot(
    fake_discord: FakeDiscord, db_path: Path, activity_port: int
) -> AsyncIterator[MastermindBot]:
    settings = Settings(
        token=fake_discord.token,
        database_path=db_path,
        activity_port=activity_port,
        client_secret=fake_discord.client_secret,
    )
    async with fake_discord.run_in_process(
        lambda: MastermindBot(settings), timeout=30.0, commands=True
    ) as running:
        fake_discord.enable_activities()
        yield running


@dataclass
class Page:
    """What the Activity's page does over HTTP, as one signed-in player."""

    http: aiohttp.ClientSession
    base: str
    session: str = ""
    signed_in: dict[str, Any] | None = None

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.session}"}

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        async with self.http.request(
            method, self.base + path, json=body, headers=self.headers()
        ) as response:
            return response.status, await response.json()

    async def game(self) -> dict[str, Any] | None:
        status, body = await self.call("GET", "/api/game")
        assert status == 200, body
        return body["game"]

    async def act(
        self, game: dict[str, Any], action: str, nonce: str, **args: Any
    ) -> tuple[int, Any]:
        return await self.call(
            "POST",
            "/api/action",
            {
                "game_id": game["game_id"],
                "version": game["version"],
                "action": action,
                "args": args,
                "nonce": nonce,
            },
        )

    def live(self) -> Any:
        return self.http.ws_connect(self.base + "/api/live")


@pytest.fixture
async def pages(bot: MastermindBot, activity_port: int) -> AsyncIterator[Any]:
    """`await pages(user, instance)`: a page signed in as `user` in the Activity `instance`."""
    async with aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{activity_port}"

        async def sign_in(fake: FakeDiscord, user: str, instance_id: str) -> Page:
            page = Page(http, base)
            status, body = await page.call(
                "POST",
                "/api/session",
                {"code": fake.oauth_code(user), "instance_id": instance_id},
            )
            assert status == 200, body
            page.session, page.signed_in = body["session"], body
            return page

        yield sign_in
