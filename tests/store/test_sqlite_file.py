"""What only the SQLite implementation has: its file settings (WAL, synchronous, busy timeout),
constraints inside the database itself, one bot process per file, clear refusals of files it
cannot use, a bounded wait on a locked file, and rows an outside tool can damage."""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.modes.play.rules import guess
from bot.store import (
    BUSY_TIMEOUT_SECONDS,
    SqliteDialect,
    SqlStore,
    StoreBusy,
    StoreInUse,
    StoreUnavailable,
    open_store,
    schema,
)
from bot.store.filelock import claim, holder_pid
from tests.store.helpers import ALICE, BOB, CHANNEL, Clock, play, query


@pytest.fixture
def dialect(tmp_path: Path) -> SqliteDialect:
    return SqliteDialect(tmp_path / "games.db")


@pytest.fixture
async def store(dialect: SqliteDialect, clock: Clock) -> AsyncIterator[SqlStore]:
    async with SqlStore(dialect, clock=clock) as store:
        yield store


async def test_file_settings_and_schema(store: SqlStore, dialect: SqliteDialect) -> None:
    assert query(dialect.path, "PRAGMA journal_mode") == [("wal",)]
    assert query(dialect.path, "PRAGMA user_version") == [(schema.newest(),)]
    for pragma, value in (
        ("synchronous", 2),
        ("foreign_keys", 1),
        ("busy_timeout", int(BUSY_TIMEOUT_SECONDS * 1000)),
    ):
        sql = f"PRAGMA {pragma}"
        rows = await dialect.run(lambda session, sql=sql: session.fetch(sql), write=False)
        assert [tuple(row) for row in rows] == [(value,)]


async def test_the_database_itself_refuses_a_second_active_game(
    store: SqlStore, dialect: SqliteDialect
) -> None:
    await store.start(play())
    with pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        query(
            dialect.path,
            "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
            "max_guesses, solo, secret, status, version, created_at) "
            "SELECT format, kind, channel_id, starter_id, pegs, colours, duplicates, max_guesses, "
            "solo, secret, status, version, created_at FROM games",
        )


async def test_moves_are_append_only_in_the_database(
    store: SqlStore, dialect: SqliteDialect
) -> None:
    game = await store.start(play())
    await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        query(dialect.path, "UPDATE moves SET black = 4")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        query(dialect.path, "DELETE FROM moves")


async def test_the_database_refuses_a_repeated_source_even_without_the_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.db"
    async with await open_store(path) as store:
        game = await store.start(play())
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source="i:9")
    with closing(sqlite3.connect(path)) as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO moves (game_id, move_no, kind, player_id, code, black, white, "
            "created_at, source) VALUES (?, 2, 'guess', 2, '[1,1,1,1]', 0, 0, 'x', 'i:9')",
            (game.id,),
        )


def _can_bind_mount() -> bool:
    """A bind mount needs root and a mount namespace of our own (`unshare -m`)."""
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    return subprocess.run(["unshare", "-m", "true"], check=False).returncode == 0


def _another_name(how: str, path: Path, elsewhere: Path) -> tuple[str, list[str], Path]:
    """Another name for the database file `path`: (the name, the command prefix that makes it
    reachable, the working folder)."""
    if how == "symlink":
        (elsewhere / "link.db").symlink_to(path)
        return str(elsewhere / "link.db"), [], elsewhere
    if how == "hard link":
        os.link(path, elsewhere / "hard.db")
        return str(elsewhere / "hard.db"), [], elsewhere
    if how == "relative path":
        return os.path.relpath(path, elsewhere), [], elsewhere
    if not _can_bind_mount():
        pytest.skip("no bind mount here (needs root and unshare -m); the lock is on the inode")
    target = elsewhere / "mounted.db"
    target.touch()
    mount = f'mount --bind {shlex.quote(str(path))} {shlex.quote(str(target))} && exec "$@"'
    return (
        str(target),
        ["unshare", "-m", "--propagation", "private", "sh", "-c", mount, "sh"],
        (elsewhere),
    )


@pytest.mark.parametrize(
    "how", ["same path", "symlink", "hard link", "relative path", "bind mount"]
)
async def test_a_second_bot_process_on_the_same_file_is_refused(tmp_path: Path, how: str) -> None:
    """However the second process names the file, it meets the first one's lock (a lock on the
    file itself, not on a name beside it)."""
    path = tmp_path / "data" / "g.db"
    elsewhere = tmp_path / "elsewhere" / "deeper"
    elsewhere.mkdir(parents=True)
    async with await open_store(path, exclusive=True):
        name, prefix, cwd = (
            (str(path), [], tmp_path) if how == "same path" else _another_name(how, path, elsewhere)
        )
        code = (
            "import asyncio, sys\n"
            "from bot.store import StoreUnavailable, open_store\n"
            "try:\n"
            f"    asyncio.run(open_store({name!r}, exclusive=True))\n"
            "except StoreUnavailable as e:\n"
            "    print(e); sys.exit(3)\n"
        )
        child = subprocess.run(
            [*prefix, sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        )
        assert child.returncode == 3, child.stdout + child.stderr
        assert f"pid {os.getpid()}" in child.stdout and name in child.stdout
        assert len(child.stdout.strip().splitlines()) == 1
    async with await open_store(path, exclusive=True):  # released on close
        pass


def test_the_one_bot_lock_is_on_the_database_file_itself(tmp_path: Path) -> None:
    """Why a bind mount is covered even where no test can make one: the lock is the file's
    (its device and inode, as the kernel lists it), not a name's, and no file is made beside."""
    path = tmp_path / "g.db"
    held = claim(path)
    try:
        assert holder_pid(path.stat()) == str(os.getpid())
        assert sorted(p.name for p in tmp_path.iterdir()) == ["g.db"]
        with pytest.raises(StoreInUse):
            claim(path)
    finally:
        os.close(held)
    assert holder_pid(path.stat()) is None


async def test_a_read_only_file_is_refused_in_one_line(tmp_path: Path) -> None:
    """Root ignores file modes, so as root the file is made immutable instead."""
    path = tmp_path / "g.db"
    async with await open_store(path):
        pass
    path.chmod(0o444)
    immutable = os.geteuid() == 0
    if immutable and subprocess.run(["chattr", "+i", str(path)], check=False).returncode:
        pytest.skip("running as root without chattr: no way to make a file read-only")
    try:
        with pytest.raises(StoreUnavailable, match="read-only") as refused:
            await open_store(path)
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


async def test_a_corrupt_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    path.write_bytes(b"this is not a database at all" * 200)
    with pytest.raises(StoreUnavailable) as refused:
        await open_store(path)
    message = str(refused.value)
    assert str(path) in message and "damaged" in message and "\n" not in message


async def test_a_path_under_a_file_is_refused_naming_it(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    path = tmp_path / "file" / "sub" / "g.db"
    with pytest.raises(StoreUnavailable, match="cannot create the folder") as refused:
        await open_store(path)
    assert str(path) in str(refused.value)


async def test_a_locked_database_answers_busy_within_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    async with await open_store(path, busy_timeout=0.3) as store:
        game = await store.start(play())
        with closing(sqlite3.connect(path, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreBusy):
                await asyncio.wait_for(
                    store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0), 5
                )
            other.execute("ROLLBACK")
        assert query(path, "SELECT count(*) FROM moves") == [(0,)]


async def test_expiry_skips_an_unreadable_game_and_ends_the_others(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    clock = Clock()
    async with await open_store(path, clock=clock) as store:
        first = await store.start(play(CHANNEL))
        second = await store.start(play(CHANNEL + 1))
        third = await store.start(play(CHANNEL + 2, starter_id=ALICE))
        with closing(sqlite3.connect(path)) as conn, conn:
            conn.execute("UPDATE games SET format = 99 WHERE id = ?", (second.id,))
        clock.advance(hours=30)
        expired = await store.expire_stale(timedelta(hours=24))
        assert sorted(g.id or 0 for g in expired) == sorted([first.id or 0, third.id or 0])
        assert query(path, "SELECT status FROM games WHERE id = ?", (second.id,)) == [("active",)]


async def test_a_folder_the_bot_cannot_write_is_named_as_the_databases_folder(
    tmp_path: Path,
) -> None:
    """Not the internal lock file's name: whose folder it is and what to do (#31)."""
    folder = tmp_path / "data"
    folder.mkdir()
    immutable = ["chattr", "+i", str(folder)] if os.geteuid() == 0 else None
    if immutable:
        subprocess.run(immutable, check=True)  # root ignores mode bits
    else:
        folder.chmod(0o555)
    try:
        with pytest.raises(StoreUnavailable) as refused:
            await open_store(folder / "mastermind.db", exclusive=True)
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        else:
            folder.chmod(0o755)
    message = str(refused.value)
    assert f"cannot write in {folder}, the database's folder" in message, message
    assert ".lock" not in message and "DATABASE_PATH" in message
