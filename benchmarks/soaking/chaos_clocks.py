"""No race misses its clock, kills or not: each deadline held against when the clock acted.

A race's lobby closes (the race starts) at `lobby_until` and the race ends at `race_until`. A
deadline that fell while the process serving the race's server was dead (or was killed just
before its timer could act) is owed at once by the restarted process: it must act within
CLOCK_SLACK of that process's `ready`. Any other deadline must be met within CLOCK_SLACK of
itself. A race that ended early (cracked, out of guesses) met its time limit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks.soaking.chaos_kills import Kill
from benchmarks.soaking.chaos_reads import RaceClock

CLOCK_SLACK = 3.0
"""Seconds a clock may act after its deadline, or after the restart that owes it."""


@dataclass(frozen=True)
class Deadline:
    """One deadline of one race: when it fell, when it was owed, when the clock acted."""

    game_id: int
    what: str  # "lobby" or "time limit"
    due: float
    owed: float  # `due`, or the `ready` of the restart that owes it
    acted: float | None

    @property
    def in_downtime(self) -> bool:
        return self.owed > self.due

    @property
    def late(self) -> float | None:
        """Seconds after it was owed that the clock acted (None: it never did)."""
        return None if self.acted is None else max(0.0, self.acted - self.owed)


@dataclass
class ClockReport:
    checked: list[Deadline] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def in_downtime(self) -> int:
        return sum(1 for d in self.checked if d.in_downtime)

    @property
    def missed(self) -> int:
        return sum(1 for d in self.checked if d.acted is None)

    @property
    def worst_late(self) -> float:
        return max((d.late or 0.0 for d in self.checked), default=0.0)


def owed_at(due: float, shard: int, kills: list[Kill]) -> float:
    """When the clock of a deadline `due` on `shard` is owed: `due`, or, if the process was
    dead then (or killed within CLOCK_SLACK before its timer acted), its restart's `ready`."""
    for kill in kills:
        if kill.shard == shard and kill.covers(due, slack=CLOCK_SLACK):
            return max(due, kill.ready_at)
    return due


def deadlines(race: RaceClock, processes: int, kills: list[Kill], now: float) -> list[Deadline]:
    """The deadlines of `race` that have passed (with their slack) by `now`."""
    shard = race.shard(processes)
    found: list[Deadline] = []
    started = race.started_at if race.started_at is not None else race.finished_at
    for what, due, acted in (
        ("lobby", race.lobby_until, started),
        ("time limit", race.race_until, race.finished_at),
    ):
        if due is None:
            continue
        owed = owed_at(float(due), shard, kills)
        met = acted is not None and acted <= due + CLOCK_SLACK
        if met or owed + CLOCK_SLACK < now:  # met, or it should have been by now
            found.append(Deadline(race.game_id, what, float(due), owed, acted))
    return found


def check_clocks(
    races: list[RaceClock], processes: int, kills: list[Kill], now: float
) -> ClockReport:
    """Every passed deadline of every race, and a problem for each one missed or late."""
    report = ClockReport()
    for race in races:
        for deadline in deadlines(race, processes, kills, now):
            report.checked.append(deadline)
            late = deadline.late
            if late is None:
                report.problems.append(
                    f"race {deadline.game_id}: its {deadline.what} fell at {deadline.due:.0f} "
                    f"(owed at {deadline.owed:.1f}), and its clock never acted"
                )
            elif late > CLOCK_SLACK:
                report.problems.append(
                    f"race {deadline.game_id}: its {deadline.what} was owed at "
                    f"{deadline.owed:.1f}, and its clock acted {late:.1f} s late"
                )
    return report
