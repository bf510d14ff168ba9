"""The store's promises through its interface, on every implementation: games, typed errors,
secrecy, expiry, stats, history, settings, and what is really written."""

from __future__ import annotations

import asyncio
import inspect
from dataclasses import replace
from datetime import timedelta

import pytest

from bot.engine.errors import (
    GameAlreadyActive,
    GameOver,
    ImpossibleAnswer,
    InvalidGuess,
    NoActiveGame,
    StaleGame,
)
from bot.engine.game import MoveKind, Status, give_up
from bot.modes.play.rules import PlayGame, guess
from bot.modes.solve.rules import NothingToUndo, SolveGame, answer, undo
from bot.store import PlayerStats, Store
from tests.store.backends import Backend
from tests.store.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, SECRET, Clock, play, solve


async def test_every_implementation_is_a_store(store: Store) -> None:
    """Every method of the Protocol, async where it is, taking every argument the Protocol
    names (what a caller typed against `Store` relies on; isinstance checks names only)."""
    methods = {
        name: member
        for name, member in vars(Store).items()
        if callable(member) and not name.startswith("_")
    }
    assert len(methods) > 20
    for name, wanted in methods.items():
        found = getattr(type(store), name, None)
        assert callable(found), f"{type(store).__name__} has no {name}"
        assert inspect.iscoroutinefunction(found) == inspect.iscoroutinefunction(wanted), name
        positional: list[object] = []
        keywords: dict[str, object] = {}
        for parameter in list(inspect.signature(wanted).parameters.values())[1:]:
            if parameter.kind is inspect.Parameter.KEYWORD_ONLY:
                keywords[parameter.name] = None
            elif parameter.kind is not inspect.Parameter.VAR_KEYWORD:
                positional.append(None)
        inspect.signature(found).bind(store, *positional, **keywords)  # TypeError if not


async def test_play_game_round_trip(store: Store, backend: Backend) -> None:
    game = await store.start(play())
    assert game.id is not None and game.version == 0
    game, outcome = await store.apply(lambda g: guess(g, BOB, "1243"), channel_id=CHANNEL)
    assert (outcome.move.black, outcome.move.white, outcome.number) == (2, 2, 1)
    game, outcome = await store.apply(lambda g: guess(g, CAROL, "1234"), game_id=game.id)
    assert outcome.status is Status.WON and outcome.secret == SECRET
    assert game.winner_id == CAROL and game.revealed_secret == SECRET
    assert await store.active_game(CHANNEL) is None
    stored = await store.game(game.id)
    assert stored == game
    rows = backend.query("SELECT move_no, kind, player_id, code, black, white FROM moves")
    assert rows == [(1, "guess", BOB, "[0,1,3,2]", 2, 2), (2, "guess", CAROL, "[0,1,2,3]", 4, 0)]
    row = backend.query("SELECT status, winner_id, version, finished_at IS NOT NULL FROM games")
    assert row == [("won", CAROL, 2, 1)]


async def test_one_active_game_per_channel(store: Store) -> None:
    first = await store.start(play())
    with pytest.raises(GameAlreadyActive) as caught:
        await store.start(solve())
    assert (caught.value.game_id, caught.value.kind) == (first.id, "play")
    other = await store.start(play(CHANNEL + 1))  # another channel is free
    assert other.id != first.id
    await store.apply(lambda g: give_up(g, ALICE), channel_id=CHANNEL)
    assert (await store.start(solve())).kind == "solve"  # free again once it ends


async def test_no_active_game(store: Store) -> None:
    with pytest.raises(NoActiveGame):
        await store.apply(lambda g: guess(g, BOB, "1234"), channel_id=CHANNEL)
    with pytest.raises(NoActiveGame):
        await store.apply(lambda g: guess(g, BOB, "1234"), game_id=12345)
    assert await store.active_game(CHANNEL) is None and await store.game(12345) is None
    with pytest.raises(TypeError):
        await store.apply(lambda g: guess(g, BOB, "1234"))


async def test_game_over_by_id_and_no_game_by_channel(store: Store) -> None:
    game = await store.start(play(max_guesses=1))
    game, outcome = await store.apply(lambda g: guess(g, BOB, "6666"), game_id=game.id)
    assert outcome.status is Status.LOST and outcome.secret == SECRET
    with pytest.raises(GameOver):
        await store.apply(lambda g: guess(g, BOB, "1234"), game_id=game.id)
    with pytest.raises(NoActiveGame):
        await store.apply(lambda g: guess(g, BOB, "1234"), channel_id=CHANNEL)


async def test_refused_moves_leave_no_trace(store: Store, backend: Backend) -> None:
    game = await store.start(play())
    with pytest.raises(InvalidGuess):
        await store.apply(lambda g: guess(g, BOB, "123"), game_id=game.id)
    solve_game = await store.start(solve(CHANNEL + 1))
    with pytest.raises(ImpossibleAnswer):
        await store.apply(lambda g: answer(g, ALICE, 3, 1, None), game_id=solve_game.id)
    with pytest.raises(NothingToUndo):
        await store.apply(lambda g: undo(g, ALICE), game_id=solve_game.id)
    assert backend.query("SELECT count(*) FROM moves") == [(1,)]  # the opening guess only
    assert backend.query("SELECT version FROM games ORDER BY id") == [(0,), (1,)]


async def test_stale_board_is_refused(store: Store) -> None:
    game = await store.start(play())
    seen = game.version
    await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id, expected_version=seen)
    with pytest.raises(StaleGame):
        await store.apply(lambda g: give_up(g, ALICE), game_id=game.id, expected_version=seen)
    current = await store.active_game(CHANNEL)
    assert current is not None and current.version == seen + 1


async def test_transitions_may_only_append(store: Store) -> None:
    game = await store.start(play())
    game, _ = await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id)
    with pytest.raises(ValueError, match="only append"):
        await store.apply(lambda g: (replace(g, starter_id=BOB), None), game_id=game.id)
    with pytest.raises(ValueError, match="only append"):
        await store.apply(lambda g: (replace(g, log=()), None), game_id=game.id)
    assert await store.game(game.id) == game


async def test_active_secrets_never_leave_the_store(store: Store) -> None:
    started = await store.start(play())
    played, _ = await store.apply(lambda g: guess(g, BOB, "1111"), game_id=started.id)
    shown = await store.active_game(CHANNEL)
    by_id = await store.game(started.id)
    for game in (started, played, shown, by_id):
        assert isinstance(game, PlayGame) and not game.secret.known
        assert "1234" not in repr(game) and "0, 1, 2, 3" not in repr(game)
    seen: list[PlayGame] = []

    def scoring(game: PlayGame) -> tuple[PlayGame, object]:
        seen.append(game)
        return guess(game, BOB, "2222")

    await store.apply(scoring, game_id=started.id)  # type: ignore[arg-type]
    assert seen[0].secret.known  # the scoring path is the one that reads it
    ended, outcome = await store.apply(lambda g: give_up(g, ALICE), game_id=started.id)
    assert outcome.secret == SECRET and ended.revealed_secret == SECRET
    finished = await store.game(started.id)
    assert isinstance(finished, PlayGame) and finished.revealed_secret == SECRET


async def test_solve_game_with_undo_is_replayed_from_append_only_rows(
    store: Store, backend: Backend
) -> None:
    game = await store.start(solve())
    assert isinstance(game, SolveGame) and game.current_guess == (0, 0, 1, 1)
    steps = [
        lambda g: answer(g, ALICE, 1, 0, (0, 2, 2, 2)),
        lambda g: answer(g, ALICE, 0, 0, None),  # stuck
        lambda g: undo(g, ALICE),
        lambda g: answer(g, ALICE, 1, 1, (2, 0, 3, 3)),
    ]
    for step in steps:
        game, _ = await store.apply(step, channel_id=CHANNEL)
    loaded = await store.active_game(CHANNEL)
    assert loaded == game and isinstance(loaded, SolveGame)
    assert loaded.guesses == ((0, 0, 1, 1), (0, 2, 2, 2), (2, 0, 3, 3))
    assert loaded.answers == ((1, 0), (1, 1))
    kinds = [row[0] for row in backend.query("SELECT kind FROM moves ORDER BY move_no")]
    assert kinds == ["guess", "answer", "guess", "answer", "undo", "answer", "guess"]
    game, outcome = await store.apply(lambda g: answer(g, ALICE, 4, 0, None), game_id=game.id)
    assert outcome.status is Status.SOLVED and await store.active_game(CHANNEL) is None


async def test_stale_games_expire(store: Store, clock: Clock) -> None:
    old = await store.start(play(CHANNEL))
    touched = await store.start(solve(CHANNEL + 1))
    clock.advance(hours=20)
    await store.apply(lambda g: answer(g, ALICE, 0, 0, (2, 2, 3, 3)), game_id=touched.id)
    fresh = await store.start(play(CHANNEL + 2))
    clock.advance(hours=5)
    expired = await store.expire_stale(timedelta(hours=24))
    assert [game.id for game in expired] == [old.id]
    game = expired[0]
    assert isinstance(game, PlayGame) and game.status is Status.ABANDONED
    assert game.revealed_secret == SECRET and game.ended_by is None
    assert game.log[-1].kind is MoveKind.TIMEOUT
    assert await store.expire_stale(timedelta(hours=24)) == []
    assert {g.id for g in [touched, fresh]} == {
        g.id for c in (CHANNEL + 1, CHANNEL + 2) if (g := await store.active_game(c))
    }


async def test_stale_games_expire_only_while_the_chore_is_still_ours(
    store: Store, clock: Clock
) -> None:
    """The expiry chore asks before each game whether its lease is still held, and stops."""
    games = [await store.start(play(CHANNEL + n)) for n in range(3)]
    clock.advance(hours=25)
    asked: list[int] = []

    def held() -> bool:
        asked.append(1)
        return len(asked) <= 1  # the lease is lost after the first game

    expired = await store.expire_stale(timedelta(hours=24), while_held=held)
    assert [game.id for game in expired] == [games[0].id] and len(asked) == 2
    assert len(await store.expire_stale(timedelta(hours=24))) == 2  # the next holder's pass


async def test_player_stats_and_leaderboard(store: Store) -> None:
    async def finished(winner: int | None, guesses: list[tuple[int, str]]) -> None:
        game = await store.start(play())
        for player, code in guesses:
            game, _ = await store.apply(lambda g, p=player, c=code: guess(g, p, c), game_id=game.id)
        if not game.is_over:
            await store.apply(lambda g: give_up(g, ALICE), game_id=game.id)
        assert game.winner_id == winner or not game.is_over

    await finished(BOB, [(ALICE, "1111"), (BOB, "2222"), (BOB, "1234")])  # Bob wins in 3
    await finished(ALICE, [(ALICE, "1234")])  # Alice wins in 1
    await finished(BOB, [(BOB, "5555"), (BOB, "1234")])  # Bob wins in 2
    await finished(None, [(CAROL, "6666")])  # given up
    await store.start(play())
    await store.apply(lambda g: guess(g, CAROL, "1111"), channel_id=CHANNEL)  # still active

    assert await store.player_stats(GUILD, BOB) == PlayerStats(BOB, 2, 2, 4, 2)
    assert await store.player_stats(GUILD, ALICE) == PlayerStats(ALICE, 2, 1, 2, 1)
    carol = await store.player_stats(GUILD, CAROL)
    assert carol == PlayerStats(CAROL, 1, 0, 1, None) and carol.win_rate == 0
    assert (await store.player_stats(GUILD, BOB)).win_rate == 1
    assert await store.player_stats(GUILD + 1, BOB) == PlayerStats(BOB)
    assert await store.player_stats(None, BOB) == PlayerStats(BOB, 2, 2, 4, 2)
    board = await store.leaderboard(GUILD)
    assert [s.user_id for s in board] == [BOB, ALICE, CAROL]
    assert [s.user_id for s in await store.leaderboard(GUILD, limit=1)] == [BOB]
    assert await store.leaderboard(GUILD + 1) == []


async def test_history_by_channel_and_player(store: Store, clock: Clock) -> None:
    a = await store.start(play(CHANNEL))
    await store.apply(lambda g: guess(g, BOB, "1234"), game_id=a.id)
    clock.advance(minutes=1)
    b = await store.start(solve(CHANNEL + 1, starter_id=CAROL))
    await store.apply(lambda g: give_up(g, CAROL), game_id=b.id)
    clock.advance(minutes=1)
    c = await store.start(play(CHANNEL, starter_id=CAROL))
    await store.apply(lambda g: give_up(g, CAROL), game_id=c.id)
    await store.start(play(CHANNEL))  # active: not history

    def ids(entries: list) -> list[int | None]:
        return [entry.game.id for entry in entries]

    assert ids(await store.history()) == [c.id, b.id, a.id]
    assert ids(await store.history(channel_id=CHANNEL)) == [c.id, a.id]
    assert ids(await store.history(player_id=BOB)) == [a.id]
    assert ids(await store.history(player_id=CAROL)) == [c.id, b.id]
    assert ids(await store.history(player_id=ALICE)) == [a.id]  # started it
    assert ids(await store.history(guild_id=GUILD, limit=2)) == [c.id, b.id]
    entry = (await store.history(channel_id=CHANNEL + 1))[0]
    assert entry.created_at < entry.finished_at and entry.created_at.tzinfo is not None
    assert isinstance(entry.game, SolveGame) and entry.game.status is Status.ABANDONED
    first = (await store.history(player_id=BOB))[0].game
    assert isinstance(first, PlayGame) and first.revealed_secret == SECRET


async def test_meta_values(store: Store) -> None:
    assert await store.get_meta("commands") is None
    await store.set_meta("commands", "abc")
    await store.set_meta("commands", "def")
    assert await store.get_meta("commands") == "def"


async def test_games_survive_reopening(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await store.start(play())
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id)
    async with await backend.open() as store:
        game, outcome = await store.apply(lambda g: guess(g, BOB, "1234"), channel_id=CHANNEL)
        assert outcome.number == 2 and outcome.status is Status.WON


async def test_a_cancelled_caller_never_leaves_half_a_move(store: Store, backend: Backend) -> None:
    game = await store.start(play(max_guesses=20))
    for delay in range(12):
        task = asyncio.ensure_future(store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id))
        for _ in range(delay):
            await asyncio.sleep(0)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    # Every cancelled move either fully happened or not at all, and the store still works.
    game, outcome = await store.apply(lambda g: guess(g, BOB, "2222"), game_id=game.id)
    # A cancelled caller's transaction may still finish after this one on a backend with a
    # connection pool (PostgreSQL): wait until nothing moves, then check there is no half move.
    seen: list[object] = []
    for _ in range(100):
        snapshot = (
            backend.query("SELECT move_no FROM moves ORDER BY move_no"),
            backend.query("SELECT version FROM games"),
        )
        if seen and seen[-1] == snapshot:  # nothing moved for 50 ms: every transaction is done
            break
        seen.append(snapshot)
        await asyncio.sleep(0.05)
    rows, version = snapshot
    assert [r[0] for r in rows] == list(range(1, len(rows) + 1))
    assert len(rows) >= outcome.number and version == [(len(rows),)]


async def test_a_closed_store_refuses_work(backend: Backend) -> None:
    store = await backend.open()
    await store.close()
    await store.close()  # twice is fine
    with pytest.raises(RuntimeError, match="closed"):
        await store.active_game(CHANNEL)
