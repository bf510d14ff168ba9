"""Inputs every kind of game shares: giving up (with a private confirmation), posting the
board again, opening it on the Activity, and the commands that read records or run
simulations."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import NotHere
from bot.engine.game import Game, MoveKind, Variant
from bot.engine.search import check_size
from bot.engine.strategies import DEFAULT_STRATEGY, get_strategy
from bot.interactions import boards, pictures, replies
from bot.interactions.cogs import ModeInputs, route_inputs
from bot.interactions.context import Host, Interaction, LeaderboardSpec, Record
from bot.interactions.items import on_click
from bot.interactions.options import (
    CodeText,
    shared_options,
)
from bot.interactions.replies import actor, guarded
from bot.modes.common import actions as common
from bot.modes.common import board
from bot.modes.common.rules import NotAPlayGame
from bot.store import PlayerStats, UnreadableGame
from bot.ui import activity, charts, i18n, text
from bot.ui.boards import Field
from bot.ui.errors import ServerOnly
from bot.ui.i18n import Messages, slash

log = logging.getLogger(__name__)


def counted_record(kind: str, fields: Callable[[PlayerStats, Messages], list[Field]]) -> Record:
    """A mode's part of `/mastermind stats` as the shared query counts it (its games in this
    server, or everywhere in a DM), in the fields its board draws."""

    async def record(bot: Host, guild_id: int | None, user_id: int, t: Messages) -> list[Field]:
        return fields(await bot.store.player_stats(guild_id, user_id, kind), t)

    return record


def ranked(kind: str, choice: app_commands.locale_str, drawn: board.Leaderboard) -> LeaderboardSpec:
    """A mode's `/mastermind leaderboard games:<choice>` as the shared query ranks it (most
    wins, then the best game), drawn as its board declares."""

    async def show(bot: Host, guild_id: int, t: Messages) -> discord.Embed:
        return drawn(await bot.store.leaderboard(guild_id, kind=kind), t=t)

    return LeaderboardSpec(choice, show)


@guarded
async def guess_here(interaction: Interaction, code: str) -> None:
    """`/mastermind guess`: the code goes to the channel's game, through its own mode's route
    (each mode answers it its own way: publicly on a shared board, privately where each
    player plays alone)."""
    bot = interaction.client
    game = await common.active(bot.store, actor(interaction).channel_id)
    route = bot.kind_of(game).guess
    if route is None or game.id is None:  # the bot guesses here: the player answers instead
        raise NotAPlayGame(MoveKind.GUESS)
    await route(interaction, game.id, code)


@guarded
async def ask_give_up(interaction: Interaction, game_id: int | None) -> None:
    """`/mastermind giveup` and the Give up button: ask privately before ending anything."""
    bot = interaction.client
    who = actor(interaction)
    try:
        if game_id is None:
            game = await common.active(bot.store, who.channel_id)
        else:
            game = await common.running_here(bot.store, game_id, who)
    except UnreadableGame as unreadable:
        await _end_unreadable(interaction, unreadable)
        return
    if interaction.guild_id is None and who.user_id != game.starter_id:
        raise ServerOnly("end", game.starter_id)  # no moderators outside servers
    common.may_end(game, who)
    t = i18n.person(interaction)
    question = bot.kind_of(game).confirm(t)
    view = board.confirm_view(game.id or 0, t=t)
    if await boards.redraw_clicked(interaction, game):  # where only clicks redraw the board
        await interaction.followup.send(question, view=view, ephemeral=True)
        return
    await interaction.response.send_message(question, view=view, ephemeral=True)


async def _end_unreadable(interaction: Interaction, unreadable: UnreadableGame) -> None:
    """A game this version cannot read (a newer version's, during a rolling upgrade) would
    hold its channel for ever: its starter, or a moderator in a server, ends it at once (there
    is nothing to show to confirm); anyone else is told who can."""
    who = actor(interaction)
    if unreadable.channel_id != who.channel_id:
        raise NotHere()
    moderator = who.moderator and interaction.guild_id is not None
    if who.user_id != unreadable.starter_id and not moderator:
        raise unreadable
    await interaction.client.store.end_unreadable(unreadable.game_id, who.user_id)
    t = i18n.channel(interaction)
    await interaction.response.send_message(
        t.gettext(
            "{player} ended this channel's game, which this version of the bot cannot read. "
            "A new game can start here.",
            player=text.mention(who.user_id),
        )
    )


@guarded
async def confirm_give_up(interaction: Interaction, game_id: int) -> None:
    """The confirmation: ends the game (a play game reveals its secret)."""
    bot = interaction.client
    who = actor(interaction)
    applied = await common.give_up(bot.store, game_id, who)
    game = applied.game
    async with replies.committed(interaction, "end"):
        ended = i18n.person(interaction).gettext("The game has ended.")
        await interaction.response.edit_message(content=ended, view=None)
        line = bot.kind_of(game).ended(game, who.user_id, i18n.channel(interaction))
        if boards.by_interaction(game):  # the line comes with the final board
            await boards.answer_with_board(interaction, game, line)
            return
        await interaction.followup.send(line)
        boards.in_step(interaction, applied)


@guarded
async def show_board(interaction: Interaction) -> None:
    """Post the channel's board again; later moves edit this new copy."""
    bot = interaction.client
    game = await common.active(bot.store, actor(interaction).channel_id)
    assert game.id is not None
    await replies.public_thinking(interaction)

    async def post(latest: Game) -> tuple[int, int]:
        board = await boards.render(bot, latest, i18n.channel(interaction))
        message = await interaction.followup.send(
            board.content or "",
            embed=board.embed,
            view=board.view or discord.utils.MISSING,
            wait=True,
        )
        replies.answered_publicly(interaction)
        return message.channel.id, message.id

    await bot.boards.repost(game.id, post)


@guarded
async def simulate(interaction: Interaction, variant: Variant, strategy: str) -> None:
    bot = interaction.client
    get_strategy(strategy)
    check_size(variant.space)
    bot.solver.check_simulation(interaction.user.id)  # refuse privately, before any answer
    await replies.public_thinking(interaction)
    result = await bot.solver.simulation(variant, strategy, interaction.user.id)
    replies.answered_publicly(interaction)
    t = i18n.channel(interaction)
    chart = board.simulation(result, variant.pegs, variant.colours, strategy, t=t)
    sent = await interaction.followup.send(chart, wait=True)
    drawn = board.simulation_picture(result, strategy, t=t) if bot.charts.enabled else None
    if drawn is not None:  # the histogram follows, once drawn
        picture, embed = drawn
        await pictures.add(bot, picture, embed, sent.edit)


@guarded
async def stats(interaction: Interaction, player_id: int) -> None:
    """A player's records, mode by mode, each as its mode keeps it (in this server, or
    everywhere where a record follows the player); with charts on, their wins by guesses as a
    chart under them, added once drawn (or a friendly line before their first win)."""
    bot = interaction.client
    t = i18n.channel(interaction)
    fields = [
        field
        for mode in bot.modes()
        if mode.record is not None
        for field in await mode.record(bot, interaction.guild_id, player_id, t)
    ]
    embed = board.stats(player_id, fields, t=t)
    wins = None
    if bot.charts.enabled:
        order = [mode.kind for mode in bot.modes()]
        wins = await common.wins(bot.store, interaction.guild_id, player_id, bot.clock(), order)
        if wins is None:
            embed.set_footer(text=charts.no_wins(t))
    await interaction.response.send_message(embed=embed)
    if wins is not None:
        looks = {mode.kind: mode.chart for mode in bot.modes()}
        picture = charts.stats(wins, looks, t)
        await pictures.add(bot, picture, embed, interaction.edit_original_response)


@guarded
async def leaderboard(interaction: Interaction, games: str = "play") -> None:
    """The server's best in the chosen mode (from the store: the games started in this
    server, so no member list and no privileged intent is needed)."""
    if interaction.guild_id is None:  # a DM or a group DM: no server to rank
        raise ServerOnly("leaderboard")
    bot = interaction.client
    offered = {value: each for mode in bot.modes() for value, each in mode.boards().items()}
    chosen = offered.get(games) or next(iter(offered.values()))  # forged: the first
    embed = await chosen.show(bot, interaction.guild_id, i18n.channel(interaction))
    await interaction.response.send_message(embed=embed)


@guarded
async def open_board(interaction: Interaction, game_id: int) -> None:
    """Open board: launch the Activity, where this channel's game is played on a graphical
    board. Checked like any click (the game runs here, and its mode has an Activity view);
    where Discord refuses to launch it, the player is told privately why."""
    bot = interaction.client
    t = i18n.person(interaction)
    if bot.settings.activity_port is None:  # a board drawn while the Activity was configured
        await replies.tell_privately(
            interaction, t.gettext("This bot's board is not open any more: play here.")
        )
        return
    game = await common.running_here(bot.store, game_id, actor(interaction))
    if bot.kind_of(game).web is None:  # no board of this mode carries the button
        raise NotHere()
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.info("Discord refused to launch the Activity: %s (code %s)", error.status, error.code)
        await replies.tell_privately(interaction, _launch_refused(error, t))


def _launch_refused(error: discord.HTTPException, t: Messages) -> str:
    """Why the board did not open, in words the player can act on."""
    if error.status == 403:
        return t.gettext("You may not use Activities in this channel, so the board cannot open.")
    return t.gettext("Discord could not open the board here. Play on this board instead.")


DYNAMIC_ITEMS = (
    on_click(board.GIVE_UP, ask_give_up),
    on_click(board.CONFIRM_GIVE_UP, confirm_give_up),
    on_click(activity.OPEN_BOARD, open_board),
)


SIMULATE_COOLDOWN_SECONDS = 20.0


# Installed to servers and to users; usable in servers, in DMs with the bot and in group
# DMs (bot.interactions.reach decides how each game's board is kept up to date there).
@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class CommonInputs(
    commands.GroupCog,
    ModeInputs,
    group_name="mastermind",
    group_description=slash.gettext("Play Mastermind"),
):
    """The /mastermind group, with the commands every mode shares (guess, give up, board,
    rules, simulate, stats, leaderboard) and the Give up button; each mode's cog hands its own
    commands to this group when it loads (`bot.interactions.cogs.adopt_commands`)."""

    items = DYNAMIC_ITEMS

    @commands.Cog.listener("on_interaction")
    async def on_input(self, interaction: Interaction) -> None:
        await route_inputs(interaction, self.bot.cogs.values())

    @app_commands.command(
        name=slash.pgettext("command", "guess"),
        description=slash.gettext("Guess the code of this channel's game."),
    )
    @app_commands.rename(code=slash.pgettext("option", "code"))
    @app_commands.describe(code=slash.gettext("e.g. 1122, RRGG, red red green green, or emoji"))
    async def guess_command(self, interaction: Interaction, code: CodeText) -> None:
        await guess_here(interaction, code)

    @app_commands.command(
        name=slash.pgettext("command", "giveup"),
        description=slash.gettext("End this channel's game (starter or moderators)."),
    )
    async def giveup_command(self, interaction: Interaction) -> None:
        await ask_give_up(interaction, None)

    @app_commands.command(
        name=slash.pgettext("command", "board"),
        description=slash.gettext("Show this channel's game board again."),
    )
    async def board_command(self, interaction: Interaction) -> None:
        await show_board(interaction)

    @app_commands.command(
        name=slash.pgettext("command", "rules"),
        description=slash.gettext("How to play, and every command."),
    )
    async def rules_command(self, interaction: Interaction) -> None:
        t = i18n.person(interaction)
        sections = [m.rules(t).partition("\n")[::2] for m in self.bot.modes()]
        rules = board.rules(sections, t=t)
        await interaction.response.send_message(embed=rules, ephemeral=True)

    @app_commands.command(
        name=slash.pgettext("command", "simulate"),
        description=slash.gettext("Play every secret with a strategy and chart the result."),
    )
    @shared_options(
        "pegs",
        "colours",
        "strategy",
        pegs=slash.gettext("Pegs (2-8, default 4)"),
        colours=slash.gettext("Colours (2-10, default 6)"),
        strategy=slash.gettext("Strategy to test (default Knuth minimax)"),
    )
    @app_commands.checks.cooldown(1, SIMULATE_COOLDOWN_SECONDS, key=lambda i: i.channel_id)
    async def simulate_command(
        self,
        interaction: Interaction,
        rules: Variant,
        strategy: str = DEFAULT_STRATEGY,
    ) -> None:
        await simulate(interaction, rules, strategy)

    @app_commands.command(
        name=slash.pgettext("command", "stats"),
        description=slash.gettext("A player's Mastermind record in this server."),
    )
    @app_commands.rename(player=slash.pgettext("option", "player"))
    @app_commands.describe(player=slash.gettext("Whose record (default: yours)"))
    async def stats_command(
        self, interaction: Interaction, player: discord.User | None = None
    ) -> None:
        await stats(interaction, (player or interaction.user).id)

    @app_commands.command(
        name=slash.pgettext("command", "leaderboard"),
        description=slash.gettext("This server's best code-breakers."),
    )
    @app_commands.rename(games=slash.pgettext("option", "games"))
    @app_commands.describe(games=slash.gettext("Which games (default: play)"))
    # its choices are the modes' (`registry.install`, `bot.interactions.cogs.offer_choices`)
    async def leaderboard_command(self, interaction: Interaction, games: str = "play") -> None:
        await leaderboard(interaction, games)
