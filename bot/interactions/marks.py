"""Which version each board message shows: known at once in this process, written to the store
in batches.

Drawing a board and recording what it shows used to be two steps of every move, each with its
own write transaction. The version a board message now shows is kept here the moment it is
drawn (under the game's board lock, so a later check in this process sees it), and the marks
drawn within one short moment are written together in one transaction (group commit). A mark
names its message: a drawing of a copy the board has since left (`/mastermind board` posted a
new one) never marks the new copy as showing it. A crash loses only marks not yet written: the
start-up pass then finds those boards behind and redraws them once more, with the same picture,
so boards still converge to the store.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections import OrderedDict

from bot.store import Store, StoreBusy

log = logging.getLogger(__name__)

FLUSH_SECONDS = 0.05
"""How long a mark waits for others to join its write: short beside any human, long enough to
gather a busy moment's boards into one transaction."""
KEPT = 10_000
"""Boards whose drawn version this process remembers (the store has the rest)."""


class BoardMarks:
    """The drawn version of each board message of this process, and the marks to write."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._drawn: OrderedDict[int, tuple[int, int]] = OrderedDict()
        """game id -> (message id, the newest version this process drew on it)."""
        self._pending: dict[int, tuple[int, int]] = {}
        self._wake = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None

    def shown(self, game_id: int, message_id: int) -> int:
        """The newest version this process drew on that message of the game (-1: none it
        knows of)."""
        drawn = self._drawn.get(game_id)
        return drawn[1] if drawn is not None and drawn[0] == message_id else -1

    def drew(self, game_id: int, message_id: int, version: int) -> None:
        """The message now shows `version`: known here at once, written with the next batch."""
        known = self._drawn.pop(game_id, None)
        if known is not None and known[0] == message_id:
            version = max(version, known[1])
        self._drawn[game_id] = (message_id, version)
        while len(self._drawn) > KEPT:
            self._drawn.popitem(last=False)
        pending = self._pending.get(game_id)
        if pending is None or pending[0] != message_id or pending[1] < version:
            self._pending[game_id] = (message_id, version)
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
            for game_id, mark in batch.items():
                self._pending.setdefault(game_id, mark)  # a newer mark meanwhile goes first
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
