"""`python -m bot copy-to-postgres`: copy a SQLite database into PostgreSQL, verified by counts.

Games (with their secrets, boards and ids), moves and meta are copied in one PostgreSQL
transaction. Running it again copies only what is missing: a game that went on in the file since
the last copy is brought up to date, nothing is copied twice, and a game of the database that is
not the file's game of the same id stops the copy before anything is written. Statistics are
computed from games and moves, so they come along. Before committing, the copy checks that the
database holds every game, move and meta value of the file, and reports the counts.

The file's lock is taken for the whole copy, so the copy refuses to run while a bot still runs on
the file (stop it first); the bot started on PostgreSQL afterwards finds everything.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
from dotenv import load_dotenv

from bot.redact import redact
from bot.store import PostgresStore, SqliteStore, StoreUnavailable, is_postgres_url
from bot.store.filelock import claim
from bot.store.shared import RECORD_COLUMNS

GAME_COLUMNS = (
    "id",
    *RECORD_COLUMNS,
    "created_at",
    "finished_at",
    "last_move_at",
    "board_channel_id",
    "board_message_id",
    "rendered_version",
)
MOVE_COLUMNS = (
    "game_id",
    "move_no",
    "kind",
    "player_id",
    "code",
    "black",
    "white",
    "created_at",
    "source",
)
_BOOLEANS = {"duplicates", "solo", "hard"}
_TIMES = {"created_at", "finished_at", "last_move_at"}
_PROGRESS = (
    "status",
    "winner_id",
    "version",
    "finished_at",
    "last_move_at",
    "board_channel_id",
    "board_message_id",
    "rendered_version",
)


class CopyError(Exception):
    """The copy cannot be done; `str(error)` is one line saying why and what to do."""


@dataclass(frozen=True)
class CopyReport:
    """What one copy found and did."""

    source: str
    target: str
    games: int
    games_new: int
    games_updated: int
    moves: int
    moves_new: int
    meta: int
    meta_changed: int

    def lines(self) -> list[str]:
        return [
            f"copied {self.source} to {self.target}",
            f"games: {self.games} in the file: {self.games_new} new, {self.games_updated} "
            f"brought up to date, {self.games - self.games_new - self.games_updated} already there",
            f"moves: {self.moves} in the file: {self.moves_new} new, "
            f"{self.moves - self.moves_new} already there",
            f"meta: {self.meta} key(s) in the file: {self.meta_changed} new or changed",
            f"verified: the database holds all {self.games} games, {self.moves} moves and "
            f"{self.meta} meta key(s) of the file",
        ]


def _game_record(row: sqlite3.Row) -> tuple[Any, ...]:
    values: list[Any] = []
    for column in GAME_COLUMNS:
        value = row[column]
        if column == "last_move_at" and value is None:
            value = row["created_at"]
        if column in _BOOLEANS:
            value = bool(value)
        elif column in _TIMES and value is not None:
            value = datetime.fromisoformat(value)
        values.append(value)
    return tuple(values)


def _move_record(row: sqlite3.Row) -> tuple[Any, ...]:
    return tuple(
        datetime.fromisoformat(row[c]) if c == "created_at" else row[c] for c in MOVE_COLUMNS
    )


def read_sqlite(path: Path) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[Any]]:
    """Every game, move and meta row of the file, as of one instant."""
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        conn.row_factory = sqlite3.Row
        conn.execute("BEGIN")
        games = [_game_record(r) for r in conn.execute("SELECT * FROM games ORDER BY id")]
        moves = [
            _move_record(r) for r in conn.execute("SELECT * FROM moves ORDER BY game_id, move_no")
        ]
        meta = [tuple(r) for r in conn.execute("SELECT key, value FROM meta ORDER BY key")]
        conn.execute("COMMIT")
    return games, moves, meta


async def copy_to_postgres(source: Path, target: str) -> CopyReport:
    """Copy the SQLite file `source` into the PostgreSQL database `target` (see the module)."""
    if not is_postgres_url(target):
        raise CopyError(f"--to must be a postgresql:// URL, got {redact(target)!r}.")
    if not source.is_file():
        raise CopyError(f"there is no database file at {source}.")
    try:
        lock = claim(source)  # the bot running on the file would go on writing to it
    except StoreUnavailable as error:
        raise CopyError(f"{error} The copy needs the bot stopped.") from error
    try:
        async with SqliteStore(source):  # brings an older file's schema up to date first
            pass
        games, moves, meta = read_sqlite(source)
        store = await PostgresStore.open(target)
        try:
            return await _write(store, source, games, moves, meta)
        finally:
            await store.close()
    finally:
        os.close(lock)


async def _write(
    store: PostgresStore,
    source: Path,
    games: list[tuple[Any, ...]],
    moves: list[tuple[Any, ...]],
    meta: list[Any],
) -> CopyReport:
    async with store.pool.acquire() as conn, conn.transaction():
        await conn.execute("SET LOCAL lock_timeout = '30s'")
        # The bot must not write while the copy decides what is missing.
        await conn.execute("LOCK TABLE games, moves, meta IN SHARE ROW EXCLUSIVE MODE")
        await conn.execute("CREATE TEMP TABLE src_games (LIKE games) ON COMMIT DROP")
        await conn.execute("CREATE TEMP TABLE src_moves (LIKE moves) ON COMMIT DROP")
        await conn.execute("CREATE TEMP TABLE src_meta (LIKE meta) ON COMMIT DROP")
        await conn.copy_records_to_table("src_games", records=games, columns=GAME_COLUMNS)
        await conn.copy_records_to_table("src_moves", records=moves, columns=MOVE_COLUMNS)
        await conn.copy_records_to_table("src_meta", records=meta, columns=("key", "value"))

        other = await conn.fetchval(
            "SELECT min(s.id) FROM src_games AS s JOIN games AS g USING (id) "
            "WHERE (g.kind, g.guild_id, g.channel_id, g.starter_id, g.created_at) "
            "IS DISTINCT FROM (s.kind, s.guild_id, s.channel_id, s.starter_id, s.created_at)"
        )
        if other is not None:
            raise CopyError(
                f"game {other} of {redact(store.url)} is not game {other} of {source}: the "
                "database already holds other games. Copy into a new, empty database."
            )
        columns = ", ".join(GAME_COLUMNS)
        try:
            games_new = _count(
                await conn.execute(
                    f"INSERT INTO games ({columns}) SELECT {columns} FROM src_games "
                    "ON CONFLICT (id) DO NOTHING"
                )
            )
        except asyncpg.UniqueViolationError as error:
            raise CopyError(
                f"{redact(store.url)} already has an active game in a channel where {source} has "
                f"one too ({error.detail or error}). Copy into a new, empty database."
            ) from None
        move_columns = ", ".join(MOVE_COLUMNS)
        moves_new = _count(
            await conn.execute(
                f"INSERT INTO moves ({move_columns}) SELECT {move_columns} FROM src_moves "
                "ON CONFLICT (game_id, move_no) DO NOTHING"
            )
        )
        games_updated = _count(
            await conn.execute(
                "UPDATE games AS g SET "
                + ", ".join(f"{c} = s.{c}" for c in _PROGRESS)
                + " FROM src_games AS s WHERE g.id = s.id AND g.version < s.version"
            )
        )
        meta_changed = _count(
            await conn.execute(
                "INSERT INTO meta (key, value) SELECT key, value FROM src_meta "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value "
                "WHERE meta.value IS DISTINCT FROM excluded.value"
            )
        )
        # New games made by the bot on PostgreSQL must get ids after the copied ones.
        await conn.execute(
            "SELECT setval(pg_get_serial_sequence('games', 'id'), "
            "greatest((SELECT max(id) FROM games), 1))"
        )
        held = await conn.fetchrow(
            """
            SELECT
              (SELECT count(*) FROM src_games AS s JOIN games AS g USING (id)
                WHERE g.version >= s.version) AS games,
              (SELECT count(*) FROM src_moves AS s JOIN moves AS m USING (game_id, move_no)
                WHERE (m.kind, m.player_id, m.code, m.black, m.white, m.source)
                  IS NOT DISTINCT FROM (s.kind, s.player_id, s.code, s.black, s.white, s.source)
              ) AS moves,
              (SELECT count(*) FROM src_meta AS s JOIN meta AS m USING (key)
                WHERE m.value = s.value) AS meta
            """
        )
        assert held is not None
        if (held["games"], held["moves"], held["meta"]) != (len(games), len(moves), len(meta)):
            raise CopyError(
                f"verification failed, nothing was copied: of the file's {len(games)} games, "
                f"{len(moves)} moves and {len(meta)} meta keys the database would hold "
                f"{held['games']}, {held['moves']} and {held['meta']} as they are in the file. "
                "Copy into a new, empty database."
            )
    return CopyReport(
        source=str(source),
        target=redact(store.url),
        games=len(games),
        games_new=games_new,
        games_updated=games_updated,
        moves=len(moves),
        moves_new=moves_new,
        meta=len(meta),
        meta_changed=meta_changed,
    )


def _count(status: str) -> int:
    """The row count of a command status like `INSERT 0 12` or `UPDATE 3`."""
    return int(status.rsplit(" ", 1)[1])


def main(source: str | None, target: str | None) -> int:
    """The command: defaults from DATABASE_PATH and DATABASE_URL (environment, then .env)."""
    load_dotenv(Path.cwd() / ".env", override=False)
    path = Path(source or os.environ.get("DATABASE_PATH", "").strip() or "mastermind.db")
    url = target or os.environ.get("DATABASE_URL", "").strip()
    if not url:
        print(
            "mastermind-bot: say where to copy to: --to postgresql://user:password@host/database "
            "(or set DATABASE_URL).",
            file=sys.stderr,
        )
        return 2
    try:
        report = asyncio.run(copy_to_postgres(path, url))
    except (CopyError, StoreUnavailable) as error:
        print(f"mastermind-bot: {error}", file=sys.stderr)
        return 1
    print("\n".join(report.lines()))
    return 0
