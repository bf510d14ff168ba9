"""The record codec: a game to and from plain records (one for the game, one per move).

A record holds only numbers, text and None, so any database can keep it as a row. The layout is
versioned by `RECORD_FORMAT`; a record this version cannot read raises `RecordError`, and one
whose stored status or version disagrees with its moves is refused rather than trusted.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from bot.engine.codes import Code
from bot.engine.errors import InvalidVariant
from bot.engine.game import Game, Move, MoveKind, Reach, Secret, Variant
from bot.store import schema
from bot.store.schema import Step

RECORD_FORMAT = 1
"""Version of the record layout; bump it when the layout changes."""

Record = dict[str, Any]


class MoveRow(Protocol):
    """What a move record must offer: its fields by name (a dict, or a driver's row object)."""

    def __getitem__(self, key: str, /) -> Any: ...


class RecordError(ValueError):
    """A stored record this version cannot read (not player-facing: an operator problem)."""


GameIn = TypeVar("GameIn", bound=Game, contravariant=True)


class KindCodec(Protocol[GameIn]):
    """How one kind of game is kept: its name, the columns only it uses, the game rebuilt from
    them, and the queries that count it when they differ from the shared ones. Each mode
    registers one (`register`), so this floor never names a mode; typed by the game it keeps,
    which the registry's dispatch by kind guarantees. A mode's record subclasses it and keeps
    the defaults it does not need."""

    kind: ClassVar[str]
    """The mode's registered name, as its games' `kind` column holds it."""
    plays_alone: ClassVar[bool] = False
    """Each player plays alone on the one code (their own guesses, their own count)."""
    own_columns: ClassVar[Mapping[str, object]] = {}
    """Columns only this kind has (its migration steps add them), with what every other kind
    stores in them."""
    stats: ClassVar[str | None] = None
    """Its own per-player record query (`bot.store.stats_queries`: `:user`, `:guild`), where
    the shared one (guesses in finished games) does not count it."""
    wins: ClassVar[str | None] = None
    """Its own wins for the guess distribution, added to the shared query (`UNION ALL`)."""
    queries: ClassVar[Mapping[str, str]] = {}
    """Its own read queries by name, for what its records show beyond the shared counts
    (`Store.kind_rows`; `:kind` is its name, the other parameters are the caller's)."""
    steps: ClassVar[tuple[Step, ...]] = ()
    """Its own migration steps (its columns, its indexes), numbered in the one list
    (`bot.store.schema`)."""
    once_per_puzzle: ClassVar[bool] = False
    """A player has one game of this kind per puzzle (its own unique index, in its steps): a
    new game that index refuses is `AlreadyPlayed`."""

    def columns(self, game: GameIn) -> Record:
        """The kind's columns (shared `KIND_COLUMNS` or its `own_columns`); the rest are
        stored as defaults."""
        ...

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        """The game from its record, the header every kind shares and its checked variant."""
        ...


KIND_COLUMNS: Record = {
    "solo": False,
    "strategy": None,
    "secret": None,
    "winner_id": None,
    "hard": False,
    "puzzle": None,
}
"""The shared columns some kinds use, with what a kind that does not use one stores."""

_CODECS: dict[str, KindCodec[Any]] = {}
_DEFAULTS: Record = dict(KIND_COLUMNS)
_COLUMNS = tuple(_DEFAULTS)


def register(codec: KindCodec[Any]) -> None:
    """Teach the store a kind of game (at import of `bot.modes.registry`); once per kind."""
    known = _CODECS.get(codec.kind)
    if known is codec:
        return
    if known is not None:
        raise ValueError(f"game kind {codec.kind!r} is registered twice")
    if taken := _DEFAULTS.keys() & codec.own_columns.keys():
        raise ValueError(f"{codec.kind!r} declares columns another kind has: {sorted(taken)}")
    _CODECS[codec.kind] = codec
    _DEFAULTS.update(codec.own_columns)
    global _COLUMNS
    _COLUMNS = tuple(_DEFAULTS)
    schema.register(codec.steps)


def codecs() -> tuple[KindCodec[Any], ...]:
    """Every registered kind's codec, in the order they were registered."""
    return tuple(_CODECS.values())


def columns() -> tuple[str, ...]:
    """Every column a game record fills besides the header: the shared ones, then each
    registered kind's own (the same tuple until a kind registers)."""
    return _COLUMNS


def of(kind: str) -> KindCodec[Any]:
    """The registered codec of `kind` (RecordError for a kind nobody registered)."""
    return _codec(kind)


def game_to_record(game: Game) -> Record:
    """The game's header and the copies derived from its log (status, winner, version).

    A secret is written as it is known: a game loaded for display has none.
    """
    return {
        "format": RECORD_FORMAT,
        "id": game.id,
        "kind": game.kind,
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
        **_DEFAULTS,
        **_codec(game.kind).columns(game),
    }


def secret_column(secret: Secret) -> str | None:
    """A secret as stored: its code, or nothing for a game loaded without it."""
    return encode_code(secret.reveal()) if secret.known else None


def secret_of(record: Mapping[str, Any], variant: Variant) -> Secret:
    """The stored secret (withheld when the record was read without it)."""
    text = record.get("secret")
    return Secret(None if text is None else variant.space.validate(decode_code(text)))


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
    """Rebuild a game of any registered kind; a record without `secret` gives a display-only
    game."""
    kind = record.get("kind")
    codec = _codec(kind)
    variant = _check_header(record, str(kind))
    return _check_derived(codec.build(record, _header(record, moves), variant), record)


def _codec(kind: object) -> KindCodec[Any]:
    codec = _CODECS.get(str(kind)) if isinstance(kind, str) else None
    if codec is None:
        raise RecordError(f"unknown game kind {kind!r}")
    return codec


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


def whole(record: Mapping[str, Any], column: str) -> int:
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


def _check_header(record: Mapping[str, Any], kind: str) -> Variant:
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
