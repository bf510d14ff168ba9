"""How a solve game is kept: the strategy the bot plays (the code is only in the player's
head)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.game import Game, Variant
from bot.modes.solve.rules import SolveGame
from bot.store.codec import Record


class SolveRecord:
    """The solve mode's columns (`bot.store.codec.KindCodec`)."""

    plays_alone = False

    def columns(self, game: SolveGame) -> Record:
        return {"solo": True, "strategy": game.strategy}

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        return SolveGame(**header, variant=variant, strategy=record["strategy"])
