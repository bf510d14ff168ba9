"""Hints in a play game: how many codes are still possible, then a code worth guessing.

Every press is a HINT move, stored once per input, so the game counts its hints and a hinted
game is marked in the records. The hint is worked out before the move is stored, from the
game's answers alone (never its secret), so a solver that fails stores nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import game as core
from bot.engine.actor import Actor
from bot.engine.errors import StaleGame, WrongGameKind
from bot.engine.game import HintOutcome
from bot.engine.job_types import Hint
from bot.modes.common.actions import here, running_here
from bot.modes.common.rules import SecretGame
from bot.solver_pool import SolverPool
from bot.store import Applied, Store

ATTEMPTS = 3
"""A guess landing while a hint is worked out changes what the hint must say: the hint is
worked out again from the new position, this many times at most."""

HintRule = Callable[[core.Game, int], tuple[core.Game, HintOutcome]]
"""A mode's Hint transition (`ModeSpec.hint`): its own checks, then `ask_hint`."""


class NoHints(WrongGameKind, code="no-hints"):
    """A Hint press on a game whose mode offers none: one where the bot does the guessing
    (`guessing` False), or one that keeps its players to their own clues (`guessing` True)."""

    def __init__(self, guessing: bool) -> None:
        super().__init__(guessing)
        self.guessing = guessing


@dataclass(frozen=True)
class HintGiven:
    """A stored hint: the game after it, which press it was (1 or 2) and what it says."""

    game: SecretGame
    level: int
    hints: int
    hint: Hint
    applied: Applied[HintOutcome]
    """The press as its own transaction stored it (where the board is, for its redraw)."""


def check(game: core.Game, actor: Actor, rule: HintRule | None) -> SecretGame:
    """`game` if the actor may ask a hint in it: its mode offers hints (`rule`) and its rule
    allows this player (a dry run), before any work."""
    if rule is None or not isinstance(game, SecretGame):
        raise NoHints(guessing=isinstance(game, SecretGame))
    rule(game, actor.user_id)
    return game


async def hint(
    store: Store, solver: SolverPool, game: SecretGame, actor: Actor, rule: HintRule
) -> HintGiven:
    """Work the hint out for `game` (as checked) from the clues the player has had, then store
    the press in one write transaction, unless the game moved meanwhile (then again, from the
    new position)."""
    game_id = game.id
    for attempt in range(ATTEMPTS):
        if attempt:
            game = check(await running_here(store, game.id or 0, actor), actor, rule)
        _, press = rule(game, actor.user_id)
        variant = game.variant
        clues = game.clues_for(actor.user_id)
        history = [(list(code), black, white) for code, (black, white) in clues]
        found = await solver.hint(
            variant,
            history,
            press.level,
            game.hard,
            game.id or 0,
        )
        try:
            applied = await store.act(
                lambda g: rule(here(g, actor), actor.user_id),
                game_id=game_id,
                expected_version=game.version,
                source=actor.source,
            )
        except StaleGame:
            if attempt == ATTEMPTS - 1:
                raise
            continue
        new = applied.game
        assert isinstance(new, SecretGame)  # the rule kept the game's kind
        return HintGiven(new, applied.outcome.level, applied.outcome.hints, found, applied)
    raise AssertionError("unreachable")  # pragma: no cover
