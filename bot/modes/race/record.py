"""How a race is kept: its secret, hard mode, winner and its two deadlines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.engine.game import Game, Variant
from bot.modes.common.record import secret_columns, secret_fields
from bot.modes.race.rules import KIND, RaceGame
from bot.store.codec import KindCodec, Record, whole
from bot.store.schema import Step

_ACTIVE = (
    f"CREATE INDEX games_active_races ON games (id) WHERE kind = '{KIND}' AND status = 'active'"
)


class RaceRecord(KindCodec[RaceGame]):
    """The race mode's columns (`bot.store.codec.KindCodec`)."""

    kind = KIND

    plays_alone = True
    own_columns: ClassVar[Mapping[str, object]] = {"lobby_until": None, "race_until": None}
    steps = (
        Step(
            5,
            "a race's clock: when its lobby closes and when it ends (unix seconds)",
            sqlite=(
                "ALTER TABLE games ADD COLUMN lobby_until INTEGER",
                "ALTER TABLE games ADD COLUMN race_until INTEGER",
                _ACTIVE,
            ),
            postgres=(
                "ALTER TABLE games ADD COLUMN lobby_until BIGINT",
                "ALTER TABLE games ADD COLUMN race_until BIGINT",
                _ACTIVE,
            ),
        ),
    )

    def columns(self, game: RaceGame) -> Record:
        return {
            **secret_columns(game),
            "lobby_until": game.lobby_until,
            "race_until": game.race_until,
        }

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        return RaceGame(
            **secret_fields(record, header, variant),
            lobby_until=whole(record, "lobby_until"),
            race_until=whole(record, "race_until"),
        )
