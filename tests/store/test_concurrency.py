"""Many players at the same instant, on every implementation: every accepted guess stored once,
in order, never too many; two connections on one database take turns."""

from __future__ import annotations

import asyncio
import random

from bot.engine.errors import GameOver, NoActiveGame
from bot.engine.game import GuessOutcome, Status
from bot.modes.play.rules import guess
from bot.store import Store
from tests.store.backends import Backend
from tests.store.helpers import CHANNEL, SECRET, play

PLAYERS = 100
MAX_GUESSES = 20


def codes_without_secret(rng: random.Random, count: int) -> list[tuple[int, ...]]:
    codes: list[tuple[int, ...]] = []
    while len(codes) < count:
        code = tuple(rng.randrange(6) for _ in range(4))
        if code != SECRET:
            codes.append(code)
    return codes


async def race(
    store: Store, game_id: int, codes: list[tuple[int, ...]], *, by_channel: bool = False
) -> list[GuessOutcome | BaseException]:
    """Player i sends codes[i]; all at once. Every other call targets the channel, if asked."""

    async def send(player: int, code: tuple[int, ...]) -> GuessOutcome:
        target = {"channel_id": CHANNEL} if by_channel and player % 2 else {"game_id": game_id}
        _, outcome = await store.apply(lambda g: guess(g, player, code), **target)
        return outcome

    return await asyncio.gather(
        *(send(player, code) for player, code in enumerate(codes)), return_exceptions=True
    )


def check_rows(backend: Backend, game_id: int, accepted: list[GuessOutcome]) -> list[tuple]:
    """Rows are moves 1..n without a gap, one per accepted call, each as the call was told."""
    rows = backend.query(
        "SELECT move_no, player_id, code, black, white FROM moves WHERE game_id = ? "
        "ORDER BY move_no",
        (game_id,),
    )
    assert [row[0] for row in rows] == list(range(1, len(rows) + 1))
    assert len(rows) == len(accepted) <= MAX_GUESSES
    told = sorted((o.number, o.move.player_id, o.move.black, o.move.white) for o in accepted)
    assert told == [(row[0], row[1], row[3], row[4]) for row in rows]
    assert len({row[1] for row in rows}) == len(rows)  # each player's guess stored once
    return rows


async def test_a_hundred_guesses_fill_the_game_exactly(backend: Backend) -> None:
    async with await backend.open() as store:
        game = await store.start(play(max_guesses=MAX_GUESSES))
        results = await race(store, game.id, codes_without_secret(random.Random(1), PLAYERS))
    accepted = [r for r in results if isinstance(r, GuessOutcome)]
    refused = [r for r in results if not isinstance(r, GuessOutcome)]
    assert len(accepted) == MAX_GUESSES
    assert all(isinstance(r, GameOver) for r in refused), {type(r) for r in refused}
    check_rows(backend, game.id, accepted)
    assert [o.status for o in accepted].count(Status.LOST) == 1
    assert backend.query("SELECT status, winner_id, version FROM games") == [
        ("lost", None, MAX_GUESSES)
    ]


async def test_exactly_one_winner_when_the_secret_is_among_the_guesses(backend: Backend) -> None:
    # As many players as the game has guesses: the 19 others cannot use them all up before the
    # winner's turn, however a connection pool orders the calls (with 100 players it could).
    rng = random.Random(2)
    codes = codes_without_secret(rng, MAX_GUESSES)
    winner = rng.randrange(5, 15)
    codes[winner] = SECRET
    async with await backend.open() as store:
        game = await store.start(play(max_guesses=MAX_GUESSES))
        results = await race(store, game.id, codes, by_channel=True)
    accepted = [r for r in results if isinstance(r, GuessOutcome)]
    refused = [r for r in results if not isinstance(r, GuessOutcome)]
    assert all(isinstance(r, GameOver | NoActiveGame) for r in refused)
    rows = check_rows(backend, game.id, accepted)
    wins = [o for o in accepted if o.status is Status.WON]
    assert len(wins) == 1 and wins[0].move.player_id == winner and wins[0].secret == SECRET
    assert rows[-1][1] == winner and sum(row[3] == 4 for row in rows) == 1
    assert backend.query("SELECT status, winner_id FROM games") == [("won", winner)]


async def test_two_connections_on_one_database_take_turns(backend: Backend) -> None:
    async with await backend.open() as first, await backend.open() as second:
        game = await first.start(play(max_guesses=MAX_GUESSES))
        codes = codes_without_secret(random.Random(3), 60)

        async def send(store: Store, player: int) -> GuessOutcome:
            _, outcome = await store.apply(
                lambda g: guess(g, player, codes[player]), game_id=game.id
            )
            return outcome

        results = await asyncio.gather(
            *(send(first if p % 2 else second, p) for p in range(len(codes))),
            return_exceptions=True,
        )
    accepted = [r for r in results if isinstance(r, GuessOutcome)]
    assert all(isinstance(r, GameOver) for r in results if r not in accepted)
    assert len(accepted) == MAX_GUESSES
    check_rows(backend, game.id, accepted)
