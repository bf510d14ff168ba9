"""`python -m bot copy-to-postgres`: a SQLite database copied into PostgreSQL, checked through the
store interface on both sides (games, secrets, boards, stats, history, meta), idempotent,
verified by counts, and refused where it would mix two databases' games."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.engine.game import give_up
from bot.modes.play.rules import guess
from bot.modes.solve.rules import answer, undo
from bot.store import Store, open_store
from bot.store.filelock import claim
from bot.transfer import CopyError, copy_to_postgres
from tests.store.helpers import ALICE, BOB, CAROL, CHANNEL, GUILD, Clock, play, solve
from tests.store.postgres_server import query

ROOT = Path(__file__).resolve().parents[2]


async def fill(store: Store) -> list[int]:
    """Finished and active games of both kinds, with boards, sources and meta."""
    won = await store.start(play(CHANNEL), board=(CHANNEL, 901))
    await store.apply(lambda g: guess(g, ALICE, "1111"), game_id=won.id, source="i:1")
    await store.apply(lambda g: guess(g, BOB, "1234"), game_id=won.id, source="i:2")
    await store.mark_rendered(won.id or 0, 2)
    given_up = await store.start(play(CHANNEL, starter_id=CAROL))
    await store.apply(lambda g: guess(g, CAROL, "6666"), game_id=given_up.id)
    await store.apply(lambda g: give_up(g, CAROL), game_id=given_up.id)
    solving = await store.start(solve(CHANNEL + 1), board=(CHANNEL + 1, 902), source="i:3")
    for step in (
        lambda g: answer(g, ALICE, 1, 0, (0, 2, 2, 2)),
        lambda g: answer(g, ALICE, 0, 0, None),
        lambda g: undo(g, ALICE),
    ):
        await store.apply(step, game_id=solving.id)
    active = await store.start(play(CHANNEL + 2), board=(CHANNEL + 2, 903))
    await store.apply(lambda g: guess(g, BOB, "2222"), game_id=active.id, source="i:4")
    await store.set_meta("commands_hash", "abc")
    await store.set_meta("commands_guild", "")
    return [g.id or 0 for g in (won, given_up, solving, active)]


async def same_through_the_interface(first: Store, second: Store, ids: list[int]) -> None:
    for game_id in ids:
        assert await first.game(game_id) == await second.game(game_id)
        assert await first.board(game_id) == await second.board(game_id)
    for channel in (CHANNEL, CHANNEL + 1, CHANNEL + 2):
        assert await first.active_game(channel) == await second.active_game(channel)
    for player in (ALICE, BOB, CAROL):
        assert await first.player_stats(GUILD, player) == await second.player_stats(GUILD, player)
    assert await first.leaderboard(GUILD) == await second.leaderboard(GUILD)
    assert await first.history() == await second.history()
    assert await first.boards_behind() == await second.boards_behind()
    for key in ("commands_hash", "commands_guild"):
        assert await first.get_meta(key) == await second.get_meta(key)


async def test_copy_is_complete_idempotent_and_catches_up(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "mastermind.db"
    async with await open_store(path, clock=Clock()) as sqlite:
        ids = await fill(sqlite)

    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "bot", "copy-to-postgres", "--from", str(path)]
    done = subprocess.run(
        [*command, "--to", postgres_url], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[1:] == [
        "games: 4 in the file: 4 new, 0 brought up to date, 0 already there",
        "moves: 10 in the file: 10 new, 0 already there",
        "meta: 2 key(s) in the file: 2 new or changed",
        "verified: the database holds all 4 games, 10 moves and 2 meta key(s) of the file",
    ]
    async with await open_store(path) as sqlite, await open_store(postgres_url) as pg:
        await same_through_the_interface(sqlite, pg, ids)

    again = await copy_to_postgres(path, postgres_url)  # nothing twice
    assert (again.games_new, again.games_updated, again.moves_new, again.meta_changed) == (
        0,
        0,
        0,
        0,
    )

    async with await open_store(path) as sqlite:  # the bot went on on the file meanwhile
        await sqlite.apply(lambda g: guess(g, CAROL, "3333"), channel_id=CHANNEL + 2)
    caught_up = await copy_to_postgres(path, postgres_url)
    assert (caught_up.games_new, caught_up.games_updated, caught_up.moves_new) == (0, 1, 1)
    async with await open_store(path) as sqlite, await open_store(postgres_url) as pg:
        await same_through_the_interface(sqlite, pg, ids)
        new = await pg.start(play(CHANNEL + 3))
        assert (new.id or 0) > max(ids)  # ids go on after the copied ones


async def test_a_database_with_other_games_is_refused_untouched(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "mastermind.db"
    async with await open_store(path) as sqlite:
        await sqlite.start(play(CHANNEL))
    async with await open_store(postgres_url) as pg:
        await pg.start(play(CHANNEL + 5, starter_id=CAROL))  # its own game 1
    with pytest.raises(CopyError, match="already holds other games"):
        await copy_to_postgres(path, postgres_url)
    assert query(postgres_url, "SELECT channel_id FROM games") == [(CHANNEL + 5,)]


async def test_a_running_bot_or_a_missing_file_is_refused(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "mastermind.db"
    with pytest.raises(CopyError, match="no database file"):
        await copy_to_postgres(path, postgres_url)
    async with await open_store(path):
        pass
    lock = claim(path)  # what the running bot holds
    try:
        with pytest.raises(CopyError, match="needs the bot stopped"):
            await copy_to_postgres(path, postgres_url)
    finally:
        os.close(lock)
    with pytest.raises(CopyError, match="postgresql://"):
        await copy_to_postgres(path, str(tmp_path / "other.db"))
