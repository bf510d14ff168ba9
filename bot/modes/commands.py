"""The /mastermind command group. Each command only reads its options and calls its mode's
handler (`bot.cogs.play`, `bot.cogs.solve`, `bot.cogs.common`).

Every name, description and choice is marked with `slash` so `pybabel extract` finds it, and
the tree's translator (`bot.ui.i18n.translator`) adds its translations when commands sync.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.codes import MAX_COLOURS, MAX_PEGS, MIN_COLOURS, MIN_PEGS, CodeSpace
from bot.engine.game import MAX_GUESSES, MIN_GUESSES, Variant
from bot.engine.strategies import DEFAULT_STRATEGY, STRATEGIES
from bot.interactions.context import Host, Interaction
from bot.modes.common import board as common_board
from bot.modes.common import inputs as common
from bot.modes.daily import inputs as daily_inputs
from bot.modes.play import inputs as play
from bot.modes.race import inputs as race
from bot.modes.race.actions import JOIN_SECONDS, RACE_MINUTES
from bot.modes.solve import inputs as solve
from bot.ui import i18n
from bot.ui.i18n import slash

Pegs = app_commands.Range[int, MIN_PEGS, MAX_PEGS]
Colours = app_commands.Range[int, MIN_COLOURS, MAX_COLOURS]
Guesses = app_commands.Range[int, MIN_GUESSES, MAX_GUESSES]
CodeText = app_commands.Range[str, 1, CodeSpace.MAX_INPUT]
JoinSeconds = app_commands.Range[int, JOIN_SECONDS[0], JOIN_SECONDS[1]]
RaceMinutes = app_commands.Range[int, RACE_MINUTES[0], RACE_MINUTES[1]]
STRATEGY_CHOICES = [
    app_commands.Choice(name=slash.pgettext("strategy", s.title), value=s.name)
    for s in STRATEGIES.values()
]
SIMULATE_COOLDOWN_SECONDS = 20.0
LEADERBOARD_CHOICES = [
    app_commands.Choice(name=slash.pgettext("leaderboard", "play"), value="play"),
    app_commands.Choice(name=slash.pgettext("leaderboard", "daily (today)"), value="daily"),
    app_commands.Choice(name=slash.pgettext("leaderboard", "race"), value="race"),
]


def _variant(pegs: int, colours: int, duplicates: bool, guesses: int = 10) -> Variant:
    """The rules chosen; an impossible mix raises InvalidVariant, which the tree's error
    handler turns into a friendly ephemeral reply."""
    return Variant(pegs=pegs, colours=colours, duplicates=duplicates, max_guesses=guesses)


# Installed to servers and to users; usable in servers, in DMs with the bot and in group
# DMs (bot.cogs.reach decides how each game's board is kept up to date there).
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Mastermind(
    commands.GroupCog,
    group_name="mastermind",
    group_description=slash.gettext("Play Mastermind"),
):
    """Both directions of Mastermind, one game per channel."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(
        # TRANSLATORS: names of commands and options: 1-32 lower-case letters, digits, - or _
        # (no spaces); Discord shows them instead of the English ones.
        name=slash.pgettext("command", "play"),
        description=slash.gettext("Start a game: I hide a code, you crack it."),
    )
    @app_commands.rename(
        pegs=slash.pgettext("option", "pegs"),
        colours=slash.pgettext("option", "colours"),
        guesses=slash.pgettext("option", "guesses"),
        duplicates=slash.pgettext("option", "duplicates"),
        solo=slash.pgettext("option", "solo"),
        hard=slash.pgettext("option", "hard"),
    )
    @app_commands.describe(
        pegs=slash.gettext("Pegs in the code (2-8, default 4)"),
        colours=slash.gettext("Colours to choose from (2-10, default 6)"),
        guesses=slash.gettext("Guesses allowed (1-20, default 10)"),
        duplicates=slash.gettext("May a colour appear more than once? (default yes)"),
        solo=slash.gettext("Only you may guess (default: everyone in the channel)"),
        hard=slash.gettext("Hard mode: every guess must fit all the pegs so far (default no)"),
    )
    async def play(
        self,
        interaction: Interaction,
        pegs: Pegs = 4,
        colours: Colours = 6,
        guesses: Guesses = 10,
        duplicates: bool = True,
        solo: bool = False,
        hard: bool = False,
    ) -> None:
        await play.start(interaction, _variant(pegs, colours, duplicates, guesses), solo, hard)

    @app_commands.command(
        name=slash.pgettext("command", "race"),
        description=slash.gettext("Race each other: everyone cracks the same code privately."),
    )
    @app_commands.rename(
        pegs=slash.pgettext("option", "pegs"),
        colours=slash.pgettext("option", "colours"),
        guesses=slash.pgettext("option", "guesses"),
        duplicates=slash.pgettext("option", "duplicates"),
        hard=slash.pgettext("option", "hard"),
        join_seconds=slash.pgettext("option", "join_seconds"),
        minutes=slash.pgettext("option", "minutes"),
    )
    @app_commands.describe(
        pegs=slash.gettext("Pegs in the code (2-8, default 4)"),
        colours=slash.gettext("Colours to choose from (2-10, default 6)"),
        guesses=slash.gettext("Guesses allowed (1-20, default 10)"),
        duplicates=slash.gettext("May a colour appear more than once? (default yes)"),
        hard=slash.gettext("Hard mode: every guess must fit all the pegs so far (default no)"),
        join_seconds=slash.gettext("Seconds to join before it starts itself (10-300, default 60)"),
        minutes=slash.gettext("Minutes the race lasts once the lobby closes (1-60, default 10)"),
    )
    async def race(
        self,
        interaction: Interaction,
        pegs: Pegs = 4,
        colours: Colours = 6,
        guesses: Guesses = 10,
        duplicates: bool = True,
        hard: bool = False,
        join_seconds: JoinSeconds = JOIN_SECONDS[2],
        minutes: RaceMinutes = RACE_MINUTES[2],
    ) -> None:
        variant = _variant(pegs, colours, duplicates, guesses)
        await race.start(interaction, variant, hard, join_seconds, minutes)

    @app_commands.command(
        name=slash.pgettext("command", "guess"),
        description=slash.gettext("Guess the code of this channel's game."),
    )
    @app_commands.rename(code=slash.pgettext("option", "code"))
    @app_commands.describe(code=slash.gettext("e.g. 1122, RRGG, red red green green, or emoji"))
    async def guess(self, interaction: Interaction, code: CodeText) -> None:
        await play.guess_command(interaction, code)

    @app_commands.command(
        name=slash.pgettext("command", "giveup"),
        description=slash.gettext("End this channel's game (starter or moderators)."),
    )
    async def giveup(self, interaction: Interaction) -> None:
        await common.ask_give_up(interaction, None)

    @app_commands.command(
        name=slash.pgettext("command", "solve"),
        description=slash.gettext("Think of a code and I will crack it."),
    )
    @app_commands.rename(
        pegs=slash.pgettext("option", "pegs"),
        colours=slash.pgettext("option", "colours"),
        duplicates=slash.pgettext("option", "duplicates"),
        strategy=slash.pgettext("option", "strategy"),
    )
    @app_commands.describe(
        pegs=slash.gettext("Pegs in your code (2-8, default 4)"),
        colours=slash.gettext("Colours you may use (2-10, default 6)"),
        duplicates=slash.gettext("May a colour appear more than once? (default yes)"),
        strategy=slash.gettext("How I pick my guesses (default Knuth minimax)"),
    )
    @app_commands.choices(strategy=STRATEGY_CHOICES)
    async def solve(
        self,
        interaction: Interaction,
        pegs: Pegs = 4,
        colours: Colours = 6,
        duplicates: bool = True,
        strategy: str = DEFAULT_STRATEGY,
    ) -> None:
        await solve.start(interaction, _variant(pegs, colours, duplicates), strategy)

    @app_commands.command(
        name=slash.pgettext("command", "board"),
        description=slash.gettext("Show this channel's game board again."),
    )
    async def board(self, interaction: Interaction) -> None:
        await common.show_board(interaction)

    @app_commands.command(
        name=slash.pgettext("command", "rules"),
        description=slash.gettext("How to play, and every command."),
    )
    async def rules(self, interaction: Interaction) -> None:
        rules = common_board.rules(t=i18n.person(interaction))
        await interaction.response.send_message(embed=rules, ephemeral=True)

    @app_commands.command(
        name=slash.pgettext("command", "simulate"),
        description=slash.gettext("Play every secret with a strategy and chart the result."),
    )
    @app_commands.rename(
        pegs=slash.pgettext("option", "pegs"),
        colours=slash.pgettext("option", "colours"),
        strategy=slash.pgettext("option", "strategy"),
    )
    @app_commands.describe(
        pegs=slash.gettext("Pegs (2-8, default 4)"),
        colours=slash.gettext("Colours (2-10, default 6)"),
        strategy=slash.gettext("Strategy to test (default Knuth minimax)"),
    )
    @app_commands.choices(strategy=STRATEGY_CHOICES)
    @app_commands.checks.cooldown(1, SIMULATE_COOLDOWN_SECONDS, key=lambda i: i.channel_id)
    async def simulate(
        self,
        interaction: Interaction,
        pegs: Pegs = 4,
        colours: Colours = 6,
        strategy: str = DEFAULT_STRATEGY,
    ) -> None:
        await common.simulate(interaction, _variant(pegs, colours, True), strategy)

    @app_commands.command(
        name=slash.pgettext("command", "stats"),
        description=slash.gettext("A player's Mastermind record in this server."),
    )
    @app_commands.rename(player=slash.pgettext("option", "player"))
    @app_commands.describe(player=slash.gettext("Whose record (default: yours)"))
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await common.stats(interaction, (player or interaction.user).id)

    @app_commands.command(
        name=slash.pgettext("command", "leaderboard"),
        description=slash.gettext("This server's best code-breakers."),
    )
    @app_commands.rename(games=slash.pgettext("option", "games"))
    @app_commands.describe(games=slash.gettext("Which games (default: play)"))
    @app_commands.choices(games=LEADERBOARD_CHOICES)
    async def leaderboard(self, interaction: Interaction, games: str = "play") -> None:
        await common.leaderboard(interaction, games)

    @app_commands.command(
        name=slash.pgettext("command", "daily"),
        description=slash.gettext("Today's code: the same for everyone, played privately once."),
    )
    @app_commands.rename(hard=slash.pgettext("option", "hard"))
    @app_commands.describe(
        hard=slash.gettext("Hard mode: every guess must fit all the pegs so far (default no)")
    )
    async def daily(self, interaction: Interaction, hard: bool = False) -> None:
        await daily_inputs.start(interaction, hard)
