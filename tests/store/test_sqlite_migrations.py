"""SQLite schema migrations: older files are upgraded in place, once, keeping their games."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from bot.engine.game import Status
from bot.modes.daily.rules import DailyGame
from bot.modes.play.rules import PlayGame, guess
from bot.modes.race.rules import RaceGame
from bot.modes.solve.rules import SolveGame, answer
from bot.store import SchemaError, open_store, schema
from bot.store.codec import game_to_record, move_to_record
from tests.store.helpers import ALICE, BOB, CHANNEL, SECRET, play, query, solve
from tests.store.old_schemas import SQLITE as MIGRATIONS

SCHEMA_VERSION = schema.newest()

ACTIVE_AT = "2025-01-01T10:00:00.000000+00:00"
SOLVED_AT = "2025-01-02T10:00:00.000000+00:00"
V1_GAME_COLUMNS = (
    "format, kind, guild_id, channel_id, starter_id, pegs, colours, duplicates, max_guesses, "
    "solo, strategy, secret, status, winner_id, version"
)


def build_v1(path: Path) -> tuple[PlayGame, SolveGame]:
    """A database as the first release wrote it: v1 DDL, one active and one finished game."""
    active, _ = guess(play(), BOB, "1111")
    active, _ = guess(active, ALICE, "2222")
    solved, _ = answer(solve(CHANNEL + 1), ALICE, 4, 0, None)
    columns = V1_GAME_COLUMNS.split(", ")
    insert_game = (
        f"INSERT INTO games ({V1_GAME_COLUMNS}, created_at, finished_at) "
        f"VALUES ({', '.join('?' * len(columns))}, ?, ?)"
    )
    with closing(sqlite3.connect(path)) as conn, conn:
        for statement in MIGRATIONS[0]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 1")
        for game, when in ((active, ACTIVE_AT), (solved, SOLVED_AT)):
            record = game_to_record(game)
            finished = None if game.status is Status.ACTIVE else when
            cursor = conn.execute(insert_game, (*(record[c] for c in columns), when, finished))
            for number, move in enumerate(game.log, start=1):
                row = move_to_record(move)
                values = (row["kind"], row["player_id"], row["code"], row["black"], row["white"])
                conn.execute(
                    "INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (cursor.lastrowid, number, *values, when),
                )
    return active, solved


def snapshot(path: Path) -> tuple[object, ...]:
    return (
        query(path, "PRAGMA user_version"),
        query(path, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name"),
        query(path, "SELECT * FROM games ORDER BY id"),
        query(path, "SELECT * FROM moves ORDER BY game_id, move_no"),
    )


async def test_a_v1_database_is_upgraded_in_place_with_its_games(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    active, solved = build_v1(path)
    assert query(path, "PRAGMA user_version") == [(1,)]
    async with await open_store(path) as store:
        loaded = await store.active_game(CHANNEL)
        assert isinstance(loaded, PlayGame) and loaded.moves == active.moves and loaded.id == 1
        assert await store.game(2) == replace(solved, id=2)
        # v2 features work on the old data: expiry by last move, meta, append-only moves.
        last_moves = query(path, "SELECT last_move_at FROM games ORDER BY id")
        assert last_moves == [(ACTIVE_AT,), (SOLVED_AT,)]
        await store.set_meta("k", "v")
        _, outcome = await store.apply(lambda g: guess(g, BOB, "1234"), channel_id=CHANNEL)
        assert outcome.number == 3 and outcome.status is Status.WON and outcome.secret == SECRET
        assert await store.expire_stale(timedelta(days=1)) == []
    assert query(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        query(path, "DELETE FROM moves")


async def test_migrating_again_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    build_v1(path)
    async with await open_store(path):
        pass
    before = snapshot(path)
    async with await open_store(path):
        pass
    assert snapshot(path) == before
    assert before[0] == [(SCHEMA_VERSION,)]


async def test_a_fresh_database_matches_an_upgraded_one(tmp_path: Path) -> None:
    build_v1(tmp_path / "old.db")
    for name in ("old.db", "new.db"):
        async with await open_store(tmp_path / name):
            pass
    assert snapshot(tmp_path / "old.db")[:2] == snapshot(tmp_path / "new.db")[:2]


async def test_a_newer_database_is_refused_clearly(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    async with await open_store(path):
        pass
    query(path, f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaError, match=r"newer mastermind-bot .*upgrade the bot"):
        await open_store(path)
    assert query(path, "PRAGMA user_version") == [(SCHEMA_VERSION + 1,)]  # left untouched


async def test_another_applications_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "theirs.db"
    query(path, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    with pytest.raises(SchemaError, match=r"another application's tables \(customers\)"):
        await open_store(path)
    tables = query(path, "SELECT name FROM sqlite_master WHERE type = 'table'")
    assert tables == [("customers",)] and query(path, "PRAGMA user_version") == [(0,)]


async def test_a_v2_database_carries_its_boards_into_columns(tmp_path: Path) -> None:
    path = tmp_path / "v1.db"
    build_v1(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        for statement in MIGRATIONS[1]:
            conn.execute(statement)
        conn.execute("PRAGMA user_version = 2")
        conn.execute("INSERT INTO meta VALUES ('board:1', '800:12345'), ('board:2', '801:999')")
    async with await open_store(path) as store:
        active = await store.board(1)
        finished = await store.board(2)
        assert active is not None and (active.channel_id, active.message_id) == (800, 12345)
        assert active.rendered_version == -1  # an active game is redrawn once at start
        assert finished is not None and finished.rendered_version == 2  # its version: drawn
        assert await store.get_meta("board:1") is None
    assert query(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]


async def test_the_log_says_a_new_database_was_created_and_an_old_one_upgraded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A new file is not 'upgraded from 0' (#31)."""
    caplog.set_level("INFO", logger="bot.store.migrations")
    async with await open_store(tmp_path / "new.db"):
        pass
    build_v1(tmp_path / "v1.db")
    async with await open_store(tmp_path / "v1.db"):
        pass
    lines = [record.getMessage() for record in caplog.records]
    assert lines == [
        f"{tmp_path / 'new.db'}: new database, schema {SCHEMA_VERSION} created",
        f"{tmp_path / 'v1.db'}: schema upgraded from 1 to {SCHEMA_VERSION}",
    ], lines


def normalized(path: Path) -> list[tuple[object, ...]]:
    """The schema as SQLite runs it: each object's SQL with spacing folded (an old file's
    table, rebuilt from its own text, keeps its line breaks)."""
    rows = query(path, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name")
    fold = lambda sql: re.sub(r"\s+([,)])", r"\1", re.sub(r"\s+", " ", sql or "")).strip()  # noqa: E731
    return [(kind, name, fold(sql)) for kind, name, sql in rows]


def build_v5(path: Path) -> None:
    """A file as the last bot before one migration list left it: every kind of game in it."""
    build_v1(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        for number in range(1, 5):
            for statement in MIGRATIONS[number]:
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 5")
        conn.execute(
            "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
            "max_guesses, solo, secret, status, version, created_at, reach, puzzle) "
            "VALUES (1, 'daily', 5, 7, 4, 6, 1, 10, 0, '[0,1,2,3]', 'active', 0, ?, 'private', 3)",
            (ACTIVE_AT,),
        )
        conn.execute(
            "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
            "max_guesses, solo, secret, status, version, created_at, lobby_until, race_until) "
            "VALUES (1, 'race', 5, 7, 4, 6, 1, 10, 0, '[0,1,2,3]', 'active', 0, ?, 100, 200)",
            (ACTIVE_AT,),
        )


async def test_a_file_at_the_last_old_step_upgrades_to_the_fresh_schema(tmp_path: Path) -> None:
    """SQLite counted its steps as the one list does: a file at step 5 runs 6 and 7 only, and
    ends where a fresh file ends (no kind listed, a draw allowed); its games are all there."""
    build_v5(tmp_path / "old.db")
    listed = "SELECT sql FROM sqlite_master WHERE name = 'games'"
    assert "'race'" in str(query(tmp_path / "old.db", listed)[0][0])  # the old CHECK lists kinds
    for name in ("old.db", "new.db"):
        async with await open_store(tmp_path / name):
            pass
    assert normalized(tmp_path / "old.db") == normalized(tmp_path / "new.db")
    async with await open_store(tmp_path / "old.db") as store:
        daily, race = await store.game(3), await store.game(4)
        assert isinstance(daily, DailyGame) and daily.puzzle == 3
        assert isinstance(race, RaceGame) and race.race_until == 200
    query(  # a kind no bot has yet, and a game that ended even: the schema lets both be
        tmp_path / "old.db",
        "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
        "max_guesses, solo, status, version, created_at) "
        "VALUES (1, 'duel', 9, 7, 4, 6, 1, 10, 0, 'draw', 0, 'now')",
    )
