"""The play mode's rules: the bot holds a secret; the channel (or the starter alone) cracks it.

Pure, on the engine core: each transition checks the rules and appends moves. Other modes
whose players guess a secret of the bot's may build their game on `PlayGame` and these rules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar, Self

from bot.engine.codes import Code
from bot.engine.errors import BreaksAClue, NotYourGame, OwnerReason, WrongGameKind
from bot.engine.game import (
    BaseGame,
    Derived,
    GameKind,
    GuessOutcome,
    Move,
    MoveKind,
    Reach,
    Secret,
    Status,
    Variant,
    append,
    draw_secret,
    ending,
    parse_guess,
    require,
    require_active,
)
from bot.engine.hard import Clue, first_broken_clue


class NotAPlayGame(WrongGameKind, code="not-a-play-game"):
    """A play input (`tried`: a guess or a hint) on a game where the bot does the guessing,
    so the player is told what to do there instead."""

    def __init__(self, tried: MoveKind) -> None:
        super().__init__(tried)
        self.tried = tried


@dataclass(frozen=True)
class HintOutcome:
    level: int  # 1: how many codes are left; 2 (a second press before the next guess): a code
    hints: int  # hints asked for in this game so far, this one included


@dataclass(frozen=True, kw_only=True, repr=False)
class PlayGame(BaseGame):
    """The bot holds the secret; players in the channel (or only the starter, solo) guess it."""

    kind: ClassVar[GameKind] = GameKind.PLAY

    secret: Secret
    solo: bool = False
    hard: bool = False  # every guess must fit every answer so far

    def _derive(self) -> Derived:
        if (end := ending(self.log)) is not None:
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
    def revealed_secret(self) -> Code | None:
        """The secret once the game is over (for the final board), else None."""
        return self.secret.reveal() if self.is_over and self.secret.known else None

    @property
    def clues(self) -> tuple[Clue, ...]:
        """Each guess with the answer it earned, in order (what hard mode and reviews read)."""
        return tuple(
            (move.code, (move.black, move.white))
            for move in self.moves
            if move.code is not None and move.black is not None and move.white is not None
        )

    def clues_for(self, player_id: int) -> tuple[Clue, ...]:
        """The clues a player's review covers: in a shared play game, every guess."""
        return self.clues

    def withheld(self) -> Self:
        return replace(self, secret=Secret.withheld()) if self.secret.known else self

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(id={self.id}, guild_id={self.guild_id}, "
            f"channel_id={self.channel_id}, starter_id={self.starter_id}, "
            f"variant={self.variant}, solo={self.solo}, hard={self.hard}, "
            f"status={self.status.value}, guesses={len(self.moves)}, version={self.version}, "
            f"secret=<hidden>)"
        )


def as_play(game: BaseGame) -> PlayGame:
    """`game` as a game players guess (a play game, or one built on it)."""
    return require(game, PlayGame, lambda: NotAPlayGame(MoveKind.GUESS))


def new_play_game(
    *,
    guild_id: int | None,
    channel_id: int,
    starter_id: int,
    variant: Variant | None = None,
    solo: bool = False,
    secret: Code | None = None,
    hard: bool = False,
    reach: Reach = Reach.CHANNEL,
) -> PlayGame:
    """A fresh game; the secret is drawn with `secrets` unless one is given (tests, challenges)."""
    variant = variant or Variant()
    return PlayGame(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=starter_id,
        variant=variant,
        secret=draw_secret(variant, secret),
        solo=solo,
        hard=hard,
        reach=reach,
    )


def guess(game: BaseGame, player_id: int, code: Code | str) -> tuple[PlayGame, GuessOutcome]:
    """Score one guess. Text is parsed; a tuple is validated against the variant."""
    game = require(game, PlayGame, lambda: NotAPlayGame(MoveKind.GUESS))
    require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    parsed = parse_guess(game.variant, code)
    if game.hard and (broken := first_broken_clue(game.clues, parsed)) is not None:
        raise BreaksAClue(broken)
    black, white = game.secret.score(parsed)
    move = Move(MoveKind.GUESS, player_id, parsed, black, white)
    new = append(game, move)
    outcome = GuessOutcome(
        move=move,
        number=len(new.moves),
        guesses_left=new.guesses_left,
        status=new.status,
        secret=new.revealed_secret,
    )
    return new, outcome


def hint(game: BaseGame, player_id: int) -> tuple[PlayGame, HintOutcome]:
    """Record that a player asked for a hint. The first since the last guess is level 1 (how
    many codes are left); a second one is level 2 (a code worth guessing)."""
    game = require(game, PlayGame, lambda: NotAPlayGame(MoveKind.HINT))
    require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    since_guess = 0
    for move in reversed(game.log):
        if move.kind is MoveKind.GUESS:
            break
        since_guess += move.kind is MoveKind.HINT
    new = append(game, Move(MoveKind.HINT, player_id))
    return new, HintOutcome(level=1 if since_guess == 0 else 2, hints=new.hints)
