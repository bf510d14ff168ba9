"""The bot as every input sees it, the interaction type every handler receives, and what a
mode brings to the bot in one value (`ModeSpec` for a way to play, `Feature` for what several
modes share; each mode's inputs declare theirs, the registry lists them).

Handlers type the bot through `Host`, a small base class of the discord.py bot that says what
the app provides (the store, the solver, the settings, the clock, the modes' table and their
words for their refusals), so nothing here or in a mode imports the app, and the app imports
what it hosts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol, TypeAlias, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.charts.pool import ChartPool
from bot.config import Settings
from bot.engine.game import G, Game, HintOutcome
from bot.interactions.activity import WebMode
from bot.interactions.keeper import BoardKeeper
from bot.interactions.timers import Timers
from bot.solver_pool import SolverPool
from bot.store import Held, Store
from bot.store.codec import KindCodec
from bot.ui.boards import Drawn, Field
from bot.ui.charts import ChartLook
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages


class Host(commands.AutoShardedBot):
    """What the app gives every input (`bot.app.MastermindBot` is the one implementation)."""

    store: Store
    solver: SolverPool
    charts: ChartPool
    """Draws the charts in a worker process of its own (draws nothing with CHARTS=off)."""
    settings: Settings
    clock: Callable[[], datetime]
    in_flight: set[object]
    boards: BoardKeeper
    """Keeps every channel board in step with the store (created at start, closed at stop)."""
    timers: Timers
    """Everything that must happen at a time (a lobby closing, a game's time limit)."""

    def serves(self, guild_id: int | None) -> bool:
        """This process answers `guild_id`'s interactions: Discord sends a server's events to
        shard `(guild_id >> 22) % shard_count`, and a DM's to shard 0."""
        if self.shard_ids is None or self.shard_count is None:
            return True  # it runs every shard
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids

    def kind_of(self, game: Game) -> ModeSpec[Any]:
        """The mode that owns `game` (the registry's entry for its kind)."""
        raise NotImplementedError

    def modes(self) -> Sequence[ModeSpec[Any]]:
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


async def _no_count(solver: SolverPool, game: Any) -> int | None:
    return None


@dataclass(frozen=True)
class RulesSection:
    """A mode's part of `/mastermind rules` from a heading and a text, each said in the
    reader's language: said together, the heading, a new line, the text (what `ModeSpec.rules`
    is; a board may declare that one message instead, `bot.ui.i18n.later`)."""

    title: Callable[[Messages], str]
    text: Callable[[Messages], str]

    def __call__(self, t: Messages) -> str:
        return f"{self.title(t)}\n{self.text(t)}"


@dataclass(frozen=True)
class LeaderboardSpec:
    """One of a mode's `/mastermind leaderboard games:<choice>` boards: the choice's name (as
    the slash catalogue words it) and the embed it shows. A mode's one board is unnamed and
    its choice's value is the mode's kind; a mode keeping several names each (`name`), and
    their values are `<kind>-<name>` (`ModeSpec.boards`)."""

    choice: app_commands.locale_str
    show: Leaderboard
    name: str = ""


class TimerPass(Protocol):
    """Sets a mode's timers again from the store and does what is overdue (a deadline that
    fell while no process waited for it); how many games it moved."""

    def __call__(self, bot: Host, *, served_only: bool, while_held: Held) -> Awaitable[int]:
        """`served_only`: only the games of the servers this process serves (at ready);
        `while_held`: asked before each move (the jobs lease of the cluster's pass)."""
        ...


GameIn = TypeVar("GameIn", bound=Game, contravariant=True)


class ModeBoard(Protocol[GameIn]):
    """What a mode's board module declares for the rest of the bot (`ModeSpec.of` reads it):
    how its games are drawn and ended, its refusals in words, its look in the charts and its
    section of the rules."""

    def draw(
        self, game: GameIn, remaining: int | None, note: str | None, t: Messages, /
    ) -> Drawn: ...

    def ended(self, game: GameIn, by: int, t: Messages, /) -> str: ...

    @property
    def ERRORS(self) -> ErrorWords: ...  # the board module's constant

    @property
    def CONFIRM(self) -> Callable[[Messages], str]: ...

    @property
    def CHART(self) -> ChartLook: ...

    @property
    def RULES(self) -> Callable[[Messages], str]: ...


@dataclass(frozen=True)
class ModeSpec(Generic[G]):
    """One way to play, as the rest of the bot sees it: everything that is the mode's own,
    declared in its package (its inputs' `MODE`), so shared code iterates the registry and
    never names a mode. Typed by its game, so what it draws or ends is that mode's own game,
    never a union to take apart."""

    codec: KindCodec[G]
    """How the store keeps the kind's own columns and counts its records; its `kind` is the
    mode's registered name."""
    cog: Callable[[Host], commands.Cog]
    """The mode's inputs: its commands, buttons, selects and modal routes."""
    draw: Callable[[G, int | None, str | None, Messages], Drawn]
    """The board from the stored game and the solver's count of codes left."""
    confirm: Callable[[Messages], str]
    """The private question before giving up: "End this game and ...?"."""
    ended: Callable[[G, int, Messages], str]
    """The public line once a player gave the game up."""
    chart: ChartLook
    """Its games' name and colour in the charts (their order is the registry's)."""
    rules: Callable[[Messages], str]
    """Its section of `/mastermind rules`: its heading, a new line, its text."""
    count: Callable[[SolverPool, G], Awaitable[int | None]] = _no_count
    """What a board drawn from the store alone asks the solver (nothing, for most)."""
    guess: Callable[[Interaction, int, str], Awaitable[None]] | None = None
    """Where `/mastermind guess` sends a code typed in the channel of a game of this mode."""
    hint: Callable[[Game, int], tuple[Game, HintOutcome]] | None = None
    """The mode's transition for a player's Hint press (whether they may ask is its rule;
    `bot.engine.game.ask_hint` records it); None: its games offer no hints."""
    record: Record | None = None
    """The mode's part of a player's `/mastermind stats`."""
    leaderboards: tuple[LeaderboardSpec, ...] = ()
    """The mode's boards in `/mastermind leaderboard games:` (none, one, or several: Discord
    offers at most 25 choices for all the modes together)."""
    errors: ErrorWords = field(default_factory=dict)
    """The mode's own refusals in words (its board's `ERRORS`)."""
    timers: TimerPass | None = None
    """How its timers are set again from the store (at ready, and in the cluster's pass after
    a take-over); None: it has none (`bot.interactions.timers`)."""
    web: WebMode[G] | None = None
    """Its Activity: how a viewer sees its games on the page and what they may do there (its
    `web.py`); None: the page shows its games as not playable there."""

    @classmethod
    def of(
        cls,
        codec: KindCodec[G],
        cog: Callable[[Host], commands.Cog],
        board: ModeBoard[G],
        *,
        count: Callable[[SolverPool, G], Awaitable[int | None]] = _no_count,
        guess: Callable[[Interaction, int, str], Awaitable[None]] | None = None,
        hint: Callable[[Game, int], tuple[Game, HintOutcome]] | None = None,
        record: Record | None = None,
        leaderboards: tuple[LeaderboardSpec, ...] = (),
        timers: TimerPass | None = None,
        web: WebMode[G] | None = None,
    ) -> ModeSpec[G]:
        """A mode from its record, its inputs and its board module (what `ModeBoard` says),
        and what its inputs add."""
        return cls(
            codec,
            cog,
            board.draw,
            board.CONFIRM,
            board.ended,
            chart=board.CHART,
            rules=board.RULES,
            count=count,
            guess=guess,
            hint=hint,
            record=record,
            leaderboards=leaderboards,
            errors=board.ERRORS,
            timers=timers,
            web=web,
        )

    @property
    def kind(self) -> str:
        return self.codec.kind

    def boards(self) -> dict[str, LeaderboardSpec]:
        """Its leaderboards by their choice's value: the kind for an unnamed one,
        `<kind>-<name>` for each of several."""
        return {f"{self.kind}-{b.name}" if b.name else self.kind: b for b in self.leaderboards}

    async def codes_left(self, solver: SolverPool, game: Game) -> int | None:
        return await self.count(solver, game)  # type: ignore[arg-type]  # the kind's own game


@dataclass(frozen=True)
class Feature:
    """What several modes share (hints, the review): its inputs, and its own refusals in
    words. (Giving up and the shared commands are the /mastermind group, `CommonInputs`.)"""

    cog: Callable[[Host], commands.Cog]
    errors: ErrorWords = field(default_factory=dict)
