"""The board keeper on its own: a real SQLite store, and an editor standing in for Discord's
message edits that records each edit and can hold one (a rate-limited edit) or refuse it.

What it must hold (issue #29): every stored move reaches its board whatever happens to the
interaction that made it; a board edited faster than Discord allows keeps one pending redraw,
the newest version; which version a board shows is known per message; `close` drains."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import discord
import pytest

from bot.engine.game import Game
from bot.interactions.keeper import BoardKeeper
from bot.modes.play.rules import guess
from bot.store import Board, Store, open_store
from bot.ui.boards import Drawn
from tests.store.helpers import BOB, CHANNEL, play

FIRST_BOARD, SECOND_BOARD = 555, 777


@dataclass
class Editor:
    """Discord's edits of board messages, as the keeper sees them."""

    edits: list[tuple[int, int]] = field(default_factory=list)
    """(message id, version drawn), in the order they landed."""
    gate: asyncio.Event | None = None
    """While set to an unset event, each edit waits for it (a rate limit's wait)."""
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    refuse: int = 0
    """Refuse the next this many edits (503)."""

    async def draw(self, game: Game) -> Drawn:
        return Drawn(f"v{game.version}", discord.Embed(), None)

    async def edit(self, board: Board, drawn: Drawn) -> None:
        self.arrived.set()
        if self.gate is not None:
            await self.gate.wait()
        if self.refuse:
            self.refuse -= 1
            raise discord.DiscordServerError(_Response(503), "held by the test")
        assert drawn.content is not None
        self.edits.append((board.message_id, int(drawn.content[1:])))


class _Response:
    def __init__(self, status: int) -> None:
        self.status, self.reason = status, "Service Unavailable"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(tmp_path / "games.db")
    yield opened
    await opened.close()


@pytest.fixture
def editor() -> Editor:
    return Editor()


@pytest.fixture
async def keeper(store: Store, editor: Editor) -> AsyncIterator[BoardKeeper]:
    kept = BoardKeeper(store, editor.draw, editor.edit, lambda guild_id: True)
    kept.start()
    yield kept
    await kept.close()


async def _game(store: Store) -> int:
    game = await store.start(play(), board=(CHANNEL, FIRST_BOARD))
    assert game.id is not None
    await store.mark_rendered(game.id, 0, FIRST_BOARD)
    return game.id


async def _guess(store: Store, game_id: int, n: int) -> None:
    await store.act(lambda g: guess(g, BOB, "1111"), game_id=game_id, source=f"i:{n}")


async def _rendered(store: Store, game_id: int) -> Board | None:
    return await store.board(game_id)


async def test_a_stored_move_reaches_its_board_with_no_interaction_and_is_recorded(
    store: Store, editor: Editor, keeper: BoardKeeper
) -> None:
    game_id = await _game(store)
    await _guess(store, game_id, 1)  # nobody asks for a redraw: the commit is enough
    await keeper.settled()
    assert editor.edits == [(FIRST_BOARD, 1)]
    await keeper.marks.flush()
    assert await store.board(game_id) == Board(CHANNEL, FIRST_BOARD, 1)


async def test_a_rate_limited_board_draws_only_the_newest_version_after_its_wait(
    store: Store, editor: Editor, keeper: BoardKeeper
) -> None:
    game_id = await _game(store)
    editor.gate = asyncio.Event()
    await _guess(store, game_id, 1)
    await asyncio.wait_for(editor.arrived.wait(), 2)  # the first edit waits on its bucket
    for n in range(2, 6):  # four more moves meanwhile: one pending redraw, newest wins
        await _guess(store, game_id, n)
    editor.gate.set()
    await keeper.settled()
    assert editor.edits == [(FIRST_BOARD, 1), (FIRST_BOARD, 5)]


async def test_a_move_stored_while_the_board_is_posted_again_is_drawn_on_the_new_copy(
    store: Store, editor: Editor, keeper: BoardKeeper
) -> None:
    game_id = await _game(store)
    posting = asyncio.Event()
    posted = asyncio.Event()

    async def post(latest: Game) -> tuple[int, int]:
        assert latest.version == 0
        posting.set()
        await posted.wait()  # the new copy's POST waits (a 429), and a move lands meanwhile
        return CHANNEL, SECOND_BOARD

    reposting = asyncio.create_task(keeper.repost(game_id, post))
    await posting.wait()
    await _guess(store, game_id, 1)  # its transaction reads the first copy as the board
    await asyncio.sleep(0.1)
    posted.set()
    await reposting
    await keeper.settled()
    assert editor.edits == [(SECOND_BOARD, 1)]
    await keeper.marks.flush()
    assert await store.board(game_id) == Board(CHANNEL, SECOND_BOARD, 1)


async def test_a_drawing_of_an_old_copy_never_marks_the_new_one(store: Store) -> None:
    game_id = await _game(store)
    await _guess(store, game_id, 1)
    await store.move_board(game_id, CHANNEL, SECOND_BOARD, 0)
    await store.mark_rendered_many({game_id: (FIRST_BOARD, 1)})  # the old copy, drawn late
    assert await store.board(game_id) == Board(CHANNEL, SECOND_BOARD, 0)
    assert await store.boards_behind() == [game_id]


async def test_a_refused_edit_leaves_the_board_behind_until_its_next_use(
    store: Store, editor: Editor, keeper: BoardKeeper
) -> None:
    game_id = await _game(store)
    editor.refuse = 1
    await _guess(store, game_id, 1)
    await keeper.settled()
    await keeper.marks.flush()
    assert editor.edits == [] and await store.boards_behind() == [game_id]
    await keeper.catch_up(game_id)
    await keeper.settled()
    assert editor.edits == [(FIRST_BOARD, 1)]


async def test_close_drains_the_redraw_under_way_and_writes_its_mark(
    store: Store, editor: Editor
) -> None:
    keeper = BoardKeeper(store, editor.draw, editor.edit, lambda guild_id: True)
    keeper.start()
    game_id = await _game(store)
    editor.gate = asyncio.Event()
    await _guess(store, game_id, 1)
    await asyncio.wait_for(editor.arrived.wait(), 2)
    asyncio.get_running_loop().call_later(0.1, editor.gate.set)
    await keeper.close()
    assert editor.edits == [(FIRST_BOARD, 1)]
    assert await store.board(game_id) == Board(CHANNEL, FIRST_BOARD, 1)
    await _guess(store, game_id, 2)  # a closed keeper starts nothing more
    await asyncio.sleep(0.1)
    assert editor.edits == [(FIRST_BOARD, 1)]


async def test_close_cancels_an_edit_that_never_ends(store: Store, editor: Editor) -> None:
    keeper = BoardKeeper(store, editor.draw, editor.edit, lambda guild_id: True)
    keeper.start()
    game_id = await _game(store)
    editor.gate = asyncio.Event()  # never set
    await _guess(store, game_id, 1)
    await asyncio.wait_for(editor.arrived.wait(), 2)
    await asyncio.wait_for(keeper.close(timeout=0.2), 2)
    assert editor.edits == []
    assert await store.boards_behind() == [game_id]  # the next start's pass draws it


async def test_an_answer_that_draws_its_board_never_waits_out_a_rate_limited_redraw(
    store: Store, editor: Editor, keeper: BoardKeeper
) -> None:
    game_id = await _game(store)
    editor.gate = asyncio.Event()
    await _guess(store, game_id, 1)
    await asyncio.wait_for(editor.arrived.wait(), 2)  # the redraw waits out a 429, locked
    await _guess(store, game_id, 2)
    drawn_by_answer: list[int] = []

    async def answer() -> None:
        drawn_by_answer.append(2)

    loop = asyncio.get_running_loop()
    began = loop.time()
    board = Board(CHANNEL, FIRST_BOARD, 0)
    assert not await keeper.show(game_id, 2, answer, FIRST_BOARD, board=board)
    assert loop.time() - began < 1.0 and drawn_by_answer == []  # answered without the board
    editor.gate.set()
    await keeper.settled()
    assert editor.edits[0] == (FIRST_BOARD, 1) and editor.edits[-1] == (FIRST_BOARD, 2)
