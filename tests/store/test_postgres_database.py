"""What only the PostgreSQL implementation has: constraints inside the database itself, schema
migrations in place, a bounded wait on a locked game, clear refusals of a database it cannot
use, and rows an outside tool can damage. On a real server (see postgres_server.py)."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import asyncpg
import pytest

from bot.modes.daily.rules import DailyGame
from bot.modes.play.rules import guess
from bot.modes.race.rules import RaceGame
from bot.redact import redact
from bot.store import (
    AlreadyApplied,
    PostgresDialect,
    SchemaError,
    SqlStore,
    StoreBusy,
    StoreUnavailable,
    open_store,
    schema,
)
from tests.store.helpers import ALICE, BOB, CHANNEL, Clock, play
from tests.store.old_schemas import POSTGRES
from tests.store.postgres_server import PostgresServer, query


def refused(url: str, sql: str) -> str:
    """The error PostgreSQL answers to `sql`, from an outside connection."""
    with pytest.raises(asyncpg.PostgresError) as error:
        query(url, sql)
    return str(error.value)


async def test_the_database_itself_keeps_the_rules(postgres_url: str) -> None:
    async with await open_store(postgres_url) as store:
        game = await store.start(play())
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source="i:9")
    assert "games_one_active_per_channel" in refused(
        postgres_url,
        "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
        "max_guesses, solo, secret, status, version, created_at, last_move_at) "
        "SELECT format, kind, channel_id, starter_id, pegs, colours, duplicates, max_guesses, "
        "solo, secret, status, version, created_at, last_move_at FROM games",
    )
    for statement in ("UPDATE moves SET black = 4", "DELETE FROM moves", "TRUNCATE moves"):
        assert "append-only" in refused(postgres_url, statement)
    assert "moves_once_per_source" in refused(
        postgres_url,
        "INSERT INTO moves (game_id, move_no, kind, player_id, code, black, white, created_at, "
        f"source) VALUES ({game.id}, 2, 'guess', 2, '[1,1,1,1]', 0, 0, now(), 'i:9')",
    )
    assert query(postgres_url, "SELECT version FROM mastermind_schema") == [(schema.newest(),)]


async def test_one_input_makes_one_move_across_processes(postgres_url: str) -> None:
    """Two processes (two stores) get the same input at once: one move, one AlreadyApplied."""
    async with (
        await open_store(postgres_url) as first,
        await open_store(postgres_url) as second,
    ):
        game = await first.start(play())
        results = await asyncio.gather(
            *(
                store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0, source="i:1")
                for store in (first, second) * 4
            ),
            return_exceptions=True,
        )
    assert sum(not isinstance(r, BaseException) for r in results) == 1
    assert all(isinstance(r, AlreadyApplied) for r in results if isinstance(r, BaseException))
    assert query(postgres_url, "SELECT count(*) FROM moves") == [(1,)]


async def test_an_older_schema_is_upgraded_in_place(postgres_url: str) -> None:
    async with await SqlStore.open(PostgresDialect(postgres_url), schema_version=1):
        pass  # a game as the first schema wrote it: a row per move, secret 1234
    query(
        postgres_url,
        "INSERT INTO games (id, format, kind, guild_id, channel_id, starter_id, pegs, colours, "
        "duplicates, max_guesses, solo, secret, status, version, created_at, last_move_at) "
        "VALUES (7, 1, 'play', 1, 2, 3, 4, 6, true, 10, false, '[0,1,2,3]', 'active', 1, "
        "now(), now())",
    )
    query(
        postgres_url,
        "INSERT INTO moves (game_id, move_no, kind, player_id, code, black, white, created_at) "
        "VALUES (7, 1, 'guess', 3, '[0,0,0,0]', 1, 0, now())",
    )
    game = 7
    assert query(postgres_url, "SELECT to_regclass('leases') IS NULL") == [(True,)]

    stores = await asyncio.gather(*(open_store(postgres_url) for _ in range(3)))
    for store in stores:  # three processes starting at once: migrated once, all work
        await store.close()
    assert query(postgres_url, "SELECT version FROM mastermind_schema") == [(schema.newest(),)]
    async with await open_store(postgres_url) as store:
        _, outcome = await store.apply(lambda g: guess(g, BOB, "1234"), game_id=game)
        assert outcome.number == 2 and outcome.secret is not None
    assert query(postgres_url, "SELECT count(*) FROM leases") == [(0,)]


async def test_a_newer_schema_is_refused_untouched(postgres_url: str) -> None:
    async with await open_store(postgres_url):
        pass
    query(postgres_url, "UPDATE mastermind_schema SET version = 99")
    with pytest.raises(SchemaError, match="newer mastermind-bot") as caught:
        await open_store(postgres_url)
    assert "\n" not in str(caught.value)
    assert query(postgres_url, "SELECT version FROM mastermind_schema") == [(99,)]


async def test_another_applications_database_is_refused_untouched(postgres_url: str) -> None:
    query(postgres_url, "CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    with pytest.raises(SchemaError, match=r"another application's tables \(customers\)"):
        await open_store(postgres_url)
    untouched = "SELECT to_regclass('games') IS NULL AND to_regclass('mastermind_schema') IS NULL"
    assert query(postgres_url, untouched) == [(True,)]


async def test_a_locked_game_answers_busy_within_the_bound(postgres_url: str) -> None:
    async with await open_store(postgres_url, busy_timeout=0.3) as store:
        game = await store.start(play())
        other = await asyncpg.connect(postgres_url)
        try:
            transaction = other.transaction()
            await transaction.start()
            await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", game.id)
            began = asyncio.get_running_loop().time()
            with pytest.raises(StoreBusy):
                await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0)
            assert asyncio.get_running_loop().time() - began < 2.0
            await transaction.rollback()
        finally:
            await other.close()
        assert query(postgres_url, "SELECT count(*) FROM moves") == [(0,)]
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0)  # free again


async def test_no_free_connection_answers_busy_within_the_bound(postgres_url: str) -> None:
    dialect = PostgresDialect(postgres_url, busy_timeout=0.3, pool_size=1)
    async with await SqlStore.open(dialect) as store:
        game = await store.start(play())
        async with dialect.pool.acquire():  # the only connection is taken
            with pytest.raises(StoreBusy):
                await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id or 0)
    assert query(postgres_url, "SELECT count(*) FROM moves") == [(0,)]


async def test_expiry_skips_an_unreadable_game_and_ends_the_others(postgres_url: str) -> None:
    clock = Clock()
    async with await open_store(postgres_url, clock=clock) as store:
        first = await store.start(play(CHANNEL))
        second = await store.start(play(CHANNEL + 1))
        third = await store.start(play(CHANNEL + 2, starter_id=ALICE))
        query(postgres_url, "UPDATE games SET format = 99 WHERE id = ?", (second.id,))
        clock.advance(hours=30)
        expired = await store.expire_stale(timedelta(hours=24))
        assert sorted(g.id or 0 for g in expired) == sorted([first.id or 0, third.id or 0])
    assert query(postgres_url, "SELECT status FROM games WHERE id = ?", (second.id,)) == [
        ("active",)
    ]


async def test_an_unusable_database_is_refused_in_one_line(
    postgres_server: PostgresServer,
) -> None:
    missing = postgres_server.dsn("no_such_database")
    with pytest.raises(StoreUnavailable, match="does not exist") as caught:
        await open_store(missing)
    assert "no_such_database" in str(caught.value) and "\n" not in str(caught.value)

    with_password = f"postgresql://bot:hunter2@127.0.0.1:{postgres_server.port}/x"
    assert redact(with_password) == f"postgresql://bot:***@127.0.0.1:{postgres_server.port}/x"
    closed_port = "postgresql://bot:hunter2@127.0.0.1:1/mastermind"
    with pytest.raises(StoreUnavailable, match="cannot be reached") as caught:
        await open_store(closed_port)
    assert "hunter2" not in str(caught.value) and "127.0.0.1:1" in str(caught.value)


def schema_of(url: str) -> list[tuple[object, ...]]:
    """What PostgreSQL holds of the schema: columns, constraints and indexes."""
    columns = query(
        url,
        "SELECT table_name, column_name, data_type, is_nullable, column_default "
        "FROM information_schema.columns WHERE table_schema = current_schema() "
        "ORDER BY table_name, column_name",
    )
    checks = query(
        url,
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE connamespace = current_schema()::regnamespace ORDER BY 1, 2",
    )
    indexes = query(
        url,
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() "
        "ORDER BY indexname",
    )
    return [*columns, *checks, *indexes]


async def test_a_database_in_the_old_numbering_upgrades_to_the_fresh_schema(
    postgres_server: PostgresServer,
) -> None:
    """PostgreSQL counted four steps of its own before the list was one: a database at its
    step 4 is read as step 5 of the one list, runs 6 and 7 and ends where a fresh one ends (no
    kind listed, a draw allowed), every game kept."""
    old, fresh = postgres_server.create_database(), postgres_server.create_database()
    try:
        for statement in (s for step in POSTGRES for s in step):
            query(old, statement)
        query(old, "CREATE TABLE mastermind_schema (version INTEGER NOT NULL)")
        query(old, "INSERT INTO mastermind_schema VALUES (4)")
        assert "'race'" in str(schema_of(old))  # the old CHECK lists kinds
        query(
            old,
            "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
            "max_guesses, solo, secret, status, version, created_at, last_move_at, reach, puzzle) "
            "VALUES (1, 'daily', 5, 7, 4, 6, true, 10, false, '[0,1,2,3]', 'active', 0, now(), "
            "now(), 'private', 3)",
        )
        query(
            old,
            "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
            "max_guesses, solo, secret, status, version, created_at, last_move_at, lobby_until, "
            "race_until) VALUES (1, 'race', 5, 7, 4, 6, true, 10, false, '[0,1,2,3]', 'active', "
            "0, now(), now(), 100, 200)",
        )
        for url in (old, fresh):
            async with await open_store(url):
                pass
        assert schema_of(old) == schema_of(fresh)
        assert query(old, "SELECT version, numbering FROM mastermind_schema") == [
            (schema.newest(), 2)
        ]
        async with await open_store(old) as store:
            daily, race = await store.game(1), await store.game(2)
            assert isinstance(daily, DailyGame) and daily.puzzle == 3
            assert isinstance(race, RaceGame) and race.race_until == 200
        query(  # a kind no bot has yet, and a game that ended even: the schema lets both be
            old,
            "INSERT INTO games (format, kind, channel_id, starter_id, pegs, colours, duplicates, "
            "max_guesses, solo, status, version, created_at, last_move_at) "
            "VALUES (1, 'duel', 9, 7, 4, 6, true, 10, false, 'draw', 0, now(), now())",
        )
    finally:
        postgres_server.drop_database(old)
        postgres_server.drop_database(fresh)
