"""The soak's ledger: every input the players sent, and which moves the bot acknowledged.

A move counts as acknowledged only when a player saw it answered: a public line for a guess,
a board that moved for a click. Each input that makes a move names the `source` the bot
stores it under (the column `moves.source`, one move per source), so the ledger can be held
against the database afterwards: nothing acknowledged missing, nothing refused stored, no
source stored twice. Interactions sent while no bot was up (or left unanswered by a bot that
was killed) are counted apart, as downtime, never as acknowledged.

A move whose answer is only the first half of its acknowledgement (a deferred click whose
board moves later) keeps what its player watches for (`Sent.shows`): the verdict asks it
again after the run, so a move still in flight when the players stopped, or slower than its
player's patience, is told apart from one the bot never acknowledged.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.discord_fake import InteractionHandle


@dataclass
class Sent:
    """One interaction a player sent. `source`: the move it makes (None: it makes none)."""

    kind: str
    handle: InteractionHandle
    source: str | None = None
    acknowledged: bool = False
    refused: bool = False
    #: What shows its player the move was taken (the board moved past the clicked version...),
    #: for moves acknowledged after their answer; None: the answer itself acknowledges it.
    shows: Callable[[], bool] | None = None

    @property
    def sent_at(self) -> float:
        """perf_counter time it was dispatched."""
        return self.handle.dispatched_perf

    @property
    def answered_at(self) -> float | None:
        """perf_counter time of its first answer, or None."""
        return self.handle.answer_perf


@dataclass
class Downtime:
    """A span (perf_counter) when some bot process was down: from its kill to its `ready`."""

    start: float
    end: float | None = None

    def covers(self, moment: float) -> bool:
        return self.start <= moment and (self.end is None or moment <= self.end)


@dataclass
class Ledger:
    """What the players sent and saw; `verify` (in verify.py) holds it against the database."""

    sent: list[Sent] = field(default_factory=list)
    #: Interactions that could not even be sent: no bot connected (counted, never answered).
    not_sent: Counter[str] = field(default_factory=Counter)
    downtimes: list[Downtime] = field(default_factory=list)

    def send(self, kind: str, handle: InteractionHandle, source: str | None = None) -> Sent:
        """Note an interaction just dispatched."""
        entry = Sent(kind, handle, source)
        self.sent.append(entry)
        return entry

    def acknowledge(self, entry: Sent, source: str | None = None) -> None:
        """The player saw the move answered (the public line, the board moved)."""
        if source is not None:
            entry.source = source
        entry.acknowledged = True

    def refuse(self, entry: Sent) -> None:
        """The bot answered with a refusal (a private reply): no move may be stored for it."""
        entry.refused = True

    def could_not_send(self, kind: str) -> None:
        """No bot was connected to take the interaction (the fake refused to dispatch it)."""
        self.not_sent[kind] += 1

    def bot_down(self) -> Downtime:
        """A bot process is being killed now; close the span with `bot_up`."""
        span = Downtime(time.perf_counter())
        self.downtimes.append(span)
        return span

    def bot_up(self, span: Downtime) -> None:
        """The restarted process is ready again."""
        span.end = time.perf_counter()

    def in_downtime(self, entry: Sent) -> bool:
        """Sent while a bot was down, or still unanswered when one was killed."""
        return any(
            span.covers(entry.sent_at)
            or (entry.sent_at <= span.start and not entry.handle.answered)
            for span in self.downtimes
        )

    def interrupted(self, entry: Sent, watch: float) -> bool:
        """A kill came while the move was on its way: sent in a downtime, left unanswered by a
        killed bot, or a kill within `watch` seconds after it was sent (its acknowledgement,
        a board edit, may have died with the process)."""
        return self.in_downtime(entry) or any(
            entry.sent_at <= span.start <= entry.sent_at + watch for span in self.downtimes
        )

    def acknowledged_moves(self) -> list[Sent]:
        return [e for e in self.sent if e.acknowledged and e.source is not None]

    def answered_between(self, start: float, end: float) -> list[Sent]:
        """Entries whose first answer came in [start, end) (perf_counter)."""
        return [e for e in self.sent if e.answered_at is not None and start <= e.answered_at < end]
