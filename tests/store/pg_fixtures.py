"""pytest plugin: `postgres_server`, one real PostgreSQL server for the whole session, and
`postgres_url`, a fresh empty database on it for one test.

The store suite's conftest imports these; another test module enables them with
`pytest_plugins = ["tests.store.pg_fixtures"]`. However many modules share it, one server runs.
Without the PostgreSQL binaries every test that asks for it is skipped, saying why; under CI
(CI set), where `.ci/run` installs them, it fails instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.store.postgres_server import PostgresServer, PostgresUnavailable

_server: PostgresServer | None = None
_failure: str | None = None
_users = 0


def _acquire() -> PostgresServer:
    global _server, _failure, _users
    if _failure is not None:
        if os.environ.get("CI"):
            pytest.fail(_failure)
        pytest.skip(_failure)
    if _server is None:
        server: PostgresServer | None = None
        try:
            server = PostgresServer()
            server.start()
        except PostgresUnavailable as error:
            if server is not None:
                server.stop()
            _failure = f"PostgreSQL tests skipped: {error}"
            if os.environ.get("CI"):  # CI installs PostgreSQL (.ci/run): never skip there
                pytest.fail(f"PostgreSQL is required in CI: {error}")
            pytest.skip(_failure)
        _server = server
    _users += 1
    return _server


def _release() -> None:
    global _server, _users
    _users -= 1
    if _users == 0 and _server is not None:
        _server.stop()
        _server = None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    server = _acquire()
    try:
        yield server
    finally:
        _release()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)
