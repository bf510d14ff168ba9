"""The store suite runs once per implementation of `Store` (see `backends`): the `backend`
fixture is parametrized over them, and `store` is a store opened on it with a test clock.
Modules named test_sqlite_* test what only the SQLite implementation has, test_postgres_* what
only PostgreSQL has."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store import Store
from tests.store.backends import BACKENDS, Backend
from tests.store.helpers import Clock
from tests.store.pg_fixtures import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]  # fixtures for every module of the suite


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Backend:
    return BACKENDS[request.param](request)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def store(backend: Backend, clock: Clock) -> AsyncIterator[Store]:
    async with await backend.open(clock=clock) as store:
        yield store
