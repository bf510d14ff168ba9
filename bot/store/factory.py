"""How the bot opens its store: the one place that picks a dialect for the one SQL store.

A `postgresql://` (or `postgres://`) URL opens PostgreSQL, which several bot processes may share
(shard clusters); anything else is a SQLite file, the default. No caller changes with the choice.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

from bot.store.interface import Store
from bot.store.postgres_dialect import PostgresDialect, is_postgres_url
from bot.store.sql import SqlStore
from bot.store.sqlite_dialect import BUSY_TIMEOUT_SECONDS, DEFAULT_PATH, SqliteDialect


async def open_store(
    path: str | os.PathLike[str] = DEFAULT_PATH,
    *,
    clock: Callable[[], datetime] | None = None,
    busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    exclusive: bool = False,
) -> Store:
    """Open (and migrate) the database: a SQLite file path, or a PostgreSQL URL.

    `exclusive` (SQLite): this process is the bot, and no other bot process may use the file
    at the same time (it would answer every click twice; StoreInUse names the one that has it).
    PostgreSQL is meant to be shared by several bot processes, each running its own shards;
    jobs that must run once take a lease (`Store.lease`, kept by `bot.cluster`).

    Raises StoreUnavailable, with one line naming the database and what to do, if it cannot be
    used; nothing else about the database. Close it with `await store.close()`, or use it as
    `async with await open_store(...)`.
    """
    if is_postgres_url(path):
        dialect: SqliteDialect | PostgresDialect = PostgresDialect(
            str(path), busy_timeout=busy_timeout
        )
    else:
        dialect = SqliteDialect(path, busy_timeout=busy_timeout, exclusive=exclusive)
    return await SqlStore.open(dialect, clock=clock)
