"""The solver pool with real worker processes: typed replies, simulation limits, a simulation
never holding up a move, and a shutdown that leaves nothing behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import MastermindBot
from bot.config import Settings
from bot.engine.codes import CodeSpace
from bot.engine.game import Variant
from bot.engine.job_types import NextGuess, NoCodeLeft, SimulationBudget, SimulationResult
from bot.engine.simulate import simulate
from bot.solver_pool import (
    SimulationLimits,
    SolverBusy,
    SolverPool,
    SolverUnavailable,
    Unavailable,
)
from tests.discord_fake import FakeDiscord

pytest_plugins = ["tests.discord_fake.fixtures"]

ROOT = Path(__file__).resolve().parents[1]

LONG = SimulationLimits(
    per_user=1, in_flight=2, budget=SimulationBudget(seconds=600.0, approximate_games=100)
)
"""Limits whose 6 x 10 simulations run for a minute or more: long enough to still be running
whenever a test looks (each test shuts its pool down, which ends them)."""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
async def pool() -> AsyncIterator[SolverPool]:
    solver = SolverPool(1, simulation_limits=LONG)
    await solver.warm_up()
    yield solver
    solver.shutdown(grace=0.0)


async def test_replies_are_typed_values(pool: SolverPool) -> None:
    assert await pool.opening(Variant(4, 6, True), "knuth", 0) == NextGuess((0, 0, 1, 1), 1296)
    after_1122 = [([0, 0, 1, 1], 1, 0)]
    move = await pool.next_move(Variant(4, 6, True), "knuth", after_1122, 0)
    assert isinstance(move, NextGuess) and move.remaining == 256 and len(move.guess) == 4

    contradiction = [([0, 0, 1, 1], 0, 0), ([0, 0, 1, 1], 1, 0)]
    refused = await pool.next_move(Variant(4, 6, True), "knuth", contradiction, 0)
    assert isinstance(refused, NoCodeLeft) and refused.index == 1
    assert "undo" in refused.message

    assert await pool.remaining(Variant(4, 6, True), after_1122) == 256
    assert await pool.remaining(Variant(4, 6, True), contradiction) is None
    needed = await pool.knuth_guesses(Variant(4, 6, True), [0, 1, 2, 3])
    assert needed is not None and 1 <= needed <= 5
    assert await pool.knuth_guesses(Variant(6, 10, True), [0] * 6) is None  # approximate: no figure


async def test_a_simulation_is_a_typed_result_and_frees_its_slot(pool: SolverPool) -> None:
    expected = simulate(CodeSpace(3, 4), "knuth")
    for _ in range(2):  # the same player again: the first one's slot was released
        result = await pool.simulation(Variant(3, 4, True), "knuth", user_id=1)
        assert isinstance(result, SimulationResult)
        assert result.all_secrets and result.games == result.planned == 64
        assert not result.cut_short
        assert (result.total, result.worst) == (expected.total, expected.worst)
        assert result.chart() == dict(expected.distribution)
    assert pool.simulations_in_flight == 0


async def test_limits_refuse_politely_and_moves_never_wait(pool: SolverPool) -> None:
    first = asyncio.create_task(pool.simulation(Variant(6, 10, True), "knuth", user_id=1))
    await asyncio.sleep(0)  # the task takes its slot before its first await

    with pytest.raises(SolverBusy) as mine:
        await pool.simulation(Variant(3, 4, True), "knuth", user_id=1)
    assert mine.value.reason is Unavailable.ONE_PER_PLAYER and isinstance(
        mine.value, SolverUnavailable
    )

    second = asyncio.create_task(pool.simulation(Variant(6, 10, True), "entropy", user_id=2))
    await asyncio.sleep(0)
    with pytest.raises(SolverBusy) as everyone:
        pool.check_simulation(3)
    assert everyone.value.reason is Unavailable.TOO_MANY
    assert pool.simulations_in_flight == 2

    # Both simulations take a minute or more, and one of them is running: moves still answer.
    for seed in range(3):
        move = await pool.next_move(Variant(4, 6, True), "knuth", [([0, 0, 1, 1], 1, 1)], seed)
        assert isinstance(move, NextGuess)
    big = await pool.next_move(Variant(6, 10, True), "knuth", [([0, 0, 1, 1, 2, 2], 1, 1)], 7)
    assert isinstance(big, NextGuess)
    assert not first.done() and not second.done()

    pool.shutdown(grace=0.0)
    for task in (first, second):
        with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
            await task
    assert pool.simulations_in_flight == 0


def comm(pid: int) -> str:
    return Path(f"/proc/{pid}/comm").read_text().strip()


async def test_the_simulation_worker_starts_with_the_first_simulation(pool: SolverPool) -> None:
    """An idle simulation worker would hold about 150 MB from the start (#25): warm_up starts
    the move worker alone, and each worker is named after its pool for `ps` and `top`."""
    assert [comm(pid) for pid in pool.pids] == ["mm-solver"]
    result = await pool.simulation(Variant(3, 4, True), "knuth", user_id=1)
    assert result.games == 64
    assert [comm(pid) for pid in pool.pids] == ["mm-solver", "mm-simulation"]


async def test_shutdown_joins_every_worker_even_a_busy_one(pool: SolverPool) -> None:
    busy = asyncio.create_task(pool.simulation(Variant(6, 10, True), "knuth", user_id=1))
    await asyncio.sleep(0.5)
    pids = pool.pids
    assert len(pids) == 2 and all(alive(pid) for pid in pids)

    await pool.close(grace=0.2)

    assert pool.pids == [] and not any(alive(pid) for pid in pids)
    with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
        await busy
    with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
        await pool.next_move(Variant(4, 6, True), "knuth", [], 0)
    pool.shutdown()  # a second shutdown is harmless


async def test_simulations_can_be_ended_first_and_moves_go_on(pool: SolverPool) -> None:
    running = asyncio.create_task(pool.simulation(Variant(6, 10, True), "knuth", user_id=1))
    await asyncio.sleep(0.5)
    pool.stop_simulations()
    with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
        await running
    with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
        await pool.simulation(Variant(3, 4, True), "knuth", user_id=2)
    assert isinstance(await pool.next_move(Variant(4, 6, True), "knuth", [], 0), NextGuess)
    assert len(pool.pids) == 1  # the move worker only


async def test_a_killed_worker_is_replaced(pool: SolverPool) -> None:
    running = asyncio.create_task(pool.simulation(Variant(6, 10, True), "knuth", user_id=1))
    await asyncio.sleep(0.5)
    simulation_worker = pool.pids[-1]
    os.kill(simulation_worker, signal.SIGKILL)
    with pytest.raises(SolverUnavailable, match=Unavailable.RESTARTED):
        await running
    result = await pool.simulation(Variant(3, 4, True), "knuth", user_id=1)
    assert result.games == 64 and simulation_worker not in pool.pids


def test_exit_after_shutdown_leaks_nothing() -> None:
    """A process that shuts its pool down (one worker busy) exits at once and cleanly."""
    script = textwrap.dedent(
        """
        import asyncio
        from bot.engine.game import Variant
        from bot.solver_pool import SolverPool

        async def main():
            pool = SolverPool(1)
            await pool.warm_up()
            busy = asyncio.ensure_future(pool.simulation(Variant(6, 10, True), "knuth", user_id=1))
            await asyncio.sleep(1.0)
            print(*pool.pids)
            pool.shutdown(grace=0.5)
            await asyncio.gather(busy, return_exceptions=True)

        asyncio.run(main())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "leaked" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    pids = [int(pid) for pid in done.stdout.split()]
    assert len(pids) == 2 and not any(alive(pid) for pid in pids)


async def test_a_second_simulation_by_the_same_player_is_refused_privately(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    settings = Settings(token=fake_discord.token, database_path=tmp_path / "mastermind.db")
    async with fake_discord.run_in_process(
        lambda: MastermindBot(settings), timeout=30.0, commands=True
    ) as bot:
        sweep = {"pegs": 5, "colours": 6, "strategy": "entropy"}  # every secret: a few seconds
        slash = fake_discord.slash
        first = await slash("general", "alice", "mastermind", "simulate", options=sweep)
        await fake_discord.wait_for(lambda: bot.solver.simulations_in_flight == 1, 10.0)
        again = await slash("games", "alice", "mastermind", "simulate", options=sweep)
        refused = await again.response()
        assert refused.ephemeral and refused.text == (
            "You already have a simulation running; its chart will be posted when it is done, "
            "then you can start another."
        )
        chart = await first.settled(timeout=60.0)
        assert not chart.ephemeral and "every secret" in chart.text
        assert bot.solver.simulations_in_flight == 0
