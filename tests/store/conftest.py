"""The store suite runs once per implementation of `Store` (see `backends`): the `backend`
fixture is parametrized over them, and `store` is a store opened on it with a test clock.
Modules named test_sqlite_* test what only the SQLite implementation has."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from tests.store.backends import BACKENDS, Backend
from tests.store.helpers import Clock


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return BACKENDS[request.param](tmp_path)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(backend: Backend, clock: Clock) -> AsyncIterator[Store]:
    async with await backend.open(clock=clock) as store:
        yield store
