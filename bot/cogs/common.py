"""Inputs every kind of game shares: giving up (with a private confirmation), posting the
board again, and the commands that read records or run simulations."""

from __future__ import annotations

import discord

from bot.cogs import boards, replies
from bot.cogs.context import Interaction
from bot.cogs.inputs import Input
from bot.cogs.kinds import kind_of
from bot.cogs.replies import actor, guarded
from bot.engine.game import Variant
from bot.engine.search import check_size
from bot.engine.strategies import get_strategy
from bot.modes import common
from bot.ui import components, embeds, i18n, ids


@guarded
async def ask_give_up(interaction: Interaction, game_id: int | None) -> None:
    """`/mastermind giveup` and the Give up button: ask privately before ending anything."""
    bot = interaction.client
    who = actor(interaction)
    if game_id is None:
        game = await common.active(bot.store, who.channel_id)
    else:
        game = await common.running_here(bot.store, game_id, who)
    common.may_end(game, who)
    t = i18n.person(interaction)
    await interaction.response.send_message(
        kind_of(game).confirm(t),
        view=components.confirm_view(game.id or 0, t=t),
        ephemeral=True,
    )


@guarded
async def confirm_give_up(interaction: Interaction, game_id: int) -> None:
    bot = interaction.client
    who = actor(interaction)
    game = await common.give_up(bot.store, game_id, who)
    async with replies.committed(interaction, "end"):
        ended = i18n.person(interaction).gettext("The game has ended.")
        await interaction.response.edit_message(content=ended, view=None)
        line = kind_of(game).ended(game, who.user_id, i18n.channel(interaction))
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
    chart = embeds.simulation(
        result, variant.pegs, variant.colours, strategy, t=i18n.channel(interaction)
    )
    await interaction.followup.send(chart)


@guarded
async def stats(interaction: Interaction, player_id: int) -> None:
    record = await interaction.client.store.player_stats(interaction.guild_id, player_id)
    t = i18n.channel(interaction)
    await interaction.response.send_message(embed=embeds.stats(player_id, record, t=t))


@guarded
async def leaderboard(interaction: Interaction) -> None:
    rows = await interaction.client.store.leaderboard(interaction.guild_id or 0)
    t = i18n.channel(interaction)
    await interaction.response.send_message(embed=embeds.leaderboard(rows, t=t))


class GiveUpButton(Input, route=ids.GIVE_UP):
    """Asks for confirmation before ending a game (starter or Manage Messages only)."""

    async def act(self, interaction: Interaction, values: list[str]) -> None:
        await ask_give_up(interaction, self.fields["game"])


class ConfirmGiveUp(Input, route=ids.CONFIRM_GIVE_UP):
    """The confirmation: ends the game (a play game reveals its secret)."""

    async def act(self, interaction: Interaction, values: list[str]) -> None:
        await confirm_give_up(interaction, self.fields["game"])


DYNAMIC_ITEMS: tuple[type[Input], ...] = (GiveUpButton, ConfirmGiveUp)
