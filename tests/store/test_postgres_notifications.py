"""Every process hears of the games another process commits (#33: the Activity's live boards
in a cluster): two stores on one PostgreSQL database, as two bot processes would hold them."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.modes.play.rules import guess
from bot.store import Applied, open_store
from tests.store.helpers import BOB, play


async def _until(heard: list[Applied[Any]], count: int) -> None:
    for _ in range(200):
        if len(heard) >= count:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"heard {len(heard)} of {count}")


async def test_a_move_stored_by_another_process_is_heard(postgres_url: str) -> None:
    async with await open_store(postgres_url) as here, await open_store(postgres_url) as there:
        heard_here: list[Applied[Any]] = []
        heard_there: list[Applied[Any]] = []
        await here.listen_everywhere(heard_here.append)
        await there.listen_everywhere(heard_there.append)

        game = await there.start(play())
        assert game.id is not None
        await _until(heard_here, 1)  # a burst is read once, at its newest: one at a time here
        await there.act(lambda g: guess(g, BOB, "1122"), game_id=game.id, source="s1")
        await _until(heard_here, 2)
        assert [(a.game.id, a.game.version) for a in heard_here] == [(game.id, 0), (game.id, 1)]
        assert heard_here[-1].board is None and heard_here[-1].outcome is None
        assert heard_here[-1].game.revealed_secret is None  # read as any other read: withheld
        await asyncio.sleep(0.2)
        # the process that stored them heard each once, from itself, not again from the database
        assert [a.game.version for a in heard_there] == [0, 1]
        assert len(heard_here) == 2
