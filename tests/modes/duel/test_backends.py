"""The duel kept by every back end (SQLite and a real PostgreSQL server): both secrets written
and withheld, a draw stored, and the duel's own record query, read back through the store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.engine.game import Status, give_up
from bot.modes.duel import actions as duel
from bot.modes.duel.rules import DuelGame, new_duel_game, play_round
from bot.store import Store
from tests.store.backends import BACKENDS, Backend
from tests.store.pg_fixtures import postgres_server, postgres_url

__all__ = ["postgres_server", "postgres_url"]  # the PostgreSQL server the backend needs

GUILD, CHANNEL, ALICE = 10, 20, 1
BOTS, THEIRS = (0, 1, 2, 3), (5, 5, 4, 4)


@pytest.fixture(params=sorted(BACKENDS))
def backend(request: pytest.FixtureRequest) -> Backend:
    return BACKENDS[request.param](request)


@pytest.fixture
async def kept(backend: Backend) -> AsyncIterator[Store]:
    async with await backend.open() as store:
        yield store


def fresh(channel: int, strategy: str = "knuth") -> DuelGame:
    return new_duel_game(
        guild_id=GUILD,
        channel_id=channel,
        starter_id=ALICE,
        theirs=THEIRS,
        secret=BOTS,
        strategy=strategy,
    )


async def test_a_duel_is_kept_withheld_drawn_and_counted(kept: Store, backend: Backend) -> None:
    game = await kept.start(fresh(CHANNEL))
    ((secret,),) = backend.query("SELECT secret FROM games")
    assert secret == "[0,1,2,3,5,5,4,4]"  # both codes, in the column the store withholds
    shown = await kept.game(game.id or 0)
    assert isinstance(shown, DuelGame) and not shown.secret.known and not shown.theirs.known
    drawn, _ = await kept.apply(
        lambda g: play_round(g, ALICE, BOTS, THEIRS), game_id=game.id, source="i:1"
    )
    assert drawn.status is Status.DRAW
    assert backend.query("SELECT status, winner_id FROM games") == [("draw", None)]
    won = await kept.start(fresh(CHANNEL + 1, "optimal"))
    await kept.apply(lambda g: play_round(g, ALICE, BOTS, (0, 0, 0, 0)), game_id=won.id)
    lost = await kept.start(fresh(CHANNEL + 2, "optimal"))
    await kept.apply(lambda g: give_up(g, ALICE), game_id=lost.id)
    knuth, optimal = await duel.record(kept, GUILD, ALICE)
    assert (knuth.opponent, knuth.drawn, knuth.won) == ("knuth", 1, 0)
    assert (optimal.won, optimal.lost, optimal.streak, optimal.best_streak) == (1, 1, 0, 1)
    leaders = await kept.leaderboard(GUILD, kind="duel")
    assert [(row.user_id, row.won, row.played, row.best) for row in leaders] == [(ALICE, 1, 2, 1)]


async def test_each_opponents_leaderboard_ranks_only_the_duels_against_it(kept: Store) -> None:
    bob, miss = ALICE + 1, (0, 0, 0, 0)
    duels = [  # who, against whom, their guess, the bot's: won, won, lost (the bot cracked it)
        (ALICE, "knuth", BOTS, miss),
        (bob, "entropy", BOTS, miss),
        (bob, "knuth", miss, THEIRS),
    ]
    for channel, (player, strategy, guess, reply) in enumerate(duels, CHANNEL):
        game = await kept.start(replace(fresh(channel, strategy), starter_id=player))
        await kept.apply(
            lambda g, p=player, c=guess, r=reply: play_round(g, p, c, r), game_id=game.id
        )
    knuth = await duel.leaders(kept, GUILD, "knuth")
    entropy = await duel.leaders(kept, GUILD, "entropy")
    assert [(row.user_id, row.won, row.played, row.best) for row in knuth] == [
        (ALICE, 1, 1, 1),
        (bob, 0, 1, None),
    ]
    assert [(row.user_id, row.won, row.played, row.best) for row in entropy] == [(bob, 1, 1, 1)]
    assert await duel.leaders(kept, GUILD, "optimal") == []
    assert await duel.leaders(kept, GUILD + 1, "knuth") == []  # another server's board
