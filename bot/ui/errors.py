"""The words for every failure: one place that turns an error into a sentence a player can act
on (the cogs send it privately, in the player's language `t`), never a traceback.

Each typed error maps to a catalogue message. A `CodeError` carries its problem as data, also
when an engine error wraps it (`raise InvalidGuess(...) from None` keeps it as `__context__`),
so the parser's explanation is rebuilt in the player's language (`code_errors`). The fixed
sentences of the lower floors are their own message ids (`FIXED`). The English messages repeat
the engine's own words exactly; a test holds them to it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord
from discord import app_commands

from bot.engine.codes import CodeError
from bot.engine.errors import (
    BreaksAClue,
    GameAlreadyActive,
    GameError,
    ImpossibleAnswer,
    InvalidGuess,
    InvalidVariant,
    NoActiveGame,
    NotYourGame,
    OwnerReason,
)
from bot.engine.search import TooLarge
from bot.solver_pool import SolverUnavailable
from bot.store import AlreadyApplied, StoreBusy
from bot.ui import clues, text
from bot.ui.code_errors import code_problem
from bot.ui.i18n import ENGLISH, Messages
from bot.ui.i18n.catalogue import N_, SOURCE_LANGUAGE

log = logging.getLogger(__name__)

FIXED = frozenset(
    {
        # bot.engine.errors
        N_("This game is over."),
        N_("The game changed while you were deciding: look at the latest board and try again."),
        N_(
            "Your answers contradict each other, so I have no guess to ask about: "
            "undo your last answer and check it."
        ),
        N_("There is no answer to take back yet."),
        N_("In this game I guess your code: answer my guesses instead."),
        N_("In this game you guess my code: there is nothing to answer."),
        N_("In this game you guess my code: there is nothing to undo."),
        N_("You have already played today's code; a new one comes at midnight UTC."),
        # races: bot.engine.errors, bot.engine.game, bot.modes.race
        N_("You are not in this race; join the next one while its lobby is open."),
        N_("You are already in this race."),
        N_("This race is full."),
        N_("The race has not started yet: wait for the starter or the clock."),
        N_("This race has already started; join the next one."),
        N_("You have finished this race: watch its board for the others."),
        N_("That belongs to a race; this game is not one."),
        N_("Races are run in the channels of servers I have joined."),
        # bot.modes.common
        N_("That belongs to a game in another channel, so I can't use it here."),
        N_("That choice isn't on the menu. Open a fresh one and pick again."),
        # bot.modes.review, bot.engine.game (hints)
        N_("The review opens when the game is over, so it can't give the secret away."),
        N_("Reviews are for games where you crack my code."),
        N_("Hints are for games where you guess my code."),
        # bot.solver_pool
        N_(
            "You already have a simulation running; its chart will be posted when it is done, "
            "then you can start another."
        ),
        N_("The simulator is busy with other players' simulations; please try again in a minute."),
        N_("The solver restarted; please try again."),
        N_("The bot is shutting down; please try again in a minute."),
        N_("Your last review is still being worked out; it will be here in a moment."),
        # bot.store
        N_(
            "The game database is busy right now, so that was not recorded. "
            "Please try again in a moment."
        ),
        N_("That was already counted: it is on the board once."),
    }
)
"""The fixed sentences the floors below raise, each its own message id: looked up by its
English text, so a sentence reworded there shows in English until its catalogue follows (a test
fails first)."""


class Unpicked(Exception):
    """The picker was submitted before every peg had a colour; `pegs` are 1-based."""

    def __init__(self, pegs: Sequence[int]) -> None:
        super().__init__(f"pegs without a colour: {list(pegs)}")
        self.pegs = tuple(pegs)


class ServerOnly(Exception):
    """Something only a server has, asked for in a DM or a group DM: its leaderboard
    (`what="leaderboard"`), or a moderator ending another player's game (`what="end"`)."""

    def __init__(self, what: str, owner_id: int = 0) -> None:
        super().__init__(f"{what} works in servers only")
        self.what, self.owner_id = what, owner_id


def server_only(error: ServerOnly, t: Messages = ENGLISH) -> str:
    """Why it works in a server only, and what to do here instead."""
    if error.what == "end":
        return t.gettext(
            "Only {owner} can end this game: outside servers there are no moderators to end "
            "someone else's game.",
            owner=text.mention(error.owner_id),
        )
    return t.gettext(
        "Leaderboards belong to a server, and this is not one: use `/mastermind leaderboard` "
        "in a server. `/mastermind stats` shows your own record anywhere."
    )


def friendly(error: BaseException, t: Messages = ENGLISH) -> str:
    """The message a player sees for `error`, in the language `t`."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    code_error = _code_error(error)
    if code_error is not None:
        return code_problem(code_error, t)
    if isinstance(error, BreaksAClue):
        return clues.broken_clue(error, t)
    if isinstance(error, GameError | TooLarge | SolverUnavailable | StoreBusy | AlreadyApplied):
        if str(error) in FIXED:
            return t.gettext(str(error))
        return _engine_error(error, t)
    if isinstance(error, ServerOnly):
        return server_only(error, t)
    if isinstance(error, Unpicked):
        return t.ngettext(
            "Pick a colour for peg {pegs} first.",
            "Pick a colour for peg {pegs} first.",
            len(error.pegs),
            pegs=t.join(str(p) for p in error.pegs),
        )
    if isinstance(error, app_commands.AppCommandError):
        return _command_error(error, t)
    if isinstance(error, discord.HTTPException):
        log.warning("Discord refused a request: %s", error)
        return unexpected(t)
    log.error("unexpected error", exc_info=error)
    return unexpected(t)


def unexpected(t: Messages) -> str:
    return t.gettext("Something went wrong on my side. Your game is safe; please try again.")


def _code_error(error: BaseException) -> CodeError | None:
    """The parser's error with its problem as data: `error` itself, or the one an engine error
    was raised from (the rules wrap the parser's errors in their own)."""
    if isinstance(error, InvalidGuess | InvalidVariant | ImpossibleAnswer):
        error = error.__cause__ or error.__context__ or error
    if isinstance(error, CodeError) and error.problem is not None:
        return error
    return None


def _engine_says(error: BaseException, t: Messages, translated: str) -> str:
    """An engine message the error carries only as English text: in English, that text; in
    other languages, a translation that says the same without its particulars."""
    return str(error) if t.language == SOURCE_LANGUAGE else translated


def _engine_error(error: Exception, t: Messages) -> str:
    """An error of the floors below whose message is not one of the fixed sentences."""
    if isinstance(error, GameAlreadyActive):
        return already_active(str(error.kind), t)
    if isinstance(error, NoActiveGame):
        return t.gettext(
            "No game is running in this channel. Start one with `/mastermind play` (you crack "
            "my code) or `/mastermind solve` (I crack yours)."
        )
    if isinstance(error, NotYourGame):
        return not_yours(error, t)
    if isinstance(error, TooLarge):
        return _engine_says(
            error,
            t,
            t.gettext(
                "{pegs} pegs × {colours} colours make {size} codes; the solver handles up to "
                "{limit}. Use fewer pegs or colours.",
                pegs=t.number(error.pegs),
                colours=t.number(error.colours),
                size=t.number(error.size),
                limit=t.number(error.limit),
            ),
        )
    if isinstance(error, SolverUnavailable):
        return _engine_says(
            error, t, t.gettext("The solver cannot answer right now; please try again.")
        )
    if isinstance(error, InvalidGuess):
        return _engine_says(error, t, t.gettext("That is not a code of this game."))
    if isinstance(error, ImpossibleAnswer):
        return _engine_says(error, t, t.gettext("No code can earn that answer against this guess."))
    if isinstance(error, InvalidVariant):
        return _engine_says(error, t, t.gettext("Those rules are not possible."))
    return _engine_says(error, t, t.gettext("That is not allowed in this game."))


def _command_error(error: app_commands.AppCommandError, t: Messages) -> str:
    if isinstance(error, app_commands.CommandOnCooldown):
        return t.gettext(
            "Easy there! Try again in {seconds} s.", seconds=t.decimal(error.retry_after, 0)
        )
    if isinstance(error, app_commands.NoPrivateMessage):
        return t.gettext("Mastermind is played in server channels, not in direct messages.")
    if isinstance(error, app_commands.MissingPermissions | app_commands.BotMissingPermissions):
        return t.gettext(
            "That needs the {permissions} permission.",
            permissions=", ".join(error.missing_permissions),
        )
    if isinstance(error, app_commands.CheckFailure):
        return t.gettext("You can't use that command here.")
    if isinstance(error, app_commands.TransformerError):
        return t.gettext(
            "I couldn't read {value} for that option. Please pick a valid value.",
            value=repr(error.value),
        )
    log.error("unexpected error", exc_info=error)
    return unexpected(t)


def already_active(kind: str, t: Messages) -> str:
    """A game of `kind` ("play", "solve") is already running where a new one was asked for."""
    sentences = {
        "play": t.gettext(
            "A guessing game is already running in this channel. `/mastermind board` shows "
            "it; `/mastermind giveup` ends it."
        ),
        "solve": t.gettext(
            "A solving game is already running in this channel. `/mastermind board` shows it; "
            "`/mastermind giveup` ends it."
        ),
    }
    return sentences.get(kind) or t.gettext(
        "A game is already running in this channel. `/mastermind board` shows it; "
        "`/mastermind giveup` ends it."
    )


def not_yours(error: NotYourGame, t: Messages = ENGLISH) -> str:
    """Name the owner, which the engine leaves to us (it knows no Discord mentions)."""
    owner = text.mention(error.owner_id)
    sentences = {
        OwnerReason.SOLO: t.gettext("This is {owner}'s solo game.", owner=owner),
        OwnerReason.THEIR_CODE: t.gettext(
            "Only {owner} can answer: it is their secret code.", owner=owner
        ),
        OwnerReason.END: t.gettext(
            "Only {owner} or a moderator (Manage Messages) can end this game.", owner=owner
        ),
        OwnerReason.OWNER: t.gettext("This is {owner}'s game.", owner=owner),
        OwnerReason.START: t.gettext("Only {owner} can start this race.", owner=owner),
    }
    return sentences[error.reason]
