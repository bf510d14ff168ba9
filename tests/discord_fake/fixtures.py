"""pytest plugin: the `fake_discord` fixture. Enable it in a test module with

pytest_plugins = ["tests.discord_fake.fixtures"]
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord_fake.driver import FakeDiscord


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord; on teardown stops bots and fails on any recorded violation."""
    fake = FakeDiscord()
    await fake.start()
    try:
        yield fake
    finally:
        await fake.close()
    fake.assert_no_violations()
