"""The /mastermind command group. Each command only reads its options and calls its mode's
handler (`bot.cogs.play`, `bot.cogs.solve`, `bot.cogs.common`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs import common, play, solve
from bot.cogs.context import Interaction
from bot.engine.codes import MAX_COLOURS, MAX_PEGS, MIN_COLOURS, MIN_PEGS, CodeSpace
from bot.engine.game import MAX_GUESSES, MIN_GUESSES, Variant
from bot.engine.strategies import DEFAULT_STRATEGY, STRATEGIES
from bot.ui import embeds

if TYPE_CHECKING:
    from bot.app import MastermindBot

Pegs = app_commands.Range[int, MIN_PEGS, MAX_PEGS]
Colours = app_commands.Range[int, MIN_COLOURS, MAX_COLOURS]
Guesses = app_commands.Range[int, MIN_GUESSES, MAX_GUESSES]
CodeText = app_commands.Range[str, 1, CodeSpace.MAX_INPUT]
STRATEGY_CHOICES = [app_commands.Choice(name=s.title, value=s.name) for s in STRATEGIES.values()]
SIMULATE_COOLDOWN_SECONDS = 20.0


def _variant(pegs: int, colours: int, duplicates: bool, guesses: int = 10) -> Variant:
    """The rules chosen; an impossible mix raises InvalidVariant, which the tree's error
    handler turns into a friendly ephemeral reply."""
    return Variant(pegs=pegs, colours=colours, duplicates=duplicates, max_guesses=guesses)


@app_commands.guild_only()
class Mastermind(commands.GroupCog, group_name="mastermind", group_description="Play Mastermind"):
    """Both directions of Mastermind, one game per channel."""

    def __init__(self, bot: MastermindBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="Start a game: I hide a code, you crack it.")
    @app_commands.describe(
        pegs="Pegs in the code (2-8, default 4)",
        colours="Colours to choose from (2-10, default 6)",
        guesses="Guesses allowed (1-20, default 10)",
        duplicates="May a colour appear more than once? (default yes)",
        solo="Only you may guess (default: everyone in the channel)",
    )
    async def play(
        self,
        interaction: Interaction,
        pegs: Pegs = 4,
        colours: Colours = 6,
        guesses: Guesses = 10,
        duplicates: bool = True,
        solo: bool = False,
    ) -> None:
        await play.start(interaction, _variant(pegs, colours, duplicates, guesses), solo)

    @app_commands.command(description="Guess the code of this channel's game.")
    @app_commands.describe(code="e.g. 1122, RRGG, red red green green, or emoji")
    async def guess(self, interaction: Interaction, code: CodeText) -> None:
        await play.guess_command(interaction, code)

    @app_commands.command(description="End this channel's game (starter or moderators).")
    async def giveup(self, interaction: Interaction) -> None:
        await common.ask_give_up(interaction, None)

    @app_commands.command(description="Think of a code and I will crack it.")
    @app_commands.describe(
        pegs="Pegs in your code (2-8, default 4)",
        colours="Colours you may use (2-10, default 6)",
        duplicates="May a colour appear more than once? (default yes)",
        strategy="How I pick my guesses (default Knuth minimax)",
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

    @app_commands.command(description="Show this channel's game board again.")
    async def board(self, interaction: Interaction) -> None:
        await common.show_board(interaction)

    @app_commands.command(description="How to play, and every command.")
    async def rules(self, interaction: Interaction) -> None:
        await interaction.response.send_message(embed=embeds.rules(), ephemeral=True)

    @app_commands.command(description="Play every secret with a strategy and chart the result.")
    @app_commands.describe(
        pegs="Pegs (2-8, default 4)",
        colours="Colours (2-10, default 6)",
        strategy="Strategy to test (default Knuth minimax)",
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

    @app_commands.command(description="A player's Mastermind record in this server.")
    @app_commands.describe(player="Whose record (default: yours)")
    async def stats(self, interaction: Interaction, player: discord.User | None = None) -> None:
        await common.stats(interaction, (player or interaction.user).id)

    @app_commands.command(description="This server's best code-breakers.")
    async def leaderboard(self, interaction: Interaction) -> None:
        await common.leaderboard(interaction)
