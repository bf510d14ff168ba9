"""Every way to play, listed once: the one place that names each mode.

A mode is a package (`bot.modes.<mode>`: rules, record, actions, board, inputs) whose inputs
declare its `ModeSpec` (`MODE`), and one line in `MODES`. The app loads each mode's cog, the
store learns each kind's record, the shared machinery (boards kept in step, giving up) asks a
game's `ModeSpec` how to draw it, and a refusal of the mode's own is said in the words its board
lists (`words_for`); no code outside a mode's package switches on the kind of a game.
"""

from __future__ import annotations

from typing import Any

from discord.app_commands import Choice

from bot.engine.game import Game
from bot.interactions.cogs import adopt_commands, offer_choices
from bot.interactions.context import Feature, Host, ModeSpec
from bot.modes.common import inputs as common
from bot.modes.daily import inputs as daily
from bot.modes.duel import inputs as duel
from bot.modes.hints import inputs as hints
from bot.modes.play import inputs as play
from bot.modes.race import inputs as race
from bot.modes.review import inputs as review
from bot.modes.solve import inputs as solve
from bot.store import codec
from bot.ui.errors import ErrorWords, say
from bot.ui.i18n import Messages

MODES: tuple[ModeSpec[Any], ...] = (play.MODE, solve.MODE, daily.MODE, race.MODE, duel.MODE)
"""Every way to play, in the order their records and commands are shown."""

FEATURES: tuple[Feature, ...] = (hints.FEATURE, review.FEATURE)
"""What several modes share, each with its inputs (giving up and the shared commands are the
/mastermind group itself, `CommonInputs`)."""

ERRORS: ErrorWords = {
    error: words
    for table in (*(spec.errors for spec in MODES), *(feature.errors for feature in FEATURES))
    for error, words in table.items()
}
"""Every mode's and feature's own refusals in words; the shared floors' are in bot.ui.errors."""

BY_KIND: dict[str, ModeSpec[Any]] = {spec.kind: spec for spec in MODES}

LEADERBOARD_CHOICES: list[Choice[str | int | float]] = [
    Choice(name=board.choice, value=value)
    for spec in MODES
    for value, board in spec.boards().items()
]
"""`/mastermind leaderboard games:`, a choice per leaderboard the modes keep, in their order
(Discord refuses a command with more than 25 choices for one option)."""

for _spec in MODES:
    codec.register(_spec.codec)


async def install(bot: Host) -> None:
    """Load the /mastermind group, then every mode's and feature's inputs, their commands under
    the group: what a running bot answers and what `python -m bot sync` pushes."""
    shared = common.CommonInputs(bot)
    group = shared.app_command
    assert group is not None  # a GroupCog always has its group
    offer_choices(group, "leaderboard", "games", LEADERBOARD_CHOICES)
    await bot.add_cog(shared)
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
