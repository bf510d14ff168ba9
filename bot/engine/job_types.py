"""The typed values that cross the process boundary between the bot and its solver workers.

Frozen dataclasses of ints, strings and tuples only: they pickle cheaply, cannot be changed on
the way, and let the type checker see what a worker can answer instead of a loose dict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class VariantSpec:
    """Which Mastermind variant a request is about."""

    pegs: int
    colours: int
    duplicates: bool = True

    @property
    def key(self) -> tuple[int, int, bool]:
        return (self.pegs, self.colours, self.duplicates)

    @property
    def size(self) -> int:
        """How many codes the variant has (computed, nothing built)."""
        if self.duplicates:
            return int(self.colours**self.pegs)
        return math.perm(self.colours, self.pegs)


@dataclass(frozen=True)
class SearchSpec:
    """How one search runs: its seed (a game's own, so asking again gives the same move) and
    the seconds it may spend where the exact search would overrun (`SOLVER_TIME_BUDGET`)."""

    seed: int = 0
    time_budget: float = 2.0


@dataclass(frozen=True)
class NextGuess:
    """The solver's next guess, and how many codes were still possible before it. `exact`
    False: the strategy's exact search would have overrun the move budget, so an approximate
    search chose it (the board says so; see `bot.engine.budget`)."""

    guess: tuple[int, ...]
    remaining: int
    exact: bool = True


@dataclass(frozen=True)
class NoCodeLeft:
    """No code fits every answer: `index` (0-based) is the answer after which none was left;
    `message` describes it for logs (the board says it in the player's language)."""

    index: int
    message: str


@dataclass(frozen=True)
class SimulationBudget:
    """What one simulation may cost, so a huge variant cannot hold its worker for long.

    Variants up to the full-sweep limit play every secret (a few seconds at most). Larger ones
    play a seeded random sample, smaller for the approximately searched ones, each guess capped
    at `move_seconds`, and stop starting new games once `seconds` of wall clock have passed.
    """

    seconds: float = 10.0
    move_seconds: float = 0.5
    sampled_games: int = 200
    approximate_games: int = 100


@dataclass(frozen=True)
class SimulationResult:
    """How a strategy did on a variant. `games` were played out of `planned` (fewer when the
    time budget ran out); `distribution` holds (guesses, secrets) pairs, fewest guesses first."""

    pegs: int
    colours: int
    duplicates: bool
    strategy: str
    first_guess: str
    distribution: tuple[tuple[int, int], ...]
    planned: int
    all_secrets: bool
    seconds: float
    note: str | None = None
    """Why the strategy played differently than its name says (e.g. `optimal` without a tree
    for this variant), for the chart to show."""

    @property
    def games(self) -> int:
        return sum(count for _, count in self.distribution)

    @property
    def total(self) -> int:
        return sum(guesses * count for guesses, count in self.distribution)

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0

    @property
    def worst(self) -> int:
        return max((guesses for guesses, _ in self.distribution), default=0)

    @property
    def cut_short(self) -> bool:
        """The time budget ran out before every planned game was played."""
        return self.games < self.planned

    def chart(self) -> dict[int, int]:
        """Secrets per guess count, as a mapping for the bar chart."""
        return dict(self.distribution)


@dataclass(frozen=True)
class WorkerMemory:
    """A worker's resident memory now and at its peak (Linux VmRSS and VmHWM), in MB."""

    pid: int
    rss_mb: float
    peak_mb: float


@dataclass(frozen=True)
class Leave:
    """What a guess can leave of the codes still possible: the most over every answer it can
    earn (its worst case, Knuth's yardstick) and the expected number."""

    worst: int
    average: float


@dataclass(frozen=True)
class ReviewedGuess:
    """One guess of a finished game, reviewed (see `bot.engine.review`).

    `before` codes were possible when it was made and `after` once its answer came;
    `could_be_secret` says whether it was one of the `before` codes. `leaves` is what it could
    have left; `knuth_guess` is what Knuth's algorithm plays from the same position (None when
    the guess was the only code left, so nothing better existed) and `knuth_leaves` what that
    could have left; `knuth_exact` False when that guess came from the approximate search (the
    exact one would have overrun the move budget), so "Knuth would have" is only an estimate.
    """

    number: int  # 1-based
    guess: tuple[int, ...]
    answer: tuple[int, int]
    before: int
    after: int
    could_be_secret: bool
    leaves: Leave
    knuth_guess: tuple[int, ...] | None
    knuth_leaves: Leave | None
    knuth_exact: bool = True

    @property
    def as_good_as_knuth(self) -> bool:
        """Its worst case is no worse than the worst case of Knuth's guess."""
        return self.knuth_leaves is None or self.leaves.worst <= self.knuth_leaves.worst


@dataclass(frozen=True)
class Hint:
    """A hint for a play game: how many codes fit the answers so far and, on a second press,
    a code worth guessing next (`fits`: it could still be the secret)."""

    remaining: int
    guess: tuple[int, ...] | None = None
    fits: bool = False
