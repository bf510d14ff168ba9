"""The board keeper: the one place that decides when a channel board is redrawn, for which
version, through which message. The bot creates it at start and closes it at stop.

The store keeps, for every game, which message is its board of record and which version that
message last showed. The keeper hears of every move as the store commits it (`committed`), and
redraws that game's board of record in the background, whatever becomes of the interaction that
made the move (its answer may fail: the board catches up all the same), and never delaying that
answer. A board edited faster than Discord lets it (about 5 edits per 5 s per channel) keeps one
pending redraw, and the newest version wins: the moves stored meanwhile are drawn together.

Every redraw happens under the game's lock and never draws a version older than the one that
message shows. Which version a board shows is known per message: when `/mastermind board` posts
a new copy (`repost`), a move stored meanwhile is drawn on that copy, and a drawing of an old
copy never marks the new one as up to date. A board that fell behind (an edit refused, a crash
between a move and its edit, a copy posted by another process) is redrawn by the next
interaction with its game (`catch_up`) and by the pass at start (`reconcile`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.game import Game, Reach
from bot.interactions.marks import KEPT, BoardMarks
from bot.store import Applied, Board, Held, Store, StoreBusy, always
from bot.ui.boards import Drawn

log = logging.getLogger(__name__)

GATHER_SECONDS = 0.05
"""How long a move's redraw waits for the moves made at the same moment on the same board, so
that a burst draws the board once, for its newest version (the player's own answer is already
on its way; only the board waits)."""
CROSS_PROCESS_ROUNDS = 3
"""Reads of a board of another process's server, while its moves keep landing (see refresh)."""
ANSWER_WAIT_SECONDS = 0.5
"""The longest an answer that draws its board waits for that board's lock (held by a redraw
that may be waiting out Discord's rate limit): past it, the answer goes without the board and
the keeper draws the board once the edit before it is through."""
CLOSE_SECONDS = 2.0
"""How long `close` lets the redraws under way finish (each is one edit)."""

Draw = Callable[[Game], Awaitable[Drawn]]
"""Draws a game's board as stored, in its server's language."""
Edit = Callable[[Board, Drawn], Awaitable[None]]
"""Edits a board message (with the bot's token) to show a drawing."""


class Busy(Exception):
    """The board's lock was not free within the wait asked for."""


@dataclass(frozen=True)
class _Wanted:
    """The newest stored game a board must show, and where its board was when it was stored."""

    game: Game
    board: Board


class BoardKeeper:
    """Keeps every channel board of this process in step with the store."""

    def __init__(
        self, store: Store, draw: Draw, edit: Edit, serves: Callable[[int | None], bool]
    ) -> None:
        self.store = store
        self.marks = BoardMarks(store)
        self._draw, self._edit, self._serves = draw, edit, serves
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}
        self._wanted: dict[int, _Wanted] = {}
        """One pending redraw per board of record: the newest version it must show."""
        self._drawing: dict[int, asyncio.Task[None]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._quiet = asyncio.Event()
        self._quiet.set()
        self._moved: OrderedDict[int, Board] = OrderedDict()
        """Boards of record this process posted (`repost`), newer than a move may have read."""
        self._closed = False

    # --- life ------------------------------------------------------------------------------

    def start(self) -> None:
        """Hear of every move as it commits, and start writing marks."""
        self.store.listen(self.committed)
        self.marks.start()

    async def close(self, timeout: float = CLOSE_SECONDS) -> None:
        """Let the redraws under way finish (a bounded while), cancel the rest, and write the
        marks left: a board not drawn now is behind in the store, and the next start's pass
        draws it."""
        self._closed = True
        await self.settled(timeout)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.marks.close()

    async def settled(self, timeout: float = 2.0) -> None:
        """Wait (a bounded while) for the redraws under way: a pass that reads which boards are
        behind then sees what they drew."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._quiet.wait()

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        self._quiet.clear()
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not self._tasks:
            self._quiet.set()

    @contextlib.asynccontextmanager
    async def lock(self, game_id: int, wait: float | None = None) -> AsyncIterator[None]:
        """One lock per game for every edit of its board in this process; forgotten once
        nobody holds or awaits it, so finished games cost nothing. `wait`: raise Busy if it
        is not free within that many seconds."""
        found, users = self._locks.get(game_id, (asyncio.Lock(), 0))
        self._locks[game_id] = (found, users + 1)
        try:
            try:
                async with asyncio.timeout(wait):
                    await found.acquire()
            except TimeoutError:
                raise Busy() from None
            try:
                yield
            finally:
                found.release()
        finally:
            found, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (found, users - 1)

    # --- moves -----------------------------------------------------------------------------

    def committed(self, applied: Applied[Any]) -> None:
        """A move was stored (the store tells every one, as it commits): its channel board is
        redrawn in the background, once for a burst, whatever happens to the interaction."""
        game, board = applied.game, applied.board
        if game.id is None or board is None or game.reach is not Reach.CHANNEL or self._closed:
            return
        wanted = self._wanted.get(game.id)
        if wanted is None or wanted.game.version < game.version:
            self._wanted[game.id] = _Wanted(game, board)
        if game.id not in self._drawing:
            self._drawing[game.id] = self._spawn(self._redraw_wanted(game.id), f"board-{game.id}")

    async def _redraw_wanted(self, game_id: int) -> None:
        """Draw the newest wanted version of the board until none is left. While an edit
        waits (Discord's rate limit), newer moves replace what is wanted: one edit draws them
        all."""
        try:
            await asyncio.sleep(GATHER_SECONDS)  # moves made at the same moment land meanwhile
            while (wanted := self._wanted.pop(game_id, None)) is not None:
                try:
                    async with self.lock(game_id):
                        await self._redraw(wanted.game, self._record(game_id, wanted.board))
                except Exception:
                    _failed(game_id)
        finally:
            del self._drawing[game_id]  # no await since the last look: nothing is missed

    def _record(self, game_id: int, board: Board) -> Board:
        """The board of record: as a move's transaction read it, unless this process posted a
        newer copy since (only the process serving a server posts its boards)."""
        moved = self._moved.get(game_id)
        return moved if moved is not None and moved.message_id != board.message_id else board

    def shown(self, game_id: int, board: Board) -> int:
        """The newest version that board message shows: as the store has it, or as this
        process drew it (its mark may not be written yet)."""
        return max(board.rendered_version, self.marks.shown(game_id, board.message_id))

    async def _redraw(self, game: Game, board: Board) -> int | None:
        """Draw `game` on its channel board unless that message shows it (or a newer version).
        The version drawn, or None."""
        assert game.id is not None
        if self.shown(game.id, board) >= game.version or game.reach is not Reach.CHANNEL:
            return None  # up to date, or only its player's next click can redraw it
        return await self._draw_on(game, board)

    async def _draw_on(self, game: Game, board: Board) -> int:
        """Draw `game` on that board message and note the version it shows (returned)."""
        assert game.id is not None
        await self._edit(board, await self._draw(game))
        self.marks.drew(game.id, board.message_id, game.version)
        return game.version

    # --- drawings through an interaction and new copies ---------------------------------------

    async def show(
        self,
        game_id: int,
        version: int,
        draw: Callable[[], Awaitable[Any]],
        message_id: int | None = None,
        board: Board | None = None,
    ) -> bool:
        """Draw `version` with `draw` (an interaction's edit of `message_id`; None: of the board
        of record) unless that message is the board of record and already shows this version or
        a newer one; record what it shows. Returns whether it drew.

        A click on an older copy of a board (one `/mastermind board` replaced) redraws that
        copy too, and the board of record catches up separately. An answer never waits for a
        redraw that waits out Discord's rate limit: past ANSWER_WAIT_SECONDS it returns False
        without drawing, and the keeper draws the board after that edit.
        """
        try:
            async with self.lock(game_id, wait=ANSWER_WAIT_SECONDS):
                if board is None:
                    board = await self.store.board(game_id)
                if board is not None:
                    board = self._record(game_id, board)
                of_record = board is None or message_id is None or board.message_id == message_id
                if of_record and board is not None and self.shown(game_id, board) >= version:
                    return False
                await draw()
                if of_record and board is not None:
                    self.marks.drew(game_id, board.message_id, version)
        except Busy:
            log.info("the board of game %s is being edited; the answer goes first", game_id)
            self.refresh_soon(game_id)
            return False
        if not of_record:
            self.refresh_soon(game_id)
        return True

    async def repost(
        self, game_id: int, post: Callable[[Game], Awaitable[tuple[int, int]]]
    ) -> Game | None:
        """Post a new copy of a game's board (`post` draws the stored game and returns its
        channel and message): it becomes the board of record, showing what was drawn, and a
        move stored meanwhile is then drawn on it. The game drawn, or None if it is gone."""
        async with self.lock(game_id):
            latest = await self.store.game(game_id)
            if latest is None:
                return None
            channel_id, message_id = await post(latest)
            await self.store.move_board(game_id, channel_id, message_id, latest.version)
            self._note_moved(game_id, Board(channel_id, message_id, latest.version))
        self.refresh_soon(game_id)  # in case a move of another process landed meanwhile
        return latest

    async def moved(self, game_id: int, channel_id: int, message_id: int, version: int) -> None:
        """A new message now shows the game at `version` (a board only interactions reach,
        posted with a move): it becomes the board of record unless the board already shows a
        newer version (two moves posted their boards out of order)."""
        async with self.lock(game_id):
            board = await self.store.board(game_id)
            if board is None or board.rendered_version <= version:
                await self.store.move_board(game_id, channel_id, message_id, version)
                self._note_moved(game_id, Board(channel_id, message_id, version))

    def _note_moved(self, game_id: int, board: Board) -> None:
        self._moved.pop(game_id, None)
        self._moved[game_id] = board
        while len(self._moved) > KEPT:
            self._moved.popitem(last=False)
        self.marks.drew(game_id, board.message_id, board.rendered_version)

    # --- catching up -------------------------------------------------------------------------

    async def refresh(self, game_id: int, *, served_only: bool = False) -> None:
        """Redraw a game's board if it is behind the store (`served_only`: and its server is one
        this process answers). Never raises: a board that cannot be edited now stays marked as
        behind and is retried by the next pass.

        The lock is this process's own: for a board of another process's server (the lease
        holder's pass), that process may draw a newer move meanwhile and this edit land after
        its, so the stored version is read again after the edit, and a newer one drawn too."""
        try:
            async with self.lock(game_id):
                drawn: int | None = None
                for _ in range(CROSS_PROCESS_ROUNDS):
                    found = await self.store.drawn(game_id)
                    if found is None:
                        return
                    game, board = found
                    if served_only and not self._serves(game.guild_id):
                        return
                    board = self._record(game_id, board)
                    if drawn is None:
                        drawn = await self._redraw(game, board)
                    elif game.version > drawn:
                        drawn = await self._draw_on(game, board)  # over an older one, landed late
                    if drawn is None or self._serves(game.guild_id):
                        return  # nothing drawn, or only this process draws this board
                    versions = await self.store.board_versions(game_id)
                    if versions is not None and versions[0] == drawn:
                        return
        except Exception:
            _failed(game_id)

    def refresh_soon(self, game_id: int) -> None:
        """Redraw in the background (the caller has already answered its interaction)."""
        if not self._closed:
            self._spawn(self.refresh(game_id), f"board-refresh-{game_id}")

    async def catch_up(self, game_id: int) -> None:
        """Any use of a game redraws its board if that board fell behind the store (one read).
        Never raises."""
        try:
            versions = await self.store.board_versions(game_id)
        except Exception:
            log.warning("could not check the board of game %s", game_id, exc_info=True)
            return
        if versions is None:
            return
        version, board = versions
        if self.shown(game_id, self._record(game_id, board)) < version:
            self.refresh_soon(game_id)

    async def reconcile(self, *, while_held: Held = always, served_only: bool = False) -> int:
        """Redraw every board that is behind its game (at start, and after failed edits), each
        only while `while_held()` says the chore is still this process's. `served_only`: only
        the boards of this process's servers (every process at its start, lease or not: a board
        a kill left behind must not wait for the lease holder's pass, minutes away)."""
        await self.settled()  # the redraws of moves just made go first
        await self.marks.flush()  # the store's marks are then as new as this process knows
        redrawn = 0
        for game_id in await self.store.boards_behind(limit=500):
            if not while_held():
                break
            await self.refresh(game_id, served_only=served_only)
            redrawn += 1
        if redrawn:
            log.info("checked %d board(s) that were behind their games", redrawn)
        return redrawn


def _failed(game_id: int) -> None:
    """Log a board that could not be redrawn (it stays behind; the next pass retries it)."""
    error = sys.exc_info()[1]
    if isinstance(error, StoreBusy):  # the store has told of its outage once already
        log.info("the board of game %s waits for the database; will retry", game_id)
    elif isinstance(error, discord.HTTPException):
        log.warning(
            "the board of game %s could not be redrawn (%s %s); will retry",
            game_id,
            error.status,
            error.text or "",
        )
    else:
        log.exception("the board of game %s could not be redrawn; will retry", game_id)
