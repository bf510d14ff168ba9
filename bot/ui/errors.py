"""The words for every failure: one place that turns an error into a sentence a player can act
on (the cogs send it privately, in the player's language `t`), never a traceback.

The floors below raise typed errors with a `code` and their data and no words; `WORDS` says
each of the shared floors' errors (the engine core, the store, the solver pool, the parser) in
the player's language, from that data. A mode's own errors are said by that mode's board
(`ERRORS` there); the bot hands `friendly` those words (`Host.words_for`), so this module
knows no mode. A `CodeError` carries its problem as data, also when a rule's error wraps it
(`reason`), so the parser's explanation is rebuilt in the player's language (`code_errors`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.engine.codes import CodeError
from bot.engine.errors import (
    BadChoice,
    BreaksAClue,
    GameAlreadyActive,
    GameError,
    GameOver,
    GuessLimit,
    ImpossibleAnswer,
    InvalidGuess,
    InvalidVariant,
    NoActiveGame,
    NotHere,
    NotYourGame,
    OwnerReason,
    StaleGame,
)
from bot.engine.search import TooLarge
from bot.solver_pool import SolverUnavailable, Unavailable
from bot.store import AlreadyApplied, StoreBusy, UnreadableGame
from bot.ui import clues, text, words
from bot.ui.code_errors import code_problem
from bot.ui.i18n import ENGLISH, Messages

log = logging.getLogger(__name__)

Words = Callable[[Any, Messages], str]
"""How one kind of error is said: from the error's data, in the language given."""
ErrorWords = Mapping[type[BaseException], Words]
"""The words for each kind of error; a kind without its own entry is said as its nearest
ancestor is."""
ModeWords = Callable[[BaseException, Messages], str | None]
"""A mode's own words for an error, or None where the shared floors' words apply."""


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


def friendly(error: BaseException, t: Messages = ENGLISH, modes: ModeWords | None = None) -> str:
    """The message a player sees for `error`, in the language `t`; `modes` gives the modes'
    own words for their errors (the bot's `words_for`)."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    said = (modes and modes(error, t)) or say(error, t, WORDS)
    if said is not None:
        return said
    if isinstance(error, app_commands.AppCommandError):
        return _command_error(error, t)
    if isinstance(error, discord.HTTPException):
        log.warning("Discord refused a request: %s", error)
        return unexpected(t)
    log.error("unexpected error", exc_info=error)
    return unexpected(t)


def say(error: BaseException, t: Messages, table: ErrorWords) -> str | None:
    """`error` in the words `table` has for its kind, or for the nearest kind it derives from;
    None if the table has none."""
    for kind in type(error).__mro__:
        words_of = table.get(kind)
        if words_of is not None:
            return words_of(error, t)
    return None


def unexpected(t: Messages) -> str:
    return t.gettext("Something went wrong on my side. Your game is safe; please try again.")


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
    }
    return sentences.get(error.reason) or sentences[OwnerReason.OWNER]  # modes word their own


def _invalid_guess(error: InvalidGuess, t: Messages) -> str:
    """The parser's reason, or (for something that is no code at all) what a code is here."""
    if error.reason is not None:
        return code_problem(error.reason, t)
    return t.ngettext(
        "Write a code of {count} colour.", "Write a code of {count} colours.", error.pegs or 0
    )


def _impossible_answer(error: ImpossibleAnswer, t: Messages) -> str:
    """Impossible against any guess (the parser's reason) or against the guess answered."""
    if error.reason is not None:
        return code_problem(error.reason, t)
    return t.gettext(
        "No code can earn {black} and {white} against that guess.",
        black=words.black(t, error.black),
        white=words.white(t, error.white),
    )


def _invalid_variant(error: InvalidVariant, t: Messages) -> str:
    if error.reason is not None:
        return code_problem(error.reason, t)
    return t.gettext("Those rules are not possible.")


def _too_large(error: TooLarge, t: Messages) -> str:
    return t.gettext(
        "{pegs} pegs x {colours} colours has {size} codes; the solver handles up to {limit}. "
        "Use fewer pegs or colours.",
        pegs=t.number(error.pegs),
        colours=t.number(error.colours),
        size=t.number(error.size),
        limit=t.number(error.limit),
    )


def _solver_unavailable(error: SolverUnavailable, t: Messages) -> str:
    sentences = {
        Unavailable.ONE_PER_PLAYER: t.gettext(
            "You already have a simulation running; its chart will be posted when it is done, "
            "then you can start another."
        ),
        Unavailable.TOO_MANY: t.gettext(
            "The simulator is busy with other players' simulations; please try again in a minute."
        ),
        Unavailable.RESTARTED: t.gettext("The solver restarted; please try again."),
        Unavailable.SHUTTING_DOWN: t.gettext(
            "The bot is shutting down; please try again in a minute."
        ),
        Unavailable.REVIEWING: t.gettext(
            "Your last review is still being worked out; it will be here in a moment."
        ),
    }
    return sentences[error.reason]


WORDS: ErrorWords = {
    # bot.engine: the rules every mode shares
    GameError: lambda _, t: t.gettext("That is not allowed in this game."),
    GameAlreadyActive: lambda error, t: already_active(str(error.kind), t),
    NoActiveGame: lambda _, t: t.gettext(
        "No game is running in this channel. Start one with `/mastermind play` (you crack "
        "my code) or `/mastermind solve` (I crack yours)."
    ),
    GameOver: lambda _, t: t.gettext("This game is over."),
    StaleGame: lambda _, t: t.gettext(
        "The game changed while you were deciding: look at the latest board and try again."
    ),
    InvalidGuess: _invalid_guess,
    ImpossibleAnswer: _impossible_answer,
    NotYourGame: not_yours,
    BreaksAClue: clues.broken_clue,
    InvalidVariant: _invalid_variant,
    GuessLimit: lambda error, t: t.gettext(
        "A game allows {least} to {most} guesses, not {guesses}.",
        least=error.least,
        most=error.most,
        guesses=error.guesses,
    ),
    NotHere: lambda _, t: t.gettext(
        "That belongs to a game in another channel, so I can't use it here."
    ),
    BadChoice: lambda _, t: t.gettext(
        "That choice isn't on the menu. Open a fresh one and pick again."
    ),
    CodeError: code_problem,
    TooLarge: _too_large,
    # bot.solver_pool
    SolverUnavailable: _solver_unavailable,
    # bot.store
    StoreBusy: lambda _, t: t.gettext(
        "The game database is busy right now, so that was not recorded. "
        "Please try again in a moment."
    ),
    AlreadyApplied: lambda _, t: t.gettext("That was already counted: it is on the board once."),
    UnreadableGame: lambda _, t: t.gettext(
        "This channel's game was saved by a newer version of the bot, and this version cannot "
        "read it. Its starter or a moderator can end it with /mastermind giveup."
    ),
    # bot.ui: the inputs' own refusals
    ServerOnly: server_only,
    Unpicked: lambda error, t: t.ngettext(
        "Pick a colour for peg {pegs} first.",
        "Pick a colour for peg {pegs} first.",
        len(error.pegs),
        pegs=t.join(str(p) for p in error.pegs),
    ),
}
"""The shared floors' errors in words (a mode's own are on its board)."""
