"""How the bot opens its store: the one place that picks an implementation of `Store`.

A `postgresql://` (or `postgres://`) URL opens PostgreSQL, which several bot processes may share
(shard clusters); anything else is a SQLite file, the default. No caller changes with the choice.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

from bot.store.interface import Store
from bot.store.postgres import PostgresStore, is_postgres_url
from bot.store.sqlite import BUSY_TIMEOUT_SECONDS, DEFAULT_PATH, SqliteStore


async def open_store(
    path: str | os.PathLike[str] = DEFAULT_PATH,
    *,
    clock: Callable[[], datetime] | None = None,
    busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    exclusive: bool = False,
) -> Store:
    """Open (and migrate) the database: a SQLite file path, or a PostgreSQL URL.

    `exclusive` (SQLite): this process is the bot, and no other bot process may use the file
    at the same time (it would answer every click twice). PostgreSQL is meant to be shared by
    several bot processes, each running its own shards; jobs that must run once take a lease
    (`bot.store.leases`).

    Raises StoreUnavailable, with one line naming the database and what to do, if it cannot be
    used. Close it with `await store.close()`, or use it as `async with await open_store(...)`.
    """
    if is_postgres_url(path):
        return await PostgresStore.open(str(path), clock=clock, busy_timeout=busy_timeout)
    return await SqliteStore.open(path, clock=clock, busy_timeout=busy_timeout, exclusive=exclusive)
