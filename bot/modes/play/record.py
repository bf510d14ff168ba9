"""How a play game is kept: its secret, solo, hard mode and winner in the games table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.game import Game, Variant
from bot.modes.common.record import secret_columns, secret_fields
from bot.modes.play.rules import KIND, PlayGame
from bot.store.codec import KindCodec, Record


class PlayRecord(KindCodec[PlayGame]):
    """The play mode's columns (`bot.store.codec.KindCodec`)."""

    kind = KIND

    def columns(self, game: PlayGame) -> Record:
        return {**secret_columns(game), "solo": game.solo}

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        return PlayGame(**secret_fields(record, header, variant), solo=bool(record["solo"]))
