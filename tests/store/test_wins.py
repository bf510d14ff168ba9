"""A player's wins through the store, on every back end: what their guess distribution (the
stats chart) counts."""

from __future__ import annotations

from bot.modes.solve.rules import answer
from bot.store import Store
from tests.store.helpers import ALICE, BOB, CHANNEL, GUILD, Clock, solve
from tests.store.test_daily_results import daily, play_out


async def test_wins_count_the_guesses_of_each_won_game_oldest_first(
    store: Store, clock: Clock
) -> None:
    await play_out(store, clock, daily(ALICE, 1, hard=True), ["1111", "1234"])
    await play_out(store, clock, daily(ALICE, 2), ["1111"] * 10)  # lost: no win
    await play_out(store, clock, daily(BOB, 1), ["1234"])
    clock.advance(seconds=5)
    game = await store.start(solve(CHANNEL + 1, starter_id=ALICE))
    for black, white in ((0, 0), (1, 0), (4, 0)):
        nxt = None if black == 4 else (1, 2, 3, 4)
        await store.apply(
            lambda g, b=black, w=white, n=nxt: answer(g, ALICE, b, w, n), game_id=game.id
        )
    await play_out(store, clock, daily(ALICE, 3, guild=GUILD + 1), ["1234"])  # elsewhere
    wins = await store.wins(GUILD, ALICE)
    assert [(w.kind, w.guesses, w.hard, w.hinted) for w in wins] == [
        ("daily", 2, True, False),
        ("solve", 3, False, False),
    ]
    assert wins[0].finished_at <= wins[1].finished_at and wins[0].finished_at.tzinfo is not None
    assert [w.guesses for w in await store.wins(None, ALICE)] == [2, 3, 1]
    assert [w.guesses for w in await store.wins(GUILD, BOB)] == [1]
