"""The bot as every input sees it, and the interaction type every handler receives.

Handlers type the bot through `Host`, a small base class of the discord.py bot that says what
the app provides (the store, the solver, the settings, the clock, the modes' table and their
words for their refusals), so nothing here or in a mode imports the app, and the app imports
what it hosts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Protocol, TypeAlias

import discord
from discord.ext import commands

from bot.charts.pool import ChartPool
from bot.config import Settings
from bot.engine.game import Game
from bot.interactions.marks import BoardMarks
from bot.solver_pool import SolverPool
from bot.store import Store
from bot.ui.boards import Drawn, Field
from bot.ui.i18n import Messages


class KindView(Protocol):
    """What the shared machinery (boards, give up) asks of a game's mode."""

    def draw(self, game: Game, remaining: int | None, note: str | None, t: Messages) -> Drawn:
        """The board of `game` as stored, with the solver's count of codes left, if any."""
        ...

    async def codes_left(self, solver: SolverPool, game: Game) -> int | None:
        """What a board drawn from the store alone asks the solver (nothing, for most)."""
        ...

    def confirm(self, t: Messages) -> str:
        """The private question before giving up: "End this game and ...?"."""
        ...

    def ended(self, game: Game, by: int, t: Messages) -> str:
        """The public line once a player gave the game up."""
        ...

    @property
    def guess(self) -> Callable[[Interaction, int, str], Awaitable[None]] | None:
        """Where `/mastermind guess` sends a code for a game of this mode (None: nowhere)."""
        ...

    @property
    def kind(self) -> str:
        """The kind of game the mode plays (`GameKind`)."""
        ...

    @property
    def record(self) -> Record | None:
        """The mode's part of a player's `/mastermind stats` (None: it keeps no record)."""
        ...

    @property
    def leaderboard(self) -> Leaderboard | None:
        """The mode's `/mastermind leaderboard` in a server (None: it has none)."""
        ...


class Host(commands.AutoShardedBot):
    """What the app gives every input (`bot.app.MastermindBot` is the one implementation)."""

    store: Store
    solver: SolverPool
    charts: ChartPool
    """Draws the charts in a worker process of its own (draws nothing with CHARTS=off)."""
    settings: Settings
    clock: Callable[[], datetime]
    in_flight: set[object]
    marks: BoardMarks
    """Which version each board shows, known at once and written in batches."""

    def serves(self, guild_id: int | None) -> bool:
        """This process answers `guild_id`'s interactions: Discord sends a server's events to
        shard `(guild_id >> 22) % shard_count`, and a DM's to shard 0."""
        if self.shard_ids is None or self.shard_count is None:
            return True  # it runs every shard
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids

    def kind_of(self, game: Game) -> KindView:
        """The mode that owns `game` (the registry's entry for its kind)."""
        raise NotImplementedError

    def modes(self) -> Sequence[KindView]:
        """Every mode, in the registry's order."""
        raise NotImplementedError

    def words_for(self, error: BaseException, t: Messages) -> str | None:
        """A mode's own words for `error` (its board's), or None where the shared floors'
        words apply (`bot.ui.errors`)."""
        return None


Record = Callable[[Host, int | None, int, Messages], Awaitable[list[Field]]]
"""A mode's part of a player's record: (bot, guild or None, player, language) -> fields."""
Leaderboard = Callable[[Host, int, Messages], Awaitable[discord.Embed]]
"""A mode's leaderboard: (bot, guild, language) -> its embed."""


Interaction: TypeAlias = discord.Interaction[Host]
