"""Every way to play, listed once: the one place that names each mode.

A mode is a package (`bot.modes.<mode>`: rules, record, actions, board, inputs) and one line in
`MODES`. The app loads each mode's cog, the store learns each kind's record, the shared
machinery (boards kept in step, giving up) asks a game's `ModeSpec` how to draw it, and a
refusal of the mode's own is said in the words its board lists (`words_for`); no code outside a
mode's package switches on the kind of a game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic

from discord.ext import commands

from bot.engine.game import G, Game, GameKind
from bot.interactions.cogs import adopt_commands
from bot.interactions.context import Host, Interaction, Leaderboard, Record
from bot.modes.common import inputs as common_inputs
from bot.modes.daily import board as daily_board
from bot.modes.daily import inputs as daily_inputs
from bot.modes.daily.record import DailyRecord
from bot.modes.hints import inputs as hint_inputs
from bot.modes.play import board as play_board
from bot.modes.play import inputs as play_inputs
from bot.modes.play.record import PlayRecord
from bot.modes.race import board as race_board
from bot.modes.race import inputs as race_inputs
from bot.modes.race.record import RaceRecord
from bot.modes.review import board as review_board
from bot.modes.review import inputs as review_inputs
from bot.modes.solve import actions as solve_actions
from bot.modes.solve import board as solve_board
from bot.modes.solve import inputs as solve_inputs
from bot.modes.solve.record import SolveRecord
from bot.solver_pool import SolverPool
from bot.store import codec
from bot.ui.boards import Drawn
from bot.ui.errors import ErrorWords, say
from bot.ui.i18n import Messages


async def _no_count(solver: SolverPool, game: Any) -> int | None:
    return None


@dataclass(frozen=True)
class ModeSpec(Generic[G]):
    """One way to play, as the rest of the bot sees it; typed by its game, so what it draws or
    ends is that mode's own game, never a union to take apart."""

    kind: GameKind
    codec: codec.KindCodec
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


MODES: tuple[ModeSpec[Any], ...] = (
    ModeSpec(
        GameKind.PLAY,
        PlayRecord(),
        play_inputs.PlayInputs,
        play_board.draw,
        play_board.confirm,
        play_board.ended,
        guess=play_inputs.guess_typed,
        record=play_inputs.record,
        leaderboard=play_inputs.leaderboard,
        errors=play_board.ERRORS,
    ),
    ModeSpec(
        GameKind.SOLVE,
        SolveRecord(),
        solve_inputs.SolveInputs,
        solve_board.draw,
        solve_board.confirm,
        solve_board.ended,
        solve_actions.remaining,
        record=solve_inputs.record,
        errors=solve_board.ERRORS,
    ),
    ModeSpec(
        GameKind.DAILY,
        DailyRecord(),
        daily_inputs.DailyInputs,
        daily_board.draw,
        daily_board.confirm,
        daily_board.ended,
        record=daily_inputs.record,
        leaderboard=daily_inputs.leaderboard,
        errors=daily_board.ERRORS,
    ),
    ModeSpec(
        GameKind.RACE,
        RaceRecord(),
        race_inputs.RaceInputs,
        race_board.draw,
        race_board.confirm,
        race_board.ended,
        guess=race_inputs.guess_command,
        record=race_inputs.record,
        leaderboard=race_inputs.leaderboard,
        errors=race_board.ERRORS,
    ),
)


@dataclass(frozen=True)
class Feature:
    """What several modes share (hints, the review): its inputs, and its own refusals in
    words. (Giving up and the shared commands are the /mastermind group, `CommonInputs`.)"""

    cog: Callable[[Host], commands.Cog]
    errors: ErrorWords = field(default_factory=dict)


FEATURES: tuple[Feature, ...] = (
    Feature(hint_inputs.HintInputs),
    Feature(review_inputs.ReviewInputs, review_board.ERRORS),
)

ERRORS: ErrorWords = {
    error: words
    for table in (*(spec.errors for spec in MODES), *(feature.errors for feature in FEATURES))
    for error, words in table.items()
}
"""Every mode's and feature's own refusals in words; the shared floors' are in bot.ui.errors."""

BY_KIND: dict[str, ModeSpec[Any]] = {spec.kind: spec for spec in MODES}

for _spec in MODES:
    codec.register(_spec.kind, _spec.codec)


async def install(bot: Host) -> None:
    """Load the /mastermind group, then every mode's and feature's inputs, their commands under
    the group: what a running bot answers and what `python -m bot sync` pushes."""
    shared = common_inputs.CommonInputs(bot)
    await bot.add_cog(shared)
    group = shared.app_command
    assert group is not None  # a GroupCog always has its group
    for make in (*(spec.cog for spec in MODES), *(feature.cog for feature in FEATURES)):
        cog = make(bot)
        await bot.add_cog(cog)
        adopt_commands(bot.tree, group, cog)


def spec_of(game: Game) -> ModeSpec[Any]:
    """The mode that owns `game`."""
    return BY_KIND[game.kind]


def words_for(error: BaseException, t: Messages) -> str | None:
    """A mode's (or feature's) own words for `error`; None where the shared floors' apply."""
    return say(error, t, ERRORS)
