"""How a play game is kept: its secret, solo, hard mode and winner in the games table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.game import Game, Variant
from bot.modes.play.rules import KIND, PlayGame
from bot.store.codec import KindCodec, Record, secret_column, secret_of


class PlayRecord(KindCodec[PlayGame]):
    """The play mode's columns (`bot.store.codec.KindCodec`)."""

    kind = KIND

    def columns(self, game: PlayGame) -> Record:
        return {
            "solo": game.solo,
            "secret": secret_column(game.secret),
            "winner_id": game.winner_id,
            "hard": game.hard,
        }

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        return PlayGame(**self.fields(record, header, variant))

    @staticmethod
    def fields(record: Mapping[str, Any], header: Record, variant: Variant) -> Record:
        """What a play game's constructor takes (a game built on it adds its own fields)."""
        return {
            **header,
            "variant": variant,
            "secret": secret_of(record, variant),
            "solo": bool(record["solo"]),
            "hard": bool(record.get("hard", False)),
        }
