"""Schema 4 through the store, on every back end: daily games are each player's own, hints and
hard mode are kept with the game, and stats count guesses only, per kind of game."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.engine.errors import AlreadyPlayed, BreaksAClue
from bot.engine.game import Reach
from bot.modes.daily.rules import FIRST_DAY, DailyGame, new_daily_game
from bot.modes.daily.rules import guess as daily_guess
from bot.modes.play.rules import guess, hint
from bot.store import PlayerStats, Store
from tests.store.backends import Backend
from tests.store.helpers import ALICE, BOB, CHANNEL, GUILD, SECRET, play


def daily(player: int, puzzle: int = 412) -> DailyGame:
    return new_daily_game(
        guild_id=GUILD, channel_id=CHANNEL, player_id=player, puzzle=puzzle, secret=SECRET
    )


async def test_daily_games_leave_the_channel_free_and_come_once_per_player_and_day(
    store: Store, backend: Backend
) -> None:
    channel_game = await store.start(play())
    alice = await store.start(daily(ALICE))
    bob = await store.start(daily(BOB))
    assert isinstance(alice, DailyGame) and alice.puzzle == 412 and alice.reach is Reach.PRIVATE
    assert (await store.active_game(CHANNEL)) == channel_game  # the channel's game is untouched
    with pytest.raises(AlreadyPlayed) as repeat:
        await store.start(daily(ALICE))
    assert repeat.value.game_id == alice.id
    await store.start(daily(ALICE, puzzle=413))  # tomorrow is another game
    day = FIRST_DAY + timedelta(days=411)  # puzzle 412's day
    bob, outcome = await store.apply(
        lambda g: daily_guess(g, BOB, "1234", today=day), game_id=bob.id
    )
    assert outcome.secret == SECRET and isinstance(bob, DailyGame) and bob.puzzle == 412
    assert await store.game(bob.id or 0) == bob
    rows = backend.query("SELECT kind, puzzle, reach FROM games ORDER BY id")
    assert rows[1:3] == [("daily", 412, "private"), ("daily", 412, "private")]
    # A private board is only ever redrawn by its player's own clicks, never by a pass.
    backend.query("UPDATE games SET board_channel_id = 1, board_message_id = 2")
    assert alice.id not in await store.boards_behind()


async def test_hints_and_hard_mode_are_stored_and_best_counts_guesses_only(
    store: Store, backend: Backend
) -> None:
    game = await store.start(play(hard=True))
    game, first = await store.apply(lambda g: hint(g, BOB), game_id=game.id)
    game, second = await store.apply(lambda g: hint(g, BOB), game_id=game.id)
    assert (first.level, second.level, second.hints) == (1, 2, 2)
    game, _ = await store.apply(lambda g: guess(g, BOB, "1122"), game_id=game.id)
    _, third = await store.apply(lambda g: hint(g, BOB), game_id=game.id)
    assert third.level == 1  # a new guess, a new first hint
    with pytest.raises(BreaksAClue) as refused:  # "1122" earned one black: 3344 shares nothing
        await store.apply(lambda g: guess(g, BOB, "3344"), game_id=game.id)
    assert refused.value.clue.index == 0
    game, won = await store.apply(lambda g: guess(g, BOB, "1234"), game_id=game.id)
    assert won.number == 2 and game.hints == 3 and game.hard
    ((hard, hints),) = backend.query("SELECT hard, hints FROM games")
    assert (bool(hard), hints) == (True, 3)
    stats = await store.player_stats(GUILD, BOB)
    assert stats == PlayerStats(BOB, 1, 1, 2, 2, hard_won=1, hinted=1)
    assert await store.player_stats(GUILD, BOB, "daily") == PlayerStats(BOB, kind="daily")
