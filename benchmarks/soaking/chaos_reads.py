"""What the chaos soak reads back beyond the soak's own reads: boards and race clocks by server.

Plain SQL on its own connection, as database.py does (the soak checks the store, so it does
not lean on it); `database` is a SQLite path or a PostgreSQL URL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.soaking.database import is_postgres

BOARDS = (
    "SELECT id, kind, status, version, rendered_version, board_message_id FROM games "
    "WHERE board_message_id IS NOT NULL AND reach = 'channel' ORDER BY id"
)
LAST_MOVES = (
    "SELECT g.id, m.created_at FROM games g JOIN moves m ON m.game_id = g.id "
    "AND m.move_no = g.version WHERE g.board_message_id IS NOT NULL AND g.reach = 'channel'"
)
CLOCKS = (
    "SELECT g.id, g.guild_id, g.lobby_until, g.race_until, g.finished_at, min(m.created_at) "
    "FROM games g LEFT JOIN moves m ON m.game_id = g.id AND m.kind = 'start' "
    "WHERE g.kind = 'race' GROUP BY g.id, g.guild_id, g.lobby_until, g.race_until, "
    "g.finished_at ORDER BY g.id"
)


@dataclass(frozen=True)
class StoredBoard:
    """A channel board the bot keeps, as stored: the version it should show and the one it
    last recorded drawing."""

    game_id: int
    kind: str
    status: str
    version: int
    rendered_version: int
    message_id: int


@dataclass(frozen=True)
class RaceClock:
    """A race's deadlines and when its clock acted (unix seconds; None: not yet)."""

    game_id: int
    guild_id: int
    lobby_until: int | None
    race_until: int | None
    started_at: float | None
    finished_at: float | None

    def shard(self, processes: int) -> int:
        """Which of `processes` shard processes serves the race's server (Discord's formula)."""
        return (self.guild_id >> 22) % processes


def _unix(value: Any) -> float | None:
    if value is None:
        return None
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment.timestamp()


def _sqlite(path: Path, sql: str) -> list[tuple[Any, ...]]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


async def _fetch(database: str, sql: str) -> list[tuple[Any, ...]]:
    if not is_postgres(database):
        return await asyncio.to_thread(_sqlite, Path(database), sql)
    connection = await asyncpg.connect(database)
    try:
        return [tuple(row) for row in await connection.fetch(sql)]
    finally:
        await connection.close()


async def boards(database: str) -> list[StoredBoard]:
    """Every channel board the bot keeps."""
    return [
        StoredBoard(int(i), str(k), str(s), int(v), int(r), int(m))
        for i, k, s, v, r, m in await _fetch(database, BOARDS)
    ]


async def race_clocks(database: str) -> list[RaceClock]:
    """Every race's deadlines and the moments its clock started and finished it."""
    return [
        RaceClock(int(i), int(g), lobby, until, _unix(started), _unix(done))
        for i, g, lobby, until, done, started in await _fetch(database, CLOCKS)
    ]


async def last_move_times(database: str) -> dict[int, float]:
    """When each kept board's game made the move that gave it its stored version (unix s)."""
    return {
        int(game): moment
        for game, at in await _fetch(database, LAST_MOVES)
        if (moment := _unix(at)) is not None
    }
