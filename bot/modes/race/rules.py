"""The race mode's rules: several players crack one hidden code, each on their own board.

Pure, on the engine core. A race's deadlines are header data fixed when its lobby opens, so
the rules need no clock of their own: the caller says what time it is (`now`, unix seconds).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Unpack

from bot.engine import game as core
from bot.engine.codes import Code
from bot.engine.errors import (
    GameError,
    InvalidVariant,
    NotYourGame,
    OwnerReason,
    StaleGame,
    WrongGameKind,
)
from bot.engine.game import Derived, GuessOutcome, Move, MoveKind, Status, Variant
from bot.engine.hard import Clue
from bot.modes.common.rules import Header, SecretGame, clues, on_secret, scored

KIND = "race"
"""The race mode's registered name: its games' `kind` in the store and in the registry."""


class NotInRace(GameError, code="not-in-race"):
    """A racer's move by a player who did not join while the lobby was open."""


class AlreadyJoined(GameError, code="already-joined"):
    """A second join by the same player: each racer has one board."""


class RaceFull(GameError, code="race-full"):
    """A join once `MAX_RACERS` are in: the board has a block per racer, within one embed."""


class RaceNotStarted(GameError, code="race-not-started"):
    """A guess while the lobby is still open."""


class RaceStarted(GameError, code="race-started"):
    """A join or a start once guessing has opened: everyone starts together."""


class NotTheStarter(NotYourGame, code="not-the-starter"):
    """Only the race's starter may start it before its lobby closes."""

    def __init__(self, owner_id: int) -> None:
        super().__init__(owner_id, reason=OwnerReason.START)


class RaceFinished(GameError, code="race-finished"):
    """The player cracked the secret or ran out of guesses; the others race on."""


class Closed(GameError):
    """A move that came after its window closed, at `closed_at` (unix seconds)."""

    def __init__(self, closed_at: int) -> None:
        self.closed_at = closed_at
        super().__init__(closed_at)


class LobbyClosed(Closed, code="lobby-closed"):
    """A join after the lobby's time was up, even if the clock has not started the race yet."""


class TimeIsUp(Closed, code="race-time-up"):
    """A racer's guess after the race's time limit, even if the clock has not ended it yet."""


class NotARace(WrongGameKind, code="not-a-race"):
    """A race's input (join, start, a racer's guess) on a game that is not a race."""


class RaceTiming(InvalidVariant, code="race-timing"):
    """A lobby's join window (`join_seconds`) below 0 or a time limit (`time_limit`) below 1 s."""

    def __init__(self, join_seconds: int, time_limit: int) -> None:
        super().__init__()
        self.join_seconds, self.time_limit = join_seconds, time_limit


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
class RaceGame(SecretGame):
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

    kind: ClassVar[str] = KIND

    lobby_until: int
    race_until: int

    def _derive(self) -> Derived:
        winner = next((p for p in self.finishers if self.cracked(p)), None)
        end = core.ending(self.log)
        if end is not None and end.kind is MoveKind.GIVE_UP:
            return Derived(Status.ABANDONED, winner_id=winner, ended_by=end.player_id)
        if end is not None or (self.started and len(self.finishers) == len(self.players)):
            return Derived(Status.WON if winner is not None else Status.LOST, winner_id=winner)
        return Derived(Status.ACTIVE, winner_id=winner)

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
        """A player's own clues: in a race nobody sees anyone else's colours (in hard mode,
        each guess must fit every answer that player has had)."""
        return clues(self.guesses_of(player_id))

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
        end = core.ending(self.log)
        return end is not None and end.kind is MoveKind.TIMEOUT

    @property
    def next_deadline(self) -> int | None:
        """When the clock has something to do next (unix seconds); None once it is over."""
        if self.is_over:
            return None
        return self.race_until if self.started else self.lobby_until

    def _shown(self) -> tuple[tuple[str, object], ...]:
        return (
            ("hard", self.hard),
            ("players", len(self.players)),
            ("started", self.started),
            ("status", self.status.value),
        )


@dataclass(frozen=True)
class LobbyOutcome:
    """A player joined, or the race started (`move.player_id` None: the clock started it)."""

    move: Move
    players: tuple[int, ...]


def new_race_game(
    *,
    opened_at: int,
    join_seconds: int,
    time_limit: int,
    variant: Variant | None = None,
    hard: bool = False,
    secret: Code | None = None,
    **header: Unpack[Header],
) -> RaceGame:
    """A race's lobby, opened at `opened_at` (unix seconds) with its starter in it. Guessing
    opens when the starter starts it or `join_seconds` later; the race ends `time_limit`
    seconds after the lobby was due to close (a race started early gets that time as well)."""
    if join_seconds < 0 or time_limit < 1:
        raise RaceTiming(join_seconds, time_limit)
    return RaceGame(
        **header,
        **on_secret(variant, secret),
        hard=hard,
        lobby_until=opened_at + join_seconds,
        race_until=opened_at + join_seconds + time_limit,
        log=(Move(MoveKind.JOIN, header["starter_id"]),),
    )


def join(game: core.Game, player_id: int, now: float) -> tuple[RaceGame, LobbyOutcome]:
    """A player enters the lobby at `now` (unix seconds): only before the start and before
    its time is up, once, and while there is room."""
    game = core.require(game, RaceGame, NotARace)
    core.require_active(game)
    if game.started:
        raise RaceStarted()
    if now >= game.lobby_until:
        raise LobbyClosed(game.lobby_until)
    if player_id in game.players:
        raise AlreadyJoined()
    if len(game.players) >= MAX_RACERS:
        raise RaceFull()
    move = Move(MoveKind.JOIN, player_id)
    new = core.append(game, move)
    return new, LobbyOutcome(move, new.players)


def start_race(game: core.Game, player_id: int | None) -> tuple[RaceGame, LobbyOutcome]:
    """Open guessing: by the starter (`player_id`), or by the clock (None) once the lobby's
    time is up, which is the bot's to decide (`clock_move`)."""
    game = core.require(game, RaceGame, NotARace)
    core.require_active(game)
    if game.started:
        raise RaceStarted()
    if player_id is not None and player_id != game.starter_id:
        raise NotTheStarter(game.starter_id)
    move = Move(MoveKind.START, player_id)
    new = core.append(game, move)
    return new, LobbyOutcome(move, new.players)


def race_guess(
    game: core.Game, player_id: int, code: Code | str, *, now: float, after: int | None = None
) -> tuple[RaceGame, GuessOutcome]:
    """Score one racer's guess, made at `now` (unix seconds), against the shared secret: only
    before the time limit, whether or not the clock has ended the race yet. `after`: how many
    guesses the player's board showed; a guess made from an older board is refused (StaleGame).

    The outcome speaks for the player: `number` and `guesses_left` are theirs, `status` is WON
    once they cracked it and LOST once they are out of guesses, and `secret` shows only when
    the whole race is over.
    """
    game = core.require(game, RaceGame, NotARace)
    core.require_active(game)
    if not game.started:
        raise RaceNotStarted()
    if player_id not in game.players:
        raise NotInRace()
    if game.finished(player_id):
        raise RaceFinished()
    if now >= game.race_until:
        raise TimeIsUp(game.race_until)
    made = len(game.guesses_of(player_id))
    if after is not None and after != made:
        raise StaleGame()
    move = scored(game, player_id, code)
    new = core.append(game, move)
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


def clock_move(game: core.Game, now: float) -> MoveKind | None:
    """What the clock must do to a race at `now` (unix seconds): START once its lobby's time is
    up, TIMEOUT once the race's is; None when nothing is due (or it is not a running race)."""
    if not isinstance(game, RaceGame) or game.is_over:
        return None
    if not game.started:
        return MoveKind.START if now >= game.lobby_until else None
    return MoveKind.TIMEOUT if now >= game.race_until else None
