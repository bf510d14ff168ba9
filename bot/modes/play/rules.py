"""The play mode's rules: the bot holds a secret; the channel (or the starter alone) cracks it.

Pure, on the engine core: each transition checks the rules and appends moves; the guess is the
one-board transition every such mode shares (`bot.modes.common.rules.guess_on`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Unpack

from bot.engine import game as core
from bot.engine.codes import Code
from bot.engine.errors import NotYourGame, OwnerReason, WrongGameKind
from bot.engine.game import GuessOutcome, HintOutcome, MoveKind, Reach, Variant
from bot.modes.common.rules import (
    Header,
    NotAPlayGame,
    OneBoardGame,
    SecretGame,
    guess_on,
    on_secret,
)

KIND = "play"
"""The play mode's registered name: its games' `kind` in the store and in the registry."""


class NotOwnRoute(WrongGameKind, code="not-own-route"):
    """A play input (its Guess, picker, code modal or Hint) on another mode's game where players
    guess too, which answers only through its own routes and their checks."""


@dataclass(frozen=True, kw_only=True, repr=False)
class PlayGame(OneBoardGame):
    """The bot holds the secret; players in the channel (or only the starter, solo) guess it."""

    kind: ClassVar[str] = KIND
    shown_first: ClassVar[str] = "solo"

    solo: bool = False


def as_play(game: core.Game) -> PlayGame:
    """`game` as a game players guess (a play game, or one built on it)."""
    return core.require(game, PlayGame, lambda: NotAPlayGame(MoveKind.GUESS))


def play_itself(game: core.Game, tried: MoveKind) -> PlayGame:
    """`game` if it is a play game, for play's own routes (`tried`: a guess or a hint): another
    mode's game where players guess has rules of its own (NotOwnRoute); one where the bot
    guesses, none to try (NotAPlayGame)."""
    if not isinstance(game, PlayGame):
        raise NotOwnRoute() if isinstance(game, SecretGame) else NotAPlayGame(tried)
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
    return guess_on(game, player_id, code, alone=game.solo)


def hint(game: core.Game, player_id: int) -> tuple[PlayGame, HintOutcome]:
    """Record that a player asked for a hint (in a solo game only its starter may):
    `bot.engine.game.ask_hint` says which press it is."""
    game = core.require(game, PlayGame, lambda: NotAPlayGame(MoveKind.HINT))
    core.require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    return core.ask_hint(game, player_id)
