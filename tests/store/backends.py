"""The implementations the store suite runs on, each as a `Backend`.

A `Backend` makes a fresh, empty database for one test, opens stores on it (several at once when
a test needs two connections, or again after a close), and reads its tables as an outside tool
would, for the tests that check what is really written (the games and moves tables: the record
codec's layout). A new implementation adds one Backend and one entry to `BACKENDS`, and the
interface suite runs on it unchanged.

"postgresql" runs on a real server the tests start themselves (`postgres_server.py`); without
the PostgreSQL binaries its tests are skipped, saying why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from typing import Protocol

import pytest

from bot.store import PostgresDialect, SqliteDialect, Store, open_store
from bot.store.dialect import Dialect
from tests.store import postgres_server


class Backend(Protocol):
    """One empty database of one implementation, for one test."""

    async def open(self, *, clock: Callable[[], datetime] | None = None) -> Store:
        """A store on this database (the real clock unless one is given)."""
        ...

    def dialect(self) -> Dialect:
        """This database's dialect, for a `SqlStore` a test builds itself."""
        ...

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Rows of a plain SQL query (`?` placeholders), outside any store: on SQLite another
        program's sqlite3 connection, on purpose (what is on disk, not what the store says)."""
        ...


class SqliteBackend:
    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.path = request.getfixturevalue("tmp_path") / "games.db"

    async def open(self, *, clock: Callable[[], datetime] | None = None) -> Store:
        return await open_store(self.path, clock=clock)

    def dialect(self) -> Dialect:
        return SqliteDialect(self.path)

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with closing(sqlite3.connect(self.path)) as conn:
            return conn.execute(sql, params).fetchall()


class PostgresBackend:
    def __init__(self, request: pytest.FixtureRequest) -> None:
        self.url: str = request.getfixturevalue("postgres_url")

    async def open(self, *, clock: Callable[[], datetime] | None = None) -> Store:
        return await open_store(self.url, clock=clock)

    def dialect(self) -> Dialect:
        return PostgresDialect(self.url)

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        return postgres_server.query(self.url, sql, params)


BACKENDS: dict[str, Callable[[pytest.FixtureRequest], Backend]] = {
    "sqlite": SqliteBackend,
    "postgresql": PostgresBackend,
}
