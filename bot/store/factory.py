"""How the bot opens its store: the one place that picks an implementation of `Store`.

Today that is always SQLite; a second back end (PostgreSQL) is chosen here, so no caller changes.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime

from bot.store.interface import Store
from bot.store.sqlite import BUSY_TIMEOUT_SECONDS, DEFAULT_PATH, SqliteStore


async def open_store(
    path: str | os.PathLike[str] = DEFAULT_PATH,
    *,
    clock: Callable[[], datetime] | None = None,
    busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    exclusive: bool = False,
) -> Store:
    """Open (and migrate) the database. `exclusive`: this process is the bot, and no other bot
    process may use the database at the same time (it would answer every click twice).

    Raises StoreUnavailable, with one line naming the database and what to do, if it cannot be
    used. Close it with `await store.close()`, or use it as `async with await open_store(...)`.
    """
    return await SqliteStore.open(path, clock=clock, busy_timeout=busy_timeout, exclusive=exclusive)
