"""The numbers behind each chart, as plain values worked out from what the bot already keeps:
a player's wins (the stats chart), a reviewed game (the review chart) and a simulation (the
histogram). Pure and cheap: computed on the event loop, tested on their own."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date

from bot.engine.job_types import ReviewedGuess, SimulationResult
from bot.store.values import Win


@dataclass(frozen=True)
class Series:
    """Wins of one kind with the same marks, counted per number of guesses (one count per row
    of the distribution)."""

    kind: str
    hard: bool
    hinted: bool
    counts: tuple[int, ...]


@dataclass(frozen=True)
class Distribution:
    """A player's wins by the guesses each took: `rows` are the guess counts 1..most, each
    series one (kind, hard, hinted) stack of the bars, `today` the row of the player's latest
    win today (None: no win today); `order` the kinds in the registry's order, so a colour
    always means one kind."""

    rows: tuple[int, ...]
    series: tuple[Series, ...]
    today: int | None
    order: tuple[str, ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(column) for column in zip(*(s.counts for s in self.series), strict=True))

    @property
    def wins(self) -> int:
        return sum(self.totals)

    def of_kind(self, kind: str) -> int:
        return sum(sum(s.counts) for s in self.series if s.kind == kind)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(kind for kind in self.order if self.of_kind(kind))


def distribution(wins: Iterable[Win], today: date, order: Sequence[str]) -> Distribution | None:
    """The guess distribution of `wins` (of the kinds in `order`, the registry's); None when
    there is none (no chart, a friendly line)."""
    games = [win for win in wins if win.guesses > 0 and win.kind in order]
    if not games:
        return None
    rows = tuple(range(1, max(win.guesses for win in games) + 1))
    counted = Counter((win.kind, win.hard, win.hinted, win.guesses) for win in games)
    stacks = sorted(
        {(win.kind, win.hard, win.hinted) for win in games},
        key=lambda s: (order.index(s[0]), s[1], s[2]),
    )
    series = tuple(
        Series(kind, hard, hinted, tuple(counted[(kind, hard, hinted, row)] for row in rows))
        for kind, hard, hinted in stacks
    )
    todays = [win for win in games if win.finished_at.date() == today]
    return Distribution(rows, series, todays[-1].guesses if todays else None, tuple(order))


@dataclass(frozen=True)
class Narrowing:
    """How a reviewed game narrowed the codes down: `start` codes before the first guess, then
    per guess the codes still possible after it (`yours`) and the most Knuth's guess from the
    same position could have left (`knuth`; None where the guess was the only code left);
    `broke` the guesses that could not have been the secret (they broke a clue), `hinted` those
    made after a hint (1-based guess numbers)."""

    start: int
    yours: tuple[int, ...]
    knuth: tuple[int | None, ...]
    broke: tuple[int, ...]
    hinted: tuple[int, ...]
    behind: tuple[int, ...] = ()
    """The guesses whose worst case was worse than Knuth's (the review's yardstick)."""

    @property
    def guesses(self) -> tuple[int, ...]:
        return tuple(range(1, len(self.yours) + 1))

    @property
    def ticks(self) -> tuple[int, ...]:
        """The log axis' ticks: 1, 10, 100 ... up to the codes at the start."""
        return tuple(10**power for power in range(int(math.log10(max(self.start, 1))) + 1))


def narrowing(rows: Sequence[ReviewedGuess], hinted: Iterable[int] = ()) -> Narrowing | None:
    """The review's story as two curves; None for a game without guesses."""
    if not rows:
        return None
    return Narrowing(
        start=rows[0].before,
        yours=tuple(row.after for row in rows),
        knuth=tuple(None if row.knuth_leaves is None else row.knuth_leaves.worst for row in rows),
        broke=tuple(row.number for row in rows if not row.could_be_secret),
        hinted=tuple(sorted(set(hinted))),
        behind=tuple(row.number for row in rows if not row.as_good_as_knuth),
    )


@dataclass(frozen=True)
class Histogram:
    """A simulation as secrets per number of guesses (every count from 1 to the worst, zeros
    included, so the bars sit where they belong), and the average."""

    guesses: tuple[int, ...]
    secrets: tuple[int, ...]
    average: float


def histogram(result: SimulationResult) -> Histogram | None:
    """The histogram of a simulation; None when it played no game."""
    if not result.games:
        return None
    counts = result.chart()
    guesses = tuple(range(1, result.worst + 1))
    return Histogram(guesses, tuple(counts.get(g, 0) for g in guesses), result.average)
