"""The chores that run once in a cluster: while this process holds the jobs lease (on SQLite:
always), at once and then every CHORES_SECONDS, each declared chore runs in order. In a cluster
exactly one process runs them; one that takes the lease over from a dead holder first does what
it owes on gaining it (the command sync)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.cluster.leases import LeaseKeeper
from bot.store import Held

log = logging.getLogger(__name__)

CHORES_SECONDS = 600
"""How often the chores run (timers owed after a take-over, the expiry timer among them, and
boards behind their games)."""


@dataclass(frozen=True)
class Chore:
    """One chore: its name (for the log) and its work, which asks `while_held()` before each
    write and stops once it says no (another process may run the same chore by then)."""

    name: str
    run: Callable[[Held], Awaitable[object]]


async def run_once(jobs: LeaseKeeper, chores: Sequence[Chore]) -> None:
    """One round of the chores, each while the jobs lease is still held; a chore that fails
    is logged and the next still runs."""
    for chore in chores:
        if not jobs.held:
            log.warning("lost the jobs lease (%s) during a pass: stopping", jobs.lease.name)
            break
        try:
            await chore.run(lambda: jobs.held)
        except Exception:
            log.exception("the chore %r failed; will retry", chore.name)


async def run_forever(
    jobs: LeaseKeeper,
    chores: Callable[[], Sequence[Chore]],
    on_gain: Callable[[], Awaitable[None]],
    gained_term: int = 0,  # the command sync, in the bot
    every: float = CHORES_SECONDS,
) -> None:
    """Run the chores while the jobs lease is held: at once and every `every` seconds, and
    afresh each time the lease is gained, after `on_gain` (unless this process did it for
    that gain already: `gained_term`). Runs until cancelled."""
    loop = asyncio.get_running_loop()
    term, next_pass = 0, 0.0
    while True:
        await jobs.wait_held()
        if jobs.term != term:  # gained the lease (again): start a fresh round
            term, next_pass = jobs.term, 0.0
            if gained_term != term:
                try:
                    await on_gain()
                except Exception:
                    log.exception("the command sync failed; the next holder tries again")
                gained_term = term
        if loop.time() >= next_pass:
            await run_once(jobs, chores())
            next_pass = loop.time() + every
        await jobs.wait_changed(max(0.0, next_pass - loop.time()))
