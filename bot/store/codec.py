"""The record codec: a game to and from plain records (one for the game, one per move).

A record holds only numbers, text and None, so any database can keep it as a row. The layout is
versioned by `RECORD_FORMAT`; a record this version cannot read raises `RecordError`, and one
whose stored status or version disagrees with its moves is refused rather than trusted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from bot.engine.codes import Code
from bot.engine.errors import InvalidVariant
from bot.engine.game import (
    DailyGame,
    Game,
    GameKind,
    Move,
    MoveKind,
    PlayGame,
    RaceGame,
    Reach,
    Secret,
    SolveGame,
    Variant,
)

RECORD_FORMAT = 1
"""Version of the record layout; bump it when the layout changes."""

Record = dict[str, Any]


class MoveRow(Protocol):
    """What a move record must offer: its fields by name (a dict, or a driver's row object)."""

    def __getitem__(self, key: str, /) -> Any: ...


class RecordError(ValueError):
    """A stored record this version cannot read (not player-facing: an operator problem)."""


def game_to_record(game: Game) -> Record:
    """The game's header and the copies derived from its log (status, winner, version).

    A play game's secret is written as it is known: a game loaded for display has none.
    """
    if isinstance(game, PlayGame):
        known = game.secret.known
        specific = {
            "solo": game.solo,
            "strategy": None,
            "secret": encode_code(game.secret.reveal()) if known else None,
            "winner_id": game.winner_id,
            "hard": game.hard,
            "puzzle": game.puzzle if isinstance(game, DailyGame) else None,
        }
    elif isinstance(game, RaceGame):
        specific = {
            "solo": False,
            "strategy": None,
            "secret": encode_code(game.secret.reveal()) if game.secret.known else None,
            "winner_id": game.winner_id,
            "hard": game.hard,
            "puzzle": None,
            "lobby_until": game.lobby_until,
            "race_until": game.race_until,
        }
    else:
        specific = {
            "solo": True,
            "strategy": game.strategy,
            "secret": None,
            "winner_id": None,
            "hard": False,
            "puzzle": None,
        }
    return {
        "format": RECORD_FORMAT,
        "id": game.id,
        "kind": game.kind.value,
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
        "starter_id": game.starter_id,
        "pegs": game.variant.pegs,
        "colours": game.variant.colours,
        "duplicates": game.variant.duplicates,
        "max_guesses": game.variant.max_guesses,
        "status": game.status.value,
        "version": game.version,
        "hints": game.hints,
        "reach": game.reach.value,
        "lobby_until": None,
        "race_until": None,
        **specific,
    }


def move_to_record(move: Move) -> Record:
    return {
        "kind": move.kind.value,
        "player_id": move.player_id,
        "code": None if move.code is None else encode_code(move.code),
        "black": move.black,
        "white": move.white,
    }


def move_from_record(record: MoveRow) -> Move:
    code = record["code"]
    return Move(
        kind=MoveKind(record["kind"]),
        player_id=record["player_id"],
        code=None if code is None else decode_code(code),
        black=record["black"],
        white=record["white"],
    )


def game_from_record(record: Mapping[str, Any], moves: Sequence[MoveRow]) -> Game:
    """Rebuild a game of either kind; a play record without `secret` gives a display-only game."""
    kind = record.get("kind")
    game: Game
    if kind in (GameKind.PLAY, GameKind.DAILY):
        variant = _check_header(record, GameKind(kind))
        secret = record.get("secret")
        code = None if secret is None else variant.space.validate(decode_code(secret))
        header = {
            **_header(record, moves),
            "variant": variant,
            "secret": Secret(code),
            "solo": bool(record["solo"]),
            "hard": bool(record.get("hard", False)),
        }
        if kind == GameKind.DAILY:
            game = DailyGame(**header, puzzle=record["puzzle"])
        else:
            game = PlayGame(**header)
    elif kind == GameKind.RACE:
        variant = _check_header(record, GameKind.RACE)
        secret = record.get("secret")
        game = RaceGame(
            **_header(record, moves),
            variant=variant,
            secret=Secret(None if secret is None else variant.space.validate(decode_code(secret))),
            hard=bool(record.get("hard", False)),
            lobby_until=_whole(record, "lobby_until"),
            race_until=_whole(record, "race_until"),
        )
    elif kind == GameKind.SOLVE:
        game = SolveGame(
            **_header(record, moves),
            variant=_check_header(record, GameKind.SOLVE),
            strategy=record["strategy"],
        )
    else:
        raise RecordError(f"unknown game kind {kind!r}")
    return _check_derived(game, record)


def _header(record: Mapping[str, Any], moves: Sequence[MoveRow]) -> dict[str, Any]:
    """What every kind of game reads the same way from its record."""
    try:
        reach = Reach(record.get("reach") or Reach.CHANNEL)
    except ValueError:
        raise RecordError(f"unknown reach {record.get('reach')!r}") from None
    return {
        "id": record.get("id"),
        "guild_id": record["guild_id"],
        "channel_id": record["channel_id"],
        "starter_id": record["starter_id"],
        "reach": reach,
        "log": tuple(move_from_record(move) for move in moves),
    }


def _whole(record: Mapping[str, Any], column: str) -> int:
    """A column a kind cannot do without, as a whole number."""
    value = record.get(column)
    if type(value) is not int:
        raise RecordError(f"game record has no valid {column} ({value!r})")
    return value


def encode_code(code: Code) -> str:
    """Codes are stored as JSON lists of 0-based colours: unambiguous and readable."""
    return json.dumps(list(code), separators=(",", ":"))


def decode_code(text: str) -> Code:
    try:
        values = json.loads(text)
    except json.JSONDecodeError:
        raise RecordError(f"stored code {text!r} is not a JSON list") from None
    if not isinstance(values, list) or not all(type(v) is int for v in values):
        raise RecordError(f"stored code {text!r} is not a list of colour numbers")
    return tuple(values)


def _check_header(record: Mapping[str, Any], kind: GameKind) -> Variant:
    version = record.get("format")
    if not isinstance(version, int) or version < 1:
        raise RecordError(f"game record has no valid format number ({version!r})")
    if version > RECORD_FORMAT:
        raise RecordError(
            f"game record format {version} is newer than this bot understands "
            f"({RECORD_FORMAT}); upgrade mastermind-bot"
        )
    if record.get("kind") != kind:
        raise RecordError(f"expected a {kind} game record, got {record.get('kind')!r}")
    try:
        return Variant(
            pegs=record["pegs"],
            colours=record["colours"],
            duplicates=bool(record["duplicates"]),
            max_guesses=record["max_guesses"],
        )
    except InvalidVariant as error:
        raise RecordError(f"stored variant is invalid: {error}") from None


def _check_derived(game: Game, record: Mapping[str, Any]) -> Game:
    """The stored status and version are copies; refuse a record that disagrees with its log."""
    stored = (record.get("status"), record.get("version"))
    derived = (game.status.value, game.version)
    if stored != derived:
        raise RecordError(
            f"game {game.id}: stored status/version {stored} do not match its moves {derived}"
        )
    return game
