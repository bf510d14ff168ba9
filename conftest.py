"""Root pytest configuration: the loopback fake Discord fixture for every test module, every
mode's record taught to the store (as the app does at import), and the engine's compiled kernels
in numba's disk cache before any bot starts."""

import pytest

import bot.modes.registry  # noqa: F401  # the store reads each mode's games through its record

pytest_plugins = ["tests.discord_fake.fixtures", "pytester"]


def pytest_sessionstart(session: pytest.Session) -> None:
    """A cold numba cache costs the first solver worker about 25 s of compiling, more than a bot
    fixture waits for the bot to be ready; compiled once here, every worker loads it in ~1 s."""
    from bot.engine import precompile

    precompile.main([])
