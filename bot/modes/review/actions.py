"""The post-game review: a finished game's guesses, each beside Knuth's from the same position.

Anyone in the game's channel may open the review of a finished game there; a private game
(a private one) only its player. A running game is never reviewed: the review would give its
secret away. The work runs in the solver's workers, a guess per job (`SolverPool.review`), and a
finished game's review is kept for the next player who opens it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import game as core
from bot.engine.actor import Actor
from bot.engine.errors import GameError, NotHere, NotYourGame, OwnerReason, WrongGameKind
from bot.engine.game import MoveKind, Reach
from bot.engine.job_types import ReviewedGuess
from bot.engine.review import Clue, ReviewSummary, summarise
from bot.solver_pool import SolverPool
from bot.store import Store

KEPT_REVIEWS = 64
"""Finished games' reviews kept in memory (they never change), so a Review button pressed by
a whole channel costs the workers one review."""


class ReviewNotYet(GameError, code="review-not-yet"):
    """A running game is never reviewed: the review would give its secret away."""


class ReviewNeedsPlay(WrongGameKind, code="review-needs-play"):
    """A review of a game where the bot did the guessing (there are no guesses of the
    player's to review)."""


@dataclass(frozen=True)
class GameReview:
    """A game's review for one player: the guesses reviewed (theirs, or everyone's in a
    shared game) and the summary line's figures."""

    game: core.Game
    rows: tuple[ReviewedGuess, ...]
    summary: ReviewSummary
    hinted: tuple[int, ...] = ()
    """The reviewed guesses (1-based) made after a hint, for the review's chart."""


_kept: OrderedDict[tuple[int, int, tuple[Clue, ...]], tuple[ReviewedGuess, ...]] = OrderedDict()


def clues_of(game: core.Game, player_id: int) -> tuple[Clue, ...]:
    """The clues `player_id`'s review covers (`clues_for`: every guess of a shared game, a
    player's own where each plays alone); ReviewNeedsPlay where the bot does the guessing."""
    clues_for: Callable[[int], Any] | None = getattr(game, "clues_for", None)
    if clues_for is None:
        raise ReviewNeedsPlay()
    return tuple(clues_for(player_id))


async def reviewable(store: Store, game_id: int, actor: Actor) -> core.Game:
    """The finished game the actor may review: in their channel, or their own private game."""
    game = await store.game(game_id)
    if game is None:
        raise NotHere()
    if game.reach is Reach.PRIVATE:
        if actor.user_id != game.starter_id:
            raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    elif game.channel_id != actor.channel_id or game.guild_id != actor.guild_id:
        raise NotHere()
    clues_of(game, actor.user_id)
    if not game.is_over:
        raise ReviewNotYet()
    return game


async def review(solver: SolverPool, game: core.Game, actor: Actor) -> GameReview:
    """The review of a finished game (from `reviewable`) for the actor."""
    assert game.is_over and game.id is not None
    clues = clues_of(game, actor.user_id)
    key = (game.id, game.version, clues)
    rows = _kept.get(key)
    if rows is None:
        variant = game.variant
        history = [(list(code), black, white) for code, (black, white) in clues]
        rows = tuple(
            await solver.review(
                variant,
                history,
                game.id,
                actor.user_id,
            )
        )
        _kept[key] = rows
        while len(_kept) > KEPT_REVIEWS:
            _kept.popitem(last=False)
    _kept.move_to_end(key)
    return GameReview(game, rows, summarise(rows), hinted_guesses(game, clues, actor.user_id))


def hinted_guesses(game: core.Game, clues: tuple[Clue, ...], player_id: int) -> tuple[int, ...]:
    """Which of the reviewed guesses (1-based) came after a hint: in a shared game anyone's
    hint counts; where each plays alone, only the player's own."""
    shared = len(clues) == sum(1 for move in game.log if move.kind is MoveKind.GUESS)
    marked: list[int] = []
    number, pending = 0, False
    for move in game.log:
        if not (shared or move.player_id == player_id):
            continue
        if move.kind is MoveKind.HINT:
            pending = True
        elif move.kind is MoveKind.GUESS and move.black is not None and number < len(clues):
            number += 1
            if pending:
                marked.append(number)
            pending = False
    return tuple(marked)
