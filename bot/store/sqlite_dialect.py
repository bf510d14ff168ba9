"""SQLite, the default: every game in one file.

* Reached through aiosqlite: a writer connection and a reader connection, each with its own
  thread (`sqlite_batches.py`). The writes waiting at one instant share one `BEGIN IMMEDIATE`
  and one COMMIT (group commit); the reads waiting together share one snapshot, and in WAL a
  read never waits behind a write. Other processes on the file take turns through SQLite's own
  lock: the whole file is the write lock, so a move needs no row lock.
* WAL journal, `synchronous = FULL` (a move whose call returned survives power loss too), and a
  deadline per transaction: a write waiting for another program's lock answers StoreBusy within
  the busy timeout, however many are queued.
* `exclusive`: one bot process per file, by a lock on the database file itself (`filelock.py`),
  so every name of the file (a symlink, a hard link, a bind mount) meets it.
* Timestamps are fixed-width UTC ISO text, so they sort and compare as strings.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

from bot.engine.errors import StaleGame
from bot.store.dialect import Session, Work
from bot.store.errors import Conflict, SchemaError, StoreBusy, StoreUnavailable
from bot.store.filelock import claim
from bot.store.leases import LocalLease
from bot.store.migrations import migrate
from bot.store.sqlite_batches import (
    MOVED_ON,
    POLL_SECONDS,
    Batcher,
    JobSession,
    begin_immediate,
    is_busy,
    rollback,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_PATH = Path("mastermind.db")
BUSY_TIMEOUT_SECONDS = 2.0
"""How long a transaction may wait for the database: short enough to answer inside Discord's
3 s."""

_UNIQUE_INDEXES = {
    "games.channel_id": "games_one_active_per_channel",
    "moves.source": "moves_once_per_source",
}
"""SQLite names a refused unique index by its columns; the store knows the shared ones by
their name (a mode's own, by its columns)."""


_MOVE_SAVES = f"""
CREATE TEMP VIEW move_saves (
    id, old_version, version, status, winner_id, hints, now, finished_at, source, moves
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL WHERE 0;

CREATE TEMP TRIGGER move_saves_insert INSTEAD OF INSERT ON move_saves BEGIN
    SELECT RAISE(ABORT, '{MOVED_ON}') WHERE NOT EXISTS (
        SELECT 1 FROM games WHERE id = NEW.id AND version = NEW.old_version
    );
    INSERT INTO moves (game_id, move_no, kind, player_id, code, black, white, created_at, source)
    SELECT NEW.id, NEW.old_version + 1 + key, json_extract(value, '$[0]'),
           json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'),
           json_extract(value, '$[4]'), NEW.now, CASE WHEN key = 0 THEN NEW.source END
    FROM json_each(NEW.moves);
    UPDATE games SET status = NEW.status, winner_id = NEW.winner_id, version = NEW.version,
        hints = NEW.hints, last_move_at = NEW.now, finished_at = NEW.finished_at
    WHERE id = NEW.id;
END;
"""
"""A move's save as one statement on the writer's connection (`SqliteDialect.save_at_once`):
its new rows and its game row in one trip to aiosqlite's thread, and no SAVEPOINT, as SQLite
undoes a statement that fails (a trigger's too) by itself. TEMP: it is the connection's own,
made at each start, so no schema step (and no other program) ever sees it."""


class SqliteDialect:
    """One SQLite file. `exclusive`: this process is the bot, and no other bot process may use
    the file at the same time (it would answer every click twice)."""

    shared = False
    lock_game = ""
    inline_moves = (
        "(SELECT json_group_array(json_array(move_no, kind, player_id, code, black, white)) "
        "FROM moves WHERE moves.game_id = games.id)"
    )  # one statement where two were: one hop to aiosqlite's thread, not two
    save_at_once = (
        "INSERT INTO move_saves (id, old_version, version, status, winner_id, hints, now, "
        "finished_at, source, moves) VALUES (:id, :old_version, :version, :status, :winner_id, "
        ":hints, :now, :finished_at, :source, :moves)"
    )  # one statement where three were (SAVEPOINT, new rows, game row): see `_MOVE_SAVES`
    seconds_between = "(julianday({end}) - julianday({start})) * 86400.0"
    import_begins: tuple[str, ...] = ()  # BEGIN IMMEDIATE already keeps every writer out
    import_ends: tuple[str, ...] = ()  # a new row's id follows the largest one by itself
    flavour: Literal["sqlite"] = "sqlite"

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
        self._writes: Batcher | None = None
        self._reads: Batcher | None = None

    @property
    def writer(self) -> aiosqlite.Connection:
        """The connection that writes (tests trace it); refuses once closed."""
        return self._batcher(write=True).connection

    @property
    def reader(self) -> aiosqlite.Connection:
        """The connection that reads (tests trace it); refuses once closed."""
        return self._batcher(write=False).connection

    def _batcher(self, *, write: bool) -> Batcher:
        batcher = self._writes if write else self._reads
        if batcher is None:
            raise RuntimeError("the store is closed")
        return batcher

    def lease(self, name: str, holder: str, ttl: float) -> LocalLease:
        """Every lease is this process's: the file lock lets no other bot open this file."""
        return LocalLease(name, holder)

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
            # The writer's own busy wait is short: it retries, and answers StoreBusy on time.
            writer = await self._open(POLL_SECONDS)
            self._writes = Batcher(writer, write=True, budget=self.busy_timeout)
            ((mode,),) = await writer.execute_fetchall("PRAGMA journal_mode = WAL")
            if str(mode).lower() != "wal":
                log.warning("%s: WAL journal unavailable, using %s", self.path, mode)
            await migrate(self, schema_version)
            await writer.executescript(_MOVE_SAVES)
            reader = await self._open(self.busy_timeout)
            await reader.execute("PRAGMA query_only = ON")
            self._reads = Batcher(reader, write=False, budget=self.busy_timeout)
        except BaseException as error:
            await self.close()
            if isinstance(error, sqlite3.Error | OSError):
                raise self._unusable(error) from error
            raise

    async def _open(self, busy_wait: float) -> aiosqlite.Connection:
        """A connection with the pragmas every one of ours has."""
        connection = await aiosqlite.connect(self.path, isolation_level=None, timeout=busy_wait)
        try:
            connection.row_factory = sqlite3.Row
            await connection.execute("PRAGMA synchronous = FULL")
            await connection.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await connection.close()
            raise
        return connection

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

    async def hear(self, heard: Callable[[int, int, int], None]) -> Callable[[], Awaitable[None]]:
        """Nothing to hear: one process holds a SQLite file (`StoreInUse` keeps others out)."""

        async def stop() -> None:
            return None

        return stop

    async def close(self) -> None:
        """Finish what is queued (each job within its deadline), then close both connections."""
        for batcher in (self._writes, self._reads):
            if batcher is not None:
                await batcher.close()
                await batcher.connection.close()
        self._writes = self._reads = None
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

    async def run(self, work: Work[T], *, write: bool, alongside: Hashable = None) -> T:
        """In one transaction with the others waiting with it (writes on the writer, reads on
        the reader); `alongside`, at the same time as those others that may."""
        try:
            return await self._batcher(write=write).run(work, alongside=alongside)
        except sqlite3.Error as error:
            translated = _translated(error)
            if translated is None:
                raise
            raise translated from None

    async def run_migration(self, work: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        """Foreign keys are off while migrating (a rebuilt table is briefly missing) and checked
        before committing; everything after runs with them on."""
        return await self._batcher(write=True).alone(
            lambda connection: _migrating(connection, work, self.busy_timeout)
        )

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
    """The store's own error for a busy file, a move saved on a game that moved on or a refused
    unique index, else None."""
    if is_busy(error):
        return StoreBusy()
    text = str(error)
    if isinstance(error, sqlite3.IntegrityError) and text == MOVED_ON:
        return StaleGame()
    prefix = "UNIQUE constraint failed: "
    if isinstance(error, sqlite3.IntegrityError) and text.startswith(prefix):
        columns = text.removeprefix(prefix)
        return Conflict(index=_UNIQUE_INDEXES.get(columns, columns))
    return None


async def _migrating(
    connection: aiosqlite.Connection,
    work: Callable[[Session], Coroutine[Any, Any, T]],
    busy_timeout: float,
) -> T:
    """The one migrating transaction, with foreign keys off while it runs."""
    await connection.execute("PRAGMA foreign_keys = OFF")
    await begin_immediate(connection, busy_timeout)
    try:
        result = await work(JobSession(connection, savepoint=False))
        await connection.execute("COMMIT")
    except BaseException:
        await rollback(connection)
        raise
    finally:
        await connection.execute("PRAGMA foreign_keys = ON")
    return result
