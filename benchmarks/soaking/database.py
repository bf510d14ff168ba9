"""Read back what the bot stored, straight from its SQLite file or PostgreSQL database.

Read as an outside tool would (its own connection, plain SQL), not through `bot.store`: the
soak checks the store, so it does not lean on it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg

MOVES = "SELECT game_id, move_no, kind, player_id, source, created_at FROM moves"
RACES = (
    "SELECT id, status, lobby_until, race_until, finished_at FROM games WHERE kind = 'race' "
    "ORDER BY id"
)
STARTS = "SELECT game_id, min(created_at) FROM moves WHERE kind = 'start' GROUP BY game_id"
DAILIES = (
    "SELECT g.id, g.puzzle, min(m.created_at), max(m.created_at) FROM games g "
    "JOIN moves m ON m.game_id = g.id WHERE g.kind = 'daily' GROUP BY g.id, g.puzzle"
)


@dataclass(frozen=True)
class Move:
    game_id: int
    move_no: int
    kind: str
    player_id: int | None
    source: str | None
    created_at: datetime


@dataclass(frozen=True)
class Race:
    """A race's clock as stored: unix seconds, and when it started and finished (None: not)."""

    id: int
    status: str
    lobby_until: int | None
    race_until: int | None
    started_at: float | None
    finished_at: float | None


@dataclass(frozen=True)
class Daily:
    """A daily game's puzzle number and the times of its first and last move."""

    id: int
    puzzle: int
    first_move: datetime
    last_move: datetime


@dataclass(frozen=True)
class Stored:
    """Everything the soak checks, read in one go."""

    moves: list[Move]
    races: list[Race]
    dailies: list[Daily]


def is_postgres(database: str) -> bool:
    return database.startswith(("postgresql://", "postgres://"))


def _time(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


def _assemble(rows: dict[str, list[tuple[Any, ...]]]) -> Stored:
    starts = {int(game): _time(at).timestamp() for game, at in rows["starts"]}
    return Stored(
        moves=[
            Move(int(g), int(n), str(k), p, s, _time(at)) for g, n, k, p, s, at in rows["moves"]
        ],
        races=[
            Race(
                int(i),
                str(status),
                lobby,
                until,
                starts.get(int(i)),
                None if done is None else _time(done).timestamp(),
            )
            for i, status, lobby, until, done in rows["races"]
        ],
        dailies=[Daily(int(i), int(p), _time(a), _time(b)) for i, p, a, b in rows["dailies"]],
    )


QUERIES = {"moves": MOVES, "races": RACES, "starts": STARTS, "dailies": DAILIES}


def _read_sqlite(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30.0)
    try:
        return {name: connection.execute(sql).fetchall() for name, sql in QUERIES.items()}
    finally:
        connection.close()


async def _read_postgres(url: str) -> dict[str, list[tuple[Any, ...]]]:
    connection = await asyncpg.connect(url)
    try:
        return {
            name: [tuple(row) for row in await connection.fetch(sql)]
            for name, sql in QUERIES.items()
        }
    finally:
        await connection.close()


async def read_stored(database: str) -> Stored:
    """The moves, races and daily games in `database` (a SQLite path or a PostgreSQL URL)."""
    if is_postgres(database):
        return _assemble(await _read_postgres(database))
    return _assemble(await asyncio.to_thread(_read_sqlite, Path(database)))
