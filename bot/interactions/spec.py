"""What a mode brings to the bot, in one value: `ModeSpec` for a way to play, `Feature` for
what several modes share. Each mode's inputs declare theirs (`MODE`); the registry lists them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic

from discord.ext import commands

from bot.engine.game import G, Game, GameKind
from bot.interactions.context import Host, Interaction, Leaderboard, Record
from bot.solver_pool import SolverPool
from bot.store.codec import KindCodec
from bot.ui.boards import Drawn
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages


async def _no_count(solver: SolverPool, game: Any) -> int | None:
    return None


@dataclass(frozen=True)
class ModeSpec(Generic[G]):
    """One way to play, as the rest of the bot sees it; typed by its game, so what it draws or
    ends is that mode's own game, never a union to take apart."""

    kind: GameKind
    codec: KindCodec[G]
    """How the store keeps the kind's own columns."""
    cog: Callable[[Host], commands.Cog]
    """The mode's inputs: its commands, buttons, selects, modal routes and timers."""
    draw: Callable[[G, int | None, str | None, Messages], Drawn]
    """The board from the stored game and the solver's count of codes left."""
    confirm: Callable[[Messages], str]
    """The private question before giving up: "End this game and ...?"."""
    ended: Callable[[G, int, Messages], str]
    """The public line once a player gave the game up."""
    count: Callable[[SolverPool, G], Awaitable[int | None]] = _no_count
    """What a board drawn from the store alone asks the solver (nothing, for most)."""
    guess: Callable[[Interaction, int, str], Awaitable[None]] | None = None
    """Where `/mastermind guess` sends a code typed in the channel of a game of this mode."""
    record: Record | None = None
    """The mode's part of a player's `/mastermind stats`."""
    leaderboard: Leaderboard | None = None
    """The mode's `/mastermind leaderboard games:<kind>`."""
    errors: ErrorWords = field(default_factory=dict)
    """The mode's own refusals in words (its board's `ERRORS`)."""

    async def codes_left(self, solver: SolverPool, game: Game) -> int | None:
        return await self.count(solver, game)  # type: ignore[arg-type]  # the kind's own game


@dataclass(frozen=True)
class Feature:
    """What several modes share (hints, the review): its inputs, and its own refusals in
    words. (Giving up and the shared commands are the /mastermind group, `CommonInputs`.)"""

    cog: Callable[[Host], commands.Cog]
    errors: ErrorWords = field(default_factory=dict)
