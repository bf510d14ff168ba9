"""The solver, as the event loop sees it: typed requests to worker processes, typed replies.

Solving takes from a millisecond to a couple of seconds; in a worker process it never blocks
the event loop (or the GIL) that keeps every other game responsive. Moves and simulations run
in separate worker pools, so a simulation can never make a player's move wait: the move
workers only ever see short jobs. Simulations are admitted under limits (one per player, a few
in all) and each is bounded by a `SimulationBudget`; beyond the limits the player is told
to come back later (`SolverBusy`).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeVar

from bot import metrics
from bot.engine import cache_dir, job_types, jobs
from bot.engine.game import Variant
from bot.worker_processes import WorkerLost, WorkerProcesses, WorkersClosed

T = TypeVar("T")

History = jobs.PlainHistory
"""(guess colours, black, white) per answered guess, 0-based colours: what the jobs read."""


class Unavailable(StrEnum):
    """Why the solver cannot take a request now (the UI says each in the player's language)."""

    ONE_PER_PLAYER = "one-simulation-per-player"
    TOO_MANY = "too-many-simulations"
    RESTARTED = "solver-restarted"
    SHUTTING_DOWN = "shutting-down"
    REVIEWING = "review-in-progress"


class SolverUnavailable(RuntimeError):
    """The solver cannot answer this request now; `reason` says why."""

    def __init__(self, reason: Unavailable) -> None:
        super().__init__(reason)
        self.reason = reason

    @property
    def code(self) -> str:
        return self.reason.value


class SolverBusy(SolverUnavailable):
    """Too much expensive work is already running or waiting (a simulation, a review)."""


@dataclass(frozen=True)
class SimulationLimits:
    """Admission to the simulation workers: per player and in all (running plus waiting)."""

    per_user: int = 1
    in_flight: int = 3
    budget: job_types.SimulationBudget = field(default_factory=job_types.SimulationBudget)


class SolverPool:
    """Two bounded pools of solver processes: one for moves, one for simulations."""

    def __init__(
        self,
        workers: int = 1,
        time_budget: float = 2.0,
        *,
        simulation_workers: int = 1,
        simulation_limits: SimulationLimits | None = None,
    ) -> None:
        self.time_budget = time_budget
        self.simulation_limits = simulation_limits or SimulationLimits()
        self._moves = WorkerProcesses("solver", workers)
        self._simulations = WorkerProcesses("simulation", simulation_workers)
        self._simulating: Counter[int] = Counter()
        self._reviewing: set[int] = set()

    # --- moves ----------------------------------------------------------------------------

    async def warm_up(self) -> None:
        """Start every move worker and build the default variant's tables before the first
        player. The simulation worker starts with the first simulation instead (about 1.5 s
        more on that one answer): most hosts run none for hours, and an idle worker holds
        about 150 MB.

        The kernels are compiled (once per install) by one worker while the others wait for
        its cache (`cache_dir.compiled_alone`); a request sent meanwhile waits in the queue."""
        await asyncio.gather(
            *(
                self._call(self._moves, cache_dir.compiled_alone, jobs.warm_up, warm_up=True)
                for _ in range(self._moves.workers)
            )
        )

    async def next_move(
        self,
        variant: Variant,
        strategy: str,
        history: History,
        seed: int,
    ) -> job_types.NextGuess | job_types.NoCodeLeft:
        """The solver's next guess after `history`, or the answer that left no code."""
        return await self._call(
            self._moves,
            jobs.next_move,
            _spec(variant),
            strategy,
            list(history),
            self._search(seed),
        )

    async def opening(self, variant: Variant, strategy: str, seed: int) -> job_types.NextGuess:
        """The first guess of a solve game (no answer yet, so some code is always left)."""
        move = await self.next_move(variant, strategy, [], seed)
        if isinstance(move, job_types.NoCodeLeft):  # pragma: no cover - no answer contradicts
            raise RuntimeError(f"the opening found no code left after answer {move.index + 1}")
        return move

    async def knuth_guesses(self, variant: Variant, secret: Sequence[int]) -> int | None:
        """Guesses Knuth's algorithm needs for `secret`; None for approximately solved variants."""
        return await self._call(self._moves, jobs.knuth_guesses, _spec(variant), list(secret))

    async def remaining(self, variant: Variant, history: History) -> int | None:
        """How many codes fit the answers so far; None when none does."""
        return await self._call(self._moves, jobs.remaining, _spec(variant), list(history))

    async def hint(
        self,
        variant: Variant,
        history: History,
        level: int,
        hard: bool,
        seed: int,
    ) -> job_types.Hint:
        """A play game's hint: the codes left, and at level 2 a code to guess (one that fits
        every answer in hard mode)."""
        return await self._call(
            self._moves,
            jobs.hint,
            _spec(variant),
            list(history),
            level,
            hard,
            self._search(seed),
        )

    async def review(
        self, variant: Variant, history: History, seed: int, user_id: int
    ) -> list[job_types.ReviewedGuess]:
        """A finished game reviewed guess by guess (see `bot.engine.review`).

        Each guess is its own job with a move's time budget, awaited in turn, so moves other
        players wait for queue between them and never behind a whole review. One review per
        player at a time (SolverBusy otherwise).
        """
        if user_id in self._reviewing:
            raise SolverBusy(Unavailable.REVIEWING)
        self._reviewing.add(user_id)
        spec, plain, search = _spec(variant), list(history), self._search(seed)
        try:
            return [
                await self._call(self._moves, jobs.review_guess, spec, plain, number, search)
                for number in range(1, len(plain) + 1)
            ]
        finally:
            self._reviewing.discard(user_id)

    # --- simulations ----------------------------------------------------------------------

    def check_simulation(self, user_id: int) -> None:
        """Raise SolverBusy if `user_id` could not start a simulation now.

        Call it before answering publicly, so a refusal can stay private; `simulation` checks
        again when it starts.
        """
        limits = self.simulation_limits
        if self._simulating[user_id] >= limits.per_user:
            raise SolverBusy(Unavailable.ONE_PER_PLAYER)
        if self.simulations_in_flight >= limits.in_flight:
            raise SolverBusy(Unavailable.TOO_MANY)

    @property
    def simulations_in_flight(self) -> int:
        """Simulations running or waiting for the simulation worker."""
        return sum(self._simulating.values())

    async def simulation(
        self, variant: Variant, strategy: str, user_id: int
    ) -> job_types.SimulationResult:
        """A strategy's guess counts over every secret of a variant, or a budgeted sample.

        Raises SolverBusy when `user_id` already has one in flight or too many are.
        """
        self.check_simulation(user_id)
        self._simulating[user_id] += 1
        try:
            return await self._call(
                self._simulations,
                jobs.simulation,
                _spec(variant),
                strategy,
                self.simulation_limits.budget,
            )
        finally:
            self._simulating[user_id] -= 1
            if self._simulating[user_id] <= 0:
                del self._simulating[user_id]

    # --- lifecycle ------------------------------------------------------------------------

    @property
    def pids(self) -> list[int]:
        """Live worker process ids, move workers first."""
        return [*self._moves.pids, *self._simulations.pids]

    async def worker_memory(self) -> job_types.WorkerMemory:
        """A move worker's current and peak memory (with one worker: the move worker)."""
        return await self._call(self._moves, jobs.memory)

    def stop_simulations(self, grace: float = 0.0) -> None:
        """End every simulation now, as the first step of a shutdown: waiting ones are
        cancelled and a running one is terminated after `grace` seconds, so their callers get
        SolverUnavailable at once instead of holding the shutdown up. Moves keep working."""
        self._simulations.shutdown(grace)

    def shutdown(self, grace: float = 1.0) -> None:
        """Cancel waiting jobs and join every worker of both pools; a worker still busy after
        `grace` seconds is terminated. Blocks for at most about `grace` + 2 s; idempotent."""
        self._moves.stop()
        self._simulations.stop()
        deadline = time.monotonic() + grace
        self._moves.join(deadline)
        self._simulations.join(deadline)

    async def close(self, grace: float = 1.0) -> None:
        """`shutdown` without blocking the event loop meanwhile."""
        await asyncio.to_thread(self.shutdown, grace)

    def _search(self, seed: int) -> job_types.SearchSpec:
        """A game's search: its own seed, and the move budget (`SOLVER_TIME_BUDGET`)."""
        return job_types.SearchSpec(seed, self.time_budget)

    @staticmethod
    async def _call(
        workers: WorkerProcesses, function: Callable[..., T], *args: object, warm_up: bool = False
    ) -> T:
        """Run a job; a lost or closed pool becomes SolverUnavailable, saying which."""
        metrics.SINK.solver_job(+1)
        started = time.perf_counter()
        try:
            return await workers.run(function, *args, warm_up=warm_up)
        except WorkerLost:
            raise SolverUnavailable(Unavailable.RESTARTED) from None
        except WorkersClosed:
            raise SolverUnavailable(Unavailable.SHUTTING_DOWN) from None
        finally:
            metrics.SINK.solver_job(-1, time.perf_counter() - started)


def _spec(variant: Variant) -> job_types.VariantSpec:
    """The rules a worker needs of a variant: plain data, cheap to send."""
    return job_types.VariantSpec(variant.pegs, variant.colours, variant.duplicates)
