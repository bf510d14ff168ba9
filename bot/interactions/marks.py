"""Which version each board shows: known at once in this process, written to the store in
batches.

Drawing a board and recording what it shows used to be two steps of every move, each with its
own write transaction. The version a board now shows is kept here the moment it is drawn (under
the game's board lock, so a later check in this process sees it), and the marks drawn within
one short moment are written together in one transaction (group commit). A crash loses only
marks not yet written: the start-up pass then finds those boards behind and redraws them once
more, with the same picture, so boards still converge to the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections import OrderedDict
from typing import Any

from bot.engine.game import Reach
from bot.store import Applied, Store, StoreBusy

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.05
"""How long a mark waits for others to join its write: short beside any human, long enough to
gather a busy moment's boards into one transaction."""
KEPT = 10_000
"""Boards whose drawn version this process remembers (the store has the rest)."""


class BoardMarks:
    """The drawn versions of this process's boards, and the marks still to be written."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._drawn: OrderedDict[int, int] = OrderedDict()
        self._pending: dict[int, int] = {}
        self._coming: dict[int, int] = {}
        self._redrawing = 0
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def committed(self, applied: Applied[Any]) -> None:
        """A move was stored (the store tells every one, as it commits): a redraw of its
        version is on its way if its game has a board the bot keeps."""
        game = applied.game
        if game.id is not None and applied.board is not None and game.reach is Reach.CHANNEL:
            self._coming[game.id] = max(game.version, self._coming.get(game.id, -1))

    def newer_coming(self, game_id: int, version: int) -> bool:
        """A newer move of the game is stored and its redraw is on its way: it will draw the
        board once for both (a burst of moves on one board draws it once, for its newest
        version)."""
        return self._coming.get(game_id, -1) > version

    def redrawing(self) -> None:
        """A move's redraw is under way (counted until it `arrived`)."""
        self._redrawing += 1
        self._quiet.clear()

    async def settled(self, timeout: float = 2.0) -> None:
        """Wait (a bounded while) for the moves' redraws under way: a pass that reads which
        boards are behind then sees what they drew."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._quiet.wait()

    def arrived(self, game_id: int, version: int) -> None:
        """The redraw of `version` is done (drawn, or left to a newer one)."""
        self._redrawing -= 1
        if not self._redrawing:
            self._quiet.set()
        if self._coming.get(game_id) == version:
            del self._coming[game_id]

    def shown(self, game_id: int) -> int:
        """The newest version this process drew on the game's board (-1: none it knows of)."""
        return self._drawn.get(game_id, -1)

    def drew(self, game_id: int, version: int) -> None:
        """The board now shows `version`: known here at once, written with the next batch."""
        newest = max(version, self._drawn.pop(game_id, -1))
        self._drawn[game_id] = newest
        if self._coming.get(game_id, -1) <= newest:  # nothing newer is on its way
            self._coming.pop(game_id, None)
        while len(self._drawn) > KEPT:
            self._drawn.popitem(last=False)
        self._pending[game_id] = max(newest, self._pending.get(game_id, -1))
        self._wake.set()

    def start(self) -> None:
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_forever(), name="board-marks")

    async def flush(self) -> None:
        """Write every mark not written yet, now (before a pass reads the store's marks, and at
        shutdown). A failed write keeps them for the next try."""
        batch, self._pending = self._pending, {}
        if not batch:
            return
        try:
            await self._store.mark_rendered_many(batch)
        except Exception:
            for game_id, version in batch.items():
                self._pending[game_id] = max(version, self._pending.get(game_id, -1))
            raise

    async def close(self) -> None:
        """Stop the writer and write what is left."""
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        with contextlib.suppress(Exception):
            await self.flush()

    async def _write_forever(self) -> None:
        failing = False  # one WARNING per run of failures (a database outage), not per retry
        while True:
            await self._wake.wait()
            await asyncio.sleep(FLUSH_SECONDS)
            self._wake.clear()
            try:
                await self.flush()
            except Exception:
                # The store warns once per outage (StoreBusy), so that is not repeated here.
                quiet = failing or isinstance(sys.exc_info()[1], StoreBusy)
                level = logging.DEBUG if quiet else logging.WARNING
                log.log(
                    level, "could not record which boards were drawn; will retry", exc_info=True
                )
                failing = True
                await asyncio.sleep(1.0)
                self._wake.set()
            else:
                failing = False
