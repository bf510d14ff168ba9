"""Hold the ledger against the database and the fake: the soak's correctness verdict.

Failures (any one fails `--check`): an acknowledged move missing from the database; a source
stored more than once; a move stored for an input the bot refused; a move stored that its
player never saw acknowledged, not even after the run, with no kill to lose it; an interaction left
unanswered (or answered after Discord's 3 s) while every bot was up; a fake-Discord violation
other than those deadlines; a race whose lobby or time limit passed without its clock acting;
a daily move made on another day than its puzzle's. Timings are never failures.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC

from benchmarks.soaking.database import Stored
from benchmarks.soaking.ledger import Ledger, Sent
from benchmarks.soaking.table import ANSWER_TIMEOUT, MOVED_TIMEOUT
from bot.modes.daily.rules import puzzle_number
from tests.discord_fake import Violation

WATCH = ANSWER_TIMEOUT + MOVED_TIMEOUT
"""Seconds from sending a move to the last moment its player watches for it: a kill in that
span may take its acknowledgement (the board's edit) with it."""
CLOCK_SLACK = 3.0
"""Seconds a race's clock may act after its deadline (the timer's wake-up and one write)."""


@dataclass
class Verdict:
    """What the check found: counts to print, and `problems` (empty: the soak passed)."""

    acknowledged: int = 0
    stored: int = 0
    stored_unacknowledged: int = 0
    acknowledged_late: int = 0
    unanswered_in_downtime: int = 0
    not_sent_in_downtime: int = 0
    races_checked: int = 0
    dailies_checked: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """The verdict as printable lines."""
        head = (
            f"ledger: {self.acknowledged} acknowledged moves, {self.stored} moves from player "
            f"inputs stored, {self.acknowledged_late} shown only after their player stopped "
            f"watching, {self.stored_unacknowledged} stored but never acknowledged "
            f"(their answer lost in a kill), {self.unanswered_in_downtime} unanswered during "
            f"downtime, {self.not_sent_in_downtime} not sent (no bot connected); "
            f"{self.races_checked} race clocks and {self.dailies_checked} dailies checked"
        )
        shown = self.problems[:20]
        more = [f"  ... and {len(self.problems) - 20} more"] if len(self.problems) > 20 else []
        return [head, *(f"  PROBLEM: {p}" for p in shown), *more]


def verify(
    ledger: Ledger, stored: Stored, violations: list[Violation], *, now: float | None = None
) -> Verdict:
    """The verdict on one soak: ledger against database, interactions, violations, clocks."""
    verdict = Verdict(not_sent_in_downtime=sum(ledger.not_sent.values()))
    unacknowledge_private_answers(ledger.sent)
    _moves(ledger, stored, verdict)
    _answers(ledger, verdict)
    verdict.problems += [str(v) for v in violations if v.rule != "interaction-deadline"]
    _races(stored, time.time() if now is None else now, verdict)
    _dailies(stored, verdict)
    return verdict


def unacknowledge_private_answers(sent: list[Sent]) -> None:
    """A solve answer counts as acknowledged once its board shows a newer version; but when the
    solver takes longer than the player waits (after a restart, or on a loaded machine), the
    player clicks the same answer again, and the board moves on the first click while the second
    is refused in a private followup. Such a click was not acknowledged (nor refused: the first
    may be either)."""
    for entry in sent:
        if entry.kind == "solve answer" and any(m.ephemeral for m in entry.handle.followups):
            entry.acknowledged = False


def _moves(ledger: Ledger, stored: Stored, verdict: Verdict) -> None:
    counts = Counter(m.source for m in stored.moves if m.source is not None)
    ours: dict[str, Sent] = {e.source: e for e in ledger.sent if e.source is not None}
    verdict.problems += [f"source {s!r} stored {n} times" for s, n in counts.items() if n > 1]
    acknowledged = ledger.acknowledged_moves()
    verdict.acknowledged = len(acknowledged)
    verdict.stored = sum(1 for source in counts if source in ours)
    for entry in acknowledged:
        if counts[entry.source or ""] == 0:
            verdict.problems.append(
                f"lost: {entry.kind} ({entry.handle.description}) was acknowledged, "
                f"but no move with source {entry.source!r} is stored"
            )
    for source in counts:
        sent = ours.get(source)
        if sent is None or sent.acknowledged:
            continue
        if sent.refused:
            verdict.problems.append(f"{sent.kind} was refused, yet {source!r} is stored")
        elif sent.shows is not None and sent.shows():
            verdict.acknowledged_late += 1  # a timing: the board showed it after all
        elif ledger.interrupted(sent, WATCH):
            verdict.stored_unacknowledged += 1
        else:
            answer = sent.handle.answer_type
            verdict.problems.append(
                f"unacknowledged: {sent.kind} ({sent.handle.description}, answered with type "
                f"{answer}) is stored as {source!r}, but its player never saw it taken "
                "(no bot was down)"
            )


def _answers(ledger: Ledger, verdict: Verdict) -> None:
    for entry in ledger.sent:
        handle = entry.handle
        if handle.answered and not handle.late:
            continue
        if ledger.in_downtime(entry):
            verdict.unanswered_in_downtime += 1
            continue
        what = "answered late" if handle.answered else "never answered"
        verdict.problems.append(f"{handle.description} was {what} (no bot was down)")


def _races(stored: Stored, now: float, verdict: Verdict) -> None:
    for race in stored.races:
        if race.lobby_until is not None and race.lobby_until + CLOCK_SLACK < now:
            verdict.races_checked += 1
            began = race.started_at if race.started_at is not None else race.finished_at
            if began is None or began > race.lobby_until + CLOCK_SLACK:
                verdict.problems.append(
                    f"race {race.id}: its lobby closed at {race.lobby_until}, "
                    f"but it started at {began}"
                )
        due = race.race_until
        late = race.finished_at is None or (
            due is not None and race.finished_at > due + CLOCK_SLACK
        )
        if due is not None and due + CLOCK_SLACK < now and late:
            verdict.problems.append(
                f"race {race.id}: time was up at {due}, but it finished at "
                f"{race.finished_at} ({race.status})"
            )


def _dailies(stored: Stored, verdict: Verdict) -> None:
    for daily in stored.dailies:
        verdict.dailies_checked += 1
        days = {
            puzzle_number(m.astimezone(UTC).date()) for m in (daily.first_move, daily.last_move)
        }
        if days != {daily.puzzle}:
            verdict.problems.append(
                f"daily game {daily.id} (puzzle #{daily.puzzle}) has moves of puzzles {days}"
            )
