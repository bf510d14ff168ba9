"""Races through the store, on every back end: one log per race kept move by move, the secret
withheld while it runs, the clock's header read back, the channel held, moves stored once, and
race records counted per player (won = first to crack; best = the player's own guesses)."""

from __future__ import annotations

import pytest

from bot.engine.errors import GameAlreadyActive
from bot.engine.game import Status, give_up
from bot.modes.race.rules import (
    NotInRace,
    RaceGame,
    RaceStarted,
    join,
    new_race_game,
    race_guess,
    start_race,
)
from bot.store import AlreadyApplied, PlayerStats, Store
from tests.store.backends import Backend
from tests.store.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, SECRET, play

OPENED = 1_767_268_800  # 2026-01-01 12:00 UTC
RACING = OPENED + 60
"""A moment while the race runs: its lobby closed, its time not up (joins happen at OPENED)."""


def race(channel_id: int = CHANNEL, *, hard: bool = False, **variant: int) -> RaceGame:
    from bot.engine.game import Variant

    return new_race_game(
        guild_id=GUILD,
        channel_id=channel_id,
        starter_id=ALICE,
        opened_at=OPENED,
        join_seconds=60,
        time_limit=600,
        variant=Variant(**variant),
        hard=hard,
        secret=SECRET,
    )


async def lobby(store: Store, *players: int) -> RaceGame:
    """A started race of ALICE and `players`."""
    game = await store.start(race())
    assert game.id is not None
    for player in players:
        await store.apply(lambda g, p=player: join(g, p, OPENED), game_id=game.id)  # type: ignore[misc]
    started, _ = await store.apply(lambda g: start_race(g, ALICE), game_id=game.id)
    assert isinstance(started, RaceGame)
    return started


async def test_a_race_round_trips_with_its_clock_and_holds_the_channel(
    store: Store, backend: Backend
) -> None:
    game = await store.start(race(hard=True), source="i:1")
    assert isinstance(game, RaceGame) and game.id is not None
    assert not game.secret.known  # withheld while it runs
    assert (game.lobby_until, game.race_until, game.players) == (OPENED + 60, OPENED + 660, (1,))
    with pytest.raises(GameAlreadyActive):
        await store.start(play())
    assert await store.active_game(CHANNEL) == game
    assert await store.running("race") == [game]
    await store.apply(lambda g: join(g, BOB, OPENED), game_id=game.id, source="i:2")
    with pytest.raises(AlreadyApplied):  # the same click again
        await store.apply(lambda g: join(g, BOB, OPENED), game_id=game.id, source="i:2")
    game, _ = await store.apply(lambda g: start_race(g, None), game_id=game.id, source="clock:s")
    with pytest.raises(RaceStarted):
        await store.apply(lambda g: join(g, CAROL, OPENED), game_id=game.id)
    with pytest.raises(NotInRace):
        await store.apply(lambda g: race_guess(g, CAROL, "1234", now=RACING), game_id=game.id)
    assert isinstance(game, RaceGame) and game.started and game.players == (ALICE, BOB)
    assert await store.game(game.id or 0) == game
    rows = backend.query("SELECT kind, player_id, source FROM moves ORDER BY move_no")
    assert rows == [("join", ALICE, "i:1"), ("join", BOB, "i:2"), ("start", None, "clock:s")]
    ((kind, hard, lobby_until, race_until),) = backend.query(
        "SELECT kind, hard, lobby_until, race_until FROM games"
    )
    assert (kind, bool(hard), lobby_until, race_until) == ("race", True, OPENED + 60, OPENED + 660)


async def test_the_race_ends_when_all_have_finished_and_the_first_to_crack_wins(
    store: Store, backend: Backend
) -> None:
    game = await lobby(store, BOB, CAROL)
    gid = game.id

    async def move(player: int, code: str, after: int | None = None) -> RaceGame:
        new, _ = await store.apply(
            lambda g: race_guess(g, player, code, after=after, now=RACING), game_id=gid
        )
        assert isinstance(new, RaceGame)
        return new

    await move(BOB, "1122")
    await move(BOB, "1233")
    await move(CAROL, "1234")  # CAROL cracks it first, in 1
    await move(ALICE, "1111")
    game = await move(BOB, "1234", after=2)  # BOB in 3
    assert game.status is Status.ACTIVE and game.winner_id == CAROL
    assert await store.running("race") == [game]
    for code in ["2222", "3333", "4444", "5555", "6666", "1112", "1113", "1114"]:
        game = await move(ALICE, code)
    game = await move(ALICE, "1115")  # ALICE's tenth: out of guesses, everyone is done
    assert game.is_over and game.status is Status.WON and game.winner_id == CAROL
    assert game.revealed_secret == SECRET
    assert [(p.player_id, p.place) for p in game.ranking] == [(CAROL, 1), (BOB, 2), (ALICE, None)]
    assert await store.running("race") == []
    assert backend.query("SELECT status, winner_id FROM games") == [("won", CAROL)]

    carol = await store.player_stats(GUILD, CAROL, "race")
    bob = await store.player_stats(GUILD, BOB, "race")
    alice = await store.player_stats(GUILD, ALICE, "race")
    assert carol == PlayerStats(CAROL, 1, 1, 1, 1, kind="race")
    assert bob == PlayerStats(BOB, 1, 0, 3, 3, kind="race")  # best: BOB's own 3
    assert alice == PlayerStats(ALICE, 1, 0, 10, None, kind="race")
    assert await store.player_stats(GUILD, BOB) == PlayerStats(BOB)  # play records apart
    leaders = await store.leaderboard(GUILD, kind="race")
    assert [row.user_id for row in leaders] == [CAROL, BOB, ALICE]


async def test_a_race_given_up_keeps_its_winner_and_counts_hard_wins(store: Store) -> None:
    game = await store.start(race(hard=True))
    await store.apply(lambda g: join(g, BOB, OPENED), game_id=game.id)
    await store.apply(lambda g: start_race(g, ALICE), game_id=game.id)
    await store.apply(lambda g: race_guess(g, BOB, "1243", now=RACING), game_id=game.id)
    await store.apply(lambda g: race_guess(g, BOB, "1234", now=RACING), game_id=game.id)
    await store.apply(lambda g: race_guess(g, ALICE, "5555", now=RACING), game_id=game.id)
    ended, outcome = await store.apply(lambda g: give_up(g, ALICE), game_id=game.id)
    assert isinstance(ended, RaceGame) and ended.status is Status.ABANDONED
    assert outcome.secret == SECRET and ended.winner_id == BOB and ended.ended_by == ALICE
    assert await store.player_stats(GUILD, BOB, "race") == PlayerStats(
        BOB, 1, 1, 2, 2, hard_won=1, kind="race"
    )
