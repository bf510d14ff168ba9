"""One place that turns any failure into a friendly, ephemeral reply, never a traceback."""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands

from bot.engine.codes import CodeError
from bot.engine.game import GameAlreadyActive, GameError, NoActiveGame
from bot.engine.search import TooLarge
from bot.solver_pool import SolverUnavailable
from bot.store import AlreadyApplied, StoreBusy

log = logging.getLogger(__name__)

ALREADY_ACTIVE = (
    "{what} is already running in this channel. `/mastermind board` shows it; "
    "`/mastermind giveup` ends it."
)
NO_GAME = (
    "No game is running in this channel. Start one with `/mastermind play` (you crack my code) "
    "or `/mastermind solve` (I crack yours)."
)
UNEXPECTED = "Something went wrong on my side. Your game is safe; please try again."


def friendly(error: BaseException) -> str:
    """The message a player sees for `error`."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, GameAlreadyActive):
        kind = {"play": "A guessing game", "solve": "A solving game"}.get(str(error.kind), "A game")
        return ALREADY_ACTIVE.format(what=kind)
    if isinstance(error, NoActiveGame):
        return NO_GAME
    if isinstance(
        error, GameError | CodeError | TooLarge | SolverUnavailable | StoreBusy | AlreadyApplied
    ):
        return str(error)
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Easy there! Try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "Mastermind is played in server channels, not in direct messages."
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        return f"That needs the {', '.join(error.missing_permissions)} permission."
    if isinstance(error, app_commands.CheckFailure):
        return "You can't use that command here."
    if isinstance(error, app_commands.TransformerError):
        return f"I couldn't read {error.value!r} for that option. Please pick a valid value."
    if isinstance(error, discord.HTTPException):
        log.warning("Discord refused a request: %s", error)
        return UNEXPECTED
    log.error("unexpected error", exc_info=error)
    return UNEXPECTED


async def reply_error(interaction: discord.Interaction, error: BaseException | str) -> None:
    """Answer privately: as the response if none was sent yet, else as a followup.

    A flow that already answered with a public "thinking" message (which was to become a
    board) has that message deleted first: Discord would otherwise turn the first followup
    into that public message, and everyone would see the refusal.
    """
    message = error if isinstance(error, str) else friendly(error)
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(message, ephemeral=True)
            return
        extras = interaction.extras
        if extras.get("public_defer") and not extras.get("public_answer"):
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        await interaction.followup.send(message, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


async def on_app_command_error(
    interaction: discord.Interaction, error: app_commands.AppCommandError
) -> None:
    """The command tree's error handler: every failure kind gets its own message."""
    await reply_error(interaction, error)
