"""The browser tests: the real bot with its Activity on (the fixtures of tests/web), Debian's
chromium through Playwright, and a parent page playing the Discord client."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Browser, async_playwright

from tests.browser.harness import FLAGS, DiscordClients, chromium_path
from tests.discord_fake import FakeDiscord
from tests.web.conftest import activity_port, bot, db_path  # noqa: F401  the bot, Activity on


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here that opens chromium carries the `browser` marker (this hook sees the
    whole session's items, so it picks this folder's by path)."""
    for item in items:
        if "tests/browser/" in item.nodeid and "test_page_files" not in item.nodeid:
            item.add_marker(pytest.mark.browser)


@pytest.fixture
async def chromium() -> AsyncIterator[Browser]:
    path = chromium_path()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()


@pytest.fixture
async def discord_clients(
    fake_discord: FakeDiscord,
    bot,  # noqa: F811  (the fixtures imported above, by name)
    activity_port: int,  # noqa: F811
    chromium: Browser,
) -> AsyncIterator[DiscordClients]:
    """`await discord_clients.open(user, instance)`: `user`'s Discord window, Activity open."""
    clients = DiscordClients(fake_discord, chromium, f"http://127.0.0.1:{activity_port}")
    try:
        yield clients
    finally:
        drift = await clients.close()
    assert not drift, drift
