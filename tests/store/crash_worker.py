"""Crash-test worker: guesses on one channel forever, reporting each move once its call returned.

Usage: `python crash_worker.py DB_PATH [CHANNELS]`. With CHANNELS (default 1) it plays that
many channels at once, so their moves wait together and share commits (SQLite's group commit).
It waits for a line on stdin before opening the database, so the test can start it early
(imports take most of its start-up time) and let it go only once the previous worker's kill has
been checked. Each report is `<game id> <move number> <code> <black> <white>`, printed only
after `Store.apply` returned. When a game ends a new one starts, so the loop never stops.
"""

from __future__ import annotations

import asyncio
import random
import sys

import bot.modes.registry  # noqa: F401  # the store reads games through each mode's record
from bot.engine.game import Variant
from bot.modes.play.rules import guess, new_play_game
from bot.store import Store, open_store

PLAYER = 2


async def play(store: Store, channel: int) -> None:
    rng = random.Random()
    while True:
        game = await store.active_game(channel)
        if game is None:
            game = await store.start(
                new_play_game(
                    guild_id=1,
                    channel_id=channel,
                    starter_id=PLAYER,
                    variant=Variant(max_guesses=20),
                )
            )
        space = game.variant.space
        code = space.code_at(rng.randrange(space.size))
        game, outcome = await store.apply(lambda g, c=code: guess(g, PLAYER, c), game_id=game.id)
        move = outcome.move
        print(game.id, game.version, space.digits(code), move.black, move.white, flush=True)


async def main(path: str, channels: int) -> None:
    async with await open_store(path) as store:
        await asyncio.gather(*(play(store, channel) for channel in range(1, channels + 1)))


if __name__ == "__main__" and sys.stdin.readline():  # no "go" line (EOF): the test is gone
    asyncio.run(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1))
