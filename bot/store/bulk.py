"""A whole database at once: read every game, move and meta value as one snapshot, and merge a
snapshot into another database (the copy to PostgreSQL), verified before it commits.

The merge copies only what is missing: a game that went on in the source since the last copy is
brought up to date, nothing is copied twice, and a game of the target that is not the source's
game of the same id refuses the whole merge before anything is written.
"""

from __future__ import annotations

from typing import Any

from bot.store.dialect import Dialect, Row, Session
from bot.store.errors import ImportRefused
from bot.store.game_rows import record_columns
from bot.store.values import Absorbed, Snapshot


def game_columns() -> tuple[str, ...]:
    """Every column of a game row, each registered kind's own included."""
    return (
        "id",
        *record_columns(),
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
_FLAGS = frozenset({"duplicates", "solo", "hard"})
_TIMES = frozenset({"created_at", "finished_at", "last_move_at"})
_IDENTITY = ("kind", "guild_id", "channel_id", "starter_id", "created_at")
"""What makes two rows of the same id the same game."""
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
"""What a game that went on since the last copy changed."""
_MOVE_FACTS = ("kind", "player_id", "code", "black", "white", "source")

SET_META = (
    "INSERT INTO meta (key, value) VALUES (:key, :value) "
    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
)


async def export(session: Session, dialect: Dialect) -> Snapshot:
    """Every row, read in the caller's one transaction."""
    columns = game_columns()
    games = await session.fetch(f"SELECT {', '.join(columns)} FROM games ORDER BY id")
    moves = await session.fetch(
        f"SELECT {', '.join(MOVE_COLUMNS)} FROM moves ORDER BY game_id, move_no"
    )
    meta = await session.fetch("SELECT key, value FROM meta ORDER BY key")
    return Snapshot(
        games=tuple(_plain(dialect, row, columns) for row in games),
        moves=tuple(_plain(dialect, row, MOVE_COLUMNS) for row in moves),
        meta=tuple((str(row["key"]), str(row["value"])) for row in meta),
    )


def _plain(dialect: Dialect, row: Row, columns: tuple[str, ...]) -> dict[str, Any]:
    plain: dict[str, Any] = {}
    for column in columns:
        value = row[column]
        if column in _FLAGS:
            value = bool(value)
        elif column in _TIMES and value is not None:
            value = dialect.moment(value)
        plain[column] = value
    if "last_move_at" in plain and plain["last_move_at"] is None:  # a first-release game
        plain["last_move_at"] = plain["created_at"]
    return plain


def _stored(dialect: Dialect, plain: dict[str, Any]) -> dict[str, Any]:
    return {
        column: dialect.stamp(value) if column in _TIMES and value is not None else value
        for column, value in plain.items()
    }


async def absorb(session: Session, dialect: Dialect, snapshot: Snapshot) -> Absorbed:
    """Merge `snapshot` in, in the caller's one write transaction (see the module)."""
    for statement in dialect.import_begins:
        await session.execute(statement)
    ours = await export(session, dialect)
    games = {game["id"]: game for game in ours.games}
    other = [
        game["id"]
        for game in snapshot.games
        if game["id"] in games
        and tuple(game[c] for c in _IDENTITY) != tuple(games[game["id"]][c] for c in _IDENTITY)
    ]
    if other:
        raise ImportRefused(reason="other_games", game_id=min(other))
    new_games = [g for g in snapshot.games if g["id"] not in games]
    behind = [g for g in snapshot.games if g["id"] in games and _newer(g, games[g["id"]])]
    have = {(move["game_id"], move["move_no"]) for move in ours.moves}
    new_moves = [m for m in snapshot.moves if (m["game_id"], m["move_no"]) not in have]
    meta = dict(ours.meta)
    changed = [{"key": k, "value": v} for k, v in snapshot.meta if meta.get(k) != v]

    names = game_columns()
    columns = ", ".join(names)
    await session.execute_many(
        f"INSERT INTO games ({columns}) VALUES ({', '.join(':' + c for c in names)})",
        [_stored(dialect, game) for game in new_games],
    )
    await session.execute_many(
        f"INSERT INTO moves ({', '.join(MOVE_COLUMNS)}) "
        f"VALUES ({', '.join(':' + c for c in MOVE_COLUMNS)})",
        [_stored(dialect, move) for move in new_moves],
    )
    await session.execute_many(
        f"UPDATE games SET {', '.join(f'{c} = :{c}' for c in _PROGRESS)} WHERE id = :id",
        [_stored(dialect, {c: game[c] for c in ("id", *_PROGRESS)}) for game in behind],
    )
    await session.execute_many(SET_META, changed)
    for statement in dialect.import_ends:
        await session.execute(statement)
    _verify(snapshot, await export(session, dialect))
    return Absorbed(
        games=len(snapshot.games),
        games_new=len(new_games),
        games_updated=len(behind),
        moves=len(snapshot.moves),
        moves_new=len(new_moves),
        meta=len(snapshot.meta),
        meta_changed=len(changed),
    )


def _newer(theirs: dict[str, Any], ours: dict[str, Any]) -> bool:
    return int(ours["version"]) < int(theirs["version"])


def _verify(snapshot: Snapshot, after: Snapshot) -> None:
    """The database now holds every game (as far as the snapshot got, or further), move and
    meta value of the snapshot, or ImportRefused rolls the merge back."""
    games = {game["id"]: game for game in after.games}
    moves = {(m["game_id"], m["move_no"]): m for m in after.moves}
    meta = dict(after.meta)
    held = (
        sum(g["id"] in games and not _newer(g, games[g["id"]]) for g in snapshot.games),
        sum(
            (key := (m["game_id"], m["move_no"])) in moves
            and all(moves[key][c] == m[c] for c in _MOVE_FACTS)
            for m in snapshot.moves
        ),
        sum(meta.get(key) == value for key, value in snapshot.meta),
    )
    expected = (len(snapshot.games), len(snapshot.moves), len(snapshot.meta))
    if held != expected:
        raise ImportRefused(reason="unverified", expected=expected, held=held)
