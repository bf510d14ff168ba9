"""FLOOR 2, the store: the single source of truth for games, behind one interface.

It owns the `Store` Protocol (`interface`) and its one SQL implementation (`sql`, with a game's
rows in `game_rows`, the statistics in `stats_queries` and whole-database copies in `bulk`) over
a small dialect (`dialect`): SQLite by default (`sqlite_dialect` through aiosqlite, its group
commit and shared reads in `sqlite_batches`, the one-process lock on the file in `filelock`) or
PostgreSQL (`postgres_dialect`), both migrated by one runner (`migrations`)
through one ordered list of steps in both databases' words (`schema`, with each mode's own).
Besides: the leases that let one of several processes run a job once (`leases`; the cluster
keeps them, `bot.cluster`), the record
codec that turns a game into rows and back (`codec`), and the values and errors every caller
shares. Callers open it with `open_store(...)` and type it as `Store`; only the store imports a
database driver.
"""

from bot.store.codec import RECORD_FORMAT, RecordError
from bot.store.errors import (
    AlreadyApplied,
    ImportRefused,
    SchemaError,
    StoreBusy,
    StoreError,
    StoreInUse,
    StoreUnavailable,
    UnreadableGame,
)
from bot.store.factory import open_store
from bot.store.interface import ActionTarget, Store
from bot.store.leases import Lease, LocalLease
from bot.store.postgres_dialect import PostgresDialect, is_postgres_url
from bot.store.sql import SqlStore
from bot.store.sqlite_dialect import BUSY_TIMEOUT_SECONDS, DEFAULT_PATH, SqliteDialect
from bot.store.values import (
    Absorbed,
    Applied,
    Board,
    Held,
    HistoryEntry,
    PlayerStats,
    Result,
    Snapshot,
    Win,
    always,
)

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "DEFAULT_PATH",
    "RECORD_FORMAT",
    "Absorbed",
    "ActionTarget",
    "AlreadyApplied",
    "Applied",
    "Board",
    "Held",
    "HistoryEntry",
    "ImportRefused",
    "Lease",
    "LocalLease",
    "PlayerStats",
    "PostgresDialect",
    "RecordError",
    "Result",
    "SchemaError",
    "Snapshot",
    "SqlStore",
    "SqliteDialect",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreInUse",
    "StoreUnavailable",
    "UnreadableGame",
    "Win",
    "always",
    "is_postgres_url",
    "open_store",
]
