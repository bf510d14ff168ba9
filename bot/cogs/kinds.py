"""The one table keyed by game kind: how each kind's board is drawn and what it needs.

Adding a kind adds a row here (and its mode module, UI board and inputs); no other kind's
code changes, and no `isinstance` switch anywhere has to learn about it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.engine.game import Game, GameKind, SolveGame
from bot.modes import solve as solve_mode
from bot.solver_pool import SolverPool
from bot.ui import boards as drawn
from bot.ui import daily as drawn_daily
from bot.ui import race as drawn_race
from bot.ui.i18n import Messages


async def _nothing(solver: SolverPool, game: Game) -> int | None:
    return None


async def _codes_left(solver: SolverPool, game: Game) -> int | None:
    assert isinstance(game, SolveGame)
    return await solve_mode.remaining(solver, game)


@dataclass(frozen=True)
class Kind:
    """What one kind of game brings to the shared machinery."""

    board: Callable[[Game, int | None, str | None, Messages], drawn.Drawn]
    """Draw the board from the stored game and the solver's count of codes left."""
    codes_left: Callable[[SolverPool, Game], Awaitable[int | None]]
    """What a board drawn from the store alone asks the solver (nothing, for play)."""
    confirm: Callable[[Messages], str]
    """The private question before giving up: "End this game and ...?"."""
    ended: Callable[[Game, int, Messages], str]
    """The public line once a player gave the game up."""


KINDS: dict[GameKind, Kind] = {
    GameKind.PLAY: Kind(
        board=drawn.play,
        codes_left=_nothing,
        confirm=drawn.play_confirm,
        ended=drawn.play_ended,
    ),
    GameKind.SOLVE: Kind(
        board=drawn.solve,
        codes_left=_codes_left,
        confirm=drawn.solve_confirm,
        ended=drawn.solve_ended,
    ),
    GameKind.DAILY: Kind(
        board=drawn_daily.kind_board,
        codes_left=_nothing,
        confirm=drawn_daily.confirm,
        ended=drawn_daily.ended,
    ),
    GameKind.RACE: Kind(
        board=drawn_race.board,
        codes_left=_nothing,
        confirm=drawn_race.confirm,
        ended=drawn_race.ended,
    ),
}


def kind_of(game: Game) -> Kind:
    return KINDS[game.kind]
