"""The play mode: the bot hides a code and the channel (or one player, solo) cracks it."""

from __future__ import annotations

from bot.engine.actor import Actor
from bot.engine.codes import Code
from bot.engine.errors import NotYourGame, OwnerReason
from bot.engine.game import GuessOutcome, MoveKind, Variant
from bot.modes.common.actions import (
    here,
    refuse_if_taken,
    running_here,
    start_with_board,
    started_by,
)
from bot.modes.play import rules
from bot.modes.play.rules import PlayGame
from bot.solver_pool import SolverPool
from bot.store import Applied, Store


async def check_start(store: Store, actor: Actor) -> None:
    """Refuse a start now (before a board is shown) if the channel already has a game."""
    await refuse_if_taken(store, actor.channel_id)


async def start(
    store: Store,
    actor: Actor,
    variant: Variant,
    solo: bool,
    board_message_id: int,
    *,
    hard: bool = False,
) -> PlayGame:
    """A new game with a fresh secret (in hard mode every guess must fit every answer); its
    board (already posted) is stored with it."""
    fresh = rules.new_play_game(
        **started_by(actor), variant=variant, solo=solo, reach=actor.reach, hard=hard
    )
    return await start_with_board(store, actor, fresh, board_message_id)


async def may_guess(store: Store, game_id: int, actor: Actor) -> PlayGame:
    """The running play game the actor may guess in (before a picker or modal opens)."""
    game = rules.play_itself(await running_here(store, game_id, actor), MoveKind.GUESS)
    if game.solo and actor.user_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    return game


async def guess(
    store: Store, game_id: int, actor: Actor, code: str | Code
) -> Applied[GuessOutcome]:
    """Score one guess in one write transaction that also says where the board is; stored
    once per source (AlreadyApplied on a repeat)."""
    return await store.act(
        lambda g: rules.guess(
            rules.play_itself(here(g, actor), MoveKind.GUESS), actor.user_id, code
        ),
        game_id=game_id,
        source=actor.source,
    )


async def knuth_guesses(solver: SolverPool, variant: Variant, secret: Code) -> int | None:
    """How many guesses Knuth's algorithm needs for a secret of `variant` (None: too big)."""
    return await solver.knuth_guesses(variant, list(secret))
