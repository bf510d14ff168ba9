"""The solve mode: the player holds a code and the bot cracks it from their answers.

The solver works before the commit, so a solver that fails stores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actor import Actor
from bot.engine.answers import possible_answers
from bot.engine.codes import Code
from bot.engine.errors import ImpossibleAnswer, NotYourGame, OwnerReason, StaleGame
from bot.engine.game import MoveKind, Variant, require
from bot.engine.job_types import NextGuess, NoCodeLeft
from bot.engine.search import check_size
from bot.engine.strategies import get_strategy
from bot.modes.common.actions import (
    refuse_if_taken,
    running_here,
    start_with_board,
    started_by,
)
from bot.modes.solve import rules
from bot.modes.solve.rules import NotASolveGame, SolveGame
from bot.solver_pool import SolverPool
from bot.store import Board, Store

History = list[tuple[list[int], int, int]]


@dataclass(frozen=True)
class SolveStep:
    """A solve game after an action: what to draw. `remaining` codes fit the answers (None when
    unknown); `no_code_left` is the solver's note (for logs) when the answers contradict."""

    game: SolveGame
    remaining: int | None
    no_code_left: str | None = None
    undone: tuple[int, int] | None = None
    board: Board | None = None
    """Where the board is, as the action's own transaction read it (None: not read)."""
    exact: bool = True
    """The bot's new guess came from its strategy's exact search (False: the approximate one,
    since the exact one would have overrun the move budget on this variant)."""


def plain_history(game: SolveGame) -> History:
    """The answered guesses as plain data for the solver's workers."""
    return [
        (list(guess), black, white)
        for guess, (black, white) in zip(game.guesses, game.answers, strict=False)
    ]


async def check_start(store: Store, actor: Actor, variant: Variant, strategy: str) -> None:
    """Refuse a start before any work: unknown strategy, too large, channel taken."""
    get_strategy(strategy)
    check_size(variant.space)
    await refuse_if_taken(store, actor.channel_id)


async def opening(solver: SolverPool, variant: Variant, strategy: str, seed: int) -> NextGuess:
    """The bot's first guess, computed before the game is stored."""
    return await solver.opening(variant, strategy, seed)


async def start(
    store: Store,
    actor: Actor,
    variant: Variant,
    strategy: str,
    first_guess: Code,
    board_message_id: int,
) -> SolveGame:
    fresh = rules.new_solve_game(
        **started_by(actor),
        first_guess=first_guess,
        variant=variant,
        strategy=strategy,
        reach=actor.reach,
    )
    return await start_with_board(store, actor, fresh, board_message_id)


def not_a_solve_game() -> NotASolveGame:
    """The refusal of an answer on a game where the player does the guessing."""
    return NotASolveGame(MoveKind.ANSWER)


async def owned(store: Store, game_id: int, version: int, actor: Actor) -> SolveGame:
    """The running solve game the actor answers for, as shown on the board they clicked."""
    game = require(await running_here(store, game_id, actor), SolveGame, not_a_solve_game)
    if actor.user_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    if game.version != version:
        raise StaleGame()
    return game


def check_answer(game: SolveGame, actor: Actor, black: int, white: int) -> None:
    """Refuse, before any work, an answer the rules or the guess itself make impossible."""
    rules.answer(game, actor.user_id, black, white, None)  # dry run of the rules
    current = game.current_guess
    if current is not None and (black, white) not in possible_answers(game.variant.space, current):
        raise ImpossibleAnswer(None, black, white)


async def answer(
    store: Store,
    solver: SolverPool,
    game: SolveGame,
    actor: Actor,
    black: int,
    white: int,
) -> SolveStep:
    """Store the answer and the solver's next guess (worked out first)."""
    variant = game.variant
    next_guess: Code | None = None
    remaining: int | None = None
    no_code_left = None
    exact = True
    if black != variant.pegs:
        history = [*plain_history(game), (list(game.current_guess or ()), black, white)]
        move = await solver.next_move(variant, game.strategy, history, game.id or 0)
        if isinstance(move, NoCodeLeft):
            no_code_left = move.message
        else:
            next_guess, remaining, exact = tuple(move.guess), move.remaining, move.exact
    applied = await store.act(
        lambda g: rules.answer(g, actor.user_id, black, white, next_guess),
        game_id=game.id,
        expected_version=game.version,
        source=actor.source,
    )
    new = require(applied.game, SolveGame, not_a_solve_game)
    return SolveStep(new, remaining, no_code_left, board=applied.board, exact=exact)


def check_undo(game: SolveGame, actor: Actor) -> SolveGame:
    """Refuse "nothing to undo" before any work; the game as it will be after the undo."""
    undone, _ = rules.undo(game, actor.user_id)
    return undone


async def undo(store: Store, solver: SolverPool, game: SolveGame, actor: Actor) -> SolveStep:
    """Take back the last answer; the count of codes left is worked out before the commit."""
    after = check_undo(game, actor)
    variant = after.variant
    remaining = await solver.remaining(variant, plain_history(after))
    applied = await store.act(
        lambda g: rules.undo(g, actor.user_id),
        game_id=game.id,
        expected_version=game.version,
        source=actor.source,
    )
    new = require(applied.game, SolveGame, not_a_solve_game)
    return SolveStep(new, remaining, undone=applied.outcome.undone, board=applied.board)


async def remaining(solver: SolverPool, game: SolveGame) -> int | None:
    """How many codes still fit a game's answers, for a board drawn from the store."""
    if not game.awaiting_answer:
        return None
    variant = game.variant
    return await solver.remaining(variant, plain_history(game))
