"""A game's rows, in the store's one SQL: load a game with its moves, start one, save what a
transition appended, and the checks that keep one move per input and one game per channel.

* At most one active game per channel is a partial unique index, not a check in Python.
* Moves are append-only rows (the schema refuses UPDATE and DELETE); the game row keeps copies
  of status, winner and version for the index and the queries.
* A play game's `secret` column is read only to score a move or to show a finished game:
  active games leave the store with their secret withheld (`public`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from bot.engine.errors import GameAlreadyActive, GameOver, NoActiveGame, StaleGame
from bot.engine.game import Game, Status
from bot.store import codec
from bot.store.codec import RecordError, game_from_record, game_to_record, move_to_record
from bot.store.dialect import Params, Row, Session
from bot.store.errors import AlreadyApplied, UnreadableGame
from bot.store.schema import CHANNEL_GAMES
from bot.store.values import Board

GameT = TypeVar("GameT", bound=Game)

HEADER_COLUMNS = (
    "format",
    "kind",
    "guild_id",
    "channel_id",
    "starter_id",
    "pegs",
    "colours",
    "duplicates",
    "max_guesses",
    "status",
    "version",
    "hints",
    "reach",
)
"""The game row's columns every kind fills the same way (`codec.game_to_record`)."""


def record_columns() -> tuple[str, ...]:
    """The game row's columns `codec.game_to_record` fills: the header, the shared columns
    some kinds use, then each registered kind's own."""
    return _statements().record


CHANNEL_GAME = f"channel_id = :channel AND {CHANNEL_GAMES}"
"""The channel's one active game."""


_INSERT_MOVE = (
    "INSERT INTO moves "
    "(game_id, move_no, kind, player_id, code, black, white, created_at, source) "
    "VALUES (:game_id, :move_no, :kind, :player_id, :code, :black, :white, :now, :source)"
)
_SAVE_GAME = (
    "UPDATE games SET status = :status, winner_id = :winner_id, version = :version, "
    "hints = :hints, last_move_at = :now, finished_at = :finished_at "
    "WHERE id = :id AND version = :old_version"
)


@dataclass(frozen=True)
class Loaded:
    """A game as read, and its row (its timestamps and where its board is)."""

    game: Game
    row: Row

    @property
    def board(self) -> Board | None:
        return None if self.row["board_message_id"] is None else _board(self.row)


def select_games(with_secret: bool) -> str:
    """The SELECT list of a game: an active game's secret stays in the database unless the
    caller scores or ends it (`with_secret`)."""
    built = _statements()
    return built.select_with_secret if with_secret else built.select


@dataclass(frozen=True)
class _Statements:
    """The SQL that lists a game's columns, built once for the kinds registered (again only
    when one more registers: `codec.columns()` is then another tuple)."""

    columns: tuple[str, ...]
    record: tuple[str, ...]
    insert: str
    select: str
    select_with_secret: str

    @classmethod
    def of(cls, columns: tuple[str, ...]) -> _Statements:
        record = (*HEADER_COLUMNS, *columns)
        insert = (
            f"INSERT INTO games ({', '.join(record)}, created_at, last_move_at, "
            "board_channel_id, board_message_id) "
            f"VALUES ({', '.join(':' + c for c in record)}, :now, :now, "
            ":board_channel_id, :board_message_id) "
            f"ON CONFLICT (channel_id) WHERE {CHANNEL_GAMES} DO NOTHING "
            "RETURNING id"
        )
        listed = ", ".join(c for c in record if c != "secret")
        rest = "created_at, finished_at, last_move_at, board_channel_id, board_message_id"
        hidden = "CASE WHEN status = 'active' THEN NULL ELSE secret END"
        return cls(
            columns,
            record,
            insert,
            f"id, {listed}, {hidden} AS secret, {rest}, rendered_version",
            f"id, {listed}, secret AS secret, {rest}, rendered_version",
        )


_built: list[_Statements] = []


def _statements() -> _Statements:
    columns = codec.columns()
    if not _built or _built[0].columns is not columns:
        _built[:] = [_Statements.of(columns)]
    return _built[0]


async def fetch(
    session: Session,
    clause: str,
    params: Params | None = None,
    *,
    with_secret: bool = False,
    lock: str = "",
    inline_moves: str = "",
    skipped: list[UnreadableGame] | None = None,
) -> list[Loaded]:
    """Games matching `clause` (WHERE ...), with their moves; `lock` (the dialect's
    `lock_game`) holds their rows for a move. Active games come without their secret unless
    `with_secret`, which only the paths that score or end a game pass. With `inline_moves` (the
    dialect's, see `Dialect.inline_moves`) the moves come in the same statement: one round trip
    and one snapshot; else a second statement reads them. A game this version cannot read
    raises UnreadableGame, or, given a `skipped` list, is left out and noted there (a list of
    games must not be blocked by one)."""
    if inline_moves:
        rows = await session.fetch(
            f"SELECT {select_games(with_secret)}, {inline_moves} AS moves_json "
            f"FROM games WHERE {clause}{lock}",
            params,
        )
        return _readable([_with_inline_moves(row) for row in rows], skipped)
    rows = await session.fetch(
        f"SELECT {select_games(with_secret)} FROM games WHERE {clause}{lock}", params
    )
    if not rows:
        return []
    ids = {f"id{number}": row["id"] for number, row in enumerate(rows)}
    moves: defaultdict[int, list[Row]] = defaultdict(list)
    for move in await session.fetch(
        f"SELECT * FROM moves WHERE game_id IN ({', '.join(':' + name for name in ids)}) "
        "ORDER BY game_id, move_no",
        ids,
    ):
        moves[move["game_id"]].append(move)
    return _readable([_loaded(row, dict(row), moves[row["id"]]) for row in rows], skipped)


INLINE_MOVE_FIELDS = ("move_no", "kind", "player_id", "code", "black", "white")
"""What a game needs of each move, in the order an inline JSON array of a move lists them."""


def _with_inline_moves(row: Row) -> Loaded | UnreadableGame:
    record = dict(row)
    record.pop("repeated", None)
    listed = sorted(json.loads(record.pop("moves_json") or "[]"))  # by move_no, whatever order
    moves = [dict(zip(INLINE_MOVE_FIELDS, move, strict=True)) for move in listed]
    return _loaded(row, record, moves)


def _loaded(row: Row, record: dict[str, Any], moves: Sequence[Any]) -> Loaded | UnreadableGame:
    """The game of a row, or why this version cannot read it."""
    try:
        return Loaded(game_from_record(record, moves), row)
    except RecordError as error:
        return UnreadableGame(row["id"], row["starter_id"], row["channel_id"], str(error))


def _readable(
    found: list[Loaded | UnreadableGame], skipped: list[UnreadableGame] | None
) -> list[Loaded]:
    unreadable = [each for each in found if isinstance(each, UnreadableGame)]
    if unreadable and skipped is None:
        raise unreadable[0]
    if skipped is not None:
        skipped += unreadable
    return [each for each in found if isinstance(each, Loaded)]


async def load_for_move(
    session: Session,
    lock: str,
    *,
    channel_id: int | None,
    game_id: int | None,
    source: str | None = None,
    inline_moves: str = "",
) -> Loaded:
    """The game a move is for, with its secret and its row held: by `channel_id` the channel's
    active game (else NoActiveGame), by `game_id` that game (GameOver once it has ended). An
    input (`source`) that already made a move is refused first (AlreadyApplied). With
    `inline_moves` all of it is one statement: the input's move, the game and its moves."""
    clause, params = (
        (CHANNEL_GAME, {"channel": channel_id})
        if channel_id is not None
        else ("id = :id", {"id": game_id})
    )
    if inline_moves:
        rows = await session.fetch(
            f"SELECT probe.repeated, {select_games(True)}, {inline_moves} AS moves_json "
            f"FROM ({_REPEATED_PROBE}) AS probe LEFT JOIN games ON {clause}{lock}",
            {**params, "source": source},
        )
        if (earlier := rows[0]["repeated"]) is not None:  # the probe's one row, game or none
            raise AlreadyApplied(*json.loads(earlier))
        found = _readable([_with_inline_moves(row) for row in rows if row["id"] is not None], None)
    else:
        if source is not None and (refused := await repeated(session, source)):
            raise refused
        found = await fetch(session, clause, params, with_secret=True, lock=lock)
    if not found:
        raise NoActiveGame()
    if channel_id is None and found[0].game.is_over:
        raise GameOver()
    return found[0]


_REPEATED_PROBE = (
    "SELECT (SELECT json_array(game_id, move_no) FROM moves WHERE source = :source) AS repeated"
)
"""One row: the move an input already made as `[game_id, move_no]`, or NULL."""


async def insert_game(
    session: Session, game: GameT, board: tuple[int, int] | None, now: object, source: str | None
) -> GameT:
    """Write a new game, its board and its first moves; GameAlreadyActive if the channel has
    one (a game played once per puzzle, for a puzzle the player has, is refused by its own
    index: Conflict)."""
    channel, message = board or (None, None)
    record = {
        **game_to_record(game),
        "now": now,
        "board_channel_id": channel,
        "board_message_id": message,
    }
    inserted = await session.fetch(_statements().insert, record)
    if not inserted:  # the channel's one active game is there already
        current = await fetch(session, CHANNEL_GAME, {"channel": game.channel_id})
        if not current:
            raise GameAlreadyActive()
        raise GameAlreadyActive(current[0].game.id, current[0].game.kind)
    stored = replace(game, id=inserted[0]["id"])
    await insert_moves(session, stored, 0, now, source)
    return stored


async def save(
    session: Session,
    old: Game,
    new: Game,
    now: object,
    source: str | None,
    *,
    at_once: str = "",
) -> None:
    """Write what a transition appended: new move rows, then the game row's copies (with
    `at_once`, the dialect's `save_at_once`, both in one statement)."""
    check_appended(old, new)
    if new.version == old.version:
        return
    game = {
        "status": new.status.value,
        "winner_id": new.winner_id,
        "version": new.version,
        "hints": new.hints,
        "now": now,
        "finished_at": None if new.status is Status.ACTIVE else now,
        "id": new.id,
        "old_version": old.version,
    }
    if at_once:
        moves = [_move_array(move_to_record(move)) for move in new.log[old.version :]]
        await session.execute_last(at_once, {**game, "source": source, "moves": json.dumps(moves)})
        return
    await insert_moves(session, new, old.version, now, source)
    if await session.execute(_SAVE_GAME, game) != 1:
        raise StaleGame()


def _move_array(record: Mapping[str, Any]) -> list[Any]:
    """A move row as `save_at_once` reads it from JSON."""
    return [record[column] for column in ("kind", "player_id", "code", "black", "white")]


async def insert_moves(
    session: Session, game: Game, start: int, now: object, source: str | None
) -> None:
    """Append the log from `start`; the first new row carries the source that made them."""
    rows: list[dict[str, Any]] = []
    for number, move in enumerate(game.log[start:], start=start + 1):
        first = source if number == start + 1 else None
        record = move_to_record(move)
        rows.append({**record, "game_id": game.id, "move_no": number, "now": now, "source": first})
    await session.execute_many(_INSERT_MOVE, rows)


async def board(session: Session, game_id: int) -> Board | None:
    """Where the game's board is (without reading the game)."""
    rows = await session.fetch(
        "SELECT board_channel_id, board_message_id, rendered_version FROM games "
        "WHERE id = :id AND board_message_id IS NOT NULL",
        {"id": game_id},
    )
    return next((_board(row) for row in rows), None)


def _board(row: Row) -> Board:
    return Board(row["board_channel_id"], row["board_message_id"], row["rendered_version"])


async def repeated(session: Session, source: str) -> AlreadyApplied | None:
    """The refusal for an input that already made a move, or None if it made none."""
    rows = await session.fetch(
        "SELECT game_id, move_no FROM moves WHERE source = :source", {"source": source}
    )
    return next((AlreadyApplied(row["game_id"], row["move_no"]) for row in rows), None)


async def played_id(session: Session, game: Game) -> int | None:
    """The id of the game of `game`'s kind this player already has for its puzzle."""
    puzzle = game_to_record(game)["puzzle"]
    rows = await session.fetch(
        "SELECT id FROM games WHERE kind = :kind AND starter_id = :starter AND puzzle = :puzzle",
        {"kind": game.kind, "starter": game.starter_id, "puzzle": puzzle},
    )
    return next((int(row["id"]) for row in rows), None)


def check_appended(old: Game, new: Game) -> None:
    """A transition may only append moves to the game it was given."""
    if replace(new, log=old.log) != old or new.log[: len(old.log)] != old.log:
        raise ValueError("a transition may only append moves to the game it was given")


def public(game: GameT) -> GameT:
    """Withhold an active game's secret from everything outside the store."""
    return game if game.is_over else game.withheld()


def utc_now() -> datetime:
    return datetime.now(UTC)
