"""The game core every mode shares: variants, secrets, the move log and what follows from it.

Pure: no I/O, no clock, no chat markup. A game is a header (where, who, which variant) plus an
append-only log of moves; status, winner and version are derived from the log, so a store
persists exactly the header and one row per move. Each mode (`bot.modes.<kind>.rules`) defines
its game as a `BaseGame` subclass and its transitions: "check the rules, append moves", each
returning the new game and an outcome, or raising a `GameError` (`bot.engine.errors`).

A secret lives in a `Secret` wrapper that no repr, str or f-string reveals; the store hands out
active games with the secret withheld, so only the scoring path ever reads it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import ClassVar, Self, TypeVar

from bot.engine.codes import Code, CodeError, CodeSpace
from bot.engine.errors import (
    GameOver,
    GuessLimit,
    InvalidGuess,
    InvalidVariant,
    SecretWithheld,
    WrongGameKind,
)
from bot.engine.scoring import score

MIN_GUESSES, MAX_GUESSES = 1, 20


class Status(StrEnum):
    ACTIVE = "active"
    WON = "won"  # play: a player found the secret
    LOST = "lost"  # play: out of guesses
    SOLVED = "solved"  # solve: the bot found the player's code
    DRAW = "draw"  # both sides did equally well: nobody won
    ABANDONED = "abandoned"  # given up or timed out


class Reach(StrEnum):
    """How the bot can reach a game's board, which decides how it is kept up to date."""

    CHANNEL = "channel"  # a channel message the bot may edit at any time
    INTERACTION = "interaction"  # the bot is not in that server or DM: interaction replies only
    PRIVATE = "private"  # an ephemeral board only its player sees: redrawn by their own clicks


class MoveKind(StrEnum):
    GUESS = "guess"
    ANSWER = "answer"
    UNDO = "undo"
    GIVE_UP = "give_up"
    TIMEOUT = "timeout"
    HINT = "hint"  # a player asked for a hint (play games)
    JOIN = "join"  # a player joined a lobby
    START = "start"  # the game began: no more joining, guessing opens


# --- values ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """The rules of one game. Building it validates them, so a Variant is always playable."""

    pegs: int = 4
    colours: int = 6
    duplicates: bool = True
    max_guesses: int = 10
    space: CodeSpace = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        try:
            space = CodeSpace(self.pegs, self.colours, self.duplicates)
        except CodeError as error:
            raise InvalidVariant(error) from None
        if not MIN_GUESSES <= self.max_guesses <= MAX_GUESSES:
            raise GuessLimit(self.max_guesses, MIN_GUESSES, MAX_GUESSES)
        object.__setattr__(self, "space", space)


class Secret:
    """A play game's secret code. Nothing that formats it shows the code.

    `score` is how the rules use it; `reveal` is for the end of the game and for storage. A
    secret loaded for display only is *withheld*: it holds no code at all.
    """

    __slots__ = ("_code",)

    def __init__(self, code: Code | None) -> None:
        self._code = code

    @classmethod
    def withheld(cls) -> Secret:
        return cls(None)

    @property
    def known(self) -> bool:
        return self._code is not None

    def score(self, guess: Code) -> tuple[int, int]:
        return score(guess, self.reveal())

    def reveal(self) -> Code:
        if self._code is None:
            raise SecretWithheld(
                "this game was loaded without its secret; apply moves through Store.apply"
            )
        return self._code

    def __repr__(self) -> str:
        return "Secret(<hidden>)" if self.known else "Secret(<withheld>)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and self._code == other._code

    def __hash__(self) -> int:
        return hash(self._code)


@dataclass(frozen=True)
class Move:
    """One append-only log entry; exactly what the store keeps as a row."""

    kind: MoveKind
    player_id: int | None = None  # None: the bot (solve guesses) or the clock (timeout)
    code: Code | None = None
    black: int | None = None
    white: int | None = None


# --- outcomes: what the UI renders after a transition -------------------------------------------


@dataclass(frozen=True)
class GuessOutcome:
    move: Move
    number: int  # 1-based guess number
    guesses_left: int
    status: Status  # ACTIVE, WON or LOST (where each plays alone: the guessing player's own)
    secret: Code | None  # revealed once the game is over


@dataclass(frozen=True)
class HintOutcome:
    level: int  # 1: how many codes are left; 2 (a second press before the next guess): a code
    hints: int  # hints asked for in this game so far, this one included


@dataclass(frozen=True)
class EndOutcome:
    reason: MoveKind  # GIVE_UP or TIMEOUT
    by: int | None  # who gave up; None for a timeout
    secret: Code | None  # a play game's secret; None for solve games


# --- games -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Derived:
    status: Status
    winner_id: int | None = None
    ended_by: int | None = None
    guesses: tuple[Code, ...] = ()
    answers: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, kw_only=True, repr=False)
class BaseGame:
    """What every kind of game shares: the header, the move log, and what follows from the log.

    A kind says how its log reads (`_derive`); status, winner, who ended it, version and
    whether it is over are then the same for all kinds.
    """

    kind: ClassVar[str]
    """The mode's registered name (its record's `kind` column); the engine knows no mode."""
    owner_ends_only: ClassVar[bool] = False
    """Only its starter may end it (no moderator): a game that is one player's own."""

    guild_id: int | None
    channel_id: int
    starter_id: int
    variant: Variant
    log: tuple[Move, ...] = ()
    id: int | None = None
    reach: Reach = Reach.CHANNEL

    def _derive(self) -> Derived:
        raise NotImplementedError

    @cached_property
    def _derived(self) -> Derived:
        return self._derive()

    @property
    def status(self) -> Status:
        return self._derived.status

    @property
    def winner_id(self) -> int | None:
        return self._derived.winner_id

    @property
    def ended_by(self) -> int | None:
        """Who gave up (None if it timed out or did not end that way)."""
        return self._derived.ended_by

    @property
    def version(self) -> int:
        """Grows with every move; the store refuses a transition based on an older version."""
        return len(self.log)

    @property
    def is_over(self) -> bool:
        return self.status is not Status.ACTIVE

    @property
    def hints(self) -> int:
        """How many hints were asked for in this game."""
        return sum(1 for move in self.log if move.kind is MoveKind.HINT)

    @property
    def revealed_secret(self) -> Code | None:
        """The secret once the game is over, for its final board; None where the bot holds no
        secret (the player's own code) or the game still runs."""
        return None

    def withheld(self) -> Self:
        """This game as shown outside the store while it runs: without its secret, if the bot
        holds one (the store gives no running game's secret to anything but a transition)."""
        return self


def ending(log: tuple[Move, ...]) -> Move | None:
    """The move that abandoned the game (a give-up or a timeout), if the log ends with one."""
    last = log[-1] if log else None
    return last if last is not None and last.kind in (MoveKind.GIVE_UP, MoveKind.TIMEOUT) else None


Game = BaseGame
"""Any game, whatever its mode; a mode's own code holds its own subclass."""
G = TypeVar("G", bound=BaseGame)


# --- endings, for every kind -------------------------------------------------------------------


def give_up(game: G, player_id: int) -> tuple[G, EndOutcome]:
    """End the game at a player's request; who may do so is the bot's decision."""
    return end(game, Move(MoveKind.GIVE_UP, player_id))


def expire(game: G) -> tuple[G, EndOutcome]:
    """End a game nobody has touched for too long."""
    return end(game, Move(MoveKind.TIMEOUT))


def ask_hint(game: G, player_id: int) -> tuple[G, HintOutcome]:
    """Record that a player asked for a hint (whether they may is their mode's rule, checked
    first). The first since the last guess is level 1 (how many codes are left); a second one
    is level 2 (a code worth guessing)."""
    require_active(game)
    since_guess = 0
    for move in reversed(game.log):
        if move.kind is MoveKind.GUESS:
            break
        since_guess += move.kind is MoveKind.HINT
    new = append(game, Move(MoveKind.HINT, player_id))
    return new, HintOutcome(level=1 if since_guess == 0 else 2, hints=new.hints)


def end(game: G, move: Move) -> tuple[G, EndOutcome]:
    require_active(game)
    new = append(game, move)
    return new, EndOutcome(reason=move.kind, by=move.player_id, secret=new.revealed_secret)


# --- what the modes' transitions share ---------------------------------------------------------


def append(game: G, *moves: Move) -> G:
    """The game with `moves` appended to its log (its derived values are computed afresh)."""
    return replace(game, log=(*game.log, *moves))


def require(game: BaseGame, kind: type[G], refusal: Callable[[], WrongGameKind]) -> G:
    """`game` as a game of `kind`, or the mode's `refusal` (an input that names another mode's
    game)."""
    if not isinstance(game, kind):
        raise refusal()
    return game


def require_active(game: BaseGame) -> None:
    if game.is_over:
        raise GameOver()


def parse_guess(variant: Variant, code: Code | str) -> Code:
    """A guess as a code of this variant: text parsed, a tuple validated."""
    space = variant.space
    try:
        return space.parse(code) if isinstance(code, str) else space.validate(code)
    except CodeError as error:
        raise InvalidGuess(error) from None
    except (TypeError, ValueError):
        raise InvalidGuess(pegs=space.pegs) from None


def draw_secret(variant: Variant, secret: Code | None) -> Secret:
    """The given secret (tests, a code of the day) validated, or one drawn with `secrets`."""
    space = variant.space
    code = space.code_at(secrets.randbelow(space.size)) if secret is None else secret
    return Secret(space.validate(code))
