"""A kind's own read queries (`KindCodec.queries`) through the store, on every back end: what a
mode's record shows beyond the shared counts (a duel's results per opponent), as plain rows."""

from __future__ import annotations

import pytest

from bot.engine.game import give_up
from bot.modes.play.record import PlayRecord
from bot.modes.play.rules import guess
from bot.store import Store
from tests.store.helpers import ALICE, BOB, play

FINISHED = """
    SELECT g.id, g.status, g.winner_id FROM games AS g
    WHERE g.kind = :kind AND g.status <> 'active' AND g.starter_id = :user
    ORDER BY g.id
"""


async def test_a_kind_reads_its_own_rows(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(PlayRecord, "queries", {"finished": FINISHED})
    won = await store.start(play())
    won, _ = await store.apply(lambda g: guess(g, BOB, "1234"), game_id=won.id)
    ended = await store.start(play(channel_id=801))
    ended, _ = await store.apply(lambda g: give_up(g, ALICE), game_id=ended.id)
    await store.start(play(channel_id=802))  # still running: not finished
    rows = await store.kind_rows("play", "finished", {"user": ALICE})
    assert rows == [
        {"id": won.id, "status": "won", "winner_id": BOB},
        {"id": ended.id, "status": "abandoned", "winner_id": None},
    ]
    assert await store.kind_rows("play", "finished", {"user": BOB}) == []
    with pytest.raises(KeyError):
        await store.kind_rows("play", "no-such-query", {"user": ALICE})
    with pytest.raises(KeyError):
        await store.kind_rows("solve", "finished", {"user": ALICE})  # solve declares none


async def test_a_leaderboard_ranks_players_never_the_bot(store: Store) -> None:
    """The bot's own guesses (a move with no player) make no row of a leaderboard."""
    from bot.modes.solve.rules import answer, new_solve_game
    from tests.store.helpers import CHANNEL, GUILD

    game = await store.start(
        new_solve_game(
            guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, first_guess=(0, 0, 1, 1)
        )
    )
    await store.apply(lambda g: answer(g, ALICE, 4, 0, None), game_id=game.id)
    assert await store.leaderboard(GUILD, kind="solve") == []
