"""The play mode's rules: the bot holds a secret; the channel (or the starter alone) cracks it.

Pure, on the engine core: each transition checks the rules and appends moves. Other modes
whose players guess a secret of the bot's may build their game on `PlayGame` and these rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Unpack

from bot.engine import game as core
from bot.engine.codes import Code
from bot.engine.errors import NotYourGame, OwnerReason, WrongGameKind
from bot.engine.game import Derived, GuessOutcome, Move, MoveKind, Reach, Status, Variant
from bot.engine.hard import Clue
from bot.modes.common.rules import Header, SecretGame, clues, on_secret, scored

KIND = "play"
"""The play mode's registered name: its games' `kind` in the store and in the registry."""


class NotAPlayGame(WrongGameKind, code="not-a-play-game"):
    """A play input (`tried`: a guess or a hint) on a game where the bot does the guessing,
    so the player is told what to do there instead."""

    def __init__(self, tried: MoveKind) -> None:
        super().__init__(tried)
        self.tried = tried


class NotOwnRoute(WrongGameKind, code="not-own-route"):
    """A play input (its Guess, picker, code modal or Hint) on a game of a mode built on play
    (a daily game), which answers only through its own routes and their checks."""


@dataclass(frozen=True)
class HintOutcome:
    level: int  # 1: how many codes are left; 2 (a second press before the next guess): a code
    hints: int  # hints asked for in this game so far, this one included


@dataclass(frozen=True, kw_only=True, repr=False)
class PlayGame(SecretGame):
    """The bot holds the secret; players in the channel (or only the starter, solo) guess it."""

    kind: ClassVar[str] = KIND

    solo: bool = False

    def _derive(self) -> Derived:
        if (end := core.ending(self.log)) is not None:
            return Derived(Status.ABANDONED, ended_by=end.player_id)
        last = self.moves[-1] if self.moves else None
        if last is not None and last.black == self.variant.pegs:
            return Derived(Status.WON, winner_id=last.player_id)
        if len(self.moves) >= self.variant.max_guesses:
            return Derived(Status.LOST)
        return Derived(Status.ACTIVE)

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The scored guesses, in order."""
        return tuple(move for move in self.log if move.kind is MoveKind.GUESS)

    @property
    def guesses_left(self) -> int:
        return 0 if self.is_over else self.variant.max_guesses - len(self.moves)

    @property
    def clues(self) -> tuple[Clue, ...]:
        """Each guess with the answer it earned, in order (what hard mode and reviews read)."""
        return clues(self.moves)

    def clues_for(self, player_id: int) -> tuple[Clue, ...]:
        """The clues a player's guess must fit and their review covers: in a shared play game,
        every guess."""
        return self.clues

    def _shown(self) -> tuple[tuple[str, object], ...]:
        return (
            ("solo", self.solo),
            ("hard", self.hard),
            ("status", self.status.value),
            ("guesses", len(self.moves)),
        )


def as_play(game: core.Game) -> PlayGame:
    """`game` as a game players guess (a play game, or one built on it)."""
    return core.require(game, PlayGame, lambda: NotAPlayGame(MoveKind.GUESS))


def play_itself(game: core.Game, tried: MoveKind) -> PlayGame:
    """`game` if it is a play game itself, for play's own routes (`tried`: a guess or a hint):
    a mode built on it (a daily game) is not accepted, as its rules (privacy, one guess per
    board) are its own."""
    if type(game) is not PlayGame:
        raise NotOwnRoute() if isinstance(game, PlayGame) else NotAPlayGame(tried)
    return game


def new_play_game(
    *,
    variant: Variant | None = None,
    solo: bool = False,
    secret: Code | None = None,
    hard: bool = False,
    reach: Reach = Reach.CHANNEL,
    **header: Unpack[Header],
) -> PlayGame:
    """A fresh game; the secret is drawn with `secrets` unless one is given (tests, challenges)."""
    return PlayGame(**header, **on_secret(variant, secret), solo=solo, hard=hard, reach=reach)


def guess(game: core.Game, player_id: int, code: Code | str) -> tuple[PlayGame, GuessOutcome]:
    """Score one guess. Text is parsed; a tuple is validated against the variant."""
    game = core.require(game, PlayGame, lambda: NotAPlayGame(MoveKind.GUESS))
    core.require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    move = scored(game, player_id, code)
    new = core.append(game, move)
    outcome = GuessOutcome(
        move=move,
        number=len(new.moves),
        guesses_left=new.guesses_left,
        status=new.status,
        secret=new.revealed_secret,
    )
    return new, outcome


def hint(game: core.Game, player_id: int) -> tuple[PlayGame, HintOutcome]:
    """Record that a player asked for a hint. The first since the last guess is level 1 (how
    many codes are left); a second one is level 2 (a code worth guessing)."""
    game = core.require(game, PlayGame, lambda: NotAPlayGame(MoveKind.HINT))
    core.require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    since_guess = 0
    for move in reversed(game.log):
        if move.kind is MoveKind.GUESS:
            break
        since_guess += move.kind is MoveKind.HINT
    new = core.append(game, Move(MoveKind.HINT, player_id))
    return new, HintOutcome(level=1 if since_guess == 0 else 2, hints=new.hints)
