"""The store's promises under misuse: one move per input, one bot per file, clear refusals of
files it cannot use, boards that only move forward, expiry that survives a bad row."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.engine.game import guess
from bot.store import (
    SCHEMA_VERSION,
    AlreadyApplied,
    SchemaError,
    Store,
    StoreBusy,
    StoreUnavailable,
)
from tests.store_helpers import ALICE, BOB, CHANNEL, Clock, play, query
from tests.test_store_migrations import build_v1


async def test_one_input_makes_one_move(tmp_path: Path) -> None:
    async with Store(tmp_path / "g.db") as store:
        game = await store.start(play())
        assert game.id is not None
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id, source="i:1")
        with pytest.raises(AlreadyApplied) as refused:
            await store.apply(lambda g: guess(g, BOB, "2222"), game_id=game.id, source="i:1")
        assert (refused.value.game_id, refused.value.move_no) == (game.id, 1)
        await store.apply(lambda g: guess(g, BOB, "3333"), game_id=game.id, source="i:2")
    rows = query(tmp_path / "g.db", "SELECT move_no, code, source FROM moves ORDER BY move_no")
    assert rows == [(1, "[0,0,0,0]", "i:1"), (2, "[2,2,2,2]", "i:2")]


async def test_the_database_refuses_a_repeated_source_even_without_the_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with Store(path) as store:
        game = await store.start(play())
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source="i:9")
    with closing(sqlite3.connect(path)) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO moves (game_id, move_no, kind, player_id, code, black, white, "
            "created_at, source) VALUES (?, 2, 'guess', 2, '[1,1,1,1]', 0, 0, 'x', 'i:9')",
            (game.id,),
        )


async def test_the_board_is_written_with_the_game_and_only_moves_forward(tmp_path: Path) -> None:
    async with Store(tmp_path / "g.db") as store:
        game = await store.start(play(), board=(CHANNEL, 555))
        assert game.id is not None
        board = await store.board(game.id)
        assert board is not None and (board.channel_id, board.message_id) == (CHANNEL, 555)
        assert board.rendered_version == -1 and await store.boards_behind() == [game.id]
        await store.mark_rendered(game.id, 0)
        assert await store.boards_behind() == []
        game, _ = await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id)
        assert await store.boards_behind() == [game.id]
        await store.mark_rendered(game.id, 1)
        await store.mark_rendered(game.id, 0)  # a late render of an older version
        board = await store.board(game.id)
        assert board is not None and board.rendered_version == 1
        await store.move_board(game.id, CHANNEL, 777, 1)
        board = await store.board(game.id)
        assert board is not None and board.message_id == 777


async def test_a_v2_database_carries_its_boards_into_columns(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    build_v1(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        from bot.store import MIGRATIONS

        for statement in MIGRATIONS[1]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 2")
        conn.execute("INSERT INTO meta VALUES ('board:1', '800:12345'), ('board:2', '801:999')")
    async with Store(path) as store:
        active = await store.board(1)
        finished = await store.board(2)
        assert active is not None and (active.channel_id, active.message_id) == (800, 12345)
        assert active.rendered_version == -1  # an active game is redrawn once at start
        assert finished is not None and finished.rendered_version == 2  # its version: drawn
        assert await store.get_meta("board:1") is None
    assert query(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]


async def test_a_second_bot_process_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with Store(path, exclusive=True):
        code = (
            "import asyncio, sys\n"
            "from bot.store import Store, StoreUnavailable\n"
            "try:\n"
            f"    asyncio.run(Store.open({str(path)!r}, exclusive=True))\n"
            "except StoreUnavailable as e:\n"
            "    print(e); sys.exit(3)\n"
        )
        child = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=60
        )
        assert child.returncode == 3, child.stderr
        assert f"pid {os.getpid()}" in child.stdout and str(path) in child.stdout
        assert len(child.stdout.strip().splitlines()) == 1
    async with Store(path, exclusive=True):  # released on close
        pass


async def test_a_read_only_file_is_refused_in_one_line(tmp_path: Path) -> None:
    """Root ignores file modes, so as root the file is made immutable instead."""
    path = tmp_path / "g.db"
    async with Store(path):
        pass
    path.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable and subprocess.run(["chattr", "+i", str(path)], check=False).returncode:
        pytest.skip("running as root without chattr: no way to make a file read-only")
    try:
        with pytest.raises(StoreUnavailable, match="read-only") as refused:
            await Store.open(path)
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


async def test_a_corrupt_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    path.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreUnavailable) as refused:
        await Store.open(path)
    message = str(refused.value)
    assert str(path) in message and "damaged" in message and "\n" not in message


async def test_a_path_under_a_file_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    path = tmp_path / "file" / "sub" / "g.db"
    with pytest.raises(StoreUnavailable, match="cannot create the folder") as refused:
        await Store.open(path)
    assert str(path) in str(refused.value)


async def test_a_newer_database_is_a_store_unavailable(tmp_path: Path) -> None:
    assert issubclass(SchemaError, StoreUnavailable)


async def test_a_locked_database_answers_busy_within_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with Store(path, busy_timeout=0.3) as store:
        game = await store.start(play())
        with closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy, match="not recorded"):
                await asyncio.wait_for(
                    store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0), 5
                )
            other.execute("ROLLBACK")
        assert query(path, "SELECT count(*) FROM moves") == [(0,)]


async def test_expiry_skips_an_unreadable_game_and_ends_the_others(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    clock = Clock()
    async with Store(path, clock=clock) as store:
        first = await store.start(play(CHANNEL))
        second = await store.start(play(CHANNEL + 1))
        third = await store.start(play(CHANNEL + 2, starter_id=ALICE))
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("UPDATE games SET format = 99 WHERE id = ?", (second.id,))
        clock.advance(hours=30)
        expired = await store.expire_stale(timedelta(hours=24))
        assert sorted(g.id or 0 for g in expired) == sorted([first.id or 0, third.id or 0])
        assert query(path, "SELECT status FROM games WHERE id = ?", (second.id,)) == [("active",)]
