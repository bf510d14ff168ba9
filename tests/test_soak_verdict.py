"""The soak's verdict on moves stored but not (yet) acknowledged, without a bot: a ledger
built by hand against a hand-made list of stored moves.

A solve answer is deferred (type 6) and acknowledged only when its board moves; a player
who stopped watching at the soak's stop left such a move stored but "never acknowledged"
(issue seen in a run with no kill). The verdict now asks the board again after the run.
"""

from __future__ import annotations

import asyncio
import random
import time
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

from benchmarks.soaking.database import Move, Stored
from benchmarks.soaking.ledger import Ledger, Sent
from benchmarks.soaking.table import Table
from benchmarks.soaking.verify import verify
from tests.discord_fake import FakeDiscord


def clicked(ledger: Ledger, source: str, *, answer_type: int = 6) -> Sent:
    """A solve answer the bot deferred: answered, its board not moved yet."""
    now = time.perf_counter()
    handle: Any = SimpleNamespace(
        dispatched_perf=now,
        answer_perf=now + 0.01,
        answer_type=answer_type,
        answered=True,
        late=False,
        followups=[],
        description=f"click {source}",
    )
    return ledger.send("solve answer", handle, source)


def stored(*sources: str) -> Stored:
    at = datetime.now(UTC)
    return Stored([Move(1, n, "answer", 7, s, at) for n, s in enumerate(sources)], [], [])


def test_a_move_whose_board_moved_after_its_player_stopped_watching_is_acknowledged_late() -> None:
    ledger = Ledger()
    entry = clicked(ledger, "i:1")
    board = {"version": 3}
    entry.shows = lambda: board["version"] > 3
    board["version"] = 4  # the keeper drew the next guess after the players stopped
    verdict = verify(ledger, stored("i:1"), [])
    assert verdict.passed, verdict.lines()
    assert (verdict.acknowledged_late, verdict.stored_unacknowledged) == (1, 0)


def test_a_stored_move_never_acknowledged_with_no_kill_is_a_problem() -> None:
    ledger = Ledger()
    entry = clicked(ledger, "i:2")
    entry.shows = lambda: False  # the board never moved past the clicked version
    verdict = verify(ledger, stored("i:2"), [])
    assert any(p.startswith("unacknowledged: solve answer") for p in verdict.problems), (
        verdict.lines()
    )
    assert verdict.stored_unacknowledged == 0


def test_a_stored_move_whose_acknowledgement_died_in_a_kill_is_counted_apart() -> None:
    ledger = Ledger()
    entry = clicked(ledger, "i:3")
    entry.shows = lambda: False
    span = ledger.bot_down()  # killed just after the click was answered
    ledger.bot_up(span)
    verdict = verify(ledger, stored("i:3"), [])
    assert verdict.passed, verdict.lines()
    assert verdict.stored_unacknowledged == 1


async def test_a_player_keeps_watching_its_move_once_the_soak_stops() -> None:
    fake = FakeDiscord(rate_limits=None)
    ledger = Ledger()
    table = Table(fake, ledger, random.Random(1), playing=False)  # the soak just stopped
    entry = clicked(ledger, "i:4")
    board = {"version": 3}

    async def draw_later() -> None:
        await asyncio.sleep(0.2)
        board["version"] = 4
        fake.changed()

    drawing = asyncio.create_task(draw_later())
    assert await table.seen(entry, lambda: board["version"] > 3, 2.0)
    await drawing
    assert entry.acknowledged
