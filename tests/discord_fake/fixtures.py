"""pytest plugin: the `fake_discord` fixture. Enable it in a test module with

pytest_plugins = ["tests.discord_fake.fixtures"]

The fake enforces Discord's rate limits (limits.py); a test that needs a fake without them
says so with `@pytest.mark.unlimited_discord` (and says why in its docstring).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord_fake import limits
from tests.discord_fake.driver import FakeDiscord

UNLIMITED = "unlimited_discord"
"""The marker of a test whose fake Discord has no rate limits."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", f"{UNLIMITED}: the fake_discord fixture enforces no rate limit (say why)"
    )


def rate_limits_for(node: pytest.Item) -> limits.Limits | None:
    """Discord's limits, or None for a test marked `unlimited_discord`."""
    return None if node.get_closest_marker(UNLIMITED) else limits.DISCORD


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord; on teardown stops bots and fails on any recorded violation."""
    fake = FakeDiscord(rate_limits=rate_limits_for(request.node))
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()
    fake.assert_no_violations()
