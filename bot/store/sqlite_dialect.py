"""SQLite, the default: every game in one file, through aiosqlite.

* One connection, an asyncio lock around every transaction and `BEGIN IMMEDIATE` for writes, so
  coroutines of this process *and* other processes on the file take turns: the whole file is
  the write lock, so a move needs no row lock.
* WAL journal, `synchronous = FULL` (a move whose call returned survives power loss too), and a
  bounded busy wait.
* `exclusive`: one bot process per file, by an advisory lock beside it (`filelock.py`).
* Timestamps are fixed-width UTC ISO text, so they sort and compare as strings.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from bot.store import sqlite_schema
from bot.store.dialect import Params, Row, Session
from bot.store.errors import Conflict, SchemaError, StoreBusy, StoreUnavailable
from bot.store.filelock import claim
from bot.store.migrations import migrate

log = logging.getLogger(__name__)
# aiosqlite logs every statement with its parameters at DEBUG, a play game's secret among them.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

DEFAULT_PATH = Path("mastermind.db")
BUSY_TIMEOUT_SECONDS = 2.0
"""How long a write waits for the database: short enough to answer inside Discord's 3 s."""

_UNIQUE_INDEXES = {
    "games.channel_id": "games_one_active_per_channel",
    "games.starter_id, games.puzzle": "games_one_daily_per_player",
    "moves.source": "moves_once_per_source",
}
"""SQLite names a refused unique index by its columns; the store knows it by its name."""


class SqliteSession:
    """A transaction on the store's one connection (SQLite takes `:name` parameters itself)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def fetch(self, sql: str, params: Params | None = None) -> Sequence[Row]:
        return list(await self._db.execute_fetchall(sql, params))

    async def execute(self, sql: str, params: Params | None = None) -> int:
        async with self._db.execute(sql, params) as cursor:
            return cursor.rowcount

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            async with self._db.executemany(sql, rows):
                pass


class SqliteDialect:
    """One SQLite file. `exclusive`: this process is the bot, and no other bot process may use
    the file at the same time (it would answer every click twice)."""

    shared = False
    lock_game = ""
    seconds_between = "(julianday({end}) - julianday({start})) * 86400.0"
    import_begins: tuple[str, ...] = ()  # BEGIN IMMEDIATE already keeps every writer out
    import_ends: tuple[str, ...] = ()  # a new row's id follows the largest one by itself
    steps = sqlite_schema.MIGRATIONS

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        exclusive: bool = False,
    ) -> None:
        self.path = Path(path)
        self.name = str(self.path)
        self.busy_timeout = busy_timeout
        self._exclusive = exclusive
        self._lock_file: int | None = None
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def db(self) -> aiosqlite.Connection:
        """The one connection; refuses once closed."""
        if self._db is None:
            raise RuntimeError("the store is closed")
        return self._db

    def stamp(self, moment: datetime) -> str:
        return moment.astimezone(UTC).isoformat(timespec="microseconds")

    def moment(self, stored: object) -> datetime:
        return datetime.fromisoformat(str(stored))

    # --- lifetime ------------------------------------------------------------------------

    async def connect(self, schema_version: int | None = None) -> None:
        """Open the file, set durability and locking pragmas, and migrate the schema.

        Anything that makes the file unusable raises StoreUnavailable with one line naming it.
        """
        self._check_path()
        if self._exclusive:
            self._lock_file = claim(self.path)
        try:
            db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self.busy_timeout)
        except (sqlite3.Error, OSError) as error:
            self._release()
            raise self._unusable(error) from error
        try:
            db.row_factory = sqlite3.Row
            await db.execute_fetchall(f"PRAGMA busy_timeout = {int(self.busy_timeout * 1000)}")
            ((mode,),) = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            if mode.lower() != "wal":
                log.warning("%s: WAL journal unavailable, using %s", self.path, mode)
            await db.execute_fetchall("PRAGMA synchronous = FULL")
            self._db = db
            await migrate(self, schema_version)
        except BaseException as error:
            self._db = None
            await db.close()
            self._release()
            if isinstance(error, sqlite3.Error | OSError):
                raise self._unusable(error) from error
            raise

    def _check_path(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreUnavailable(
                f"cannot create the folder of database {self.path}: {error.strerror or error}; "
                "set DATABASE_PATH to a file in a folder the bot can write to."
            ) from error
        if self.path.is_dir():
            raise StoreUnavailable(
                f"database {self.path} is a folder; set DATABASE_PATH to a file path."
            )

    async def close(self) -> None:
        if self._db is not None:
            async with self._lock:
                db, self._db = self._db, None
                if db is not None:
                    await db.close()
        self._release()

    def _release(self) -> None:
        if self._lock_file is not None:
            os.close(self._lock_file)  # closing the descriptor drops the flock
            self._lock_file = None

    def _unusable(self, error: BaseException) -> StoreUnavailable:
        """One line that names the file, what is wrong with it and what to do."""
        text = str(error).lower()
        if "readonly" in text or "read-only" in text:
            why = "is read-only: give the bot write access to the file and its folder"
        elif "not a database" in text or "malformed" in text or "corrupt" in text:
            why = (
                "is not a mastermind-bot database or is damaged: restore a backup or move it aside"
            )
        elif "unable to open" in text:
            why = "cannot be opened: check that its folder exists and the bot may write there"
        elif "locked" in text or "busy" in text:
            why = "is locked by another program: close it and start again"
        else:
            why = f"cannot be used ({error})"
        return StoreUnavailable(f"database {self.path} {why}.")

    # --- transactions --------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[Session]:
        """Under the lock, so a read never sees another call's open writes."""
        try:
            async with asyncio.timeout(self.busy_timeout):
                await self._lock.acquire()
        except TimeoutError:
            raise StoreBusy() from None
        try:
            db = self.db
            try:
                await db.execute_fetchall("BEGIN IMMEDIATE" if write else "BEGIN")
                yield SqliteSession(db)
                await db.execute_fetchall("COMMIT")
            except BaseException as error:
                await _rollback(db)
                translated = _translated(error)
                if translated is None:
                    raise
                raise translated from None
        finally:
            self._lock.release()

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[Session]:
        """Foreign keys are off while migrating (a rebuilt table is briefly missing) and checked
        before committing; everything after runs with them on."""
        db = self.db
        await db.execute_fetchall("PRAGMA foreign_keys = OFF")
        await db.execute_fetchall("BEGIN IMMEDIATE")
        try:
            yield SqliteSession(db)
            await db.execute_fetchall("COMMIT")
        except BaseException:
            await _rollback(db)
            raise
        await db.execute_fetchall("PRAGMA foreign_keys = ON")

    async def schema_version(self, session: Session) -> int:
        rows = await session.fetch("PRAGMA user_version")
        return int(rows[0]["user_version"])

    async def table_names(self, session: Session) -> list[str]:
        rows = await session.fetch(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
        return [str(row["name"]) for row in rows]

    async def set_schema_version(self, session: Session, found: int, target: int) -> None:
        # Always one write, so a read-only file is refused now rather than at the first move.
        await session.execute(f"PRAGMA user_version = {int(target)}")
        if found < target:
            problems = await session.fetch("PRAGMA foreign_key_check")
            if problems:
                raise SchemaError(
                    f"{self.path}: moves without their game after migrating: "
                    f"{[dict(row) for row in problems]}"
                )


def _translated(error: BaseException) -> Exception | None:
    """The store's own error for a busy file or a refused unique index, else None."""
    text = str(error)
    if isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text):
        return StoreBusy()
    prefix = "UNIQUE constraint failed: "
    if isinstance(error, sqlite3.IntegrityError) and text.startswith(prefix):
        columns = text.removeprefix(prefix)
        return Conflict(index=_UNIQUE_INDEXES.get(columns, columns))
    return None


async def _rollback(db: aiosqlite.Connection) -> None:
    # OperationalError: no transaction is open any more (it committed or never began).
    with contextlib.suppress(sqlite3.OperationalError):
        await db.execute_fetchall("ROLLBACK")
