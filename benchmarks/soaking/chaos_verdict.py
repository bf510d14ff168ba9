"""The chaos soak's verdict: the soak's ledger check, the boards, the clocks against the kills.

The soak's own race check is replaced by the downtime-aware one (chaos_clocks.py): a deadline
that fell while its process was dead is owed by the restart, not by itself.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

from benchmarks.soaking import chaos_reads
from benchmarks.soaking.chaos_boards import Convergence
from benchmarks.soaking.chaos_clocks import ClockReport, check_clocks
from benchmarks.soaking.chaos_kills import Kill
from benchmarks.soaking.database import read_stored
from benchmarks.soaking.driver import Soak
from benchmarks.soaking.ledger import Sent
from benchmarks.soaking.verify import Verdict, verify


@dataclass
class ChaosResult:
    """Everything a chaos run found; `passed` is the `--check` verdict."""

    kills: list[Kill]
    verdict: Verdict
    boards: Convergence
    clocks: ClockReport
    processes: int
    notes: list[str] = dataclasses.field(default_factory=list)

    @property
    def problems(self) -> list[str]:
        return [
            *self.verdict.problems,
            *(f"board not converged: {b}" for b in self.boards.behind),
            *self.clocks.problems,
        ]

    @property
    def passed(self) -> bool:
        return not self.problems


async def judge(running: Soak, kills: list[Kill], boards: Convergence) -> ChaosResult:
    """The soak's ledger verdict (its race check replaced by the downtime-aware one), and the
    clocks of every race against the kills."""
    stored = await read_stored(running.database)
    verdict = verify(
        running.ledger, dataclasses.replace(stored, races=[]), list(running.fake.violations)
    )
    races = await chaos_reads.race_clocks(running.database)
    clocks = check_clocks(races, running.config.processes, kills, time.time())
    result = ChaosResult(kills, verdict, boards, clocks, running.config.processes)
    result.notes = lost_near_kills(running.ledger.sent, verdict.problems, kills)
    return result


def lost_near_kills(sent: list[Sent], problems: list[str], kills: list[Kill]) -> list[str]:
    """For each move reported lost: when it was sent and answered, against the nearest kill
    (what to look at first when one shows up)."""
    to_unix = time.time() - time.perf_counter()
    notes = []
    for entry in sent:
        if entry.source is None or not any(repr(entry.source) in p for p in problems):
            continue
        at = entry.sent_at + to_unix
        kill = min(kills, key=lambda k: abs(k.killed_at - at), default=None)
        near = "no kill" if kill is None else f"{at - kill.killed_at:+.3f} s from a kill"
        answered = entry.answered_at
        after = "never" if answered is None else f"{(answered - entry.sent_at) * 1000:.0f} ms later"
        notes.append(
            f"  lost {entry.source}: sent {near}, answered (type {entry.handle.answer_type}) "
            f"{after}, {len(entry.handle.followups)} followup(s)"
        )
    return notes
