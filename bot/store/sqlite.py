"""The SQLite store: every game in one file, written through aiosqlite.

* One connection per `SqliteStore`, an asyncio lock around every transaction and `BEGIN
  IMMEDIATE` for writes, so coroutines of this process *and* other processes on the file take
  turns.
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
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from bot.engine.errors import (
    DailyAlreadyPlayed,
    GameAlreadyActive,
    GameOver,
    NoActiveGame,
    StaleGame,
)
from bot.engine.game import G, Game, GameKind, Status, expire
from bot.store.codec import game_from_record, game_to_record
from bot.store.errors import AlreadyApplied, StoreBusy, StoreUnavailable
from bot.store.filelock import claim
from bot.store.interface import OutcomeT
from bot.store.migrations import migrate
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
# aiosqlite logs every statement with its parameters at DEBUG, a play game's secret among them.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

DEFAULT_PATH = Path("mastermind.db")
BUSY_TIMEOUT_SECONDS = 2.0
"""How long a write waits for the database: short enough to answer inside Discord's 3 s."""

T = TypeVar("T")

Db = aiosqlite.Connection

_INSERT_GAME = (
    f"INSERT INTO games ({', '.join(RECORD_COLUMNS)}, created_at, last_move_at, "
    "board_channel_id, board_message_id) "
    f"VALUES ({', '.join(':' + c for c in RECORD_COLUMNS)}, :now, :now, "
    ":board_channel_id, :board_message_id)"
)
_CHANNEL_GAME = f"channel_id = ? AND status = 'active' AND {CHANNEL_GAMES}"
"""The channel's one active game."""
_INSERT_MOVE = (
    "INSERT INTO moves "
    "(game_id, move_no, kind, player_id, code, black, white, created_at, source) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class SqliteStore:
    """The `Store` on one SQLite file. Use `await SqliteStore.open(path)` or `async with`."""

    def __init__(
        self,
        path: str | os.PathLike[str] = DEFAULT_PATH,
        *,
        clock: Callable[[], datetime] | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
        exclusive: bool = False,
    ) -> None:
        self.path = Path(path)
        self._clock = clock or utc_now
        self._busy_timeout = busy_timeout
        self._exclusive = exclusive
        self._lock_file: int | None = None
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
        exclusive: bool = False,
    ) -> SqliteStore:
        """Open (and migrate) the file. `exclusive`: this process is the bot, and no other bot
        process may use the file at the same time (it would answer every click twice)."""
        store = cls(path, clock=clock, busy_timeout=busy_timeout, exclusive=exclusive)
        await store.connect()
        return store

    async def connect(self) -> None:
        """Open the file, set durability and locking pragmas, and migrate the schema.

        Anything that makes the file unusable raises StoreUnavailable with one line naming it.
        """
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
        if self._exclusive:
            self._lock_file = claim(self.path)
        try:
            db = await aiosqlite.connect(
                self.path, isolation_level=None, timeout=self._busy_timeout
            )
        except sqlite3.Error as error:
            self._release()
            raise _unusable(self.path, error) from error
        try:
            db.row_factory = sqlite3.Row
            await db.execute_fetchall(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            ((mode,),) = await db.execute_fetchall("PRAGMA journal_mode = WAL")
            if mode.lower() != "wal":
                log.warning("%s: WAL journal unavailable, using %s", self.path, mode)
            # FULL: a move whose call returned survives power loss too, not only a crash.
            await db.execute_fetchall("PRAGMA synchronous = FULL")
            # Migrations run with foreign keys off (a rebuilt table is briefly missing) and
            # check them before committing; everything after runs with them on.
            await db.execute_fetchall("PRAGMA foreign_keys = OFF")
            await migrate(db, self.path)
            await db.execute_fetchall("PRAGMA foreign_keys = ON")
        except BaseException as error:
            await db.close()
            self._release()
            if isinstance(error, sqlite3.Error):
                raise _unusable(self.path, error) from error
            raise
        self._db = db

    async def close(self) -> None:
        if self._db is not None:
            async with self._lock:
                db, self._db = self._db, None
                await db.close()
        self._release()

    def _release(self) -> None:
        if self._lock_file is not None:
            os.close(self._lock_file)  # closing the descriptor drops the flock
            self._lock_file = None

    async def __aenter__(self) -> Self:
        if self._db is None:
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
        """Store a new game and return it with its id; one active game per channel.

        `board` (channel id, message id) is where its board is posted, written in the same
        transaction so no crash leaves a game without one. `source` marks the first move (a
        solve game's opening guess) with the interaction that made it.
        """
        if game.id is not None or game.is_over:
            raise ValueError("only a new, active game can be started")

        async def work(db: Db, now: str) -> G:
            channel, message = board or (None, None)
            record = {
                **game_to_record(game),
                "now": now,
                "board_channel_id": channel,
                "board_message_id": message,
            }
            try:
                async with db.execute(_INSERT_GAME, record) as cursor:
                    game_id = cursor.lastrowid
            except sqlite3.IntegrityError as error:
                if "games.puzzle" in str(error):  # one daily game per player and puzzle
                    raise DailyAlreadyPlayed(await _daily_id(db, game)) from None
                if "games.channel_id" not in str(error):  # the one-active-game index
                    raise
                current = await _fetch(
                    db,
                    _CHANNEL_GAME,
                    (game.channel_id,),
                )
                if not current:
                    raise GameAlreadyActive() from None
                raise GameAlreadyActive(current[0][0].id, current[0][0].kind) from None
            stored = replace(game, id=game_id)
            await _insert_moves(db, stored, 0, now, source)
            return stored

        return public(await self._transaction(work, write=True))

    async def apply(
        self,
        transition: Callable[[Game], tuple[Game, OutcomeT]],
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_version: int | None = None,
        source: str | None = None,
    ) -> tuple[Game, OutcomeT]:
        """Load a game, apply one pure transition and save it, all in one transaction.

        By `channel_id`: the channel's active game, or NoActiveGame. By `game_id` (what a
        button or a guess parsed against a known board should use): that game, or GameOver
        once it has ended. `expected_version` refuses a move based on an older board.
        `source` names the input that made the move (an interaction, a picker, a modal);
        a second move from the same source raises AlreadyApplied and writes nothing.
        """
        if (channel_id is None) == (game_id is None):
            raise TypeError("give exactly one of channel_id and game_id")

        async def work(db: Db, now: str) -> tuple[Game, OutcomeT]:
            if source is not None:
                await _refuse_repeat(db, source)
            if channel_id is not None:
                found = await _fetch(
                    db,
                    _CHANNEL_GAME,
                    (channel_id,),
                    with_secret=True,
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
            await _save(db, game, new, now, source)
            return new, outcome

        new, outcome = await self._transaction(work, write=True)
        return public(new), outcome

    async def active_game(self, channel_id: int) -> Game | None:
        """The channel's active game for display (its secret withheld), or None."""
        found = await self._read(lambda db: _fetch(db, _CHANNEL_GAME, (channel_id,)))
        return found[0][0] if found else None

    async def game(self, game_id: int) -> Game | None:
        """Any game by id; a finished play game comes with its secret, an active one without."""
        found = await self._read(lambda db: _fetch(db, "id = ?", (game_id,)))
        return found[0][0] if found else None

    async def active_races(self) -> list[Game]:
        """Every race still running (secrets withheld), oldest first."""
        found = await self._read(
            lambda db: _fetch(db, "kind = 'race' AND status = 'active' ORDER BY id", ())
        )
        return [game for game, _ in found]

    async def expire_stale(self, older_than: timedelta) -> list[Game]:
        """Abandon (as timed out) every active game with no move for `older_than`.

        Each game is its own transaction: a row that cannot be read is logged and skipped, and
        the others still end.
        """
        cutoff = _iso(self._clock() - older_than)
        rows = await self._read(
            lambda db: db.execute_fetchall(
                "SELECT id FROM games WHERE status = 'active' AND last_move_at < ? ORDER BY id",
                (cutoff,),
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
        """Where the game's board is, or None if it has none (yet)."""
        rows = await self._read(
            lambda db: db.execute_fetchall(
                "SELECT board_channel_id, board_message_id, rendered_version FROM games "
                "WHERE id = ? AND board_message_id IS NOT NULL",
                (game_id,),
            )
        )
        return next((Board(*row) for row in rows), None)

    async def move_board(
        self, game_id: int, channel_id: int, message_id: int, version: int
    ) -> None:
        """A new board message (posted again by `/mastermind board`) showing `version`."""

        async def work(db: Db, _now: str) -> None:
            await db.execute_fetchall(
                "UPDATE games SET board_channel_id = ?, board_message_id = ?, "
                "rendered_version = ? WHERE id = ?",
                (channel_id, message_id, version, game_id),
            )

        await self._transaction(work, write=True)

    async def mark_rendered(self, game_id: int, version: int) -> None:
        """The board now shows `version`; an older version never lowers the mark."""

        async def work(db: Db, _now: str) -> None:
            await db.execute_fetchall(
                "UPDATE games SET rendered_version = max(rendered_version, ?) WHERE id = ?",
                (version, game_id),
            )

        await self._transaction(work, write=True)

    async def boards_behind(self, limit: int = 100) -> list[int]:
        """Games whose board shows an older version than the stored game, oldest first."""
        rows = await self._read(
            lambda db: db.execute_fetchall(
                "SELECT id FROM games WHERE rendered_version < version "
                "AND board_message_id IS NOT NULL AND reach = 'channel' ORDER BY id LIMIT ?",
                (limit,),
            )
        )
        return [row[0] for row in rows]

    # --- statistics and history ----------------------------------------------------------

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: GameKind = GameKind.PLAY
    ) -> PlayerStats:
        """One player's record in one kind of game, in a guild or everywhere (`guild_id` None)."""
        sql = STATS.format(
            kind=":kind", where="m.player_id = :user AND (:guild IS NULL OR g.guild_id = :guild)"
        )
        rows = await self._read(
            lambda db: db.execute_fetchall(
                sql, {"user": user_id, "guild": guild_id, "kind": kind.value}
            )
        )
        found = (PlayerStats(**dict(row), kind=kind) for row in rows)
        return next(found, PlayerStats(user_id, kind=kind))

    async def leaderboard(
        self, guild_id: int, limit: int = 10, kind: GameKind = GameKind.PLAY
    ) -> list[PlayerStats]:
        """A guild's players, most wins first, then the best game, then fewest games played."""
        sql = (
            STATS.format(kind=":kind", where="g.guild_id = :guild")
            + " ORDER BY won DESC, best IS NULL, best, played, user_id LIMIT :limit"
        )
        rows = await self._read(
            lambda db: db.execute_fetchall(
                sql, {"guild": guild_id, "limit": limit, "kind": kind.value}
            )
        )
        return [PlayerStats(**dict(row), kind=kind) for row in rows]

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

    async def solve_stats(self, guild_id: int | None, user_id: int) -> PlayerStats:
        sql = SOLVE_STATS.format(
            where="g.starter_id = :user AND (:guild IS NULL OR g.guild_id = :guild)"
        )
        rows = await self._read(
            lambda db: db.execute_fetchall(sql, {"user": user_id, "guild": guild_id})
        )
        (row,) = rows  # an aggregate always has its one row
        return PlayerStats(user_id, **dict(row), kind=GameKind.SOLVE)

    async def daily_results(self, user_id: int) -> list[DailyResult]:
        """A player's finished daily games everywhere, oldest puzzle first."""
        sql = _DAILY_RESULTS.format(where="g.starter_id = ?") + " ORDER BY g.puzzle, g.id"
        rows = await self._read(lambda db: db.execute_fetchall(sql, (user_id,)))
        return [_daily_result(row) for row in rows]

    async def daily_leaderboard(
        self, guild_id: int, puzzle: int, limit: int = 10
    ) -> list[DailyResult]:
        """A guild's finished games of one daily puzzle: solved, fewer guesses, less time."""
        sql = (
            _DAILY_RESULTS.format(where="g.guild_id = ? AND g.puzzle = ?")
            + " ORDER BY won DESC, guesses, seconds, g.finished_at, g.id LIMIT ?"
        )
        rows = await self._read(lambda db: db.execute_fetchall(sql, (guild_id, puzzle, limit)))
        return [_daily_result(row) for row in rows]

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

    async def claim_meta(self, key: str, value: str) -> str:
        async def work(db: Db, _now: str) -> str:
            await db.execute_fetchall(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                (key, value),
            )
            ((held,),) = await db.execute_fetchall("SELECT value FROM meta WHERE key = ?", (key,))
            return str(held)

        return await self._transaction(work, write=True)

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
            task.add_done_callback(retrieve)
            raise

    async def _locked(self, work: Callable[[Db, str], Awaitable[T]], write: bool) -> T:
        try:
            async with asyncio.timeout(self._busy_timeout):
                await self._lock.acquire()
        except TimeoutError:
            raise StoreBusy() from None
        try:
            return await self._locked_work(work, write)
        finally:
            self._lock.release()

    async def _locked_work(self, work: Callable[[Db, str], Awaitable[T]], write: bool) -> T:
        if self._db is None:
            raise RuntimeError("the store is closed")
        db = self._db
        try:
            await db.execute_fetchall("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                raise StoreBusy() from None
            raise
        try:
            result = await work(db, _iso(self._clock()))
            await db.execute_fetchall("COMMIT")
        except sqlite3.OperationalError as error:
            await _rollback(db)
            if "locked" in str(error) or "busy" in str(error):
                raise StoreBusy() from None
            raise
        except BaseException:
            await _rollback(db)
            raise
        return result


# --- helpers -----------------------------------------------------------------------------------


_DAILY_RESULTS = """
    SELECT g.starter_id AS user_id, g.id AS game_id, g.puzzle, g.status = 'won' AS won,
           (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'guess')
               AS guesses,
           (julianday(g.finished_at) - julianday(g.created_at)) * 86400.0 AS seconds,
           g.hard, g.hints > 0 AS hinted
    FROM games AS g
    WHERE g.kind = 'daily' AND g.status <> 'active' AND {where}
"""
"""Finished daily games as results; `{where}` narrows them (by player, or guild and puzzle)."""


def _daily_result(row: sqlite3.Row) -> DailyResult:
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


def _unusable(path: Path, error: sqlite3.Error) -> StoreUnavailable:
    """One line that names the file, what is wrong with it and what to do."""
    text = str(error).lower()
    if "readonly" in text or "read-only" in text:
        why = "is read-only: give the bot write access to the file and its folder"
    elif "not a database" in text or "malformed" in text or "corrupt" in text:
        why = "is not a mastermind-bot database or is damaged: restore a backup or move it aside"
    elif "unable to open" in text:
        why = "cannot be opened: check that its folder exists and the bot may write there"
    elif "locked" in text or "busy" in text:
        why = "is locked by another program: close it and start again"
    else:
        why = f"cannot be used ({error})"
    return StoreUnavailable(f"database {path} {why}.")


async def _rollback(db: Db) -> None:
    # OperationalError: no transaction is open any more (it committed or never began).
    with contextlib.suppress(sqlite3.OperationalError):
        await db.execute_fetchall("ROLLBACK")


async def _fetch(
    db: Db, clause: str, params: Sequence[Any], *, with_secret: bool = False
) -> list[tuple[Game, sqlite3.Row]]:
    """Games matching `clause` (WHERE ...), with their moves.

    Active play games come without their secret unless `with_secret`, which only the paths
    that score or end a game pass.
    """
    rows = list(
        await db.execute_fetchall(
            f"SELECT {select_games(with_secret)} FROM games WHERE {clause}",
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


async def _refuse_repeat(db: Db, source: str) -> None:
    rows = await db.execute_fetchall(
        "SELECT game_id, move_no FROM moves WHERE source = ?", (source,)
    )
    for game_id, move_no in rows:
        raise AlreadyApplied(game_id, move_no)


async def _daily_id(db: Db, game: Game) -> int | None:
    """The id of the daily game this player already has for `game`'s puzzle."""
    puzzle = game_to_record(game)["puzzle"]
    rows = await db.execute_fetchall(
        "SELECT id FROM games WHERE kind = 'daily' AND starter_id = ? AND puzzle = ?",
        (game.starter_id, puzzle),
    )
    return next((int(row[0]) for row in rows), None)


async def _save(db: Db, old: Game, new: Game, now: str, source: str | None = None) -> None:
    """Write what a transition appended: new move rows, then the game row's copies."""
    check_appended(old, new)
    if new.version == old.version:
        return
    await _insert_moves(db, new, old.version, now, source)
    async with db.execute(
        "UPDATE games SET status = ?, winner_id = ?, version = ?, hints = ?, last_move_at = ?, "
        "finished_at = ? WHERE id = ? AND version = ?",
        (
            new.status.value,
            new.winner_id,
            new.version,
            new.hints,
            now,
            None if new.status is Status.ACTIVE else now,
            new.id,
            old.version,
        ),
    ) as cursor:
        if cursor.rowcount != 1:
            raise StaleGame()


async def _insert_moves(
    db: Db, game: Game, start: int, now: str, source: str | None = None
) -> None:
    """Append the log from `start`; the first new row carries the source that made them."""
    rows = move_rows(game, start, now, source)
    if rows:
        async with db.executemany(_INSERT_MOVE, rows):
            pass


def _iso(moment: datetime) -> str:
    """Fixed-width UTC text, so timestamps sort and compare as strings."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")
