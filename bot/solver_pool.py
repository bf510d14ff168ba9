"""The solver's worker processes: the event loop hands them plain data and awaits the answer.

Solving can take from a millisecond to a couple of seconds; in a worker process it never blocks
the event loop (or the GIL) that keeps every other game responsive. Workers are spawned fresh,
not forked from a process that runs an event loop, and are warmed up at start so the first
player does not wait for table building.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.engine import jobs

log = logging.getLogger(__name__)

T = TypeVar("T")


PARENT_CHECK_SECONDS = 0.5


def _exit_with_parent(parent_pid: int) -> None:
    """Worker initializer: leave as soon as the bot process is gone.

    If the bot is killed (SIGKILL, the OOM killer), nothing tells its workers; they would wait
    on their queue forever, holding memory and the bot's stdout. A daemon thread notices the
    re-parenting within half a second and ends the worker.
    """

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class SolverUnavailable(RuntimeError):
    """A worker died; the pool has been replaced and the request can be retried."""


class SolverPool:
    """A bounded pool of solver processes."""

    def __init__(self, workers: int = 1, time_budget: float = 2.0) -> None:
        self.workers = workers
        self.time_budget = time_budget
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_exit_with_parent,
            initargs=(os.getpid(),),
        )

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run `function(*args)` in a worker; a crashed pool is replaced, not left broken."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor, function, *args)
        except BrokenProcessPool:
            log.error("a solver worker died; starting a new pool")
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()
            raise SolverUnavailable("The solver restarted; please try again.") from None

    async def warm_up(self) -> None:
        await asyncio.gather(*(self.run(jobs.warm_up) for _ in range(self.workers)))

    async def next_move(
        self,
        pegs: int,
        colours: int,
        duplicates: bool,
        strategy: str,
        history: list[tuple[list[int], int, int]],
        seed: int,
    ) -> dict:
        return await self.run(
            jobs.next_move, pegs, colours, duplicates, strategy, history, seed, self.time_budget
        )

    async def knuth_guesses(
        self, pegs: int, colours: int, duplicates: bool, secret: list[int]
    ) -> int | None:
        return await self.run(jobs.knuth_guesses, pegs, colours, duplicates, secret)

    async def remaining(
        self, pegs: int, colours: int, duplicates: bool, history: list[tuple[list[int], int, int]]
    ) -> int | None:
        return await self.run(jobs.remaining, pegs, colours, duplicates, history)

    async def simulation(self, pegs: int, colours: int, duplicates: bool, strategy: str) -> dict:
        return await self.run(jobs.simulation, pegs, colours, duplicates, strategy)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
