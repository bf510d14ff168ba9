"""The chaos soak's kills: SIGKILL a bot process every so often, start it again, time it.

Kills are one at a time (a process is ready again before the next one dies), so every
downtime span of the ledger is closed. Which process dies: in turn (0, 1, 0, ...) or at
random. Times are unix seconds, to be held against the database's clocks.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

from benchmarks.soaking.chaos_reads import race_clocks
from benchmarks.soaking.driver import Soak

AIM_LEAD = 0.5
"""With `aim`, a kill comes this many seconds before the race deadline it aims at."""


@dataclass(frozen=True)
class Kill:
    """One SIGKILL and the restart after it (unix seconds)."""

    shard: int
    killed_at: float
    ready_at: float

    @property
    def ready_seconds(self) -> float:
        """From the SIGKILL to the new process's `ready` (commands synced)."""
        return self.ready_at - self.killed_at

    def covers(self, moment: float, slack: float = 0.0) -> bool:
        """Whether shard `shard` had no process at `moment` (or within `slack` before it)."""
        return self.killed_at - slack <= moment <= self.ready_at


@dataclass
class KillPlan:
    """When and whom to kill: the first kill `first` s after the players start, then one
    every `interval` s while the run lasts (`seconds`); `order` is "turn" or "random".
    `aim`: a kill whose interval holds a race's deadline comes just before that deadline
    instead, and kills the race's process, so the restart owes the clock."""

    seconds: float
    interval: float = 20.0
    first: float | None = None  # default: one interval
    order: str = "turn"
    seed: int = 22
    aim: bool = False
    kills: list[Kill] = field(default_factory=list)

    def victim(self, processes: int, rng: random.Random) -> int:
        """The shard whose process dies next."""
        if self.order == "random":
            return rng.randrange(processes)
        return len(self.kills) % processes


async def kill_and_restart(soak: Soak, plan: KillPlan) -> list[Kill]:
    """Kill a bot process on `plan`'s schedule until `plan.seconds` have passed since the call;
    each is restarted at once and waited for. Returns (and keeps in `plan.kills`) every kill."""
    loop = asyncio.get_running_loop()
    rng = random.Random(plan.seed)
    end = loop.time() + plan.seconds
    at = loop.time() + (plan.interval if plan.first is None else plan.first)
    while at < end:
        shard = plan.victim(soak.config.processes, rng)
        target = await aimed(soak, time.time() + at - loop.time()) if plan.aim else None
        if target is not None:
            at, shard = loop.time() + target[0] - AIM_LEAD - time.time(), target[1]
        await asyncio.sleep(max(0.0, at - loop.time()))
        plan.kills.append(await kill_once(soak, shard))
        at += plan.interval
    await asyncio.sleep(max(0.0, end - loop.time()))
    return plan.kills


async def kill_once(soak: Soak, shard: int) -> Kill:
    """SIGKILL shard `shard`'s process, start it again and wait until it is ready."""
    killed_at = time.time()
    await soak.restart(shard, kill=True)
    return Kill(shard, killed_at, time.time())


async def aimed(soak: Soak, until: float) -> tuple[float, int] | None:
    """The earliest race deadline still to come by `until` (unix s), and its race's shard."""
    now, processes = time.time(), soak.config.processes
    pending = [
        (float(due), race.shard(processes))
        for race in await race_clocks(soak.database)
        for due, acted in ((race.lobby_until, race.started_at), (race.race_until, race.finished_at))
        if due is not None and acted is None and now + AIM_LEAD < due <= until + AIM_LEAD
    ]
    return min(pending, default=None)
