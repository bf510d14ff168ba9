"""The solve mode's actions with the real solver: answers, impossible answers, undo, and a
solver that fails before anything is stored."""

from __future__ import annotations

import pytest

from bot.engine.actor import Actor
from bot.engine.errors import ImpossibleAnswer, StaleGame
from bot.engine.game import Variant
from bot.modes.solve import actions as solve
from bot.solver_pool import SolverPool, SolverUnavailable, Unavailable
from bot.store import Store

GUILD, CHANNEL = 10, 20


def alice(source: str) -> Actor:
    return Actor(user_id=1, guild_id=GUILD, channel_id=CHANNEL, source=source)


async def _started(store: Store, solver: SolverPool) -> solve.SolveGame:
    opening = await solve.opening(solver, Variant(), "knuth", 0)
    assert opening.guess == (0, 0, 1, 1) and opening.remaining == 1296
    return await solve.start(store, alice("i:1"), Variant(), "knuth", opening.guess, 99)


async def test_an_answer_stores_it_with_the_next_guess(store: Store, solver: SolverPool) -> None:
    game = await _started(store, solver)
    step = await solve.answer(store, solver, game, alice("i:2"), 1, 1)
    assert step.game.answers == ((1, 1),) and len(step.game.guesses) == 2
    assert step.remaining is not None and 0 < step.remaining < 1296
    with pytest.raises(StaleGame):  # the same board clicked again
        await solve.owned(store, game.id or 0, game.version, alice("i:3"))


async def test_an_answer_the_guess_cannot_earn_is_refused(store: Store, solver: SolverPool) -> None:
    game = await _started(store, solver)
    with pytest.raises(ImpossibleAnswer):
        solve.check_answer(game, alice("i:2"), 1, 3)  # 1122's colours pair up
    solve.check_answer(game, alice("i:2"), 2, 2)


async def test_undo_counts_the_codes_left_before_it_is_stored(
    store: Store, solver: SolverPool
) -> None:
    game = await _started(store, solver)
    step = await solve.answer(store, solver, game, alice("i:2"), 0, 0)
    undone = await solve.undo(store, solver, step.game, alice("i:3"))
    assert undone.undone == (0, 0) and undone.remaining == 1296
    assert undone.game.awaiting_answer and undone.game.current_guess == (0, 0, 1, 1)


async def test_a_solver_that_fails_stores_nothing(store: Store) -> None:
    broken = SolverPool(1, 2.0)
    game = await _started(store, broken)
    broken.shutdown()
    with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
        await solve.answer(store, broken, game, alice("i:2"), 1, 0)
    assert (await store.game(game.id or 0)).version == game.version  # type: ignore[union-attr]
