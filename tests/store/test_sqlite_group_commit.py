"""SQLite's writer: moves waiting at one instant share one COMMIT (group commit), one that fails
is undone alone, a caller that gave up before its turn never has its move made, and closing
finishes what was queued."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import closing
from pathlib import Path

import pytest

from bot.engine.errors import GameOver
from bot.engine.game import give_up
from bot.modes.play.rules import guess
from bot.store import AlreadyApplied, SqliteDialect, SqlStore
from bot.store.dialect import Session
from tests.store.helpers import ALICE, BOB, CHANNEL, Clock, play, query

GAMES = 30


@pytest.fixture
async def store(tmp_path: Path, clock: Clock) -> AsyncIterator[SqlStore]:
    async with SqlStore(SqliteDialect(tmp_path / "g.db"), clock=clock) as store:
        yield store


async def traced(store: SqlStore) -> list[str]:
    """Every statement the writer runs from now on, as SQLite's trace reports it."""
    statements: list[str] = []
    dialect = store.dialect
    assert isinstance(dialect, SqliteDialect)
    await dialect.writer.set_trace_callback(statements.append)
    return statements


async def while_locked(path: Path, *calls: asyncio.Future[object]) -> list[object]:
    """Hold the file's write lock from another connection while the calls queue up behind it."""
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        tasks = [asyncio.ensure_future(call) for call in calls]
        await asyncio.sleep(0.3)
        other.execute("COMMIT")
        return await asyncio.gather(*tasks, return_exceptions=True)


async def test_moves_waiting_together_share_one_commit(store: SqlStore, tmp_path: Path) -> None:
    games = [await store.start(play(CHANNEL + n)) for n in range(GAMES)]
    statements = await traced(store)
    moves = [
        store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source=f"i:{n}")
        for n, game in enumerate(games)
    ]
    results = await while_locked(tmp_path / "g.db", *moves)
    assert not [r for r in results if isinstance(r, BaseException)]
    assert query(tmp_path / "g.db", "SELECT count(*) FROM moves") == [(GAMES,)]
    # the writer may take the first move alone before the others queue: two commits at most
    # (each try refused by the lock is traced as a BEGIN IMMEDIATE of its own)
    assert 1 <= statements.count("COMMIT") <= 2
    # each move saved once, by one statement that needs no savepoint
    assert len(saves_traced(statements)) == GAMES and "SAVEPOINT job" not in statements


def saves_traced(statements: list[str]) -> list[int]:
    """Where each move's one save stands (SQLite traces it again for each statement of its
    trigger)."""
    return [
        n
        for n, sql in enumerate(statements)
        if sql.startswith("INSERT INTO move_saves") and statements[n - 1] != sql
    ]


def loads_traced(statements: list[str]) -> list[int]:
    return [n for n, sql in enumerate(statements) if sql.startswith("SELECT probe.repeated")]


async def test_moves_arriving_together_run_alongside_each_other(store: SqlStore) -> None:
    """Without another program in the way, the moves queued at one instant run at the same
    time: BEGIN IMMEDIATE, every load, every save (one statement each, so no SAVEPOINT),
    COMMIT, each group reaching aiosqlite's thread together."""
    games = [await store.start(play(CHANNEL + n)) for n in range(GAMES)]
    statements = await traced(store)
    results = await asyncio.gather(
        *(
            store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source=f"i:{n}")
            for n, game in enumerate(games)
        )
    )
    assert [outcome.number for _, outcome in results] == [1] * GAMES
    loads, saves = loads_traced(statements), saves_traced(statements)
    assert len(loads) == len(saves) == GAMES and "SAVEPOINT job" not in statements
    assert statements[0] == "BEGIN IMMEDIATE" and statements.count("COMMIT") == 1
    assert max(loads) < min(saves) and statements[-1] == "COMMIT"


async def test_moves_for_one_game_waiting_together_are_made_in_turn(
    store: SqlStore, tmp_path: Path
) -> None:
    """Three moves for one game in one commit: each loads what the one before saved, while
    another game's move runs beside them."""
    game, other = await store.start(play()), await store.start(play(CHANNEL + 1))
    statements = await traced(store)
    results = await asyncio.gather(
        *(
            store.apply(lambda g, c=code: guess(g, BOB, c), game_id=game.id or 0, source=code)
            for code in ("1111", "2222", "3333")
        ),
        store.apply(lambda g: guess(g, BOB, "4444"), game_id=other.id or 0, source="other"),
    )
    assert [outcome.number for _, outcome in results] == [1, 2, 3, 1]
    stored = "SELECT game_id, move_no, code, source FROM moves ORDER BY game_id, move_no"
    assert query(tmp_path / "g.db", stored) == [
        (game.id, 1, "[0,0,0,0]", "1111"),
        (game.id, 2, "[1,1,1,1]", "2222"),
        (game.id, 3, "[2,2,2,2]", "3333"),
        (other.id, 1, "[3,3,3,3]", "other"),
    ]
    loads, saves = loads_traced(statements), saves_traced(statements)
    assert len(loads) == len(saves) == 4 and statements.count("COMMIT") == 1
    assert loads[1] < saves[0]  # the other game's load did not wait for the first save


async def test_a_move_whose_game_another_moved_on_runs_again_after_it(
    store: SqlStore, tmp_path: Path
) -> None:
    """A move named by its channel and one named by its game id meet on one game: both load
    its first version, the first save wins, the other is refused by its own statement (so
    nothing of it is written) and runs again next, by itself."""
    game = await store.start(play())
    statements = await traced(store)
    results = await asyncio.gather(
        store.apply(lambda g: guess(g, BOB, "1111"), channel_id=CHANNEL, source="by channel"),
        store.apply(lambda g: guess(g, BOB, "2222"), game_id=game.id or 0, source="by id"),
    )
    assert [outcome.number for _, outcome in results] == [1, 2]
    stored = "SELECT move_no, source FROM moves ORDER BY move_no"
    assert query(tmp_path / "g.db", stored) == [(1, "by channel"), (2, "by id")]
    assert len(loads_traced(statements)) == 3 and statements.count("COMMIT") == 2


async def test_a_job_that_fails_after_asking_for_its_last_write_writes_nothing(
    store: SqlStore, tmp_path: Path
) -> None:
    """A job's last write runs once its code has returned: one that fails after asking for it
    has nothing stored, while the job beside it is stored, in the same transaction."""

    def writes(key: str, *, then_fails: bool = False) -> Callable[[Session], Awaitable[None]]:
        async def work(session: Session) -> None:
            await session.execute_last("INSERT INTO meta (key, value) VALUES (:k, 'v')", {"k": key})
            if then_fails:
                raise ValueError("after asking")

        return work

    statements = await traced(store)
    results = await asyncio.gather(
        store.dialect.run(writes("a"), write=True, alongside="a"),
        store.dialect.run(writes("b", then_fails=True), write=True, alongside="b"),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType", "ValueError"]
    assert query(tmp_path / "g.db", "SELECT key FROM meta WHERE key < 'c'") == [("a",)]
    assert statements.count("COMMIT") == 1 and "SAVEPOINT job" not in statements


async def test_a_failing_move_is_undone_alone(store: SqlStore, tmp_path: Path) -> None:
    first, second, third = [await store.start(play(CHANNEL + n)) for n in range(3)]
    await store.apply(lambda g: guess(g, BOB, "1111"), game_id=second.id or 0, source="used")
    await store.apply(lambda g: give_up(g, ALICE), game_id=third.id or 0)
    statements = await traced(store)
    results = await while_locked(
        tmp_path / "g.db",
        store.apply(lambda g: guess(g, BOB, "2222"), game_id=first.id or 0, source="a"),
        store.apply(lambda g: guess(g, BOB, "3333"), game_id=second.id or 0, source="used"),
        store.apply(lambda g: guess(g, BOB, "4444"), game_id=third.id or 0, source="b"),
        store.apply(lambda g: guess(g, BOB, "5555"), game_id=second.id or 0, source="c"),
    )
    assert [type(r).__name__ for r in results] == ["tuple", "AlreadyApplied", "GameOver", "tuple"]
    assert isinstance(results[1], AlreadyApplied) and isinstance(results[2], GameOver)
    stored = "SELECT game_id, code, source FROM moves ORDER BY game_id, move_no"
    assert query(tmp_path / "g.db", stored) == [
        (first.id, "[1,1,1,1]", "a"),
        (second.id, "[0,0,0,0]", "used"),
        (second.id, "[4,4,4,4]", "c"),
        (third.id, None, None),  # its give-up, from before
    ]
    # both were refused before writing anything: nothing of theirs to undo
    assert statements.count("ROLLBACK TO job") == 0 and statements.count("COMMIT") <= 2


async def test_a_write_that_fails_after_writing_is_undone_to_its_own_savepoint(
    store: SqlStore, tmp_path: Path
) -> None:
    def writes(key: str, *, then_fails: bool = False) -> Callable[[Session], Awaitable[None]]:
        async def work(session: Session) -> None:
            await session.execute("INSERT INTO meta (key, value) VALUES (:k, 'v')", {"k": key})
            if then_fails:
                await session.execute("INSERT INTO meta (key, value) VALUES ('a', 'again')")

        return work

    statements = await traced(store)
    results = await while_locked(
        tmp_path / "g.db",
        store.dialect.run(writes("a"), write=True),
        store.dialect.run(writes("b", then_fails=True), write=True),
        store.dialect.run(writes("c"), write=True),
    )
    assert [type(r).__name__ for r in results] == ["NoneType", "Conflict", "NoneType"]
    assert query(tmp_path / "g.db", "SELECT key, value FROM meta WHERE key < 'd'") == [
        ("a", "v"),
        ("c", "v"),
    ]
    assert statements.count("ROLLBACK TO job") == 1 and statements.count("COMMIT") == 1


async def test_a_move_whose_caller_gave_up_before_its_turn_is_never_made(
    store: SqlStore, tmp_path: Path
) -> None:
    first, second = [await store.start(play(CHANNEL + n)) for n in range(2)]
    path = tmp_path / "g.db"
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
        kept = asyncio.ensure_future(
            store.apply(lambda g: guess(g, BOB, "1111"), game_id=first.id or 0, source="kept")
        )
        dropped = asyncio.ensure_future(
            store.apply(lambda g: guess(g, BOB, "2222"), game_id=second.id or 0, source="gone")
        )
        await asyncio.sleep(0.2)
        dropped.cancel()
        await asyncio.sleep(0.2)
        other.execute("COMMIT")
        await kept
    assert dropped.cancelled()
    assert query(path, "SELECT source FROM moves WHERE source IS NOT NULL") == [("kept",)]
    assert await store.get_meta("anything") is None  # and the connection still serves


async def test_a_read_alone_runs_without_a_transaction_unless_it_reads_twice(
    store: SqlStore,
) -> None:
    game = await store.start(play())
    dialect = store.dialect
    assert isinstance(dialect, SqliteDialect)
    statements: list[str] = []
    await dialect.reader.set_trace_callback(statements.append)
    found = await store.game(game.id or 0)
    assert found is not None and found.id == game.id
    assert len(statements) == 1 and statements[0].startswith("SELECT id,")  # game and moves

    async def twice(session: Session) -> tuple[int, int]:
        games = await session.fetch("SELECT count(*) AS n FROM games")
        moves = await session.fetch("SELECT count(*) AS n FROM moves")
        return games[0]["n"], moves[0]["n"]

    statements.clear()
    assert await dialect.run(twice, write=False) == (1, 0)
    # tried alone, then again in one snapshot once it asked for a second statement
    assert statements[1:] == [
        "BEGIN",
        "SELECT count(*) AS n FROM games",
        "SELECT count(*) AS n FROM moves",
        "COMMIT",
    ]


async def test_reads_waiting_together_share_one_snapshot(store: SqlStore) -> None:
    games = [await store.start(play(CHANNEL + n)) for n in range(5)]
    dialect = store.dialect
    assert isinstance(dialect, SqliteDialect)
    statements: list[str] = []
    await dialect.reader.set_trace_callback(statements.append)
    found = await asyncio.gather(*(store.game(game.id or 0) for game in games))
    assert [g.id for g in found if g is not None] == [g.id for g in games]
    assert statements.count("BEGIN") == 1 and statements.count("COMMIT") == 1


async def test_closing_finishes_the_queued_writes(tmp_path: Path, clock: Clock) -> None:
    store = SqlStore(SqliteDialect(tmp_path / "g.db"), clock=clock)
    await store.connect()
    games = [await store.start(play(CHANNEL + n)) for n in range(5)]
    moves = [
        asyncio.ensure_future(
            store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source=f"m{n}")
        )
        for n, game in enumerate(games)
    ]
    await asyncio.sleep(0)
    await store.close()
    assert all(move.done() and move.exception() is None for move in moves)
    assert query(tmp_path / "g.db", "SELECT count(*) FROM moves") == [(5,)]


async def test_a_closed_store_refuses_new_work(tmp_path: Path, clock: Clock) -> None:
    store = SqlStore(SqliteDialect(tmp_path / "g.db"), clock=clock)
    await store.connect()
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.get_meta("anything")
