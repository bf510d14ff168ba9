"""Inputs every kind of game shares: giving up (with a private confirmation), posting the
board again, and the commands that read records or run simulations."""

from __future__ import annotations

import discord

from bot.engine.game import GameKind, Variant
from bot.engine.search import check_size
from bot.engine.strategies import get_strategy
from bot.interactions import boards, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Interaction
from bot.interactions.items import Input
from bot.interactions.replies import actor, guarded
from bot.modes.common import actions as common
from bot.modes.common import board
from bot.modes.daily import actions as daily_mode
from bot.ui import components, i18n, ids
from bot.ui.errors import ServerOnly


@guarded
async def ask_give_up(interaction: Interaction, game_id: int | None) -> None:
    """`/mastermind giveup` and the Give up button: ask privately before ending anything."""
    bot = interaction.client
    who = actor(interaction)
    if game_id is None:
        game = await common.active(bot.store, who.channel_id)
    else:
        game = await common.running_here(bot.store, game_id, who)
    if interaction.guild_id is None and who.user_id != game.starter_id:
        raise ServerOnly("end", game.starter_id)  # no moderators outside servers
    common.may_end(game, who)
    t = i18n.person(interaction)
    question = bot.kind_of(game).confirm(t)
    view = components.confirm_view(game.id or 0, t=t)
    if await boards.redraw_clicked(interaction, game):  # where only clicks redraw the board
        await interaction.followup.send(question, view=view, ephemeral=True)
        return
    await interaction.response.send_message(question, view=view, ephemeral=True)


@guarded
async def confirm_give_up(interaction: Interaction, game_id: int) -> None:
    bot = interaction.client
    who = actor(interaction)
    game = await common.give_up(bot.store, game_id, who)
    async with replies.committed(interaction, "end"):
        ended = i18n.person(interaction).gettext("The game has ended.")
        await interaction.response.edit_message(content=ended, view=None)
        line = bot.kind_of(game).ended(game, who.user_id, i18n.channel(interaction))
        if boards.by_interaction(game):  # the line comes with the final board
            await boards.answer_with_board(interaction, game, line)
            return
        await interaction.followup.send(line)
        await boards.refresh(bot, game_id)


@guarded
async def show_board(interaction: Interaction) -> None:
    """Post the channel's board again; later moves edit this new copy."""
    bot = interaction.client
    game = await common.active(bot.store, actor(interaction).channel_id)
    assert game.id is not None
    interaction.extras["public_defer"] = True
    await interaction.response.defer(thinking=True)
    async with boards.lock(game.id):
        latest = await bot.store.game(game.id) or game
        board = await boards.render(bot, latest, i18n.channel(interaction))
        message = await interaction.followup.send(
            board.content or "",
            embed=board.embed,
            view=board.view or discord.utils.MISSING,
            wait=True,
        )
        replies.answered_publicly(interaction)
        await bot.store.move_board(game.id, message.channel.id, message.id, latest.version)
    boards.refresh_soon(bot, game.id)  # in case a move landed while this one was drawn


@guarded
async def simulate(interaction: Interaction, variant: Variant, strategy: str) -> None:
    bot = interaction.client
    get_strategy(strategy)
    check_size(variant.space)
    bot.solver.check_simulation(interaction.user.id)  # refuse privately, before any answer
    interaction.extras["public_defer"] = True
    await interaction.response.defer(thinking=True)
    result = await bot.solver.simulation(
        variant.pegs, variant.colours, variant.duplicates, strategy, interaction.user.id
    )
    replies.answered_publicly(interaction)
    chart = board.simulation(
        result, variant.pegs, variant.colours, strategy, t=i18n.channel(interaction)
    )
    await interaction.followup.send(chart)


@guarded
async def stats(interaction: Interaction, player_id: int) -> None:
    """A player's records, kind by kind: play, solve and races in this server, the daily code
    everywhere (one code a day for the whole world, so one streak)."""
    bot = interaction.client
    store = bot.store
    guild_id = interaction.guild_id
    play_record = await store.player_stats(guild_id, player_id, GameKind.PLAY)
    race_record = await store.player_stats(guild_id, player_id, GameKind.RACE)
    solve_record = await store.solve_stats(guild_id, player_id)
    daily_record = await store.player_stats(None, player_id, GameKind.DAILY)
    streak = await daily_mode.record(store, player_id, bot.clock())
    t = i18n.channel(interaction)
    embed = board.stats(
        player_id,
        play_record,
        t=t,
        daily=daily_record,
        streak=streak,
        race=race_record,
        solve=solve_record,
    )
    await interaction.response.send_message(embed=embed)


@guarded
async def leaderboard(interaction: Interaction, games: str = "play") -> None:
    """The server's best: in play games, in races, or today's daily code (from the store: the
    games started in this server, so no member list and no privileged intent is needed)."""
    if interaction.guild_id is None:  # a DM or a group DM: no server to rank
        raise ServerOnly("leaderboard")
    bot = interaction.client
    guild_id = interaction.guild_id
    t = i18n.channel(interaction)
    if games == "daily":
        today, results = await daily_mode.leaderboard(bot.store, guild_id, bot.clock())
        embed = board.daily_leaderboard(today.puzzle, results, t=t)
    else:
        kind = GameKind.RACE if games == "race" else GameKind.PLAY
        rows = await bot.store.leaderboard(guild_id, kind=kind)
        embed = board.leaderboard(rows, t=t, kind=kind)
    await interaction.response.send_message(embed=embed)


class GiveUpButton(Input, route=ids.GIVE_UP):
    """Asks for confirmation before ending a game (starter or Manage Messages only)."""

    async def act(self, interaction: Interaction, values: list[str]) -> None:
        await ask_give_up(interaction, self.fields["game"])


class ConfirmGiveUp(Input, route=ids.CONFIRM_GIVE_UP):
    """The confirmation: ends the game (a play game reveals its secret)."""

    async def act(self, interaction: Interaction, values: list[str]) -> None:
        await confirm_give_up(interaction, self.fields["game"])


DYNAMIC_ITEMS: tuple[type[Input], ...] = (GiveUpButton, ConfirmGiveUp)


class CommonInputs(ModeInputs):
    """What every mode shares: the Give up button and its confirmation."""

    items = DYNAMIC_ITEMS
