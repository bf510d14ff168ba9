"""What a store's queries return besides games: plain frozen values, the same for every back end."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from bot.engine.game import Game

OutcomeT = TypeVar("OutcomeT")
"""What a transition says besides the new game (a guess's outcome, a hint, nothing)."""


@dataclass(frozen=True)
class Board:
    """Where a game's board message is, and which game version it last showed."""

    channel_id: int
    message_id: int
    rendered_version: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's record over finished games of one kind.

    played: games they made at least one guess in; won: games they made the winning guess in
    (where each plays alone: they cracked it first); guesses: all their guesses in those games;
    best: fewest guesses it took them to crack a code; hard_won: wins in hard mode; hinted:
    games in which someone asked for a hint.
    """

    user_id: int
    played: int = 0
    won: int = 0
    guesses: int = 0
    best: int | None = None
    hard_won: int = 0
    hinted: int = 0
    kind: str = "play"

    @property
    def win_rate(self) -> float:
        return self.won / self.played if self.played else 0.0


@dataclass(frozen=True)
class HistoryEntry:
    """A finished game and when it started and ended (UTC)."""

    game: Game
    created_at: datetime
    finished_at: datetime


@dataclass(frozen=True)
class Result:
    """One player's finished game of a kind played once per puzzle: what a streak and a
    puzzle's leaderboard read.

    won: they cracked the code; guesses: how many they made; seconds: from their start to
    their last move (the leaderboard's tie-break after guesses).
    """

    user_id: int
    game_id: int
    puzzle: int
    won: bool
    guesses: int
    seconds: float
    hard: bool = False
    hinted: bool = False


@dataclass(frozen=True)
class Win:
    """One game a player won, as their guess distribution counts it: its kind, the guesses it
    took (a solve game: the bot's, on the player's code), its marks and when it ended (UTC)."""

    kind: str
    guesses: int
    hard: bool
    hinted: bool
    finished_at: datetime


@dataclass(frozen=True)
class Applied(Generic[OutcomeT]):
    """What one action did, read in its own transaction: the game after it (secret withheld
    while it runs), the transition's outcome, and where its board is (None: it has none)."""

    game: Game
    outcome: OutcomeT
    board: Board | None


@dataclass(frozen=True)
class Snapshot:
    """Every game, move and meta value of a database as of one instant (`Store.export`), as
    plain values: timestamps are aware datetimes, flags are booleans. Rows are keyed by column
    (`GAME_COLUMNS`, `MOVE_COLUMNS` of `bot.store.bulk`)."""

    games: tuple[dict[str, Any], ...]
    moves: tuple[dict[str, Any], ...]
    meta: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Absorbed:
    """What `Store.absorb` found and wrote: counts of the snapshot's rows and of those new (or
    brought up to date) in the database."""

    games: int
    games_new: int
    games_updated: int
    moves: int
    moves_new: int
    meta: int
    meta_changed: int


Held = Callable[[], bool]
"""Whether a chore is still this process's to run (it holds the chore's lease), asked before
each write."""


def always() -> bool:
    """A chore with no lease to lose (a test, a one-off command): it always may write."""
    return True
