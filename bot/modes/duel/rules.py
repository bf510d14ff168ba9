"""The duel's rules: the player and the bot each hold a secret and crack the other's, in turns.

The player sets their secret first (the game begins with it); the bot draws its own. Turns then
alternate: the player guesses the bot's secret, then the bot guesses the player's, its pegs
scored against the secret the player set, so no answer can be wrong. Whoever cracks the other's
code in fewer guesses wins; the same count is a draw; if the player's guesses run out, the bot
wins. A round is the player's guess and then the bot's: a player who cracks the code in their
n-th guess still waits for the bot's n-th, which may draw.

Pure, on the engine core. The bot's guesses come from the solver, run by the mode's actions
before the transition (asked with the bot's own guesses and pegs only), so a transition only
checks and scores them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from typing import ClassVar, Self, Unpack

from bot.engine import game as core
from bot.engine.codes import Code, CodeError
from bot.engine.errors import (
    BreaksAClue,
    GameError,
    InvalidGuess,
    NotYourGame,
    OwnerReason,
    WrongGameKind,
)
from bot.engine.game import (
    Derived,
    HintOutcome,
    Move,
    MoveKind,
    Reach,
    Secret,
    Status,
    Variant,
    draw_secret,
    parse_guess,
)
from bot.engine.hard import Clue, first_broken_clue
from bot.modes.common.rules import Header, SecretGame, clues

KIND = "duel"


class Turn(StrEnum):
    """Whose guess comes next."""

    PLAYER = "player"
    BOT = "bot"


class NotYourTurn(GameError, code="duel-not-your-turn"):
    """A guess out of turn: the player's while the bot is to guess, or the bot's while the
    player is (`turn`: whose turn it is)."""

    def __init__(self, turn: Turn) -> None:
        super().__init__(turn)
        self.turn = turn


class NotADuel(WrongGameKind, code="not-a-duel"):
    """A duel's input on a game of another mode."""


class BadSecret(GameError, code="duel-bad-secret"):
    """The secret the player set does not fit the variant: `reason` is the parser's error
    (None for something that is no code at all, in a game of `pegs` pegs)."""

    def __init__(self, reason: CodeError | None = None, pegs: int | None = None) -> None:
        super().__init__(reason, pegs)
        self.reason, self.pegs = reason, pegs


@dataclass(frozen=True)
class DuelOutcome:
    """What one guess did: the move, whose it was (None: the bot's), its number on that side,
    and the game's status after it (the secrets once it is over)."""

    move: Move
    number: int
    status: Status
    turn: Turn | None
    """Whose turn is next (None once the game is over)."""


@dataclass(frozen=True, kw_only=True, repr=False)
class DuelGame(SecretGame):
    """The bot holds `secret` and the player (the starter) holds `theirs`; each cracks the
    other's. The log holds the player's guesses (their id) and the bot's (no player), in turn,
    each with the pegs it earned, then a give-up or a timeout if the game ended that way."""

    kind: ClassVar[str] = KIND
    owner_ends_only: ClassVar[bool] = True

    theirs: Secret
    """The player's secret, which the bot cracks: hidden like the bot's until the game ends."""
    strategy: str
    """The bot's way of guessing (the opponent the player chose)."""

    def _derive(self) -> Derived:
        if (end := core.ending(self.log)) is not None:
            return Derived(Status.ABANDONED, ended_by=end.player_id)
        pegs = self.variant.pegs
        player, bot = self.player_moves, self.bot_moves
        player_cracked = next((n for n, m in enumerate(player, 1) if m.black == pegs), None)
        bot_cracked = next((n for n, m in enumerate(bot, 1) if m.black == pegs), None)
        if len(bot) == len(player):  # a round is complete: the player is to guess
            if player_cracked is not None:
                if bot_cracked == player_cracked:
                    return Derived(Status.DRAW)
                return Derived(Status.WON, winner_id=self.starter_id)
            if bot_cracked is not None:
                return Derived(Status.LOST)
        elif player_cracked is None and len(player) >= self.variant.max_guesses:
            return Derived(Status.LOST)  # the player's guesses ran out
        return Derived(Status.ACTIVE)

    @cached_property
    def player_moves(self) -> tuple[Move, ...]:
        """The player's scored guesses at the bot's secret, in order."""
        return tuple(m for m in self.log if m.kind is MoveKind.GUESS and m.player_id is not None)

    @cached_property
    def bot_moves(self) -> tuple[Move, ...]:
        """The bot's scored guesses at the player's secret, in order."""
        return tuple(m for m in self.log if m.kind is MoveKind.GUESS and m.player_id is None)

    @property
    def turn(self) -> Turn | None:
        """Whose guess comes next; None once the game is over."""
        if self.is_over:
            return None
        return Turn.PLAYER if len(self.player_moves) == len(self.bot_moves) else Turn.BOT

    @property
    def guesses_left(self) -> int:
        """The player's guesses left."""
        return 0 if self.is_over else self.variant.max_guesses - len(self.player_moves)

    @property
    def bot_clues(self) -> tuple[Clue, ...]:
        """The bot's guesses with their pegs: all the solver is ever told."""
        return clues(self.bot_moves)

    def clues_for(self, player_id: int) -> tuple[Clue, ...]:
        """The player's own guesses with their pegs: what hard mode checks, hints and the
        review read (anyone's review of a duel covers the player's guesses)."""
        return clues(self.player_moves)

    @property
    def revealed_theirs(self) -> Code | None:
        """The player's secret once the game is over (for the final board), else None."""
        return self.theirs.reveal() if self.is_over and self.theirs.known else None

    def withheld(self) -> Self:
        if not (self.secret.known or self.theirs.known):
            return self
        return replace(self, secret=Secret.withheld(), theirs=Secret.withheld())

    def _shown(self) -> tuple[tuple[str, object], ...]:
        return (
            ("strategy", self.strategy),
            ("hard", self.hard),
            ("status", self.status.value),
            ("guesses", f"{len(self.player_moves)}:{len(self.bot_moves)}"),
        )


def as_duel(game: core.Game) -> DuelGame:
    """`game` as a duel, or NotADuel."""
    return core.require(game, DuelGame, NotADuel)


def check_secret(variant: Variant, code: Code | str) -> Code:
    """The player's secret as a code of `variant` (text parsed, a tuple validated), or BadSecret."""
    try:
        return parse_guess(variant, code)
    except InvalidGuess as error:
        raise BadSecret(error.reason, error.pegs or variant.pegs) from None


def new_duel_game(
    *,
    theirs: Code | str,
    variant: Variant | None = None,
    strategy: str = "knuth",
    hard: bool = False,
    secret: Code | None = None,
    reach: Reach = Reach.CHANNEL,
    **header: Unpack[Header],
) -> DuelGame:
    """A duel on the player's secret `theirs` (checked: BadSecret), against the bot's secret,
    drawn with `secrets` unless one is given (tests). The player guesses first."""
    variant = variant or Variant()
    code = check_secret(variant, theirs)
    return DuelGame(
        **header,
        variant=variant,
        secret=draw_secret(variant, secret),
        theirs=Secret(code),
        strategy=strategy,
        hard=hard,
        reach=reach,
    )


def check_guess(game: core.Game, player_id: int, code: Code | str) -> Code:
    """The player's guess at the bot's secret, checked without the secret (so a game loaded for
    display can be asked before any work): only the starter, only in their turn, a code of the
    variant, and in hard mode only one that fits their answers so far."""
    game = as_duel(game)
    core.require_active(game)
    if player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    if game.turn is not Turn.PLAYER:
        raise NotYourTurn(Turn.BOT)
    parsed = parse_guess(game.variant, code)
    if game.hard and (broken := first_broken_clue(game.clues_for(player_id), parsed)) is not None:
        raise BreaksAClue(broken)
    return parsed


def guess(game: core.Game, player_id: int, code: Code | str) -> tuple[DuelGame, DuelOutcome]:
    """The player's guess, scored against the bot's secret (`check_guess` says what is
    refused)."""
    parsed = check_guess(game, player_id, code)
    game = as_duel(game)
    black, white = game.secret.score(parsed)
    move = Move(MoveKind.GUESS, player_id, parsed, black, white)
    new = core.append(game, move)
    return new, DuelOutcome(move, len(new.player_moves), new.status, new.turn)


def bot_guess(game: core.Game, code: Code) -> tuple[DuelGame, DuelOutcome]:
    """The bot's guess at the player's secret, scored against the secret the player set."""
    game = as_duel(game)
    core.require_active(game)
    if game.turn is not Turn.BOT:
        raise NotYourTurn(Turn.PLAYER)
    try:
        parsed = game.variant.space.validate(code)
    except CodeError as error:
        raise InvalidGuess(error) from None
    black, white = game.theirs.score(parsed)
    move = Move(MoveKind.GUESS, None, parsed, black, white)
    new = core.append(game, move)
    return new, DuelOutcome(move, len(new.bot_moves), new.status, new.turn)


def play_round(
    game: core.Game, player_id: int, code: Code | str, reply: Code
) -> tuple[DuelGame, tuple[DuelOutcome, ...]]:
    """One round: the player's guess, then the bot's `reply` (worked out by the solver
    beforehand, from the bot's own guesses) if the game still owes the bot its turn; a guess
    that ends the duel (the player's last, missed) leaves `reply` unused."""
    new, outcome = guess(game, player_id, code)
    if new.turn is not Turn.BOT:
        return new, (outcome,)
    after, answered = bot_guess(new, reply)
    return after, (outcome, answered)


def hint(game: core.Game, player_id: int) -> tuple[DuelGame, HintOutcome]:
    """The player asks for a hint on the bot's code (only the duel's player): worked out from
    their own guesses and pegs (`clues_for`), recorded by `bot.engine.game.ask_hint`."""
    game = as_duel(game)
    core.require_active(game)
    if player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    return core.ask_hint(game, player_id)
