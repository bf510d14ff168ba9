"""What a store's queries return besides games: plain frozen values, the same for every back end."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.engine.game import Game


@dataclass(frozen=True)
class Board:
    """Where a game's board message is, and which game version it last showed."""

    channel_id: int
    message_id: int
    rendered_version: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's record over finished play games.

    played: games they made at least one guess in; won: games they made the winning guess in;
    guesses: all their guesses in those games; best: the game's guess count when they won it.
    """

    user_id: int
    played: int = 0
    won: int = 0
    guesses: int = 0
    best: int | None = None  # fewest guesses in a game they won

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game and when it started and ended (UTC)."""

    game: Game
    created_at: datetime
    finished_at: datetime
