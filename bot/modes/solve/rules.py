"""The solve mode's rules: the player holds a code in their head; the bot guesses and the
player answers with black and white pegs, and may take an answer back.

Pure, on the engine core. The bot's guesses come from the solver (run by the mode's actions
before the transition), so a transition only records them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Unpack

from bot.engine import errors
from bot.engine import game as core
from bot.engine.codes import Code, CodeError
from bot.engine.game import Derived, Move, MoveKind, Reach, Status, Variant
from bot.modes.common.rules import Header

KIND = "solve"
"""The solve mode's registered name: its games' `kind` in the store and in the registry."""


class NoGuessToAnswer(errors.GameError, code="no-guess-to-answer"):
    """Every guess is answered and no code fits the answers: the player must undo one."""


class NothingToUndo(errors.GameError, code="nothing-to-undo"):
    """An undo before the first answer."""


class NotASolveGame(errors.WrongGameKind, code="not-a-solve-game"):
    """A solve input (`tried`: an answer or an undo) on a game where the player guesses the
    bot's code: there is nothing of theirs to answer or take back."""

    def __init__(self, tried: MoveKind) -> None:
        super().__init__(tried)
        self.tried = tried


@dataclass(frozen=True)
class AnswerOutcome:
    answer: tuple[int, int]
    number: int  # which guess was answered
    status: Status  # ACTIVE or SOLVED
    next_guess: Code | None  # None and ACTIVE: stuck, the answers contradict each other

    @property
    def stuck(self) -> bool:
        return self.status is Status.ACTIVE and self.next_guess is None


@dataclass(frozen=True)
class UndoOutcome:
    undone: tuple[int, int]  # the answer taken back
    dropped_guess: Code | None  # the guess made after it, if there was one
    awaiting: Code  # the guess now waiting for an answer again


@dataclass(frozen=True, kw_only=True, repr=False)
class SolveGame(core.BaseGame):
    """The player holds a code in their head; the bot guesses and the player answers."""

    kind: ClassVar[str] = KIND

    strategy: str

    def _derive(self) -> Derived:
        guesses: list[Code] = []
        answers: list[tuple[int, int]] = []
        for move in self.log:
            if move.kind is MoveKind.GUESS and move.code is not None:
                guesses.append(move.code)
            elif move.kind is MoveKind.ANSWER and move.black is not None and move.white is not None:
                answers.append((move.black, move.white))
            elif move.kind is MoveKind.UNDO:
                stuck = len(guesses) == len(answers)
                answers.pop()
                if not stuck:
                    guesses.pop()
        if (end := core.ending(self.log)) is not None:
            status, ended_by = Status.ABANDONED, end.player_id
        elif answers and answers[-1][0] == self.variant.pegs:
            status, ended_by = Status.SOLVED, None
        else:
            status, ended_by = Status.ACTIVE, None
        return Derived(status, ended_by=ended_by, guesses=tuple(guesses), answers=tuple(answers))

    @property
    def guesses(self) -> tuple[Code, ...]:
        return self._derived.guesses

    @property
    def answers(self) -> tuple[tuple[int, int], ...]:
        return self._derived.answers

    @property
    def awaiting_answer(self) -> bool:
        """The last guess waits for the player's answer."""
        return not self.is_over and len(self.guesses) > len(self.answers)

    @property
    def is_stuck(self) -> bool:
        """Every guess is answered but no code fits the answers: the player must undo."""
        return not self.is_over and len(self.guesses) == len(self.answers)

    @property
    def current_guess(self) -> Code | None:
        return self.guesses[-1] if self.awaiting_answer else None

    def __repr__(self) -> str:
        return (
            f"SolveGame(id={self.id}, guild_id={self.guild_id}, channel_id={self.channel_id}, "
            f"starter_id={self.starter_id}, variant={self.variant}, "
            f"strategy={self.strategy!r}, status={self.status.value}, "
            f"guesses={len(self.guesses)}, version={self.version})"
        )


def new_solve_game(
    *,
    first_guess: Code,
    variant: Variant | None = None,
    strategy: str = "knuth",
    reach: Reach = Reach.CHANNEL,
    **header: Unpack[Header],
) -> SolveGame:
    """A fresh solve game with the bot's opening guess already on the board."""
    variant = variant or Variant()
    opening = _bot_guess(variant, first_guess)
    return SolveGame(**header, variant=variant, strategy=strategy, log=(opening,), reach=reach)


def answer(
    game: core.Game, player_id: int, black: int, white: int, next_guess: Code | None
) -> tuple[SolveGame, AnswerOutcome]:
    """Record the player's answer to the waiting guess and the bot's next guess.

    `next_guess` is the solver's reply to this answer; None means no code fits the answers
    so far, so the game is stuck until the player undoes one. After an all-black answer the
    game is solved and `next_guess` is ignored.
    """
    game = core.require(game, SolveGame, lambda: NotASolveGame(MoveKind.ANSWER))
    core.require_active(game)
    _require_starter(game, player_id)
    if not game.awaiting_answer:
        raise NoGuessToAnswer()
    try:
        game.variant.space.check_answer(black, white)
    except CodeError as error:
        raise errors.ImpossibleAnswer(error, black, white) from None
    moves = [Move(MoveKind.ANSWER, player_id, black=black, white=white)]
    solved = black == game.variant.pegs
    if not solved and next_guess is not None:
        moves.append(_bot_guess(game.variant, next_guess))
    new = core.append(game, *moves)
    outcome = AnswerOutcome(
        answer=(black, white),
        number=len(game.guesses),
        status=new.status,
        next_guess=new.current_guess,
    )
    return new, outcome


def undo(game: core.Game, player_id: int) -> tuple[SolveGame, UndoOutcome]:
    """Take back the last answer (and the guess the bot made from it, if any)."""
    game = core.require(game, SolveGame, lambda: NotASolveGame(MoveKind.UNDO))
    core.require_active(game)
    _require_starter(game, player_id)
    if not game.answers:
        raise NothingToUndo()
    new = core.append(game, Move(MoveKind.UNDO, player_id))
    awaiting = new.current_guess
    assert awaiting is not None  # after an undo the last remaining guess always waits
    outcome = UndoOutcome(
        undone=game.answers[-1],
        dropped_guess=None if game.is_stuck else game.guesses[-1],
        awaiting=awaiting,
    )
    return new, outcome


def _require_starter(game: SolveGame, player_id: int) -> None:
    if player_id != game.starter_id:
        raise errors.NotYourGame(game.starter_id, reason=errors.OwnerReason.THEIR_CODE)


def _bot_guess(variant: Variant, code: Code) -> Move:
    try:
        return Move(MoveKind.GUESS, None, variant.space.validate(code))
    except CodeError as error:
        raise errors.InvalidGuess(error) from None
