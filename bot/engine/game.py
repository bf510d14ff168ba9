"""Game state machines: a play game (the bot hides a code), a solve game (the bot guesses) and
a race (several players crack one hidden code, each on their own).

Pure: no I/O, no clock, no chat markup; randomness only to draw a new secret. A game is a header
(where, who, which variant) plus an append-only log of moves. Status, winner, guesses and answers
are all derived from the log, so a store persists exactly the header and one row per move (its
record codec lives in `bot.store.codec`), and every transition is "check the rules, append
moves". Each transition returns the new game and an outcome for the UI, or raises a `GameError`
(see `bot.engine.errors`) whose message a player can act on.

A play game's secret lives in a `Secret` wrapper that no repr, str or f-string reveals; the store
hands out active games with the secret withheld, so only the scoring path ever reads it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property
from typing import ClassVar, TypeVar

from bot.engine.codes import Code, CodeError, CodeSpace
from bot.engine.errors import (
    AlreadyJoined,
    BreaksAClue,
    DailyAlreadyPlayed,
    GameAlreadyActive,
    GameError,
    GameOver,
    ImpossibleAnswer,
    InvalidGuess,
    InvalidVariant,
    NoActiveGame,
    NoGuessToAnswer,
    NothingToUndo,
    NotInRace,
    NotYourGame,
    OwnerReason,
    RaceFinished,
    RaceFull,
    RaceNotStarted,
    RaceStarted,
    SecretWithheld,
    StaleGame,
    WrongGameKind,
)
from bot.engine.hard import Clue, first_broken_clue
from bot.engine.scoring import score

__all__ = [  # the errors are re-exported: `from bot.engine.game import GameError` keeps working
    "MAX_GUESSES",
    "MAX_RACERS",
    "MIN_GUESSES",
    "AnswerOutcome",
    "BaseGame",
    "BreaksAClue",
    "DailyAlreadyPlayed",
    "DailyGame",
    "EndOutcome",
    "G",
    "Game",
    "GameAlreadyActive",
    "GameError",
    "GameKind",
    "GameOver",
    "GuessOutcome",
    "HintOutcome",
    "ImpossibleAnswer",
    "InvalidGuess",
    "InvalidVariant",
    "LobbyOutcome",
    "Move",
    "MoveKind",
    "NoActiveGame",
    "NoGuessToAnswer",
    "NotYourGame",
    "NothingToUndo",
    "Outcome",
    "OwnerReason",
    "Placing",
    "PlayGame",
    "RaceGame",
    "Reach",
    "Secret",
    "SecretWithheld",
    "SolveGame",
    "StaleGame",
    "Status",
    "UndoOutcome",
    "Variant",
    "WrongGameKind",
    "answer",
    "clock_move",
    "expire",
    "give_up",
    "guess",
    "hint",
    "join",
    "new_daily_game",
    "new_play_game",
    "new_race_game",
    "new_solve_game",
    "race_guess",
    "start_race",
    "undo",
]

MIN_GUESSES, MAX_GUESSES = 1, 20


class Status(StrEnum):
    ACTIVE = "active"
    WON = "won"  # play: a player found the secret
    LOST = "lost"  # play: out of guesses
    SOLVED = "solved"  # solve: the bot found the player's code
    ABANDONED = "abandoned"  # given up or timed out


class GameKind(StrEnum):
    PLAY = "play"
    SOLVE = "solve"
    DAILY = "daily"  # a play game on the day's shared secret, one per player and day
    RACE = "race"  # several players crack one secret, each on their own


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
    JOIN = "join"  # a player joined a race's lobby
    START = "start"  # the race began: no more joining, guessing opens


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
            raise InvalidVariant(str(error)) from None
        if not MIN_GUESSES <= self.max_guesses <= MAX_GUESSES:
            raise InvalidVariant(
                f"A game allows {MIN_GUESSES} to {MAX_GUESSES} guesses, not {self.max_guesses}."
            )
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
    status: Status  # ACTIVE, WON or LOST (a race: the guessing player's own, see race_guess)
    secret: Code | None  # revealed once the game is over


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


@dataclass(frozen=True)
class HintOutcome:
    level: int  # 1: how many codes are left; 2 (a second press before the next guess): a code
    hints: int  # hints asked for in this game so far, this one included


@dataclass(frozen=True)
class EndOutcome:
    reason: MoveKind  # GIVE_UP or TIMEOUT
    by: int | None  # who gave up; None for a timeout
    secret: Code | None  # a play game's secret; None for solve games


Outcome = GuessOutcome | AnswerOutcome | UndoOutcome | HintOutcome | EndOutcome


# --- games -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Derived:
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

    kind: ClassVar[GameKind]

    guild_id: int | None
    channel_id: int
    starter_id: int
    variant: Variant
    log: tuple[Move, ...] = ()
    id: int | None = None
    reach: Reach = Reach.CHANNEL

    def _derive(self) -> _Derived:
        raise NotImplementedError

    @cached_property
    def _derived(self) -> _Derived:
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


def _ending(log: tuple[Move, ...]) -> Move | None:
    """The move that abandoned the game (a give-up or a timeout), if the log ends with one."""
    last = log[-1] if log else None
    return last if last is not None and last.kind in (MoveKind.GIVE_UP, MoveKind.TIMEOUT) else None


@dataclass(frozen=True, kw_only=True, repr=False)
class PlayGame(BaseGame):
    """The bot holds the secret; players in the channel (or only the starter, solo) guess it."""

    kind: ClassVar[GameKind] = GameKind.PLAY

    secret: Secret
    solo: bool = False
    hard: bool = False  # every guess must fit every answer so far

    def _derive(self) -> _Derived:
        if (ending := _ending(self.log)) is not None:
            return _Derived(Status.ABANDONED, ended_by=ending.player_id)
        last = self.moves[-1] if self.moves else None
        if last is not None and last.black == self.variant.pegs:
            return _Derived(Status.WON, winner_id=last.player_id)
        if len(self.moves) >= self.variant.max_guesses:
            return _Derived(Status.LOST)
        return _Derived(Status.ACTIVE)

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

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(id={self.id}, guild_id={self.guild_id}, "
            f"channel_id={self.channel_id}, starter_id={self.starter_id}, "
            f"variant={self.variant}, solo={self.solo}, hard={self.hard}, "
            f"status={self.status.value}, guesses={len(self.moves)}, version={self.version}, "
            f"secret=<hidden>)"
        )


@dataclass(frozen=True, kw_only=True, repr=False)
class DailyGame(PlayGame):
    """One player's game on the day's shared secret (`puzzle` numbers the UTC day); played
    privately, once per player and day."""

    kind: ClassVar[GameKind] = GameKind.DAILY

    puzzle: int
    solo: bool = True
    reach: Reach = Reach.PRIVATE


@dataclass(frozen=True, kw_only=True, repr=False)
class SolveGame(BaseGame):
    """The player holds a code in their head; the bot guesses and the player answers."""

    kind: ClassVar[GameKind] = GameKind.SOLVE

    strategy: str

    def _derive(self) -> _Derived:
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
        if (ending := _ending(self.log)) is not None:
            status, ended_by = Status.ABANDONED, ending.player_id
        elif answers and answers[-1][0] == self.variant.pegs:
            status, ended_by = Status.SOLVED, None
        else:
            status, ended_by = Status.ACTIVE, None
        return _Derived(status, ended_by=ended_by, guesses=tuple(guesses), answers=tuple(answers))

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


MAX_RACERS = 10
"""Players in one race: each gets a block on the channel's race board, which must fit one embed."""


@dataclass(frozen=True)
class Placing:
    """One line of a race's ranking: a player who cracked the secret has a place (by guesses,
    then by who finished first); one who did not has none and comes after."""

    player_id: int
    guesses: int
    cracked: bool
    place: int | None


@dataclass(frozen=True, kw_only=True, repr=False)
class RaceGame(BaseGame):
    """Several players crack the same secret, each on their own, in one append-only log.

    The lobby is the JOIN moves (the starter's is the first); START (by the starter, or by the
    clock: no player) opens guessing; then each player's GUESS moves, interleaved in the order
    they were made. Log order is time order, so the first to crack is the winner, and a
    player's place among those who cracked it is by their guesses, then by who finished first.
    The race ends when every player has cracked it or run out of guesses, by the clock's
    TIMEOUT once `race_until` is past, or given up (abandoned; a winner stays the winner).

    The two deadlines are header data (unix seconds) fixed when the lobby opens: the lobby
    closes at `lobby_until` and the race ends at `race_until`, so the engine needs no clock and
    a restarted bot knows both. The bot's clock asks `clock_move` what is due.
    """

    kind: ClassVar[GameKind] = GameKind.RACE

    secret: Secret
    hard: bool = False  # each guess must fit every answer that player has had
    lobby_until: int
    race_until: int

    def _derive(self) -> _Derived:
        winner = next((p for p in self.finishers if self.cracked(p)), None)
        ending = _ending(self.log)
        if ending is not None and ending.kind is MoveKind.GIVE_UP:
            return _Derived(Status.ABANDONED, winner_id=winner, ended_by=ending.player_id)
        if ending is not None or (self.started and len(self.finishers) == len(self.players)):
            return _Derived(Status.WON if winner is not None else Status.LOST, winner_id=winner)
        return _Derived(Status.ACTIVE, winner_id=winner)

    @cached_property
    def players(self) -> tuple[int, ...]:
        """Everyone who joined, in the order they joined (the starter first)."""
        joined = (m.player_id for m in self.log if m.kind is MoveKind.JOIN)
        return tuple(dict.fromkeys(p for p in joined if p is not None))

    @cached_property
    def started(self) -> bool:
        return any(move.kind is MoveKind.START for move in self.log)

    @cached_property
    def _runs(self) -> dict[int, tuple[Move, ...]]:
        runs: dict[int, list[Move]] = {player: [] for player in self.players}
        for move in self.log:
            if move.kind is MoveKind.GUESS and move.player_id in runs:
                runs[move.player_id].append(move)
        return {player: tuple(moves) for player, moves in runs.items()}

    @cached_property
    def finishers(self) -> tuple[int, ...]:
        """Players who are done (cracked it, or out of guesses), in the order they finished."""
        done: list[int] = []
        made: dict[int, int] = {}
        for move in self.log:
            if move.kind is not MoveKind.GUESS or move.player_id is None:
                continue
            player = move.player_id
            made[player] = made.get(player, 0) + 1
            if move.black == self.variant.pegs or made[player] >= self.variant.max_guesses:
                done.append(player)
        return tuple(done)

    def guesses_of(self, player_id: int) -> tuple[Move, ...]:
        """One player's scored guesses, in order (none for someone who did not join)."""
        return self._runs.get(player_id, ())

    def cracked(self, player_id: int) -> bool:
        moves = self.guesses_of(player_id)
        return bool(moves) and moves[-1].black == self.variant.pegs

    def finished(self, player_id: int) -> bool:
        return player_id in self.finishers

    def guesses_left_for(self, player_id: int) -> int:
        if self.is_over or self.finished(player_id) or player_id not in self.players:
            return 0
        return self.variant.max_guesses - len(self.guesses_of(player_id))

    def clues_for(self, player_id: int) -> tuple[Clue, ...]:
        """A player's own clues: in a race nobody sees anyone else's colours."""
        return tuple(
            (move.code, (move.black, move.white))
            for move in self.guesses_of(player_id)
            if move.code is not None and move.black is not None and move.white is not None
        )

    @cached_property
    def ranking(self) -> tuple[Placing, ...]:
        """Those who cracked it by guesses, then by who finished first; then everyone else,
        in the order they joined."""
        order = {player: n for n, player in enumerate(self.finishers)}
        cracked = sorted(
            (p for p in self.players if self.cracked(p)),
            key=lambda p: (len(self.guesses_of(p)), order[p]),
        )
        placed = [
            Placing(p, len(self.guesses_of(p)), True, place)
            for place, p in enumerate(cracked, start=1)
        ]
        rest = [
            Placing(p, len(self.guesses_of(p)), False, None)
            for p in self.players
            if not self.cracked(p)
        ]
        return (*placed, *rest)

    @property
    def timed_out(self) -> bool:
        """The clock ended it (its time limit, or nobody moved for too long)."""
        ending = _ending(self.log)
        return ending is not None and ending.kind is MoveKind.TIMEOUT

    @property
    def next_deadline(self) -> int | None:
        """When the clock has something to do next (unix seconds); None once it is over."""
        if self.is_over:
            return None
        return self.race_until if self.started else self.lobby_until

    @property
    def revealed_secret(self) -> Code | None:
        """The secret once the race is over (for the final board), else None."""
        return self.secret.reveal() if self.is_over and self.secret.known else None

    def __repr__(self) -> str:
        return (
            f"RaceGame(id={self.id}, guild_id={self.guild_id}, channel_id={self.channel_id}, "
            f"starter_id={self.starter_id}, variant={self.variant}, hard={self.hard}, "
            f"players={len(self.players)}, started={self.started}, "
            f"status={self.status.value}, version={self.version}, secret=<hidden>)"
        )


Game = PlayGame | SolveGame | RaceGame
G = TypeVar("G", bound=Game)


# --- play transitions --------------------------------------------------------------------------


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
    space = variant.space
    code = space.code_at(secrets.randbelow(space.size)) if secret is None else secret
    return PlayGame(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=starter_id,
        variant=variant,
        secret=Secret(space.validate(code)),
        solo=solo,
        hard=hard,
        reach=reach,
    )


def new_daily_game(
    *,
    guild_id: int | None,
    channel_id: int,
    player_id: int,
    puzzle: int,
    secret: Code,
    hard: bool = False,
) -> DailyGame:
    """A player's game on day `puzzle`'s shared secret (see `bot.engine.daily`): classic rules."""
    variant = Variant()
    return DailyGame(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=player_id,
        variant=variant,
        secret=Secret(variant.space.validate(secret)),
        puzzle=puzzle,
        hard=hard,
    )


def guess(game: Game, player_id: int, code: Code | str) -> tuple[PlayGame | RaceGame, GuessOutcome]:
    """Score one guess. Text is parsed; a tuple is validated against the variant.

    A race game is scored by the race's rules (`race_guess`): the same call serves every kind
    of game where players guess the bot's code.
    """
    if isinstance(game, RaceGame):
        return race_guess(game, player_id, code)
    game = _require(game, PlayGame, "In this game I guess your code: answer my guesses instead.")
    _require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    parsed = _parse(game.variant, code)
    if game.hard and (broken := first_broken_clue(game.clues, parsed)) is not None:
        raise BreaksAClue(broken)
    black, white = game.secret.score(parsed)
    move = Move(MoveKind.GUESS, player_id, parsed, black, white)
    new = replace(game, log=(*game.log, move))
    outcome = GuessOutcome(
        move=move,
        number=len(new.moves),
        guesses_left=new.guesses_left,
        status=new.status,
        secret=new.revealed_secret,
    )
    return new, outcome


def hint(game: Game, player_id: int) -> tuple[PlayGame, HintOutcome]:
    """Record that a player asked for a hint. The first since the last guess is level 1 (how
    many codes are left); a second one is level 2 (a code worth guessing)."""
    game = _require(game, PlayGame, "Hints are for games where you guess my code.")
    _require_active(game)
    if game.solo and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.SOLO)
    since_guess = 0
    for move in reversed(game.log):
        if move.kind is MoveKind.GUESS:
            break
        since_guess += move.kind is MoveKind.HINT
    new = replace(game, log=(*game.log, Move(MoveKind.HINT, player_id)))
    return new, HintOutcome(level=1 if since_guess == 0 else 2, hints=new.hints)


# --- solve transitions -------------------------------------------------------------------------


def new_solve_game(
    *,
    guild_id: int | None,
    channel_id: int,
    starter_id: int,
    first_guess: Code,
    variant: Variant | None = None,
    strategy: str = "knuth",
    reach: Reach = Reach.CHANNEL,
) -> SolveGame:
    """A fresh solve game with the bot's opening guess already on the board."""
    variant = variant or Variant()
    opening = _bot_guess(variant, first_guess)
    return SolveGame(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=starter_id,
        variant=variant,
        strategy=strategy,
        log=(opening,),
        reach=reach,
    )


def answer(
    game: Game, player_id: int, black: int, white: int, next_guess: Code | None
) -> tuple[SolveGame, AnswerOutcome]:
    """Record the player's answer to the waiting guess and the bot's next guess.

    `next_guess` is the solver's reply to this answer; None means no code fits the answers
    so far, so the game is stuck until the player undoes one. After an all-black answer the
    game is solved and `next_guess` is ignored.
    """
    game = _require(game, SolveGame, "In this game you guess my code: there is nothing to answer.")
    _require_active(game)
    _require_starter(game, player_id)
    if not game.awaiting_answer:
        raise NoGuessToAnswer()
    try:
        game.variant.space.check_answer(black, white)
    except CodeError as error:
        raise ImpossibleAnswer(str(error)) from None
    moves = [Move(MoveKind.ANSWER, player_id, black=black, white=white)]
    solved = black == game.variant.pegs
    if not solved and next_guess is not None:
        moves.append(_bot_guess(game.variant, next_guess))
    new = replace(game, log=(*game.log, *moves))
    outcome = AnswerOutcome(
        answer=(black, white),
        number=len(game.guesses),
        status=new.status,
        next_guess=new.current_guess,
    )
    return new, outcome


def undo(game: Game, player_id: int) -> tuple[SolveGame, UndoOutcome]:
    """Take back the last answer (and the guess the bot made from it, if any)."""
    game = _require(game, SolveGame, "In this game you guess my code: there is nothing to undo.")
    _require_active(game)
    _require_starter(game, player_id)
    if not game.answers:
        raise NothingToUndo()
    new = replace(game, log=(*game.log, Move(MoveKind.UNDO, player_id)))
    awaiting = new.current_guess
    assert awaiting is not None  # after an undo the last remaining guess always waits
    outcome = UndoOutcome(
        undone=game.answers[-1],
        dropped_guess=None if game.is_stuck else game.guesses[-1],
        awaiting=awaiting,
    )
    return new, outcome


# --- endings for both kinds --------------------------------------------------------------------


def give_up(game: Game, player_id: int) -> tuple[Game, EndOutcome]:
    """End the game at a player's request; who may do so is the bot's decision."""
    return _end(game, Move(MoveKind.GIVE_UP, player_id))


def expire(game: Game) -> tuple[Game, EndOutcome]:
    """End a game nobody has touched for too long."""
    return _end(game, Move(MoveKind.TIMEOUT))


def _end(game: Game, move: Move) -> tuple[Game, EndOutcome]:
    _require_active(game)
    new = replace(game, log=(*game.log, move))
    secret = new.revealed_secret if isinstance(new, PlayGame | RaceGame) else None
    return new, EndOutcome(reason=move.kind, by=move.player_id, secret=secret)


# --- helpers -----------------------------------------------------------------------------------


def _require(game: Game, kind: type[G], message: str) -> G:
    if not isinstance(game, kind):
        raise WrongGameKind(message)
    return game


def _require_active(game: Game) -> None:
    if game.is_over:
        raise GameOver()


def _require_starter(game: SolveGame, player_id: int) -> None:
    if player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.THEIR_CODE)


def _parse(variant: Variant, code: Code | str) -> Code:
    """A guess as a code of this variant: text parsed, a tuple validated."""
    space = variant.space
    try:
        return space.parse(code) if isinstance(code, str) else space.validate(code)
    except CodeError as error:
        raise InvalidGuess(str(error)) from None
    except (TypeError, ValueError):
        raise InvalidGuess(f"Write a code of {space.pegs} colours.") from None


def _bot_guess(variant: Variant, code: Code) -> Move:
    try:
        return Move(MoveKind.GUESS, None, variant.space.validate(code))
    except CodeError as error:
        raise InvalidGuess(str(error)) from None


# --- race transitions --------------------------------------------------------------------------


@dataclass(frozen=True)
class LobbyOutcome:
    """A player joined, or the race started (`move.player_id` None: the clock started it)."""

    move: Move
    players: tuple[int, ...]


def new_race_game(
    *,
    guild_id: int | None,
    channel_id: int,
    starter_id: int,
    opened_at: int,
    join_seconds: int,
    time_limit: int,
    variant: Variant | None = None,
    hard: bool = False,
    secret: Code | None = None,
) -> RaceGame:
    """A race's lobby, opened at `opened_at` (unix seconds) with its starter in it. Guessing
    opens when the starter starts it or `join_seconds` later; the race ends `time_limit`
    seconds after the lobby was due to close (a race started early gets that time as well)."""
    if join_seconds < 0 or time_limit < 1:
        raise InvalidVariant("A race needs a join window of 0 s or more and a time limit.")
    variant = variant or Variant()
    space = variant.space
    code = space.code_at(secrets.randbelow(space.size)) if secret is None else secret
    return RaceGame(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=starter_id,
        variant=variant,
        secret=Secret(space.validate(code)),
        hard=hard,
        lobby_until=opened_at + join_seconds,
        race_until=opened_at + join_seconds + time_limit,
        log=(Move(MoveKind.JOIN, starter_id),),
    )


_NOT_A_RACE = "That belongs to a race; this game is not one."


def join(game: Game, player_id: int) -> tuple[RaceGame, LobbyOutcome]:
    """A player enters the lobby: only before the start, once, and while there is room."""
    game = _require(game, RaceGame, _NOT_A_RACE)
    _require_active(game)
    if game.started:
        raise RaceStarted()
    if player_id in game.players:
        raise AlreadyJoined()
    if len(game.players) >= MAX_RACERS:
        raise RaceFull()
    move = Move(MoveKind.JOIN, player_id)
    new = replace(game, log=(*game.log, move))
    return new, LobbyOutcome(move, new.players)


def start_race(game: Game, player_id: int | None) -> tuple[RaceGame, LobbyOutcome]:
    """Open guessing: by the starter (`player_id`), or by the clock (None) once the lobby's
    time is up, which is the bot's to decide (`clock_move`)."""
    game = _require(game, RaceGame, _NOT_A_RACE)
    _require_active(game)
    if game.started:
        raise RaceStarted()
    if player_id is not None and player_id != game.starter_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.START)
    move = Move(MoveKind.START, player_id)
    new = replace(game, log=(*game.log, move))
    return new, LobbyOutcome(move, new.players)


def race_guess(
    game: Game, player_id: int, code: Code | str, *, after: int | None = None
) -> tuple[RaceGame, GuessOutcome]:
    """Score one racer's guess against the shared secret. `after`: how many guesses the
    player's board showed; a guess made from an older board is refused (StaleGame).

    The outcome speaks for the player: `number` and `guesses_left` are theirs, `status` is WON
    once they cracked it and LOST once they are out of guesses, and `secret` shows only when
    the whole race is over.
    """
    game = _require(game, RaceGame, _NOT_A_RACE)
    _require_active(game)
    if not game.started:
        raise RaceNotStarted()
    if player_id not in game.players:
        raise NotInRace()
    if game.finished(player_id):
        raise RaceFinished()
    made = len(game.guesses_of(player_id))
    if after is not None and after != made:
        raise StaleGame()
    parsed = _parse(game.variant, code)
    if game.hard and (broken := first_broken_clue(game.clues_for(player_id), parsed)) is not None:
        raise BreaksAClue(broken)
    black, white = game.secret.score(parsed)
    move = Move(MoveKind.GUESS, player_id, parsed, black, white)
    new = replace(game, log=(*game.log, move))
    if new.cracked(player_id):
        status = Status.WON
    elif new.finished(player_id):
        status = Status.LOST
    else:
        status = Status.ACTIVE
    outcome = GuessOutcome(
        move=move,
        number=made + 1,
        guesses_left=new.guesses_left_for(player_id),
        status=status,
        secret=new.revealed_secret,
    )
    return new, outcome


def clock_move(game: Game, now: float) -> MoveKind | None:
    """What the clock must do to a race at `now` (unix seconds): START once its lobby's time is
    up, TIMEOUT once the race's is; None when nothing is due (or it is not a running race)."""
    if not isinstance(game, RaceGame) or game.is_over:
        return None
    if not game.started:
        return MoveKind.START if now >= game.lobby_until else None
    return MoveKind.TIMEOUT if now >= game.race_until else None
