"""The store's promises under misuse, on every implementation: one move per input, boards that
only move forward, and one error family for a database that cannot be used."""

from __future__ import annotations

import pytest

from bot.modes.play.rules import guess
from bot.store import AlreadyApplied, SchemaError, StoreUnavailable
from tests.store.backends import Backend
from tests.store.helpers import BOB, CHANNEL, play


async def test_one_input_makes_one_move(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await store.start(play())
        assert game.id is not None
        await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id, source="i:1")
        with pytest.raises(AlreadyApplied) as refused:
            await store.apply(lambda g: guess(g, BOB, "2222"), game_id=game.id, source="i:1")
        assert (refused.value.game_id, refused.value.move_no) == (game.id, 1)
        await store.apply(lambda g: guess(g, BOB, "3333"), game_id=game.id, source="i:2")
    rows = backend.query("SELECT move_no, code, source FROM moves ORDER BY move_no")
    assert rows == [(1, "[0,0,0,0]", "i:1"), (2, "[2,2,2,2]", "i:2")]


async def test_the_board_is_written_with_the_game_and_only_moves_forward(
    backend: Backend,
) -> None:
    async with await backend.open() as store:
        game = await store.start(play(), board=(CHANNEL, 555))
        assert game.id is not None
        board = await store.board(game.id)
        assert board is not None and (board.channel_id, board.message_id) == (CHANNEL, 555)
        assert board.rendered_version == -1 and await store.boards_behind() == [game.id]
        await store.mark_rendered(game.id, 0)
        assert await store.boards_behind() == []
        game, _ = await store.apply(lambda g: guess(g, BOB, "1111"), game_id=game.id)
        assert await store.boards_behind() == [game.id]
        await store.mark_rendered(game.id, 1)
        await store.mark_rendered(game.id, 0)  # a late render of an older version
        board = await store.board(game.id)
        assert board is not None and board.rendered_version == 1
        await store.move_board(game.id, CHANNEL, 777, 1)
        board = await store.board(game.id)
        assert board is not None and board.message_id == 777


async def test_a_newer_database_is_a_store_unavailable() -> None:
    assert issubclass(SchemaError, StoreUnavailable)
