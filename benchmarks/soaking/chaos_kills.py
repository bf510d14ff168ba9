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

from benchmarks.soaking.driver import Soak


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
    every `interval` s while the run lasts (`seconds`); `order` is "turn" or "random"."""

    seconds: float
    interval: float = 20.0
    first: float | None = None  # default: one interval
    order: str = "turn"
    seed: int = 22
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
        await asyncio.sleep(max(0.0, at - loop.time()))
        plan.kills.append(await kill_once(soak, plan.victim(soak.config.processes, rng)))
        at += plan.interval
    await asyncio.sleep(max(0.0, end - loop.time()))
    return plan.kills


async def kill_once(soak: Soak, shard: int) -> Kill:
    """SIGKILL shard `shard`'s process, start it again and wait until it is ready."""
    killed_at = time.time()
    await soak.restart(shard, kill=True)
    return Kill(shard, killed_at, time.time())
