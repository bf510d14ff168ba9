"""Answering interactions: once, truthfully, and privately whenever it is a refusal."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Mapping
from typing import Any, Concatenate, ParamSpec

import discord
from discord import app_commands

from bot.engine.actor import Actor
from bot.engine.errors import NotHere
from bot.engine.game import G, Game
from bot.interactions import boards, state
from bot.interactions.context import Interaction
from bot.interactions.reach import reach_of
from bot.store import AlreadyApplied, Store
from bot.ui import i18n, ids, text
from bot.ui.errors import friendly

log = logging.getLogger(__name__)

P = ParamSpec("P")


async def checked_privately(
    interaction: Interaction,
    check: Callable[[Store, int, Actor], Awaitable[G]],
    game_id: int,
) -> tuple[G, Actor]:
    """For a private answer that takes a while (a hint, a review): the game `game_id` as `check`
    finds it for the clicker (its refusal comes privately, before any work), and the clicker;
    a board only clicks redraw is redrawn, else the bot thinks privately while it works."""
    who = actor(interaction)
    game = await check(interaction.client.store, game_id, who)
    if not await boards.redraw_clicked(interaction, game):
        await interaction.response.defer(ephemeral=True, thinking=True)
    return game, who


def actor(interaction: Interaction, source: str | None = None) -> Actor:
    """Who acts and where, read from the interaction Discord signed; `source` names the input a
    move comes from (default: this interaction)."""
    return Actor(
        user_id=interaction.user.id,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        moderator=interaction.permissions.manage_messages,
        source=source or f"i:{interaction.id}",
        reach=reach_of(interaction),
    )


def guarded(
    handler: Callable[Concatenate[Interaction, P], Awaitable[None]],
) -> Callable[Concatenate[Interaction, P], Coroutine[Any, Any, None]]:
    """Any failure in a handler becomes a friendly private reply, and a repeated input is told
    it already counted. The running handler is tracked, so a shutdown lets it finish first."""

    async def wrapper(interaction: Interaction, /, *args: P.args, **kwargs: P.kwargs) -> None:
        in_flight = interaction.client.in_flight
        task = asyncio.current_task()
        if task is not None:
            in_flight.add(task)
        try:
            await handler(interaction, *args, **kwargs)
        except Exception as error:
            if isinstance(error, AlreadyApplied):  # its board catches up after (`catch_up`)
                log.info(
                    "interaction %s repeats a stored move of game %s",
                    interaction.id,
                    error.game_id,
                )
            # A click on a board only clicks redraw is answered with that board first, refused
            # or not (its one way to catch up); the refusal then follows privately.
            await boards.redraw_clicked(interaction)
            await reply_error(interaction, error)
        finally:
            if task is not None:
                in_flight.discard(task)

    functools.update_wrapper(wrapper, handler)
    return wrapper


@contextlib.asynccontextmanager
async def committed(interaction: Interaction, what: text.Recorded) -> AsyncIterator[None]:
    """Wrap everything after a commit: whatever fails, the player is told `what` counted, and
    never to try again."""
    try:
        yield
    except Exception:
        log.warning("after a stored move (interaction %s)", interaction.id, exc_info=True)
        await tell_privately(interaction, text.recorded(what, t=i18n.person(interaction)))


async def numbers_or_refuse(
    interaction: Interaction, match: re.Match[str], widths: Mapping[str, int] | None = None
) -> dict[str, int] | None:
    """The numbers of a custom_id the interaction matched (`ids.numbers`), or None once the
    player was refused, as for a missing game: a number no game can have was forged."""
    try:
        return ids.numbers(match, widths)
    except NotHere as error:
        log.info("interaction %s names no game: %.40s", interaction.id, match.string)
        await reply_error(interaction, error)
        return None


async def tell_privately(interaction: Interaction, message: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)


async def public_thinking(interaction: Interaction) -> None:
    """Answer with a public "thinking" message that a followup will fill in."""
    state.of(interaction).public_placeholder = True
    await interaction.response.defer(thinking=True)


async def public_placeholder(interaction: Interaction) -> int:
    """Answer with a public "thinking" message that will become a board; its message id."""
    state.of(interaction).public_placeholder = True
    callback = await interaction.response.defer(thinking=True)
    message_id = getattr(callback, "message_id", None)
    if message_id is None:
        message_id = (await interaction.original_response()).id
    return int(message_id)


def answered_publicly(interaction: Interaction) -> None:
    """The public placeholder now holds what it was for; errors go elsewhere from here."""
    state.of(interaction).placeholder_filled = True


async def show_started(interaction: Interaction, game: Game) -> None:
    """A game just stored, drawn by its mode in the public placeholder its command answered
    with (`public_placeholder`), in the channel's language; the board keeper records the
    version it shows. Whatever fails from here, the player is told the game counted."""
    answered_publicly(interaction)
    assert game.id is not None
    bot = interaction.client
    t = i18n.channel(interaction)

    async def show() -> None:
        drawn = bot.kind_of(game).draw(game, None, None, t)
        boards.offer_activity(bot, game, drawn.view, t)
        content = discord.utils.MISSING if drawn.content is None else drawn.content
        await interaction.edit_original_response(
            content=content, embed=drawn.embed, view=drawn.view
        )

    async with committed(interaction, "game"):
        await bot.boards.show(game.id, game.version, show)


async def reply_error(interaction: Interaction, error: BaseException | str) -> None:
    """Answer privately: as the response if none was sent yet, else as a followup.

    A handler that already answered with a public "thinking" message (which was to become a
    board) has that message deleted first: Discord would otherwise turn the first followup
    into that public message, and everyone would see the refusal.
    """
    if isinstance(error, str):
        message = error
    else:
        message = friendly(error, i18n.person(interaction), interaction.client.words_for)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(message, ephemeral=True)
            return
        handling = state.of(interaction)
        if handling.public_placeholder and not handling.placeholder_filled:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


async def on_app_command_error(
    interaction: Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's error handler: every failure kind gets its own message."""
    await reply_error(interaction, error)
