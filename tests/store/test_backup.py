"""`python -m bot backup` (#31): a consistent copy of the SQLite file taken while the bot holds
it (what is still in the WAL included), checked, one self-contained file, restored by putting it
in place of the database; a damaged copy is caught; `--into --keep N` keeps the newest N; on
PostgreSQL it says to use pg_dump."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.backup import BackupError, back_up, check
from bot.modes.play.rules import guess
from bot.store import open_store
from tests.store.helpers import ALICE, CHANNEL, Clock, play
from tests.store.test_copy_to_postgres import fill, same_through_the_interface

ROOT = Path(__file__).resolve().parents[2]


def _backup(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    environ.update(PYTHONPATH=str(ROOT), **env)
    command = [sys.executable, "-m", "bot", "backup", *args]
    return subprocess.run(command, cwd=cwd, env=environ, capture_output=True, text=True)


async def test_a_backup_taken_while_the_bot_runs_restores_every_game(tmp_path: Path) -> None:
    live = tmp_path / "data" / "mastermind.db"
    copy = tmp_path / "backups" / "mastermind.db"
    clock = Clock()
    async with await open_store(live, clock=clock, exclusive=True) as store:  # as the bot does
        ids = await fill(store)
        assert (live.parent / "mastermind.db-wal").stat().st_size > 0  # not all in the file yet
        done = _backup(tmp_path, "--to", str(copy), DATABASE_PATH=str(live))
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"backed up to {copy}: schema ")
        assert "4 game(s), 10 move(s)" in done.stdout and "integrity check ok" in done.stdout
        later = await store.start(play(CHANNEL + 7))  # after the copy: not in it
        await store.apply(lambda g: guess(g, ALICE, "1111"), game_id=later.id)
    assert sorted(p.name for p in copy.parent.iterdir()) == ["mastermind.db"]  # one file

    # Restore as docs/hosting.md says: the bot stopped, the copy in place of the database.
    restored = tmp_path / "restored" / "mastermind.db"
    restored.parent.mkdir()
    shutil.copy(copy, restored)
    async with (
        await open_store(restored, clock=clock, exclusive=True) as back,
        await open_store(live, clock=clock) as original,
    ):
        for game_id in ids:
            assert await back.game(game_id) == await original.game(game_id)
            assert await back.board(game_id) == await original.board(game_id)
        assert await back.active_game(CHANNEL + 7) is None
        assert await original.active_game(CHANNEL + 7) is not None
    async with (
        await open_store(copy, clock=clock) as back,
        await open_store(tmp_path / "fresh.db", clock=clock) as fresh,
    ):
        await same_through_the_interface(back, back, ids)  # readable through every query
        assert await fresh.history() == []


async def test_a_damaged_copy_fails_its_check_and_no_copy_is_left(tmp_path: Path) -> None:
    live = tmp_path / "mastermind.db"
    async with await open_store(live, clock=Clock()) as store:
        await fill(store)
    good = back_up(live, tmp_path / "good.db")
    assert good.games == 4 and check(good.path).moves == 10
    damaged = tmp_path / "damaged.db"
    data = bytearray(good.path.read_bytes())
    page = int.from_bytes(data[16:18], "big")  # the header's page size
    for start in range(page, len(data), page):  # every page but the first (the schema's)
        data[start : start + 64] = b"\x55" * 64
    damaged.write_bytes(bytes(data))
    with pytest.raises(BackupError, match=r"integrity check|cannot be read back"):
        check(damaged)
    with pytest.raises(BackupError, match="no database at"):
        back_up(tmp_path / "missing.db", tmp_path / "never.db")
    assert not (tmp_path / "never.db").exists()
    assert not list(tmp_path.glob(".*.partial"))


async def test_into_a_folder_keeps_the_newest_copies(tmp_path: Path) -> None:
    live = tmp_path / "mastermind.db"
    async with await open_store(live, clock=Clock()):
        pass
    folder = tmp_path / "backups"
    folder.mkdir()
    for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
        sqlite3.connect(folder / f"mastermind-{day}T031500Z.db").close()
    (folder / "notes.txt").write_text("not a backup: left alone")
    done = _backup(tmp_path, "--into", str(folder), "--keep", "2", DATABASE_PATH=str(live))
    assert done.returncode == 0, done.stderr
    kept = sorted(p.name for p in folder.iterdir())
    assert kept[0] == "mastermind-2026-11-22T031500Z.db" and kept[2] == "notes.txt"
    assert kept[1].startswith("mastermind-20") and kept[1] > kept[0]
    assert done.stdout.count("removed ") == 2


def test_on_postgresql_it_says_pg_dump_and_hides_the_password(tmp_path: Path) -> None:
    url = "postgresql://mastermind:hunter2@db.example:5432/mastermind"
    done = _backup(tmp_path, "--to", str(tmp_path / "x.db"), DATABASE_URL=url)
    assert done.returncode == 2
    assert "pg_dump --format=custom" in done.stderr and "pg_restore" in done.stderr
    assert "hunter2" not in done.stderr
    assert not (tmp_path / "x.db").exists()
