"""The single action path, on every implementation: `act` loads, applies and saves a game and
reads where its board is in one write transaction, and refuses exactly what `apply` refuses."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import pytest

from bot.engine.errors import GameOver, NoActiveGame, StaleGame
from bot.engine.game import GuessOutcome, Status, give_up
from bot.modes.play.rules import PlayGame, guess
from bot.store import AlreadyApplied, Board, SqlStore, Store
from bot.store.dialect import Dialect, Params, Row, Session
from tests.store.backends import Backend
from tests.store.helpers import ALICE, BOB, CHANNEL, SECRET, play


class Counted:
    """The backend's real dialect, counting the transactions and statements run on it."""

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect
        self.transactions: list[bool] = []  # write or not, one per transaction
        self.statements: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.dialect, name)

    async def run(
        self, work: Callable[[Session], Coroutine[Any, Any, Any]], *, write: bool, **how: Any
    ) -> Any:
        self.transactions.append(write)
        return await self.dialect.run(
            lambda session: work(CountedSession(session, self.statements)), write=write, **how
        )


class CountedSession:
    def __init__(self, session: Session, statements: list[str]) -> None:
        self.session, self.statements = session, statements

    async def fetch(self, sql: str, params: Params | None = None) -> Sequence[Row]:
        self.statements.append(sql)
        return await self.session.fetch(sql, params)

    async def execute(self, sql: str, params: Params | None = None) -> int:
        self.statements.append(sql)
        return await self.session.execute(sql, params)

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        self.statements.append(sql)
        await self.session.execute_many(sql, rows)

    async def execute_last(self, sql: str, params: Params | None = None) -> None:
        self.statements.append(sql)
        await self.session.execute_last(sql, params)


async def test_act_returns_the_game_its_outcome_and_its_board(store: Store) -> None:
    game = await store.start(play(), board=(CHANNEL, 555))
    assert game.id is not None
    await store.mark_rendered(game.id, 0)
    applied = await store.act(lambda g: guess(g, BOB, "1111"), game_id=game.id, source="i:1")
    assert isinstance(applied.outcome, GuessOutcome) and applied.outcome.number == 1
    assert applied.game.version == 1 and applied.game == await store.game(game.id)
    assert isinstance(applied.game, PlayGame) and not applied.game.secret.known
    assert applied.board == Board(CHANNEL, 555, 0) == await store.board(game.id)

    await store.move_board(game.id, CHANNEL, 777, 1)  # posted again meanwhile
    applied = await store.act(lambda g: guess(g, BOB, "1234"), channel_id=CHANNEL)
    assert applied.board == Board(CHANNEL, 777, 1)
    assert applied.outcome.status is Status.WON and applied.outcome.secret == SECRET

    unboarded = await store.start(play(CHANNEL + 1))
    applied = await store.act(lambda g: guess(g, BOB, "1111"), game_id=unboarded.id)
    assert applied.board is None


async def test_drawn_reads_a_game_and_its_board_together(store: Store) -> None:
    unboarded = await store.start(play(CHANNEL + 1))
    assert await store.drawn(unboarded.id or 0) is None and await store.drawn(12345) is None
    game = await store.start(play(), board=(CHANNEL, 555))
    await store.act(lambda g: guess(g, BOB, "1111"), game_id=game.id)
    drawn = await store.drawn(game.id or 0)
    assert drawn is not None and drawn[0].version == 1
    assert drawn == (await store.game(game.id or 0), Board(CHANNEL, 555, -1))


@pytest.mark.parametrize("method", ["act", "apply"])
async def test_act_refuses_what_apply_refuses(store: Store, method: str) -> None:
    run = getattr(store, method)
    game = await store.start(play())
    await run(lambda g: guess(g, BOB, "1111"), game_id=game.id, source="i:1")
    with pytest.raises(AlreadyApplied) as refused:
        await run(lambda g: guess(g, BOB, "2222"), game_id=game.id, source="i:1")
    assert (refused.value.game_id, refused.value.move_no) == (game.id, 1)
    with pytest.raises(StaleGame):
        await run(lambda g: guess(g, BOB, "2222"), game_id=game.id, expected_version=0)
    with pytest.raises(NoActiveGame):
        await run(lambda g: guess(g, BOB, "2222"), channel_id=CHANNEL + 1)
    with pytest.raises(NoActiveGame):
        await run(lambda g: guess(g, BOB, "2222"), game_id=12345)
    with pytest.raises(TypeError):
        await run(lambda g: guess(g, BOB, "2222"))
    with pytest.raises(TypeError):
        await run(lambda g: guess(g, BOB, "2222"), channel_id=CHANNEL, game_id=game.id)
    await run(lambda g: give_up(g, ALICE), channel_id=CHANNEL)
    with pytest.raises(GameOver):
        await run(lambda g: guess(g, BOB, "2222"), game_id=game.id)
    with pytest.raises(NoActiveGame):
        await run(lambda g: guess(g, BOB, "2222"), channel_id=CHANNEL)


async def test_a_guess_is_one_write_transaction(backend: Backend) -> None:
    """Load, check the input, apply, save and read the board: one transaction, five statements
    (the input's earlier move, the game row, its moves, the new move, the game row's copies);
    two where the dialect reads the input's move, the game and its moves in one and saves the
    new move and the game row's copies in one (SQLite)."""
    counted = Counted(backend.dialect())
    async with SqlStore(counted) as store:  # type: ignore[arg-type]
        game = await store.start(play(), board=(CHANNEL, 555))
        counted.transactions.clear()
        counted.statements.clear()
        applied = await store.act(lambda g: guess(g, BOB, "1111"), game_id=game.id, source="i:1")
        assert applied.board == Board(CHANNEL, 555, -1)
        assert counted.transactions == [True]
        loads = 1 if counted.inline_moves else 3
        saves = 1 if counted.save_at_once else 2
        assert len(counted.statements) == loads + saves, counted.statements
