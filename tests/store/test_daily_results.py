"""Daily results through the store, on every back end: a player's finished daily games for
their streak, a server's leaderboard of one day, the daily key claimed once, and the record of
the codes a player held in solve games."""

from __future__ import annotations

import asyncio

from bot.engine.game import Game, expire, give_up
from bot.modes.common.rules import guess_on
from bot.modes.daily.rules import DailyGame, new_daily_game
from bot.modes.solve.rules import answer, undo
from bot.store import Result, Store
from tests.store.backends import Backend
from tests.store.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, SECRET, Clock, solve

DAVE = 4


def daily(player: int, puzzle: int, *, guild: int = GUILD, hard: bool = False) -> DailyGame:
    return new_daily_game(
        guild_id=guild,
        channel_id=CHANNEL,
        player_id=player,
        puzzle=puzzle,
        secret=SECRET,
        hard=hard,
    )


async def play_out(
    store: Store, clock: Clock, game: DailyGame, codes: list[str], seconds: float = 1.0
) -> Game:
    """Start `game` and make its guesses, `seconds` apart."""
    started = await store.start(game)
    current: Game = started
    for code in codes:
        clock.advance(seconds=seconds)
        current, _ = await store.apply(
            lambda g, c=code: guess_on(g, g.starter_id, c, alone=True), game_id=started.id
        )
    return current


async def test_a_players_results_follow_them_everywhere_oldest_first(
    store: Store, clock: Clock
) -> None:
    await play_out(store, clock, daily(ALICE, 3, guild=GUILD + 1), ["1234"])  # another server
    await play_out(store, clock, daily(ALICE, 1), ["1111", "1234"])
    await play_out(store, clock, daily(ALICE, 2), ["1111"] * 10)  # out of guesses
    await play_out(store, clock, daily(ALICE, 4), ["1111"])  # still running: not a result
    await play_out(store, clock, daily(BOB, 1), ["1234"])
    results = await store.results("daily", ALICE)
    assert [(r.puzzle, r.won, r.guesses) for r in results] == [
        (1, True, 2),
        (2, False, 10),
        (3, True, 1),
    ]
    assert all(r.user_id == ALICE and r.seconds > 0 for r in results)
    assert await store.results("daily", CAROL) == []


async def test_the_days_leaderboard_solved_first_then_guesses_then_time(
    store: Store, clock: Clock
) -> None:
    slow = await play_out(store, clock, daily(ALICE, 9), ["1111", "1234"], seconds=60)
    quick = await play_out(store, clock, daily(BOB, 9, hard=True), ["1111", "1234"], seconds=5)
    best = await play_out(store, clock, daily(CAROL, 9), ["1234"], seconds=30)
    lost = await play_out(store, clock, daily(DAVE, 9), ["1111"] * 10, seconds=1)
    await play_out(store, clock, daily(ALICE, 8), ["1234"])  # yesterday
    await play_out(store, clock, daily(DAVE + 1, 9, guild=GUILD + 1), ["1234"])  # elsewhere
    board = await store.ranking("daily", GUILD, 9)
    assert [r.game_id for r in board] == [best.id, quick.id, slow.id, lost.id]
    assert board[1] == Result(
        BOB, quick.id or 0, 9, True, 2, board[1].seconds, hard=True, hinted=False
    )
    assert abs(board[1].seconds - 10.0) < 0.01 and abs(board[2].seconds - 120.0) < 0.01
    assert (board[3].won, board[3].guesses) == (False, 10)
    assert [r.game_id for r in await store.ranking("daily", GUILD, 9, limit=2)] == [
        best.id,
        quick.id,
    ]
    assert await store.ranking("daily", GUILD, 10) == []


async def test_an_expired_daily_game_is_a_day_played_not_solved(store: Store, clock: Clock) -> None:
    game = await play_out(store, clock, daily(ALICE, 5), ["1111"])
    await store.apply(expire, game_id=game.id)
    (result,) = await store.results("daily", ALICE)
    assert (result.puzzle, result.won, result.guesses) == (5, False, 1)


async def test_claim_meta_sets_once_and_every_claimer_sees_the_winner(
    store: Store, backend: Backend
) -> None:
    assert await store.claim_meta("daily:key", "first") == "first"
    assert await store.claim_meta("daily:key", "second") == "first"
    assert await store.get_meta("daily:key") == "first"
    others = [await backend.open() for _ in range(3)]
    try:
        claims = await asyncio.gather(
            *(s.claim_meta("race", f"v{n}") for n, s in enumerate([store, *others]))
        )
    finally:
        for other in others:
            await other.close()
    assert len(set(claims)) == 1 and claims[0] in {"v0", "v1", "v2", "v3"}
    assert await store.get_meta("race") == claims[0]


async def test_solve_records_count_the_codes_a_player_held(store: Store) -> None:
    """Cracked in 3 (one answer taken back on the way), cracked in 2, given up after 1."""
    plan: list[list[tuple[str, int, int] | str]] = [
        [("answer", 1, 0), ("answer", 0, 0), "undo", ("answer", 2, 0), ("answer", 4, 0)],
        [("answer", 0, 1), ("answer", 4, 0)],
        [("answer", 0, 0), "give_up"],
    ]
    for steps in plan:
        game = await store.start(solve(CHANNEL, starter_id=ALICE))
        for step in steps:
            if step == "undo":
                await store.apply(lambda g: undo(g, ALICE), game_id=game.id)
            elif step == "give_up":
                await store.apply(lambda g: give_up(g, ALICE), game_id=game.id)
            else:
                _, black, white = step
                nxt = None if black == 4 else (1, 2, 3, 4)
                await store.apply(
                    lambda g, b=black, w=white, n=nxt: answer(g, ALICE, b, w, n), game_id=game.id
                )
    record = await store.player_stats(GUILD, ALICE, "solve")
    assert (record.played, record.won, record.guesses, record.best) == (3, 2, 6, 2)
    assert record.kind == "solve"
    assert (await store.player_stats(None, ALICE, "solve")).played == 3
    assert (await store.player_stats(GUILD + 1, ALICE, "solve")).played == 0
    assert (await store.player_stats(GUILD, BOB, "solve")).best is None
