"""Every game lives in one SQLite file, written through aiosqlite; the bot keeps nothing else.

* One connection per `Store`, an asyncio lock around every transaction and `BEGIN IMMEDIATE`
  for writes, so coroutines of this process *and* other processes on the file take turns.
* Each transaction runs in its own shielded task, so a cancelled caller never leaves one
  half-done on the shared connection.
* At most one active game per channel is a partial unique index, not a check in Python.
* Moves are append-only rows (triggers refuse UPDATE and DELETE); the game row keeps copies of
  status, winner and version for the index and the queries.
* A play game's `secret` column is read only to score a move or to show a finished game:
  active games leave the store with their secret withheld.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from bot.engine.game import (
    Game,
    GameAlreadyActive,
    GameOver,
    Move,
    NoActiveGame,
    PlayGame,
    Secret,
    SolveGame,
    StaleGame,
    Status,
    expire,
    game_from_record,
)

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("mastermind.db")
BUSY_TIMEOUT_SECONDS = 10.0

T = TypeVar("T")
OutcomeT = TypeVar("OutcomeT")
G = TypeVar("G", PlayGame, SolveGame)

Db = aiosqlite.Connection

# MIGRATIONS[n] takes the schema from version n to n + 1 (PRAGMA user_version), in one
# transaction. Never edit a released entry: append a new one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: games and their moves
        """
        CREATE TABLE games (
            id          INTEGER PRIMARY KEY,
            format      INTEGER NOT NULL,
            kind        TEXT    NOT NULL CHECK (kind IN ('play', 'solve')),
            guild_id    INTEGER,
            channel_id  INTEGER NOT NULL,
            starter_id  INTEGER NOT NULL,
            pegs        INTEGER NOT NULL,
            colours     INTEGER NOT NULL,
            duplicates  INTEGER NOT NULL,
            max_guesses INTEGER NOT NULL,
            solo        INTEGER NOT NULL,
            strategy    TEXT,
            secret      TEXT,
            status      TEXT    NOT NULL
                CHECK (status IN ('active', 'won', 'lost', 'solved', 'abandoned')),
            winner_id   INTEGER,
            version     INTEGER NOT NULL,
            created_at  TEXT    NOT NULL,
            finished_at TEXT,
            CHECK ((kind = 'play') = (secret IS NOT NULL))
        )
        """,
        "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) "
        "WHERE status = 'active'",
        "CREATE INDEX games_by_guild ON games (guild_id, status)",
        """
        CREATE TABLE moves (
            game_id    INTEGER NOT NULL REFERENCES games (id),
            move_no    INTEGER NOT NULL CHECK (move_no >= 1),
            kind       TEXT    NOT NULL
                CHECK (kind IN ('guess', 'answer', 'undo', 'give_up', 'timeout')),
            player_id  INTEGER,
            code       TEXT,
            black      INTEGER,
            white      INTEGER,
            created_at TEXT    NOT NULL,
            PRIMARY KEY (game_id, move_no)
        ) WITHOUT ROWID
        """,
    ),
    (  # 2: expiry, statistics index, key-value meta, append-only moves
        "ALTER TABLE games ADD COLUMN last_move_at TEXT",
        """
        UPDATE games SET last_move_at = coalesce(
            (SELECT max(created_at) FROM moves WHERE moves.game_id = games.id), created_at)
        """,
        "CREATE INDEX games_active_by_last_move ON games (last_move_at) WHERE status = 'active'",
        "CREATE INDEX moves_by_player ON moves (player_id, game_id)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        """
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
        """,
        """
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
        """,
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)

_RECORD_COLUMNS = (
    "format",
    "kind",
    "guild_id",
    "channel_id",
    "starter_id",
    "pegs",
    "colours",
    "duplicates",
    "max_guesses",
    "solo",
    "strategy",
    "secret",
    "status",
    "winner_id",
    "version",
)
_INSERT_GAME = (
    f"INSERT INTO games ({', '.join(_RECORD_COLUMNS)}, created_at, last_move_at) "
    f"VALUES ({', '.join(':' + c for c in _RECORD_COLUMNS)}, :now, :now)"
)
_INSERT_MOVE = (
    "INSERT INTO moves (game_id, move_no, kind, player_id, code, black, white, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)
_STATS = """
    SELECT m.player_id AS user_id,
           count(DISTINCT m.game_id) AS played,
           count(DISTINCT CASE WHEN g.winner_id = m.player_id THEN m.game_id END) AS won,
           count(*) AS guesses,
           min(CASE WHEN m.black = g.pegs THEN m.move_no END) AS best
    FROM moves AS m JOIN games AS g ON g.id = m.game_id
    WHERE g.kind = 'play' AND g.status <> 'active' AND m.kind = 'guess' AND {where}
    GROUP BY m.player_id
"""


class SchemaError(RuntimeError):
    """The database file cannot be used by this version of the bot."""


@dataclass(frozen=True)
class PlayerStats:
    """A player's record over finished play games.

    played: games they made at least one guess in; won: games they made the winning guess in;
    guesses: all their guesses in those games; best: the game's guess count when they won it.
    """

    user_id: int
    played: int = 0
    won: int = 0
    guesses: int = 0
    best: int | None = None  # fewest guesses in a game they won

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class HistoryEntry:
    game: Game
    created_at: datetime
    finished_at: datetime


class Store:
    """The single source of truth for games. Use `await Store.open(path)` or `async with`."""

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        clock: Callable[[], datetime] | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    ) -> None:
        self.path = Path(path)
        self._clock = clock or _utc_now
        self._busy_timeout = busy_timeout
        self._db: Db | None = None
        self._lock = asyncio.Lock()
        self._running: set[asyncio.Task[Any]] = set()  # strong references to shielded work

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        clock: Callable[[], datetime] | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    ) -> Store:
        store = cls(path, clock=clock, busy_timeout=busy_timeout)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the file, set durability and locking pragmas, and migrate the schema."""
        db = await aiosqlite.connect(self.path, isolation_level=None, timeout=self._busy_timeout)
        try:
            db.row_factory = sqlite3.Row
            await db.execute_fetchall(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            ((mode,),) = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            if mode.lower() != "wal":
                log.warning("%s: WAL journal unavailable, using %s", self.path, mode)
            # FULL: a move whose call returned survives power loss too, not only a crash.
            await db.execute_fetchall("PRAGMA synchronous = FULL")
            await db.execute_fetchall("PRAGMA foreign_keys = ON")
            await _migrate(db, self.path)
        except BaseException:
            await db.close()
            raise
        self._db = db

    async def close(self) -> None:
        if self._db is not None:
            async with self._lock:
                db, self._db = self._db, None
                await db.close()

    async def __aenter__(self) -> Self:
        if self._db is None:
            await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- games ---------------------------------------------------------------------------

    async def start(self, game: G) -> G:
        """Store a new game and return it with its id; one active game per channel."""
        if game.id is not None or game.is_over:
            raise ValueError("only a new, active game can be started")

        async def work(db: Db, now: str) -> G:
            record = {**game.to_record(), "now": now}
            try:
                async with db.execute(_INSERT_GAME, record) as cursor:
                    game_id = cursor.lastrowid
            except sqlite3.IntegrityError as error:
                if "games.channel_id" not in str(error):  # the one-active-game index
                    raise
                current = await _fetch(
                    db, "channel_id = ? AND status = 'active'", (game.channel_id,)
                )
                if not current:
                    raise GameAlreadyActive() from None
                raise GameAlreadyActive(current[0][0].id, current[0][0].kind) from None
            stored = replace(game, id=game_id)
            await _insert_moves(db, stored, 0, now)
            return stored

        return _public(await self._transaction(work, write=True))

    async def apply(
        self,
        transition: Callable[[Game], tuple[Game, OutcomeT]],
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_version: int | None = None,
    ) -> tuple[Game, OutcomeT]:
        """Load a game, apply one pure transition and save it, all in one transaction.

        By `channel_id`: the channel's active game, or NoActiveGame. By `game_id` (what a
        button or a guess parsed against a known board should use): that game, or GameOver
        once it has ended. `expected_version` refuses a move based on an older board.
        """
        if (channel_id is None) == (game_id is None):
            raise TypeError("give exactly one of channel_id and game_id")

        async def work(db: Db, now: str) -> tuple[Game, OutcomeT]:
            if channel_id is not None:
                found = await _fetch(
                    db, "channel_id = ? AND status = 'active'", (channel_id,), with_secret=True
                )
                if not found:
                    raise NoActiveGame()
            else:
                found = await _fetch(db, "id = ?", (game_id,), with_secret=True)
                if not found:
                    raise NoActiveGame()
                if found[0][0].is_over:
                    raise GameOver()
            game = found[0][0]
            if expected_version is not None and game.version != expected_version:
                raise StaleGame()
            new, outcome = transition(game)
            await _save(db, game, new, now)
            return new, outcome

        new, outcome = await self._transaction(work, write=True)
        return _public(new), outcome

    async def active_game(self, channel_id: int) -> Game | None:
        """The channel's active game for display (its secret withheld), or None."""
        found = await self._read(
            lambda db: _fetch(db, "channel_id = ? AND status = 'active'", (channel_id,))
        )
        return found[0][0] if found else None

    async def game(self, game_id: int) -> Game | None:
        """Any game by id; a finished play game comes with its secret, an active one without."""
        found = await self._read(lambda db: _fetch(db, "id = ?", (game_id,)))
        return found[0][0] if found else None

    async def expire_stale(self, older_than: timedelta) -> list[Game]:
        """Abandon (as timed out) every active game with no move for `older_than`."""

        async def work(db: Db, now: str) -> list[Game]:
            cutoff = _iso(datetime.fromisoformat(now) - older_than)
            found = await _fetch(
                db, "status = 'active' AND last_move_at < ?", (cutoff,), with_secret=True
            )
            expired = []
            for game, _ in found:
                new, _outcome = expire(game)
                await _save(db, game, new, now)
                expired.append(new)
            return expired

        return await self._transaction(work, write=True)

    # --- statistics and history ----------------------------------------------------------

    async def player_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        """One player's stats in a guild, or everywhere when `guild_id` is None."""
        sql = _STATS.format(where="m.player_id = :user AND (:guild IS NULL OR g.guild_id = :guild)")
        rows = await self._read(
            lambda db: db.execute_fetchall(sql, {"user": user_id, "guild": guild_id})
        )
        return next((PlayerStats(**dict(row)) for row in rows), PlayerStats(user_id))

    async def leaderboard(self, guild_id: int, limit: int = 10) -> list[PlayerStats]:
        """A guild's players, most wins first, then the best game, then fewest games played."""
        sql = (
            _STATS.format(where="g.guild_id = :guild")
            + " ORDER BY won DESC, best IS NULL, best, played, user_id LIMIT :limit"
        )
        rows = await self._read(
            lambda db: db.execute_fetchall(sql, {"guild": guild_id, "limit": limit})
        )
        return [PlayerStats(**dict(row)) for row in rows]

    async def history(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        player_id: int | None = None,
        limit: int = 20,
    ) -> list[HistoryEntry]:
        """Finished games, newest first; a player's are those they started or moved in."""
        conditions, params = ["status <> 'active'"], []
        for column, value in (("guild_id", guild_id), ("channel_id", channel_id)):
            if value is not None:
                conditions.append(f"{column} = ?")
                params.append(value)
        if player_id is not None:
            conditions.append(
                "(starter_id = ? OR EXISTS (SELECT 1 FROM moves "
                "WHERE moves.game_id = games.id AND moves.player_id = ?))"
            )
            params += [player_id, player_id]
        clause = " AND ".join(conditions) + " ORDER BY finished_at DESC, id DESC LIMIT ?"
        found = await self._read(lambda db: _fetch(db, clause, (*params, limit)))
        return [
            HistoryEntry(
                game,
                datetime.fromisoformat(row["created_at"]),
                datetime.fromisoformat(row["finished_at"]),
            )
            for game, row in found
        ]

    # --- key-value -----------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self._read(
            lambda db: db.execute_fetchall("SELECT value FROM meta WHERE key = ?", (key,))
        )
        return next((row["value"] for row in rows), None)

    async def set_meta(self, key: str, value: str) -> None:
        async def work(db: Db, _now: str) -> None:
            await db.execute_fetchall(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

        await self._transaction(work, write=True)

    # --- transactions --------------------------------------------------------------------

    async def _read(self, work: Callable[[Db], Awaitable[T]]) -> T:
        """A consistent snapshot; under the lock so it never sees another call's open writes."""
        return await self._transaction(lambda db, _now: work(db), write=False)

    async def _transaction(self, work: Callable[[Db, str], Awaitable[T]], *, write: bool) -> T:
        """Run `work` in one transaction, to the end even if the caller is cancelled."""
        task = asyncio.ensure_future(self._locked(work, write))
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_retrieve)
            raise

    async def _locked(self, work: Callable[[Db, str], Awaitable[T]], write: bool) -> T:
        async with self._lock:
            if self._db is None:
                raise RuntimeError("the store is closed")
            db = self._db
            await db.execute_fetchall("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                result = await work(db, _iso(self._clock()))
                await db.execute_fetchall("COMMIT")
            except BaseException:
                await _rollback(db)
                raise
            return result


# --- helpers -----------------------------------------------------------------------------------


async def _migrate(db: Db, path: Path) -> None:
    """Bring the schema up to date; the version is re-read under the write lock."""
    await db.execute_fetchall("BEGIN IMMEDIATE")
    try:
        ((version,),) = await db.execute_fetchall("PRAGMA user_version")
        if version > SCHEMA_VERSION:
            raise SchemaError(
                f"{path} was written by a newer mastermind-bot (schema {version}; this one "
                f"knows up to {SCHEMA_VERSION}): upgrade the bot."
            )
        for number in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[number]:
                await db.execute_fetchall(statement)
            await db.execute_fetchall(f"PRAGMA user_version = {number + 1}")
        await db.execute_fetchall("COMMIT")
    except BaseException:
        await _rollback(db)
        raise
    if version < SCHEMA_VERSION:
        log.info("%s: schema upgraded from %d to %d", path, version, SCHEMA_VERSION)


async def _rollback(db: Db) -> None:
    # OperationalError: no transaction is open any more (it committed or never began).
    with contextlib.suppress(sqlite3.OperationalError):
        await db.execute_fetchall("ROLLBACK")


def _retrieve(task: asyncio.Task[Any]) -> None:
    """Mark a shielded transaction's error as seen once its caller has gone."""
    if not task.cancelled():
        task.exception()


async def _fetch(
    db: Db, clause: str, params: Sequence[Any], *, with_secret: bool = False
) -> list[tuple[Game, sqlite3.Row]]:
    """Games matching `clause` (WHERE ...), with their moves.

    Active play games come without their secret unless `with_secret`, which only the paths
    that score or end a game pass.
    """
    secret = "secret" if with_secret else "CASE WHEN status = 'active' THEN NULL ELSE secret END"
    columns = ", ".join(c for c in _RECORD_COLUMNS if c != "secret")
    rows = list(
        await db.execute_fetchall(
            f"SELECT id, {columns}, {secret} AS secret, created_at, finished_at, last_move_at "
            f"FROM games WHERE {clause}",
            params,
        )
    )
    if not rows:
        return []
    ids = [row["id"] for row in rows]
    moves: defaultdict[int, list[sqlite3.Row]] = defaultdict(list)
    for move in await db.execute_fetchall(
        f"SELECT * FROM moves WHERE game_id IN ({', '.join('?' * len(ids))}) "
        "ORDER BY game_id, move_no",
        ids,
    ):
        moves[move["game_id"]].append(move)
    return [(game_from_record(dict(row), moves[row["id"]]), row) for row in rows]


async def _save(db: Db, old: Game, new: Game, now: str) -> None:
    """Write what a transition appended: new move rows, then the game row's copies."""
    if replace(new, log=old.log) != old or new.log[: len(old.log)] != old.log:
        raise ValueError("a transition may only append moves to the game it was given")
    if new.version == old.version:
        return
    await _insert_moves(db, new, old.version, now)
    async with db.execute(
        "UPDATE games SET status = ?, winner_id = ?, version = ?, last_move_at = ?, "
        "finished_at = ? WHERE id = ? AND version = ?",
        (
            new.status.value,
            new.winner_id,
            new.version,
            now,
            None if new.status is Status.ACTIVE else now,
            new.id,
            old.version,
        ),
    ) as cursor:
        if cursor.rowcount != 1:
            raise StaleGame()


async def _insert_moves(db: Db, game: Game, start: int, now: str) -> None:
    rows = [
        (game.id, number, *_move_values(move), now)
        for number, move in enumerate(game.log[start:], start=start + 1)
    ]
    if rows:
        async with db.executemany(_INSERT_MOVE, rows):
            pass


def _move_values(move: Move) -> tuple[Any, ...]:
    record = move.to_record()
    return (record["kind"], record["player_id"], record["code"], record["black"], record["white"])


def _public(game: G) -> G:
    """Withhold an active play game's secret from everything outside the store."""
    if isinstance(game, PlayGame) and not game.is_over and game.secret.known:
        return replace(game, secret=Secret.withheld())
    return game


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    """Fixed-width UTC text, so timestamps sort and compare as strings."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
