"""Why the rules refuse a move: one typed error per reason, with a sentence a player can act on.

Messages name no one and carry no markup; an error that concerns a person (`NotYourGame`) holds
their id, and the presentation layer decides how to name them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from bot.engine.hard import BrokenClue


class GameError(Exception):
    """A move the rules refuse. `str(error)` is one sentence the player can act on."""

    default_message: ClassVar[str] = "That is not allowed in this game."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.default_message
        super().__init__(self.message)


class GameAlreadyActive(GameError):
    """Raised by the store: the database allows one active game per channel."""

    def __init__(self, game_id: int | None = None, kind: str | None = None) -> None:
        self.game_id, self.kind = game_id, kind
        # GameKind is a StrEnum, so its members find these plain-string keys.
        what = {"play": "A guessing game", "solve": "A solving game"}.get(str(kind), "A game")
        super().__init__(
            f"{what} is already running in this channel: look at its board to play on, "
            "or give it up to start a new one."
        )


class DailyAlreadyPlayed(GameError):
    """Raised by the store: each player plays each day's code once; `game_id` is that game."""

    def __init__(self, game_id: int | None = None) -> None:
        self.game_id = game_id
        super().__init__("You have already played today's code; a new one comes at midnight UTC.")


class NoActiveGame(GameError):
    default_message = "No game is running in this channel; start a new one."


class GameOver(GameError):
    default_message = "This game is over."


class StaleGame(GameError):
    default_message = (
        "The game changed while you were deciding: look at the latest board and try again."
    )


class InvalidGuess(GameError):
    """The code does not fit the variant; the message is the parser's explanation."""


class ImpossibleAnswer(GameError):
    """No secret can give that (black, white) answer; raised from the code space's own error."""


class OwnerReason(StrEnum):
    """Why only the game's owner (the starter) may do what was tried."""

    SOLO = "only the starter guesses in a solo game"
    THEIR_CODE = "only the starter answers: it is their code"
    END = "only the starter or a moderator can end it"
    OWNER = "it is another player's game"
    START = "only the starter can start the race"


class NotYourGame(GameError):
    """Someone other than the owner moved. `owner_id` and `reason` let the UI name the owner;
    the default message names no one, so the engine stays free of any chat markup."""

    def __init__(
        self, owner_id: int, message: str | None = None, *, reason: OwnerReason = OwnerReason.OWNER
    ) -> None:
        self.owner_id, self.reason = owner_id, reason
        super().__init__(message or f"{reason[0].upper()}{reason[1:]}.")


class BreaksAClue(GameError):
    """Hard mode: the guess cannot be the secret, given an earlier answer. `clue` says which
    answer it breaks and how, so the UI can name it ("guess 2 (RRBY → ⚫⚪) rules out ...")."""

    def __init__(self, clue: BrokenClue) -> None:
        self.clue = clue
        super().__init__(
            f"Hard mode: guess {clue.index + 1} rules this guess out; every guess must fit "
            "every answer so far."
        )


class WrongGameKind(GameError):
    """A play move on a solve game or the reverse."""


class InvalidVariant(GameError):
    """The requested pegs, colours or guess limit are out of range."""


class SecretWithheld(RuntimeError):
    """A transition needed the secret of a game loaded for display only."""


class NotHere(GameError):
    """The input names a game of another channel, server or DM (or none at all)."""

    default_message = "That belongs to a game in another channel, so I can't use it here."


class BadChoice(GameError):
    """A select value or custom_id field that no menu of ours offers."""

    default_message = "That choice isn't on the menu. Open a fresh one and pick again."
