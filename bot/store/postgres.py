"""The PostgreSQL store: every game in one database that several bot processes share, through
asyncpg.

The same promises as the SQLite store (`sqlite.py`), kept by the database in the same way:

* A pool of connections; every call is one transaction on one of them. A move locks its game's
  row (`SELECT ... FOR UPDATE`), so moves on one game take turns across every process, while
  moves on other games run at the same time.
* Each transaction runs in its own shielded task, so a cancelled caller never leaves one
  half-done.
* At most one active game per channel is a partial unique index; moves are append-only rows
  (triggers refuse UPDATE, DELETE and TRUNCATE); one move per input is a unique index.
* Waiting is bounded: no free connection, or a row lock held elsewhere, for longer than the busy
  timeout raises StoreBusy, and nothing is written.
* A play game's `secret` column is read only to score a move or to show a finished game.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar

import asyncpg

from bot.engine.errors import (
    DailyAlreadyPlayed,
    GameAlreadyActive,
    GameOver,
    NoActiveGame,
    StaleGame,
)
from bot.engine.game import G, Game, GameKind, Status, expire
from bot.redact import redact
from bot.store.codec import game_from_record, game_to_record
from bot.store.errors import AlreadyApplied, SchemaError, StoreBusy, StoreUnavailable
from bot.store.interface import OutcomeT
from bot.store.postgres_migrations import SCHEMA_VERSION, migrate
from bot.store.shared import (
    CHANNEL_GAMES,
    RECORD_COLUMNS,
    SOLVE_STATS,
    STATS,
    check_appended,
    move_rows,
    public,
    retrieve,
    select_games,
    utc_now,
)
from bot.store.values import Board, DailyResult, HistoryEntry, PlayerStats

log = logging.getLogger(__name__)

BUSY_TIMEOUT_SECONDS = 2.0
CONNECT_TIMEOUT_SECONDS = 10.0
POOL_SIZE = 10
URL_SCHEMES = ("postgresql", "postgres")

T = TypeVar("T")

if TYPE_CHECKING:  # asyncpg's classes are generic only in its type stubs
    Conn = asyncpg.Connection[asyncpg.Record] | asyncpg.pool.PoolConnectionProxy[asyncpg.Record]
else:
    Conn = asyncpg.Connection

_INSERT_GAME = (
    f"INSERT INTO games ({', '.join(RECORD_COLUMNS)}, created_at, last_move_at, "
    "board_channel_id, board_message_id) "
    f"VALUES ({', '.join(f'${n}' for n in range(1, len(RECORD_COLUMNS) + 5))}) "
    f"ON CONFLICT (channel_id) WHERE status = 'active' AND {CHANNEL_GAMES} DO NOTHING "
    "RETURNING id"
)
_CHANNEL_GAME = f"channel_id = $1 AND status = 'active' AND {CHANNEL_GAMES}"
"""The channel's one active game."""
_INSERT_MOVE = (
    "INSERT INTO moves "
    "(game_id, move_no, kind, player_id, code, black, white, created_at, source) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
)


def is_postgres_url(target: object) -> bool:
    """`postgresql://...` (or `postgres://...`): a PostgreSQL database rather than a file."""
    return isinstance(target, str) and target.split("://", 1)[0].lower() in URL_SCHEMES


class PostgresStore:
    """The `Store` on one PostgreSQL database. Use `await PostgresStore.open(url)`."""

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], datetime] | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        pool_size: int = POOL_SIZE,
    ) -> None:
        self.url = url
        self.where = f"database {redact(url)}"
        self._clock = clock or utc_now
        self._busy_timeout = busy_timeout
        self._pool_size = pool_size
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._running: set[asyncio.Task[Any]] = set()  # strong references to shielded work

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        clock: Callable[[], datetime] | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        pool_size: int = POOL_SIZE,
        schema_version: int = SCHEMA_VERSION,
    ) -> PostgresStore:
        """Connect (and migrate). Anything that makes the database unusable raises
        StoreUnavailable with one line naming it (without its password) and what to do.
        `schema_version` is for tests that build an older schema."""
        store = cls(url, clock=clock, busy_timeout=busy_timeout, pool_size=pool_size)
        await store.connect(schema_version=schema_version)
        return store

    @property
    def pool(self) -> asyncpg.Pool[asyncpg.Record]:
        """The connection pool (for leases and the copy command); refuses once closed."""
        if self._pool is None:
            raise RuntimeError("the store is closed")
        return self._pool

    async def connect(self, *, schema_version: int = SCHEMA_VERSION) -> None:
        lock_ms = max(1, int(self._busy_timeout * 1000))
        try:
            pool = await asyncpg.create_pool(
                self.url,
                min_size=1,
                max_size=self._pool_size,
                timeout=CONNECT_TIMEOUT_SECONDS,
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
            async with pool.acquire() as conn:
                await migrate(conn, self.where, target=schema_version)
        except BaseException as error:
            pool.terminate()
            if isinstance(error, SchemaError):
                raise
            if isinstance(error, asyncpg.PostgresError | OSError):
                raise self._unusable(error) from error
            raise
        self._pool = pool

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
        return StoreUnavailable(f"{self.where} {why}.")

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            if self._running:
                await asyncio.wait(set(self._running), timeout=self._busy_timeout * 2)
            try:
                await asyncio.wait_for(pool.close(), 10.0)
            except TimeoutError:
                pool.terminate()

    async def __aenter__(self) -> Self:
        if self._pool is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- games ---------------------------------------------------------------------------

    async def start(
        self,
        game: G,
        *,
        board: tuple[int, int] | None = None,
        source: str | None = None,
    ) -> G:
        """Store a new game and return it with its id; one active game per channel."""
        if game.id is not None or game.is_over:
            raise ValueError("only a new, active game can be started")

        async def work(conn: Conn, now: datetime) -> G:
            channel, message = board or (None, None)
            record = game_to_record(game)
            values = [record[c] for c in RECORD_COLUMNS]
            try:
                async with conn.transaction():  # a savepoint: a refused insert leaves it usable
                    game_id = await conn.fetchval(_INSERT_GAME, *values, now, now, channel, message)
            except asyncpg.UniqueViolationError as error:
                if error.constraint_name != "games_one_daily_per_player":
                    raise
                raise DailyAlreadyPlayed(await _daily_id(conn, game)) from None
            if game_id is None:  # the channel's one active game is there already
                current = await _fetch(
                    conn,
                    _CHANNEL_GAME,
                    (game.channel_id,),
                )
                if not current:
                    raise GameAlreadyActive()
                raise GameAlreadyActive(current[0][0].id, current[0][0].kind)
            stored = replace(game, id=game_id)
            await _insert_moves(conn, stored, 0, now, source)
            return stored

        return public(await self._transaction(work, source=source))

    async def apply(
        self,
        transition: Callable[[Game], tuple[Game, OutcomeT]],
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_version: int | None = None,
        source: str | None = None,
    ) -> tuple[Game, OutcomeT]:
        """Load and lock a game, apply one pure transition and save it, in one transaction.

        The same contract as `SqliteStore.apply`: NoActiveGame, GameOver, StaleGame,
        AlreadyApplied (`source` already made a move; nothing is written).
        """
        if (channel_id is None) == (game_id is None):
            raise TypeError("give exactly one of channel_id and game_id")

        async def work(conn: Conn, now: datetime) -> tuple[Game, OutcomeT]:
            if source is not None:
                await _refuse_repeat(conn, source)
            if channel_id is not None:
                found = await _fetch(
                    conn,
                    _CHANNEL_GAME,
                    (channel_id,),
                    with_secret=True,
                    lock=True,
                )
                if not found:
                    raise NoActiveGame()
            else:
                found = await _fetch(conn, "id = $1", (game_id,), with_secret=True, lock=True)
                if not found:
                    raise NoActiveGame()
                if found[0][0].is_over:
                    raise GameOver()
            game = found[0][0]
            if expected_version is not None and game.version != expected_version:
                raise StaleGame()
            new, outcome = transition(game)
            await _save(conn, game, new, now, source)
            return new, outcome

        new, outcome = await self._transaction(work, source=source)
        return public(new), outcome

    async def active_game(self, channel_id: int) -> Game | None:
        found = await self._read(lambda conn: _fetch(conn, _CHANNEL_GAME, (channel_id,)))
        return found[0][0] if found else None

    async def game(self, game_id: int) -> Game | None:
        found = await self._read(lambda conn: _fetch(conn, "id = $1", (game_id,)))
        return found[0][0] if found else None

    async def active_races(self) -> list[Game]:
        """Every race still running (secrets withheld), oldest first."""
        found = await self._read(
            lambda conn: _fetch(conn, "kind = 'race' AND status = 'active' ORDER BY id", ())
        )
        return [game for game, _ in found]

    async def expire_stale(self, older_than: timedelta) -> list[Game]:
        """Abandon (as timed out) every active game with no move for `older_than`; each game is
        its own transaction, and one that cannot be read is logged and skipped."""
        cutoff = self._clock() - older_than
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT id FROM games WHERE status = 'active' AND last_move_at < $1 ORDER BY id",
                cutoff,
            )
        )
        expired: list[Game] = []
        for (game_id,) in rows:
            try:
                game, _ = await self.apply(expire, game_id=game_id)
            except (GameOver, StaleGame):
                continue  # someone moved or ended it meanwhile
            except Exception:
                log.exception("game %s could not be expired; skipped", game_id)
                continue
            expired.append(game)
        return expired

    # --- boards --------------------------------------------------------------------------

    async def board(self, game_id: int) -> Board | None:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT board_channel_id, board_message_id, rendered_version FROM games "
                "WHERE id = $1 AND board_message_id IS NOT NULL",
                game_id,
            )
        )
        return next((Board(*row) for row in rows), None)

    async def move_board(
        self, game_id: int, channel_id: int, message_id: int, version: int
    ) -> None:
        async def work(conn: Conn, _now: datetime) -> None:
            await conn.execute(
                "UPDATE games SET board_channel_id = $1, board_message_id = $2, "
                "rendered_version = $3 WHERE id = $4",
                channel_id,
                message_id,
                version,
                game_id,
            )

        await self._transaction(work)

    async def mark_rendered(self, game_id: int, version: int) -> None:
        async def work(conn: Conn, _now: datetime) -> None:
            await conn.execute(
                "UPDATE games SET rendered_version = greatest(rendered_version, $1) WHERE id = $2",
                version,
                game_id,
            )

        await self._transaction(work)

    async def boards_behind(self, limit: int = 100) -> list[int]:
        rows = await self._read(
            lambda conn: conn.fetch(
                "SELECT id FROM games WHERE rendered_version < version "
                "AND board_message_id IS NOT NULL AND reach = 'channel' ORDER BY id LIMIT $1",
                limit,
            )
        )
        return [row[0] for row in rows]

    # --- statistics and history ----------------------------------------------------------

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: GameKind = GameKind.PLAY
    ) -> PlayerStats:
        sql = STATS.format(
            kind="$3", where="m.player_id = $1 AND ($2::bigint IS NULL OR g.guild_id = $2::bigint)"
        )
        rows = await self._read(lambda conn: conn.fetch(sql, user_id, guild_id, kind.value))
        found = (PlayerStats(**dict(row), kind=kind) for row in rows)
        return next(found, PlayerStats(user_id, kind=kind))

    async def leaderboard(
        self, guild_id: int, limit: int = 10, kind: GameKind = GameKind.PLAY
    ) -> list[PlayerStats]:
        sql = (
            STATS.format(kind="$3", where="g.guild_id = $1")
            + " ORDER BY won DESC, best ASC NULLS LAST, played, user_id LIMIT $2"
        )
        rows = await self._read(lambda conn: conn.fetch(sql, guild_id, limit, kind.value))
        return [PlayerStats(**dict(row), kind=kind) for row in rows]

    async def history(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        player_id: int | None = None,
        limit: int = 20,
    ) -> list[HistoryEntry]:
        conditions, params = ["status <> 'active'"], list[Any]()
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id)):
            if value is not None:
                params.append(value)
                conditions.append(f"{column} = ${len(params)}")
        if player_id is not None:
            params.append(player_id)
            n = len(params)
            conditions.append(
                f"(starter_id = ${n} OR EXISTS (SELECT 1 FROM moves "
                f"WHERE moves.game_id = games.id AND moves.player_id = ${n}))"
            )
        params.append(limit)
        clause = (
            " AND ".join(conditions) + f" ORDER BY finished_at DESC, id DESC LIMIT ${len(params)}"
        )
        found = await self._read(lambda conn: _fetch(conn, clause, params))
        return [HistoryEntry(game, row["created_at"], row["finished_at"]) for game, row in found]

    async def solve_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        sql = SOLVE_STATS.format(
            where="g.starter_id = $1 AND ($2::bigint IS NULL OR g.guild_id = $2::bigint)"
        )
        row = await self._read(lambda conn: conn.fetchrow(sql, user_id, guild_id))
        assert row is not None  # an aggregate always has its one row
        return PlayerStats(
            user_id,
            played=int(row["played"]),
            won=int(row["won"]),
            guesses=int(row["guesses"]),
            best=None if row["best"] is None else int(row["best"]),
            kind=GameKind.SOLVE,
        )

    async def daily_results(self, user_id: int) -> list[DailyResult]:
        sql = _DAILY_RESULTS.format(where="g.starter_id = $1") + " ORDER BY g.puzzle, g.id"
        rows = await self._read(lambda conn: conn.fetch(sql, user_id))
        return [_daily_result(row) for row in rows]

    async def daily_leaderboard(
        self, guild_id: int, puzzle: int, limit: int = 10
    ) -> list[DailyResult]:
        sql = (
            _DAILY_RESULTS.format(where="g.guild_id = $1 AND g.puzzle = $2")
            + " ORDER BY won DESC, guesses, seconds, g.finished_at, g.id LIMIT $3"
        )
        rows = await self._read(lambda conn: conn.fetch(sql, guild_id, puzzle, limit))
        return [_daily_result(row) for row in rows]

    # --- key-value -----------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        value = await self._read(
            lambda conn: conn.fetchval("SELECT value FROM meta WHERE key = $1", key)
        )
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async def work(conn: Conn, _now: datetime) -> None:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key,
                value,
            )

        await self._transaction(work)

    async def claim_meta(self, key: str, value: str) -> str:
        async def work(conn: Conn, _now: datetime) -> str:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                key,
                value,
            )
            return str(await conn.fetchval("SELECT value FROM meta WHERE key = $1", key))

        return await self._transaction(work)

    # --- transactions --------------------------------------------------------------------

    async def _read(self, work: Callable[[Conn], Awaitable[T]]) -> T:
        """A consistent snapshot (a game and its moves as of one instant)."""
        return await self._transaction(lambda conn, _now: work(conn), read_only=True)

    async def _transaction(
        self,
        work: Callable[[Conn, datetime], Awaitable[T]],
        *,
        read_only: bool = False,
        source: str | None = None,
    ) -> T:
        """Run `work` in one transaction, to the end even if the caller is cancelled."""
        task = asyncio.ensure_future(self._run(work, read_only, source))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(retrieve)
            raise

    async def _run(
        self, work: Callable[[Conn, datetime], Awaitable[T]], read_only: bool, source: str | None
    ) -> T:
        pool = self.pool
        try:
            conn = await pool.acquire(timeout=self._busy_timeout)
        except TimeoutError:
            raise StoreBusy() from None
        except (OSError, asyncpg.PostgresConnectionError) as error:
            log.warning("%s cannot be reached: %s", self.where, error)
            raise StoreBusy() from error
        try:
            isolation: Literal["repeatable_read", "read_committed"] = (
                "repeatable_read" if read_only else "read_committed"
            )
            async with conn.transaction(isolation=isolation, readonly=read_only):
                return await work(conn, self._clock())
        except asyncpg.LockNotAvailableError:
            raise StoreBusy() from None
        except asyncpg.UniqueViolationError as error:
            if source is None or error.constraint_name != "moves_once_per_source":
                raise
            # The same input made a move on another connection meanwhile: name that move.
            row = await conn.fetchrow(
                "SELECT game_id, move_no FROM moves WHERE source = $1", source
            )
            if row is None:
                raise
            raise AlreadyApplied(row[0], row[1]) from None
        finally:
            await pool.release(conn)


# --- helpers -----------------------------------------------------------------------------------


_DAILY_RESULTS = """
    SELECT g.starter_id AS user_id, g.id AS game_id, g.puzzle, g.status = 'won' AS won,
           (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'guess')
               AS guesses,
           extract(epoch FROM g.finished_at - g.created_at)::float8 AS seconds,
           g.hard, g.hints > 0 AS hinted
    FROM games AS g
    WHERE g.kind = 'daily' AND g.status <> 'active' AND {where}
"""
"""Finished daily games as results; `{where}` narrows them (by player, or guild and puzzle)."""


def _daily_result(row: asyncpg.Record) -> DailyResult:
    return DailyResult(
        user_id=row["user_id"],
        game_id=row["game_id"],
        puzzle=row["puzzle"],
        won=bool(row["won"]),
        guesses=row["guesses"],
        seconds=round(max(0.0, row["seconds"] or 0.0), 3),
        hard=bool(row["hard"]),
        hinted=bool(row["hinted"]),
    )


async def _fetch(
    conn: Conn,
    clause: str,
    params: Sequence[Any],
    *,
    with_secret: bool = False,
    lock: bool = False,
) -> list[tuple[Game, asyncpg.Record]]:
    """Games matching `clause` (WHERE ..., `$n` parameters), with their moves; `lock` takes
    their rows for this transaction (a move)."""
    rows = await conn.fetch(
        f"SELECT {select_games(with_secret)} "
        f"FROM games WHERE {clause}" + (" FOR UPDATE" if lock else ""),
        *params,
    )
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    moves: defaultdict[int, list[asyncpg.Record]] = defaultdict(list)
    for move in await conn.fetch(
        "SELECT * FROM moves WHERE game_id = ANY($1::bigint[]) ORDER BY game_id, move_no", ids
    ):
        moves[move["game_id"]].append(move)
    return [(game_from_record(dict(row), moves[row["id"]]), row) for row in rows]


async def _refuse_repeat(conn: Conn, source: str) -> None:
    row = await conn.fetchrow("SELECT game_id, move_no FROM moves WHERE source = $1", source)
    if row is not None:
        raise AlreadyApplied(row[0], row[1])


async def _daily_id(conn: Conn, game: Game) -> int | None:
    """The id of the daily game this player already has for `game`'s puzzle."""
    puzzle = game_to_record(game)["puzzle"]
    found: int | None = await conn.fetchval(
        "SELECT id FROM games WHERE kind = 'daily' AND starter_id = $1 AND puzzle = $2",
        game.starter_id,
        puzzle,
    )
    return found


async def _save(conn: Conn, old: Game, new: Game, now: datetime, source: str | None) -> None:
    """Write what a transition appended: new move rows, then the game row's copies."""
    check_appended(old, new)
    if new.version == old.version:
        return
    await _insert_moves(conn, new, old.version, now, source)
    status = await conn.execute(
        "UPDATE games SET status = $1, winner_id = $2, version = $3, last_move_at = $4, "
        "finished_at = $5, hints = $8 WHERE id = $6 AND version = $7",
        new.status.value,
        new.winner_id,
        new.version,
        now,
        None if new.status is Status.ACTIVE else now,
        new.id,
        old.version,
        new.hints,
    )
    if status != "UPDATE 1":
        raise StaleGame()


async def _insert_moves(
    conn: Conn, game: Game, start: int, now: datetime, source: str | None = None
) -> None:
    """Append the log from `start`; the first new row carries the source that made them."""
    rows = move_rows(game, start, now, source)
    if rows:
        await conn.executemany(_INSERT_MOVE, rows)
