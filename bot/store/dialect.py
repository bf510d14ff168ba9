"""The seam between the one SQL store and a database: what differs from SQLite to PostgreSQL.

The store writes its SQL once, with named parameters (`:name`), and runs it on a `Session`: one
open transaction on one connection. A `Dialect` opens and closes the database, runs the schema
migrations (the one list's steps in its own words, through the one runner in `migrations.py`),
runs transactions with its own locking (SQLite's one writer, PostgreSQL's row locks), turns its
driver's errors into the store's typed ones (`StoreBusy`, `Conflict`, `StoreUnavailable`) and
stores timestamps its own way.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Hashable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal, Protocol, TypeVar

from bot.store.leases import Lease

Params = Mapping[str, Any]
T = TypeVar("T")


class Row(Protocol):
    """A result row: its columns by name (sqlite3.Row and asyncpg.Record both are one)."""

    def __getitem__(self, key: str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...


class Session(Protocol):
    """One open transaction; SQL takes named parameters (`:name`)."""

    async def fetch(self, sql: str, params: Params | None = None) -> Sequence[Row]:
        """The rows of a query."""
        ...

    async def execute(self, sql: str, params: Params | None = None) -> int:
        """Run one statement; how many rows it changed."""
        ...

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement once per row of parameters."""
        ...

    async def execute_last(self, sql: str, params: Params | None = None) -> None:
        """The job's last write, one statement: the job runs nothing after it (a database may
        run it once the job's code has returned). Where it is the job's only write it needs no
        savepoint of its own: a statement that fails is undone by itself."""
        ...


Work = Callable[[Session], Coroutine[Any, Any, T]]
"""What runs in one transaction: given its session, what it returns."""


class Dialect(Protocol):
    """One database, as the SQL store uses it."""

    @property
    def flavour(self) -> Literal["sqlite", "postgres"]:
        """Which text of each schema step it runs (`schema.Step.sqlite` or `.postgres`)."""
        ...

    name: str
    """What an operator's message calls it (a file path, or `database <url without password>`)."""
    busy_timeout: float
    """Seconds a transaction waits for the database before StoreBusy."""
    shared: bool
    """Several bot processes may use it at once, so jobs that must run once take a lease."""
    lock_game: str
    """What a move appends to its game's SELECT to hold the row until it commits."""
    inline_moves: str
    """SQL for a `games` row's moves as one JSON text (an array of `[move_no, kind, player_id,
    code, black, white]`), so a game reads in one statement; "" reads them with a second."""
    save_at_once: str
    """SQL that saves a move whole, its new rows (`:moves`, JSON `[[kind, player_id, code,
    black, white], ...]`) and its game row's copies, in one statement (refused with StaleGame
    if the game moved on); "" saves them with two."""
    seconds_between: str
    """SQL for the seconds from `{start}` to `{end}`, two timestamp columns."""
    import_begins: tuple[str, ...]
    """Statements that keep every writer out while a copy decides what is missing."""
    import_ends: tuple[str, ...]
    """Statements that make ids given after a copy follow the copied ones."""

    def stamp(self, moment: datetime) -> object:
        """A moment as this database stores it."""
        ...

    def moment(self, stored: object) -> datetime:
        """A stored timestamp as an aware UTC datetime."""
        ...

    def lease(self, name: str, holder: str, ttl: float) -> Lease:
        """The lease `name` claimed for `holder` for `ttl` seconds at a time: shared by every
        process on a database several use, always this process's on one it alone opens."""
        ...

    async def connect(self, schema_version: int | None = None) -> None:
        """Open the database and bring its schema up to `schema_version` (the newest if None).
        Raises StoreUnavailable, one line for the operator, if it cannot be used."""
        ...

    async def hear(self, heard: Callable[[int, int, int], None]) -> Callable[[], Awaitable[None]]:
        """Call `heard(game id, channel id, version)` for every game another process commits
        (PostgreSQL's notifications, `schema` step 8; SQLite has one process, so never);
        returns how to stop hearing."""
        ...

    async def close(self) -> None:
        """Release the database; closing twice is fine."""
        ...

    async def run(self, work: Work[T], *, write: bool, alongside: Hashable = None) -> T:
        """Run `work` in one transaction, committed when it returns and undone if it raises
        (a database may commit it together with others', as SQLite's group commit does: it
        returns only once that commit is durable). `work` awaits nothing but its session. A
        read sees one consistent snapshot. Waiting longer than the busy bound raises StoreBusy;
        a unique index refusing a write raises Conflict naming it. `alongside` (not None):
        `work` reads, then writes at most once, with `execute_last`, a statement that refuses
        to write if what it read has changed (`save_at_once`); it may run at the same time as
        others', and after those given the same `alongside` (the game it moves)."""
        ...

    async def run_migration(self, work: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        """Run `work` in the one transaction that migrates, held by one process at a time."""
        ...

    async def schema_version(self, session: Session) -> int:
        """How many migration steps the database has had."""
        ...

    async def set_schema_version(self, session: Session, found: int, target: int) -> None:
        """Record that the database now has `target` steps (it had `found`)."""
        ...

    async def table_names(self, session: Session) -> list[str]:
        """The tables the database holds, the schema's own bookkeeping left out, sorted."""
        ...
