"""FLOOR 2, the store: the single source of truth for games, behind one interface.

It owns the `Store` Protocol (`interface`), its SQLite implementation (`sqlite`, with the schema
in `migrations` and the one-process file lock in `filelock`), its PostgreSQL implementation
(`postgres`, schema in `postgres_migrations`), the leases that let one of several processes run a
job once (`leases`), the record codec that turns a game into rows and back (`codec`), and the
values and errors every implementation shares. Callers open it with `open_store(...)` and type it
as `Store`; only the store imports a database driver.
"""

from bot.store.codec import RECORD_FORMAT, RecordError
from bot.store.errors import AlreadyApplied, SchemaError, StoreBusy, StoreUnavailable
from bot.store.factory import open_store
from bot.store.interface import Store
from bot.store.leases import JOBS_LEASE, Lease, LeaseKeeper, open_lease
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.store.postgres import PostgresStore, is_postgres_url
from bot.store.sqlite import BUSY_TIMEOUT_SECONDS, DEFAULT_PATH, SqliteStore
from bot.store.values import Board, DailyResult, HistoryEntry, PlayerStats

__all__ = [
    "BUSY_TIMEOUT_SECONDS",
    "DEFAULT_PATH",
    "JOBS_LEASE",
    "MIGRATIONS",
    "RECORD_FORMAT",
    "SCHEMA_VERSION",
    "AlreadyApplied",
    "Board",
    "DailyResult",
    "HistoryEntry",
    "Lease",
    "LeaseKeeper",
    "PlayerStats",
    "PostgresStore",
    "RecordError",
    "SchemaError",
    "SqliteStore",
    "Store",
    "StoreBusy",
    "StoreUnavailable",
    "is_postgres_url",
    "open_lease",
    "open_store",
]
