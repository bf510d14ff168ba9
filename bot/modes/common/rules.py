"""What the modes whose players guess the bot's secret (play, daily, race) share, on the engine
core: the secret, shown only once the game is over and withheld outside the store, and a guess
checked and scored against it. Pure, like every mode's rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Self, TypedDict

from bot.engine.codes import Code
from bot.engine.errors import BreaksAClue
from bot.engine.game import BaseGame, Move, MoveKind, Secret, Variant, draw_secret, parse_guess
from bot.engine.hard import Clue, first_broken_clue


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
