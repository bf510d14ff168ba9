"""The timer service on its own: one timer per key, run at its moment on the bot's clock,
a failing action logged and the service still working, and `close` cancelling what waits."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.interactions.timers import SLACK_SECONDS, Timers


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_a_timer_runs_at_its_moment_once_and_a_second_for_its_key_waits_its_turn() -> None:
    clock = Clock()
    timers = Timers(clock)
    ran: list[str] = []

    async def run(what: str) -> None:
        ran.append(what)

    moment = clock.now.timestamp() + 0.2
    timers.at("race:1", moment, lambda: run("first"))
    timers.at("race:1", moment, lambda: run("again"))  # one is set already: ignored
    assert timers.is_set("race:1") and not timers.is_set("race:2")
    await asyncio.sleep(0.1)
    assert ran == []
    await asyncio.sleep(0.2 + SLACK_SECONDS)
    assert ran == ["first"] and not timers.is_set("race:1")
    timers.at("race:1", clock.now.timestamp() - 5, lambda: run("overdue"))  # at once
    await asyncio.sleep(SLACK_SECONDS / 2)
    assert ran == ["first", "overdue"]
    await timers.close()


async def test_a_failing_timer_is_logged_and_the_next_still_runs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = Clock()
    timers = Timers(clock)
    ran: list[int] = []

    async def fail() -> None:
        raise RuntimeError("boom")

    async def run() -> None:
        ran.append(1)

    with caplog.at_level(logging.ERROR, logger="bot.interactions.timers"):
        timers.at("a", clock.now.timestamp(), fail)
        timers.at("b", clock.now.timestamp(), run)
        await asyncio.sleep(SLACK_SECONDS + 0.1)
    assert ran == [1]
    assert [r.getMessage() for r in caplog.records] == [
        "the timer a failed; the next pass sets it again"
    ]
    await timers.close()


async def test_close_cancels_every_waiting_timer_and_sets_no_more() -> None:
    clock = Clock()
    timers = Timers(clock)
    ran: list[int] = []

    async def run() -> None:
        ran.append(1)

    later = (clock.now + timedelta(minutes=5)).timestamp()
    timers.at("race:1", later, run)
    await timers.close()
    assert not timers.is_set("race:1")
    timers.at("race:2", clock.now.timestamp(), run)
    await asyncio.sleep(SLACK_SECONDS + 0.1)
    assert ran == [] and not timers.is_set("race:2")
