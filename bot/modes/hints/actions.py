"""Hints in a play game: how many codes are still possible, then a code worth guessing.

Every press is a HINT move, stored once per input, so the game counts its hints and a hinted
game is marked in the records. The hint is worked out before the move is stored, from the
game's answers alone (never its secret), so a solver that fails stores nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actor import Actor
from bot.engine.errors import StaleGame
from bot.engine.game import MoveKind
from bot.engine.job_types import Hint
from bot.modes.common.actions import here, running_here
from bot.modes.play import rules
from bot.modes.play.rules import HintOutcome, PlayGame
from bot.solver_pool import SolverPool
from bot.store import Applied, Store

ATTEMPTS = 3
"""A guess landing while a hint is worked out changes what the hint must say: the hint is
worked out again from the new position, this many times at most."""


@dataclass(frozen=True)
class HintGiven:
    """A stored hint: the game after it, which press it was (1 or 2) and what it says."""

    game: PlayGame
    level: int
    hints: int
    hint: Hint
    applied: Applied[HintOutcome]
    """The press as its own transaction stored it (where the board is, for its redraw)."""


async def check(store: Store, game_id: int, actor: Actor) -> PlayGame:
    """The running game the actor may ask a hint in (the rules' refusals, before any work)."""
    game = rules.play_itself(await running_here(store, game_id, actor), MoveKind.HINT)
    rules.hint(game, actor.user_id)  # dry run: solo games
    return game


async def hint(store: Store, solver: SolverPool, game: PlayGame, actor: Actor) -> HintGiven:
    """Work the hint out for `game` (as checked), then store the press in one write
    transaction, unless the game moved meanwhile (then again, from the new position)."""
    game_id = game.id
    for attempt in range(ATTEMPTS):
        if attempt:
            game = await check(store, game.id or 0, actor)
        _, press = rules.hint(game, actor.user_id)
        variant = game.variant
        history = [(list(code), black, white) for code, (black, white) in game.clues]
        found = await solver.hint(
            variant.pegs,
            variant.colours,
            variant.duplicates,
            history,
            press.level,
            game.hard,
            game.id or 0,
        )
        try:
            applied = await store.act(
                lambda g: rules.hint(
                    rules.play_itself(here(g, actor), MoveKind.HINT), actor.user_id
                ),
                game_id=game_id,
                expected_version=game.version,
                source=actor.source,
            )
        except StaleGame:
            if attempt == ATTEMPTS - 1:
                raise
            continue
        new = rules.as_play(applied.game)
        return HintGiven(new, applied.outcome.level, applied.outcome.hints, found, applied)
    raise AssertionError("unreachable")  # pragma: no cover
