"""The race's rules: a lobby, a start, one secret cracked by each player on their own, a clock,
and everything (players, progress, winner, ranking, status) read back from one log."""

from __future__ import annotations

import pytest

from bot.engine.errors import (
    BreaksAClue,
    GameOver,
    InvalidVariant,
    NotYourGame,
    OwnerReason,
    StaleGame,
    WrongGameKind,
)
from bot.engine.game import MoveKind, Status, Variant, expire, give_up
from bot.modes.play.rules import hint, new_play_game
from bot.modes.race.rules import (
    MAX_RACERS,
    AlreadyJoined,
    LobbyClosed,
    NotInRace,
    Placing,
    RaceFinished,
    RaceFull,
    RaceGame,
    RaceNotStarted,
    RaceStarted,
    TimeIsUp,
    clock_move,
    join,
    new_race_game,
    race_guess,
    start_race,
)

ALICE, BOB, CAROL = 1, 2, 3
SECRET = (0, 1, 2, 3)  # 1234
OPENED = 10_000
RACING = OPENED + 60
"""A moment while the race runs: its lobby closed, its time not up (joins happen at OPENED)."""


def lobby(*players: int, guesses: int = 10, hard: bool = False) -> RaceGame:
    game = new_race_game(
        guild_id=5,
        channel_id=6,
        starter_id=ALICE,
        opened_at=OPENED,
        join_seconds=60,
        time_limit=300,
        variant=Variant(max_guesses=guesses),
        hard=hard,
        secret=SECRET,
    )
    for player in players:
        game, _ = join(game, player, OPENED)
    return game


def started(*players: int, guesses: int = 10, hard: bool = False) -> RaceGame:
    game, _ = start_race(lobby(*players, guesses=guesses, hard=hard), ALICE)
    return game


def play(game: RaceGame, player: int, *codes: str) -> RaceGame:
    for code in codes:
        game, _ = race_guess(game, player, code, now=RACING)
        assert isinstance(game, RaceGame)
    return game


def test_the_lobby_holds_the_starter_first_and_each_player_once() -> None:
    game = lobby()
    assert game.players == (ALICE,) and not game.started and game.status is Status.ACTIVE
    game, outcome = join(game, BOB, OPENED)
    assert outcome.players == (ALICE, BOB) and outcome.move.kind is MoveKind.JOIN
    with pytest.raises(AlreadyJoined):
        join(game, BOB, OPENED)
    with pytest.raises(AlreadyJoined):
        join(game, ALICE, OPENED)
    with pytest.raises(RaceNotStarted):
        race_guess(game, BOB, "1234", now=RACING)
    assert (game.lobby_until, game.race_until, game.next_deadline) == (10_060, 10_360, 10_060)


def test_a_full_lobby_refuses_one_more() -> None:
    game = lobby(*range(100, 100 + MAX_RACERS - 1))
    assert len(game.players) == MAX_RACERS
    with pytest.raises(RaceFull):
        join(game, 999, OPENED)


def test_only_the_starter_or_the_clock_starts_it_once() -> None:
    game = lobby(BOB)
    with pytest.raises(NotYourGame) as refused:
        start_race(game, BOB)
    assert refused.value.reason is OwnerReason.START and refused.value.owner_id == ALICE
    by_clock, outcome = start_race(game, None)
    assert by_clock.started and outcome.move.player_id is None
    with pytest.raises(RaceStarted):
        start_race(by_clock, ALICE)
    with pytest.raises(RaceStarted):
        join(by_clock, CAROL, OPENED)
    assert by_clock.next_deadline == 10_360


def test_the_clock_starts_the_lobby_then_ends_the_race() -> None:
    game = lobby(BOB)
    assert clock_move(game, 10_059.9) is None
    assert clock_move(game, 10_060) is MoveKind.START
    game, _ = start_race(game, ALICE)  # started early: the end stays where it was
    assert clock_move(game, 10_100) is None
    assert clock_move(game, 10_360) is MoveKind.TIMEOUT
    game = play(game, BOB, "1234")
    ended, outcome = expire(game)
    assert isinstance(ended, RaceGame) and ended.timed_out
    assert ended.status is Status.WON and ended.winner_id == BOB  # a winner stays the winner
    assert outcome.secret == SECRET and ended.revealed_secret == SECRET
    assert clock_move(ended, 99_999) is None and ended.next_deadline is None
    assert clock_move(new_play_game(guild_id=1, channel_id=2, starter_id=3), 1e12) is None


def test_each_player_has_their_own_guesses_and_outcome() -> None:
    game = started(BOB, CAROL, guesses=3)
    game, first = race_guess(game, BOB, "1122", now=RACING)
    assert (first.number, first.guesses_left, first.status) == (1, 2, Status.ACTIVE)
    assert first.secret is None
    game, alice = race_guess(game, ALICE, "1234", now=RACING)
    assert (alice.number, alice.guesses_left, alice.status) == (1, 0, Status.WON)
    assert alice.secret is None  # the race goes on: nobody is shown the secret yet
    with pytest.raises(RaceFinished):
        race_guess(game, ALICE, "1234", now=RACING)
    game, _ = race_guess(game, BOB, "5555", now=RACING)
    game, out = race_guess(game, BOB, "6666", now=RACING)
    assert (out.number, out.guesses_left, out.status) == (3, 0, Status.LOST)
    assert game.guesses_of(BOB)[0].code == (0, 0, 1, 1) and len(game.guesses_of(CAROL)) == 0
    assert game.clues_for(ALICE) == (((0, 1, 2, 3), (4, 0)),)
    assert game.finishers == (ALICE, BOB) and game.status is Status.ACTIVE
    assert game.winner_id == ALICE  # known as soon as someone cracks it
    game, last = race_guess(game, CAROL, "1234", now=RACING)
    assert game.is_over and game.status is Status.WON and last.secret == SECRET


def test_winner_is_first_to_crack_and_ranking_is_by_guesses_then_time() -> None:
    game = started(BOB, CAROL)
    game = play(game, BOB, "1111", "2222", "1234")  # BOB cracks first, in 3
    game = play(game, CAROL, "1243", "1234")  # CAROL later, in 2
    game = play(game, ALICE, "4321", "1243", "2134")  # ALICE not yet
    assert game.winner_id == BOB
    assert game.ranking == (
        Placing(CAROL, 2, True, 1),
        Placing(BOB, 3, True, 2),
        Placing(ALICE, 3, False, None),
    )
    game = play(game, ALICE, "1324", "1234")  # 5 guesses: ties nobody
    assert game.status is Status.WON and [p.place for p in game.ranking] == [1, 2, 3]
    tied = play(started(BOB), BOB, "1111", "1234")
    tied = play(tied, ALICE, "2222", "1234")
    assert [p.player_id for p in tied.ranking] == [BOB, ALICE]  # 2 each: BOB finished first


def test_nobody_cracks_it_the_race_is_lost() -> None:
    game = started(BOB, guesses=1)
    game = play(game, ALICE, "1111")
    game = play(game, BOB, "2222")
    assert game.status is Status.LOST and game.winner_id is None
    assert [p.cracked for p in game.ranking] == [False, False]


def test_only_players_of_a_started_race_guess_and_stale_boards_are_refused() -> None:
    game = started(BOB)
    with pytest.raises(NotInRace):
        race_guess(game, CAROL, "1234", now=RACING)
    game, _ = race_guess(game, BOB, "1111", after=0, now=RACING)
    with pytest.raises(StaleGame):
        race_guess(game, BOB, "2222", after=0, now=RACING)  # a board drawn before that guess
    with pytest.raises(WrongGameKind):
        hint(game, BOB)
    with pytest.raises(WrongGameKind):
        join(new_play_game(guild_id=1, channel_id=2, starter_id=3), BOB, OPENED)


def test_hard_mode_checks_each_player_against_their_own_clues_only() -> None:
    game = started(BOB, hard=True)
    game = play(game, BOB, "5566")  # no 5 and no 6 in the code
    with pytest.raises(BreaksAClue) as refused:
        race_guess(game, BOB, "5512", now=RACING)
    assert refused.value.clue.index == 0 and refused.value.clue.guess == (4, 4, 5, 5)
    game = play(game, ALICE, "5512")  # BOB's clue binds only BOB


def test_giving_up_ends_it_for_everyone_and_reveals_the_secret() -> None:
    game = play(started(BOB), BOB, "1234")
    ended, outcome = give_up(game, ALICE)
    assert isinstance(ended, RaceGame) and ended.status is Status.ABANDONED
    assert (ended.ended_by, ended.winner_id, outcome.secret) == (ALICE, BOB, SECRET)
    with pytest.raises(GameOver):
        race_guess(ended, ALICE, "1234", now=RACING)
    in_lobby, _ = give_up(lobby(BOB), ALICE)
    assert in_lobby.status is Status.ABANDONED and in_lobby.winner_id is None


def test_the_secret_never_shows_in_a_repr_and_bad_clocks_are_refused() -> None:
    game = started(BOB)
    assert "(0, 1, 2, 3)" not in repr(game) and "secret=<hidden>" in repr(game)
    with pytest.raises(InvalidVariant):
        new_race_game(
            guild_id=1, channel_id=2, starter_id=3, opened_at=0, join_seconds=10, time_limit=0
        )


def test_a_join_or_a_guess_after_its_time_is_refused_before_the_clock_moves() -> None:
    game = lobby(BOB)
    join(game, CAROL, 10_059.9)
    with pytest.raises(LobbyClosed) as closed:
        join(game, CAROL, 10_060)  # the clock's START is due, not yet made
    assert closed.value.closed_at == 10_060 and not game.started
    game = started(BOB)
    race_guess(game, BOB, "1111", now=10_359.9)
    with pytest.raises(TimeIsUp) as late:
        race_guess(game, BOB, "1234", now=10_360)  # the clock's TIMEOUT is due, not yet made
    assert late.value.closed_at == 10_360 and game.status is Status.ACTIVE
