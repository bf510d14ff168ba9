"""PostgreSQL: every game in one database that several bot processes share, through asyncpg.

* A pool of connections; every transaction takes one. A move locks its game's row (`FOR
  UPDATE`), so moves on one game take turns across every process while other games move at the
  same time; a read is one REPEATABLE READ snapshot.
* Waiting is bounded: no free connection, or a row lock held elsewhere (`lock_timeout`), for
  longer than the busy timeout raises StoreBusy, and nothing is written.
* Migrations run under an advisory lock, so processes starting together migrate once.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Hashable, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import asyncpg

from bot.redact import redact
from bot.store import schema
from bot.store.dialect import Params, Row, Session, Work
from bot.store.errors import Conflict, StoreBusy, StoreUnavailable
from bot.store.migrations import migrate

log = logging.getLogger(__name__)
T = TypeVar("T")

BUSY_TIMEOUT_SECONDS = 2.0
CONNECT_TIMEOUT_SECONDS = 10.0
POOL_SIZE = 10
NOTIFICATIONS = "mastermind_games"
"""The channel every game's commit is told on (schema step 8's trigger)."""
HEAR_AGAIN_SECONDS = 5.0
"""After the listening connection is lost, how long before it connects again."""
URL_SCHEMES = ("postgresql", "postgres")

if TYPE_CHECKING:  # asyncpg's classes are generic only in its type stubs
    Conn = asyncpg.Connection[asyncpg.Record] | asyncpg.pool.PoolConnectionProxy[asyncpg.Record]
else:
    Conn = asyncpg.Connection

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")


def is_postgres_url(target: object) -> bool:
    """`postgresql://...` (or `postgres://...`): a PostgreSQL database rather than a file."""
    return isinstance(target, str) and target.split("://", 1)[0].lower() in URL_SCHEMES


@functools.lru_cache(maxsize=512)
def positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """`:name` parameters as asyncpg's `$n`, and the names in `$n` order."""
    names: list[str] = []

    def number(match: re.Match[str]) -> str:
        if match[1] not in names:
            names.append(match[1])
        return f"${names.index(match[1]) + 1}"

    return _NAMED.sub(number, sql), tuple(names)


class PostgresSession:
    """A transaction on one pooled connection."""

    def __init__(self, conn: Conn) -> None:
        self.conn = conn

    async def fetch(self, sql: str, params: Params | None = None) -> Sequence[Row]:
        text, names = positional(sql)
        return await self.conn.fetch(text, *_values(names, params))

    async def execute(self, sql: str, params: Params | None = None) -> int:
        text, names = positional(sql)
        status = await self.conn.execute(text, *_values(names, params))
        count = status.rsplit(" ", 1)[-1]  # `INSERT 0 12`, `UPDATE 3`; DDL has none
        return int(count) if count.isdigit() else 0

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        text, names = positional(sql)
        if rows:
            await self.conn.executemany(text, [_values(names, row) for row in rows])

    async def execute_last(self, sql: str, params: Params | None = None) -> None:
        await self.execute(sql, params)  # each job is a transaction of its own here


def _values(names: tuple[str, ...], params: Params | None) -> list[Any]:
    return [params[name] for name in names] if params else []


class PostgresDialect:
    """One PostgreSQL database, shared by every bot process given its URL."""

    shared = True
    lock_game = " FOR UPDATE"
    inline_moves = ""  # a second statement in the same transaction (asyncpg's round trip)
    save_at_once = ""  # a job has its own transaction and connection: nothing waits on it
    seconds_between = "CAST(extract(epoch FROM {end} - {start}) AS DOUBLE PRECISION)"
    import_begins: tuple[str, ...] = (
        "SET LOCAL lock_timeout = '30s'",
        "LOCK TABLE games, moves, meta IN SHARE ROW EXCLUSIVE MODE",
    )
    import_ends: tuple[str, ...] = (
        "SELECT setval(pg_get_serial_sequence('games', 'id'), "
        "greatest((SELECT max(id) FROM games), 1))",
    )
    flavour: Literal["postgres"] = "postgres"

    def __init__(
        self,
        url: str,
        *,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        pool_size: int = POOL_SIZE,
    ) -> None:
        self.url = url
        self.name = f"database {redact(url)}"
        self.busy_timeout = busy_timeout
        self._pool_size = pool_size
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._running: set[asyncio.Task[Any]] = set()  # strong references to shielded work
        self._down_since: float | None = None  # when the current outage began (monotonic)
        self._own_pids: set[int] = set()  # this process's backends: its own commits

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:
        """The connection pool (leases use it too); refuses once closed."""
        if self._pool is None:
            raise RuntimeError("the store is closed")
        return self._pool

    def stamp(self, moment: datetime) -> datetime:
        return moment

    def moment(self, stored: object) -> datetime:
        assert isinstance(stored, datetime)  # a TIMESTAMPTZ column, read in UTC
        return stored

    # --- lifetime ------------------------------------------------------------------------

    async def connect(self, schema_version: int | None = None) -> None:
        lock_ms = max(1, int(self.busy_timeout * 1000))
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self._pool_size,
                timeout=CONNECT_TIMEOUT_SECONDS,
                init=self._remember,
                server_settings={
                    "application_name": "mastermind-bot",
                    # A row lock held elsewhere (another move on the game) is waited for this
                    # long, then StoreBusy: inside Discord's 3 s either way.
                    "lock_timeout": f"{lock_ms}ms",
                    "TimeZone": "UTC",
                },
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError) as error:
            raise self._unusable(error) from error
        try:
            await migrate(self, schema_version)
        except BaseException as error:
            pool, self._pool = self._pool, None
            pool.terminate()
            if isinstance(error, asyncpg.PostgresError | OSError):
                raise self._unusable(error) from error
            raise

    async def _remember(self, conn: asyncpg.Connection[asyncpg.Record]) -> None:
        """A pool connection's backend: its commits' notifications are this process's own."""
        self._own_pids.add(conn.get_server_pid())

    async def hear(self, heard: Callable[[int, int, int], None]) -> Callable[[], Awaitable[None]]:
        """LISTEN on NOTIFICATIONS on a connection of its own (connected again after a loss);
        a notification from one of this process's own backends is not passed on."""
        stopping, ready = asyncio.Event(), asyncio.Event()

        def on_notice(_conn: Conn, pid: int, _channel: str, payload: object) -> None:
            if pid in self._own_pids:
                return
            try:
                game, channel, version = (int(part) for part in str(payload).split(":"))
            except ValueError:
                return
            heard(game, channel, version)

        async def listening() -> None:
            while not stopping.is_set():
                lost = asyncio.Event()
                try:
                    conn = await asyncpg.connect(
                        self.url,
                        timeout=CONNECT_TIMEOUT_SECONDS,
                        server_settings={"application_name": "mastermind-bot listen"},
                    )
                except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError):
                    log.debug("cannot listen to %s yet; trying again", self.name)
                    ready.set()
                else:
                    conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
                    await conn.add_listener(NOTIFICATIONS, on_notice)
                    ready.set()
                    waits = {asyncio.create_task(w.wait()) for w in (lost, stopping)}
                    _, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                    for task in pending:
                        task.cancel()
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(conn.close(), 5.0)
                    if stopping.is_set():
                        return
                    log.debug("lost the listening connection to %s; connecting again", self.name)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stopping.wait(), HEAR_AGAIN_SECONDS)

        task = asyncio.create_task(listening(), name="store-hear")
        await ready.wait()  # listening from now on (or told why not, and trying again)

        async def stop() -> None:
            stopping.set()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.wait_for(task, 10.0)

        return stop

    async def close(self) -> None:
        """Let running transactions finish (bounded), then close the pool."""
        if self._running:
            await asyncio.wait(set(self._running), timeout=self.busy_timeout * 2)
        pool, self._pool = self._pool, None
        if pool is not None:
            try:
                await asyncio.wait_for(pool.close(), 10.0)
            except TimeoutError:
                pool.terminate()

    def _unusable(self, error: BaseException) -> StoreUnavailable:
        """One line that names the database, what is wrong and what to do."""
        refused = asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError
        if isinstance(error, refused):
            why = "refused the login: check the user and password in DATABASE_URL"
        elif isinstance(error, asyncpg.InvalidCatalogNameError):
            why = "does not exist: create it first (createdb, or CREATE DATABASE)"
        elif isinstance(error, asyncpg.InsufficientPrivilegeError):
            why = f"may not be changed by this user ({error}): grant it CREATE on the database"
        elif isinstance(error, TimeoutError):
            why = f"did not answer within {CONNECT_TIMEOUT_SECONDS:g} s: check the host and port"
        elif isinstance(error, OSError):
            reason = (
                os.strerror(error.errno)
                if error.errno and error.errno > 0
                else error.strerror or str(error) or type(error).__name__
            )
            why = (
                f"cannot be reached ({reason}): check that PostgreSQL runs and the host and "
                "port in DATABASE_URL"
            )
        else:
            why = f"cannot be used ({str(error).splitlines()[0] if str(error) else error!r})"
        return StoreUnavailable(f"{self.name} {why}.")

    def lease(self, name: str, holder: str, ttl: float) -> PostgresLease:
        """The lease `name` for `holder`, shared by every process on this database."""
        return PostgresLease(self, name, holder, ttl)

    @asynccontextmanager
    async def connection(self, timeout: float) -> AsyncIterator[Conn]:
        """A pooled connection outside the store's transactions (leases); a failure to get
        one is part of an outage, like a transaction's."""
        try:
            conn = await self.pool.acquire(timeout=timeout)
        except (OSError, asyncpg.PostgresConnectionError) as error:
            self.unreachable(error)
            raise
        self.reachable()
        try:
            yield conn
        finally:
            await self.pool.release(conn)

    def unreachable(self, error: BaseException) -> None:
        """One WARNING per outage, at its first failure: every interaction meanwhile is told to
        try again, and a line per interaction would drown the log."""
        if self._down_since is None:
            self._down_since = time.monotonic()
            log.warning(
                "%s cannot be reached (%s); players are asked to try again until it is back",
                self.name,
                error,
            )
        else:
            log.debug("%s still cannot be reached: %s", self.name, error)

    def reachable(self) -> None:
        """The end of an outage: one INFO line with its length."""
        if self._down_since is not None:
            seconds, self._down_since = time.monotonic() - self._down_since, None
            log.info("%s can be reached again (after %.0f s)", self.name, seconds)

    # --- transactions --------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self, *, write: bool) -> AsyncIterator[Session]:
        pool = self.pool
        try:
            conn = await pool.acquire(timeout=self.busy_timeout)
        except TimeoutError:
            raise StoreBusy() from None
        except (OSError, asyncpg.PostgresConnectionError) as error:
            self.unreachable(error)
            raise StoreBusy() from error
        self.reachable()
        isolation: Literal["repeatable_read", "read_committed"] = (
            "read_committed" if write else "repeatable_read"
        )
        try:
            async with conn.transaction(isolation=isolation, readonly=not write):
                yield PostgresSession(conn)
        except asyncpg.LockNotAvailableError:
            raise StoreBusy() from None
        except asyncpg.UniqueViolationError as error:
            raise Conflict(index=error.constraint_name) from error
        except (OSError, asyncpg.PostgresConnectionError) as error:
            # The server went away mid-transaction: the same outage as a refused connection
            # (one WARNING), and the caller's "try again" (a move's input is stored with it,
            # so one whose COMMIT did land is not applied twice).
            self.unreachable(error)
            raise StoreBusy() from error
        finally:
            await pool.release(conn)

    async def run(self, work: Work[T], *, write: bool, alongside: Hashable = None) -> T:
        """In a task of its own, shielded: a cancelled caller never leaves a transaction
        half-done on a pooled connection. (Every job runs alongside the others here.)"""
        task = asyncio.ensure_future(self._run(work, write))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_retrieve)
            raise

    async def _run(self, work: Callable[[Session], Coroutine[Any, Any, T]], write: bool) -> T:
        async with self.transaction(write=write) as session:
            return await work(session)

    async def run_migration(self, work: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        async with self.migrating() as session:
            return await work(session)

    @asynccontextmanager
    async def migrating(self) -> AsyncIterator[Session]:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", schema.MIGRATION_LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS mastermind_schema (version INTEGER NOT NULL)"
            )
            # 1: counted in PostgreSQL's own steps, before the list was one (schema.py)
            await conn.execute(
                "ALTER TABLE mastermind_schema "
                "ADD COLUMN IF NOT EXISTS numbering INTEGER NOT NULL DEFAULT 1"
            )
            yield PostgresSession(conn)

    async def schema_version(self, session: Session) -> int:
        rows = await session.fetch(
            "SELECT version, numbering FROM mastermind_schema ORDER BY version DESC LIMIT 1"
        )
        if not rows:
            return 0
        version = int(rows[0]["version"])
        if rows[0]["numbering"] == 1:
            return schema.POSTGRES_BEFORE_ONE_LIST.get(version, version)
        return version

    async def table_names(self, session: Session) -> list[str]:
        rows = await session.fetch(
            "SELECT table_name AS name FROM information_schema.tables "
            "WHERE table_schema = current_schema() AND table_name <> 'mastermind_schema' "
            "ORDER BY table_name"
        )
        return [str(row["name"]) for row in rows]

    async def set_schema_version(self, session: Session, found: int, target: int) -> None:
        if found < target:
            await session.execute("DELETE FROM mastermind_schema")
            await session.execute(
                "INSERT INTO mastermind_schema (version, numbering) VALUES (:version, 2)",
                {"version": target},
            )


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Mark a shielded transaction's error as seen once its caller has gone."""
    if not task.cancelled():
        task.exception()


class PostgresLease:
    """A row of `leases` in the shared PostgreSQL database (`PostgresDialect.lease`)."""

    def __init__(self, dialect: PostgresDialect, name: str, holder: str, ttl: float) -> None:
        if not ttl > 0:
            raise ValueError("a lease lasts a positive number of seconds")
        self.dialect, self.name, self.holder, self.ttl = dialect, name, holder, ttl

    def _connection(self) -> contextlib.AbstractAsyncContextManager[Conn]:
        return self.dialect.connection(self.ttl / 3)

    async def claim(self) -> bool:
        async with self._connection() as conn:
            holder = await conn.fetchval(
                "INSERT INTO leases AS l (name, holder, expires_at) "
                "VALUES ($1, $2, clock_timestamp() + make_interval(secs => $3)) "
                "ON CONFLICT (name) DO UPDATE "
                "SET holder = excluded.holder, expires_at = excluded.expires_at "
                "WHERE l.holder = excluded.holder OR l.expires_at < clock_timestamp() "
                "RETURNING holder",
                self.name,
                self.holder,
                self.ttl,
            )
        return bool(holder == self.holder)

    async def release(self) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "DELETE FROM leases WHERE name = $1 AND holder = $2", self.name, self.holder
            )

    async def current_holder(self) -> str | None:
        async with self._connection() as conn:
            holder = await conn.fetchval(
                "SELECT holder FROM leases WHERE name = $1 AND expires_at > clock_timestamp()",
                self.name,
            )
        return None if holder is None else str(holder)

    async def drop_holder(self, holder: str) -> None:
        async with self._connection() as conn:
            await conn.execute(
                "DELETE FROM leases WHERE name = $1 AND holder = $2", self.name, holder
            )

    async def others(self, prefix: str) -> dict[str, str]:
        async with self._connection() as conn:
            rows = await conn.fetch(
                "SELECT name, holder FROM leases WHERE starts_with(name, $1) "
                "AND holder <> $2 AND expires_at > clock_timestamp()",
                prefix,
                self.holder,
            )
        return {str(row["name"]): str(row["holder"]) for row in rows}
