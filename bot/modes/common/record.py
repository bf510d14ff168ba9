"""How the store keeps what every game on a secret of the bot's has: the secret (as it is known:
a game loaded for display has none), the winner and hard mode; each mode's record adds its own."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.game import Variant
from bot.modes.common.rules import SecretGame
from bot.store.codec import Record, secret_column, secret_of


def secret_columns(game: SecretGame) -> Record:
    """The columns of a secret game that every such mode fills the same way."""
    return {
        "secret": secret_column(game.secret),
        "winner_id": game.winner_id,
        "hard": game.hard,
    }


def secret_fields(record: Mapping[str, Any], header: Record, variant: Variant) -> Record:
    """What every secret game's constructor takes from its record (a mode adds its own)."""
    return {
        **header,
        "variant": variant,
        "secret": secret_of(record, variant),
        "hard": bool(record.get("hard", False)),
    }
