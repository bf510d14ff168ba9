"""Boards as interactions see them: drawing a game's board, the board keeper the bot owns
(`bot.interactions.keeper`), and the boards only interactions can redraw.

Every board is drawn in its server's language, whichever path draws it: the interaction's
`guild_locale`, or with no interaction the server's `preferred_locale` (the same setting) from
the gateway's cache or, for a server this process does not cache, over REST.
"""

from __future__ import annotations

import logging
from typing import Any, TypeVar

import discord

from bot.engine.game import Game, Reach
from bot.interactions import state
from bot.interactions.context import Host, Interaction
from bot.interactions.keeper import BoardKeeper
from bot.store import Applied, Board, UnreadableGame
from bot.ui import activity, i18n, ids
from bot.ui.boards import Drawn

log = logging.getLogger(__name__)

V = TypeVar("V", bound=discord.ui.View | None)


def keeper_for(bot: Host) -> BoardKeeper:
    """The board keeper of `bot`: draws in each server's language, edits with the bot's token."""

    async def draw(game: Game) -> Drawn:
        return await render(bot, game, await server_language(bot, game.guild_id))

    async def edit(board: Board, drawn: Drawn) -> None:
        channel = bot.get_partial_messageable(board.channel_id)
        try:
            await channel.get_partial_message(board.message_id).edit(
                content=drawn.content, embed=drawn.embed, view=drawn.view
            )
        except discord.NotFound:
            log.info(
                "a board (message %s) was deleted; /mastermind board posts it again",
                board.message_id,
            )

    return BoardKeeper(bot.store, draw, edit, bot.serves)


async def render(bot: Host, game: Game, t: i18n.Messages) -> Drawn:
    """The board of `game` as stored (its embed names the version), whatever its kind, in the
    language `t` (the server's)."""
    kind = bot.kind_of(game)
    try:
        remaining = await kind.codes_left(bot.solver, game)
    except Exception:  # the count is a nicety; the board must still be drawn
        log.warning("could not count the codes left for game %s", game.id, exc_info=True)
        remaining = None
    drawn = kind.draw(game, remaining, None, t)
    offer_activity(bot, game, drawn.view, t)
    return drawn


def offer_activity(bot: Host, game: Game, view: V, t: i18n.Messages) -> V:
    """`view`, with the Open board button added when the Activity is configured
    (ACTIVITY_PORT), the game is running and its mode has an Activity view (`ModeSpec.web`,
    its `web.py`). Every path that draws such a board passes its view through here."""
    if (
        view is not None
        and game.id is not None
        and not game.is_over
        and bot.settings.activity_port is not None
        and bot.kind_of(game).web is not None
    ):
        activity.offer(view, game.id, t=t)
    return view


async def server_language(bot: Host, guild_id: int | None) -> i18n.Messages:
    """The language of a board drawn with no interaction: its server's, from the gateway's
    cache, else over REST (before the gateway is ready, or a server of another shard)."""
    server: discord.Guild | None = None
    if guild_id is not None:
        server = bot.get_guild(guild_id)
        if server is None:
            try:
                server = await bot.fetch_guild(guild_id)
            except discord.HTTPException as error:
                log.info("server %s's language unknown (%s); English", guild_id, error.status)
    return i18n.guild(server)


def in_step(interaction: Interaction, applied: Applied[Any] | None = None) -> None:
    """The interaction left no board behind (its move is drawn by the keeper, or it drew its
    own board): no catch-up read after it."""
    state.of(interaction).board_in_step = True


async def catch_up(interaction: Interaction, game_id: int) -> None:
    """After any use of a game: its board is redrawn if it fell behind the store (one read;
    none after an interaction that left no board behind). Never raises."""
    if not state.of(interaction).board_in_step:
        await interaction.client.boards.catch_up(game_id)


# --- boards only interactions reach (bot.interactions.reach) -----------------------------------


def by_interaction(game: Game) -> bool:
    """The bot is not a member where this game is played: only interactions draw its board."""
    return game.reach is Reach.INTERACTION


async def answer_with_board(interaction: Interaction, game: Game, line: str) -> int:
    """Answer with `line` above the game's board, as a new message that becomes the board of
    record: how a move is shown where the bot may not edit any message later. Answers with
    the interaction's response if it is still open, else with a followup. Its message id."""
    bot = interaction.client
    assert game.id is not None
    drawn = await render(bot, game, i18n.channel(interaction))
    content = f"{line}\n{drawn.content}" if drawn.content else line
    view = drawn.view or discord.utils.MISSING
    if interaction.response.is_done():
        sent = await interaction.followup.send(content, embed=drawn.embed, view=view, wait=True)
        message_id = sent.id
    else:
        callback = await interaction.response.send_message(content, embed=drawn.embed, view=view)
        found = getattr(callback, "message_id", None)
        message_id = found if found is not None else (await interaction.original_response()).id
    channel_id = interaction.channel_id or game.channel_id
    await bot.boards.moved(game.id, channel_id, message_id, game.version)
    return int(message_id)


def _clicked_game(interaction: discord.Interaction) -> int | None:
    """The game named by the clicked component's custom_id, if one of our routes takes it."""
    data: Any = interaction.data or {}
    return ids.game_of(str(data.get("custom_id", "")))


async def redraw_clicked(interaction: Interaction, game: Game | None = None) -> bool:
    """Answer a click on a board that only interactions reach by redrawing that board as it is
    stored now (an edit of the clicked message, the interaction's own response): the way such a
    board catches up, shows a move made elsewhere, or reveals the secret of a game that ended
    or expired. Whatever else the click says then goes out as followups.

    Does nothing (False) for a board the bot edits itself, a private message, an answered
    interaction, or a game of another channel; never raises.
    """
    message = interaction.message
    if (
        interaction.type is not discord.InteractionType.component
        or message is None
        or message.flags.ephemeral
        or interaction.response.is_done()
    ):
        return False
    bot = interaction.client
    if game is not None and not by_interaction(game):
        return False  # a board the bot edits itself (a game's reach never changes)
    try:
        game_id = game.id if game is not None else _clicked_game(interaction)
        if game_id is None:
            return False
        if game is None:  # read outside the lock: a board the bot edits itself is not ours,
            game = await bot.store.game(game_id)  # and its lock may wait on a rate-limited edit
            if game is None or not by_interaction(game):
                return False
        async with bot.boards.lock(game_id):
            latest = await bot.store.game(game_id)
            if (
                latest is None
                or not by_interaction(latest)
                or latest.channel_id != interaction.channel_id
                or latest.guild_id != interaction.guild_id
            ):
                return False
            drawn = await render(bot, latest, i18n.channel(interaction))
            await interaction.response.edit_message(
                content=drawn.content, embed=drawn.embed, view=drawn.view
            )
            bot.boards.marks.drew(game_id, message.id, latest.version)
        return True
    except UnreadableGame:
        return False  # nothing to draw; the store logged it once, the reply says why
    except Exception:
        log.warning("could not redraw the clicked board of interaction %s", interaction.id)
        return interaction.response.is_done()
