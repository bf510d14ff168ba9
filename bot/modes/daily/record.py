"""How a daily game is kept: its secret, hard mode, winner and the puzzle it belongs to."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.engine.game import Game, Variant
from bot.modes.common.record import secret_columns, secret_fields
from bot.modes.daily.rules import KIND, DailyGame
from bot.store.codec import KindCodec, Record
from bot.store.schema import Step

_ONCE = (
    f"CREATE UNIQUE INDEX games_one_daily_per_player ON games (starter_id, puzzle) "
    f"WHERE kind = '{KIND}'"
)


class DailyRecord(KindCodec[DailyGame]):
    """The daily mode's columns (`bot.store.codec.KindCodec`)."""

    kind = KIND
    once_per_puzzle = True
    steps = (
        Step(
            4,
            "one daily game per player and puzzle",
            sqlite=(_ONCE,),
            postgres=(_ONCE,),
        ),
    )

    queries: ClassVar[Mapping[str, str]] = {
        "played": "SELECT id FROM games WHERE kind = :kind AND starter_id = :player "
        "AND puzzle = :puzzle",
    }
    """The player's game of a day, if they opened it (the Activity shows it to them)."""

    def columns(self, game: DailyGame) -> Record:
        return {**secret_columns(game), "solo": True, "puzzle": game.puzzle}

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        return DailyGame(**secret_fields(record, header, variant), puzzle=record["puzzle"])
