"""The implementations the store suite runs on, each as a `Backend`.

A `Backend` makes a fresh, empty database for one test, opens stores on it (several at once when
a test needs two connections, or again after a close), and reads its tables as an outside tool
would, for the tests that check what is really written (the games and moves tables: the record
codec's layout). A new implementation adds one Backend and one entry to `BACKENDS`, and the
interface suite runs on it unchanged.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Protocol

from bot.store import Store, open_store


class Backend(Protocol):
    """One empty database of one implementation, for one test."""

    async def open(self, *, clock: Callable[[], datetime] | None = None) -> Store:
        """A store on this database (the real clock unless one is given)."""
        ...

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        """Rows of a plain SQL query (`?` placeholders), outside any store."""
        ...


class SqliteBackend:
    def __init__(self, path: Path) -> None:
        self.path = path

    async def open(self, *, clock: Callable[[], datetime] | None = None) -> Store:
        return await open_store(self.path, clock=clock)

    def query(self, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
        with closing(sqlite3.connect(self.path)) as conn:
            return conn.execute(sql, params).fetchall()


BACKENDS: dict[str, Callable[[Path], Backend]] = {
    "sqlite": lambda tmp_path: SqliteBackend(tmp_path / "games.db"),
}
