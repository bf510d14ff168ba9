"""What the modes whose players guess the bot's secret share, on the engine core: the secret, shown
only once the game is over and withheld outside the store, and a guess checked and scored
against it. Pure, like every mode's rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import ClassVar, Self, TypedDict, TypeVar

from bot.engine.codes import Code
from bot.engine.errors import BreaksAClue, NotYourGame, OwnerReason, WrongGameKind
from bot.engine.game import (
    BaseGame,
    Derived,
    GuessOutcome,
    Move,
    MoveKind,
    Secret,
    Status,
    Variant,
    append,
    draw_secret,
    ending,
    parse_guess,
    require_active,
)
from bot.engine.hard import Clue, first_broken_clue


class NotAPlayGame(WrongGameKind, code="not-a-play-game"):
    """An input of the modes where players guess (`tried`: a guess or a hint) on a game where
    the bot does the guessing, so the player is told what to do there instead."""

    def __init__(self, tried: MoveKind) -> None:
        super().__init__(tried)
        self.tried = tried


class Header(TypedDict):
    """Where a new game is played and who starts it: what every mode's `new_<mode>_game`
    takes by keyword, and what `bot.modes.common.actions.started_by` reads from an actor."""

    guild_id: int | None
    channel_id: int
    starter_id: int


class OnSecret(TypedDict):
    """A new secret game's rules and secret (`on_secret`)."""

    variant: Variant
    secret: Secret


def on_secret(variant: Variant | None, secret: Code | None) -> OnSecret:
    """`variant` (the default one if None) and its secret: `secret` validated (tests, a code of
    the day), or one drawn with `secrets`."""
    variant = variant or Variant()
    return {"variant": variant, "secret": draw_secret(variant, secret)}


@dataclass(frozen=True, kw_only=True, repr=False)
class SecretGame(BaseGame):
    """A game on a secret the bot holds: nothing shows it while the game runs."""

    secret: Secret
    hard: bool = False  # every guess must fit every answer so far (`clues_for`)

    @property
    def revealed_secret(self) -> Code | None:
        """The secret once the game is over (for the final board), else None."""
        return self.secret.reveal() if self.is_over and self.secret.known else None

    def withheld(self) -> Self:
        return replace(self, secret=Secret.withheld()) if self.secret.known else self

    def clues_for(self, player_id: int) -> tuple[Clue, ...]:
        """The answers `player_id` has had: what their next guess must fit in hard mode, and
        what their review covers."""
        raise NotImplementedError

    def _shown(self) -> tuple[tuple[str, object], ...]:
        """What the repr shows between the variant and the version (never the secret)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        shown = "".join(f"{name}={value}, " for name, value in self._shown())
        return (
            f"{type(self).__name__}(id={self.id}, guild_id={self.guild_id}, "
            f"channel_id={self.channel_id}, starter_id={self.starter_id}, "
            f"variant={self.variant}, {shown}version={self.version}, secret=<hidden>)"
        )


@dataclass(frozen=True, kw_only=True, repr=False)
class OneBoardGame(SecretGame):
    """A secret game whose guesses are one sequence on one board, whoever makes them (play's
    channel game, a player's own game of the day): the guess that cracks it wins, and it is
    lost once the guesses run out."""

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
    def clues(self) -> tuple[Clue, ...]:
        """Each guess with the answer it earned, in order (what hard mode and reviews read)."""
        return clues(self.moves)

    def clues_for(self, player_id: int) -> tuple[Clue, ...]:
        """The clues a player's guess must fit and their review covers: every guess on the
        board."""
        return self.clues

    shown_first: ClassVar[str] = "hard"
    """The field its repr shows first (its mode's own)."""

    def _shown(self) -> tuple[tuple[str, object], ...]:
        return (
            (self.shown_first, getattr(self, self.shown_first)),
            ("hard", self.hard),
            ("status", self.status.value),
            ("guesses", len(self.moves)),
        )


B = TypeVar("B", bound=OneBoardGame)


def guess_on(game: B, player_id: int, code: Code | str, *, alone: bool) -> tuple[B, GuessOutcome]:
    """Score one guess on a one-board game (text parsed, a tuple validated); where its starter
    plays `alone`, nobody else may guess. The guess of every mode built on `OneBoardGame`."""
    require_active(game)
    if alone and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    move = scored(game, player_id, code)
    new = append(game, move)
    outcome = GuessOutcome(
        move=move,
        number=len(new.moves),
        guesses_left=new.guesses_left,
        status=new.status,
        secret=new.revealed_secret,
    )
    return new, outcome


def clues(moves: Iterable[Move]) -> tuple[Clue, ...]:
    """Each scored guess of `moves` with the answer it earned, in order."""
    return tuple(
        (move.code, (move.black, move.white))
        for move in moves
        if move.code is not None and move.black is not None and move.white is not None
    )


def scored(game: SecretGame, player_id: int, code: Code | str) -> Move:
    """A player's guess as a scored move: text parsed (a tuple validated), refused in hard mode
    if it breaks an answer the player has had (BreaksAClue)."""
    parsed = parse_guess(game.variant, code)
    if game.hard and (broken := first_broken_clue(game.clues_for(player_id), parsed)) is not None:
        raise BreaksAClue(broken)
    black, white = game.secret.score(parsed)
    return Move(MoveKind.GUESS, player_id, parsed, black, white)
