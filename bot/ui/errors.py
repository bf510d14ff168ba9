"""The words for every failure: one place that turns an error into a sentence a player can act
on (the cogs send it privately), never a traceback."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engine.codes import CodeError
from bot.engine.errors import OwnerReason
from bot.engine.game import GameAlreadyActive, GameError, NoActiveGame, NotYourGame
from bot.engine.search import TooLarge
from bot.solver_pool import SolverUnavailable
from bot.store import AlreadyApplied, StoreBusy
from bot.ui.text import mention

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
    if isinstance(error, NotYourGame):
        return not_yours(error)
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


_NOT_YOURS = {
    OwnerReason.SOLO: "This is {owner}'s solo game.",
    OwnerReason.THEIR_CODE: "Only {owner} can answer: it is their secret code.",
    OwnerReason.END: "Only {owner} or a moderator (Manage Messages) can end this game.",
    OwnerReason.OWNER: "This is {owner}'s game.",
}


def not_yours(error: NotYourGame) -> str:
    """Name the owner, which the engine leaves to us (it knows no Discord mentions)."""
    return _NOT_YOURS[error.reason].format(owner=mention(error.owner_id))
