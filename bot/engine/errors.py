"""Why the rules refuse a move: one typed error per reason, each with a stable `code` and the
data a sentence about it needs (ids, numbers, the broken clue, the owner's reason).

The rules hold no words: `bot.ui.errors` says the shared floors' errors and each mode's board
says its own, in the player's language. `str(error)` is the code and the data, for logs; an
error that concerns a person (`NotYourGame`) holds their id, and the UI decides how to name them.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from bot.engine.codes import CodeError
    from bot.engine.hard import BrokenClue


class GameError(Exception):
    """A move the rules refuse. `code` names the reason for the UI and the logs (each kind
    gives its own: `class GameOver(GameError, code="game-over")`); the attributes an error sets
    are the data its sentence is made from."""

    code: ClassVar[str] = "not-allowed"

    def __init_subclass__(cls, code: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.code = code or cls.code

    def __str__(self) -> str:
        data = ", ".join(f"{name}={value!r}" for name, value in vars(self).items())
        return f"{self.code}({data})" if data else self.code


class GameAlreadyActive(GameError, code="game-already-active"):
    """Raised by the store: the database allows one active game per channel."""

    def __init__(self, game_id: int | None = None, kind: str | None = None) -> None:
        super().__init__(game_id, kind)
        self.game_id, self.kind = game_id, kind


class AlreadyPlayed(GameError, code="already-played"):
    """Raised by the store: a game played once per player and puzzle was started again;
    `game_id` is the one the player has."""

    def __init__(self, game_id: int | None = None) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class NoActiveGame(GameError, code="no-active-game"):
    """A move for the channel's game where none runs (or for a game id that does not exist)."""


class GameOver(GameError, code="game-over"):
    """A move in a game that has ended: its log takes no more moves."""


class StaleGame(GameError, code="stale-game"):
    """The game moved on since the board the player acted on was drawn."""


class InvalidGuess(GameError, code="invalid-guess"):
    """The code does not fit the variant: `reason` is the parser's error (its problem as
    data), or None for something that is no code at all, in a game of `pegs` pegs."""

    def __init__(self, reason: CodeError | None = None, pegs: int | None = None) -> None:
        super().__init__(reason, pegs)
        self.reason, self.pegs = reason, pegs


class ImpossibleAnswer(GameError, code="impossible-answer"):
    """No secret can give that (black, white) answer: to any guess (`reason`, the code space's
    own error), or to the guess it answers (`reason` None)."""

    def __init__(self, reason: CodeError | None = None, black: int = 0, white: int = 0) -> None:
        super().__init__(reason, black, white)
        self.reason, self.black, self.white = reason, black, white


class OwnerReason(StrEnum):
    """Why only the game's owner (the starter) may do what was tried."""

    SOLO = "solo"  # only the starter guesses in a solo game
    THEIR_CODE = "their-code"  # only the starter answers: it is their code
    END = "end"  # only the starter or a moderator can end it
    OWNER = "owner"  # it is another player's game
    START = "start"  # only the starter can start it (a lobby's game)


class NotYourGame(GameError, code="not-your-game"):
    """Someone other than the owner moved. `owner_id` and `reason` let the UI name the owner
    and say why, so the engine stays free of any chat markup."""

    def __init__(self, owner_id: int, *, reason: OwnerReason = OwnerReason.OWNER) -> None:
        super().__init__(owner_id)
        self.owner_id, self.reason = owner_id, reason


class BreaksAClue(GameError, code="breaks-a-clue"):
    """Hard mode: the guess cannot be the secret, given an earlier answer. `clue` says which
    answer it breaks and how, so the UI can name it ("guess 2 (RRBY → ⚫⚪) rules out ...")."""

    def __init__(self, clue: BrokenClue) -> None:
        super().__init__(clue)
        self.clue = clue


class WrongGameKind(GameError, code="wrong-game-kind"):
    """An input of one mode on another mode's game. Each mode raises its own subclass (what
    was tried says what to do instead), worded on that mode's board."""


class InvalidVariant(GameError, code="invalid-variant"):
    """The requested pegs or colours are out of range: `reason` is the code space's error."""

    def __init__(self, reason: CodeError | None = None) -> None:
        super().__init__(reason)
        self.reason = reason


class GuessLimit(InvalidVariant, code="guess-limit"):
    """The guess limit `guesses` is outside `least`..`most`."""

    def __init__(self, guesses: int, least: int, most: int) -> None:
        super().__init__()
        self.guesses, self.least, self.most = guesses, least, most


class SecretWithheld(RuntimeError):
    """A transition needed the secret of a game loaded for display only."""


class NotHere(GameError, code="not-here"):
    """The input names a game of another channel, server or DM (or none at all)."""


class BadChoice(GameError, code="bad-choice"):
    """A select value or custom_id field that no menu of ours offers."""
