"""SQLite's connection thread: moves waiting at one instant share one COMMIT (group commit),
one that fails is undone alone, and a transaction never leaves the thread half-way."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
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


def traced(store: SqlStore) -> list[str]:
    """Every statement the connection runs from now on, as SQLite's trace reports it."""
    statements: list[str] = []
    dialect = store.dialect
    assert isinstance(dialect, SqliteDialect)
    connection = dialect.thread.connection
    assert connection is not None
    connection.set_trace_callback(statements.append)
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
    statements = traced(store)
    moves = [
        store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source=f"i:{n}")
        for n, game in enumerate(games)
    ]
    results = await while_locked(tmp_path / "g.db", *moves)
    assert not [r for r in results if isinstance(r, BaseException)]
    assert query(tmp_path / "g.db", "SELECT count(*) FROM moves") == [(GAMES,)]
    # the thread may take the first move alone before the others queue: two commits at most
    assert 1 <= statements.count("COMMIT") <= 2
    assert statements.count("BEGIN IMMEDIATE") == statements.count("COMMIT")


async def test_a_failing_move_is_undone_alone(store: SqlStore, tmp_path: Path) -> None:
    first, second, third = [await store.start(play(CHANNEL + n)) for n in range(3)]
    await store.apply(lambda g: guess(g, BOB, "1111"), game_id=second.id or 0, source="used")
    await store.apply(lambda g: give_up(g, ALICE), game_id=third.id or 0)
    statements = traced(store)
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
    assert statements.count("ROLLBACK TO job") == 2 and statements.count("COMMIT") <= 2


async def test_work_that_awaits_anything_but_its_session_is_refused(
    store: SqlStore, tmp_path: Path
) -> None:
    async def wanders(session: Session) -> None:
        await session.execute("INSERT INTO meta (key, value) VALUES ('k', 'v')")
        await asyncio.sleep(0)  # would hand the thread's connection back to the event loop

    with pytest.raises(RuntimeError, match="awaited something other than its session"):
        await store.dialect.run(wanders, write=True)
    assert query(tmp_path / "g.db", "SELECT count(*) FROM meta WHERE key = 'k'") == [(0,)]
    assert await store.get_meta("k") is None  # and the connection still serves


async def test_a_closed_store_refuses_new_work(tmp_path: Path, clock: Clock) -> None:
    store = SqlStore(SqliteDialect(tmp_path / "g.db"), clock=clock)
    await store.connect()
    await store.close()
    with pytest.raises(RuntimeError, match="closed"):
        await store.get_meta("anything")
