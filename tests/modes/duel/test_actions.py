"""The duel's actions over a real store file and the real solver: a whole duel won, lost and
drawn; one transaction per round; the solver told the bot's own guesses only; refusals that
store nothing; both secrets kept, and withheld while the duel runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.engine.actor import Actor
from bot.engine.errors import (
    BadChoice,
    GameAlreadyActive,
    GameOver,
    InvalidGuess,
    NotHere,
    NotYourGame,
    StaleGame,
)
from bot.engine.game import Status, Variant
from bot.engine.job_types import NextGuess, NoCodeLeft
from bot.modes.duel import actions as duel
from bot.modes.duel.actions import Setup
from bot.modes.duel.record import DuelRecord
from bot.modes.duel.rules import BadSecret, DuelGame, NotYourTurn, new_duel_game
from bot.solver_pool import History, SolverPool, SolverUnavailable, Unavailable
from bot.store import AlreadyApplied, Store
from bot.store.codec import RecordError, game_from_record, game_to_record, move_to_record

GUILD, CHANNEL, ALICE, BOB = 10, 20, 1, 2
BOTS = (0, 1, 2, 3)  # 1234
THEIRS = (5, 5, 4, 4)  # 6655
MISS = (0, 0, 0, 0)


class RecordingSolver(SolverPool):
    """The real solver, noting every move request it is sent."""

    def __init__(self) -> None:
        super().__init__(1, 2.0)
        self.requests: list[dict[str, Any]] = []

    async def next_move(
        self, variant: Variant, strategy: str, history: History, seed: int
    ) -> NextGuess | NoCodeLeft:
        plain = [(tuple(code), black, white) for code, black, white in history]
        self.requests.append({"strategy": strategy, "history": plain, "seed": seed})
        return await super().next_move(variant, strategy, history, seed)


@pytest.fixture(scope="module")
def recording() -> Iterator[RecordingSolver]:
    pool = RecordingSolver()
    yield pool
    pool.shutdown()


def alice(source: str, channel: int = CHANNEL) -> Actor:
    return Actor(user_id=ALICE, guild_id=GUILD, channel_id=channel, source=source)


async def started(store: Store, strategy: str = "knuth", guesses: int = 10) -> DuelGame:
    """A duel on known secrets (the bot's drawn one is replaced, so a test can aim at it)."""
    fresh = new_duel_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter_id=ALICE,
        theirs=THEIRS,
        secret=BOTS,
        variant=Variant(max_guesses=guesses),
        strategy=strategy,
    )
    return await store.start(fresh, board=(CHANNEL, 99), source="i:0")


async def rounds_until(
    store: Store, solver: SolverPool, game: DuelGame, *, crack_when_bot_will: bool
) -> DuelGame:
    """Miss until the bot's next guess is the player's secret; then crack the bot's code in
    that same round (a draw) or keep missing (the bot wins)."""
    n = 0
    while not game.is_over:
        n += 1
        upcoming, _ = await duel.reply(solver, game)
        mine = BOTS if crack_when_bot_will and upcoming == THEIRS else MISS
        played = await duel.guess(store, solver, game.id or 0, alice(f"i:{n}"), mine, game.version)
        game = played.game
    return game


async def test_the_player_wins_a_duel_in_fewer_guesses(store: Store, solver: SolverPool) -> None:
    game = await started(store)
    first = await duel.guess(store, solver, game.id or 0, alice("i:1"), MISS, game.version)
    assert first.game.version == 2 and [o.move.player_id for o in first.outcomes] == [ALICE, None]
    assert first.game.status is Status.ACTIVE and first.game.turn is not None
    won = await duel.guess(store, solver, game.id or 0, alice("i:2"), "1234", first.game.version)
    assert won.game.status is Status.WON and won.game.winner_id == ALICE
    assert len(won.game.player_moves) == len(won.game.bot_moves) == 2  # the bot had its 2nd
    assert won.applied.board is not None and won.applied.board.message_id == 99


async def test_the_bot_wins_when_it_cracks_the_code_first(store: Store, solver: SolverPool) -> None:
    game = await rounds_until(store, solver, await started(store), crack_when_bot_will=False)
    assert game.status is Status.LOST and game.winner_id is None
    assert game.bot_moves[-1].code == THEIRS and len(game.bot_moves) <= 5  # Knuth: 5 at most


async def test_the_same_count_is_a_draw(store: Store, solver: SolverPool) -> None:
    game = await rounds_until(store, solver, await started(store), crack_when_bot_will=True)
    assert game.status is Status.DRAW and game.winner_id is None
    assert game.player_moves[-1].code == BOTS and game.bot_moves[-1].code == THEIRS


async def test_running_out_of_guesses_loses(store: Store, solver: SolverPool) -> None:
    game = await started(store, guesses=1)
    lost = await duel.guess(store, solver, game.id or 0, alice("i:1"), MISS, game.version)
    assert lost.game.status is Status.LOST and lost.game.bot_moves == ()


@pytest.mark.parametrize("strategy", duel.OPPONENTS)
async def test_every_opponent_plays_its_strategy(
    store: Store, solver: SolverPool, strategy: str
) -> None:
    game = await rounds_until(
        store, solver, await started(store, strategy), crack_when_bot_will=False
    )
    assert game.status is Status.LOST and game.strategy == strategy
    assert game.bot_moves[-1].code == THEIRS


async def test_the_easy_opponent_guesses_a_code_still_possible(
    store: Store, solver: SolverPool
) -> None:
    game = await rounds_until(
        store, solver, await started(store, duel.EASY), crack_when_bot_will=False
    )
    from bot.engine.scoring import score

    for number, move in enumerate(game.bot_moves):
        for earlier in game.bot_moves[:number]:
            assert earlier.code is not None and move.code is not None
            assert score(earlier.code, move.code) == (earlier.black, earlier.white)


async def test_the_solver_is_told_the_bot_guesses_and_pegs_only(
    store: Store, recording: RecordingSolver
) -> None:
    game = await rounds_until(store, recording, await started(store), crack_when_bot_will=False)
    assert recording.requests, "the bot asked the solver for its guesses"
    stored = [(m.code, m.black, m.white) for m in game.bot_moves]
    for request in recording.requests:
        history = request["history"]
        assert history == stored[: len(history)]  # its own guesses and pegs, in order
        for code, _, _ in history:
            assert code != THEIRS  # the player's secret is never sent (not even as a guess)
        assert request["strategy"] == "knuth" and set(request) == {"strategy", "history", "seed"}


async def test_one_transaction_per_round_and_once_per_source(
    store: Store, solver: SolverPool
) -> None:
    game = await started(store)
    await duel.guess(store, solver, game.id or 0, alice("picker:5"), MISS)
    with pytest.raises(AlreadyApplied):
        await duel.guess(store, solver, game.id or 0, alice("picker:5"), MISS)
    stored = await store.game(game.id or 0)
    assert stored is not None and stored.version == 2


async def test_refusals_store_nothing(store: Store, solver: SolverPool) -> None:
    game = await started(store)
    gid = game.id or 0
    bob = Actor(user_id=BOB, guild_id=GUILD, channel_id=CHANNEL, source="i:9")
    with pytest.raises(NotYourGame):
        await duel.guess(store, solver, gid, bob, MISS)
    with pytest.raises(NotHere):
        await duel.guess(store, solver, gid, alice("i:8", channel=CHANNEL + 1), MISS)
    with pytest.raises(InvalidGuess):
        await duel.guess(store, solver, gid, alice("i:7"), "12")
    with pytest.raises(StaleGame):
        await duel.guess(store, solver, gid, alice("i:6"), MISS, version=game.version + 2)
    stored = await store.game(gid)
    assert stored is not None and stored.version == 0
    played = await duel.guess(store, solver, gid, alice("i:5"), MISS, game.version)
    with pytest.raises(StaleGame):  # a picker opened before that round
        await duel.guess(store, solver, gid, alice("i:4"), MISS, game.version)
    ended = await duel.guess(store, solver, gid, alice("i:3"), BOTS, played.game.version)
    assert ended.game.is_over
    with pytest.raises(GameOver):
        await duel.guess(store, solver, gid, alice("i:2"), MISS)


async def test_out_of_turn_is_refused_by_the_rules(store: Store) -> None:
    from bot.modes.duel.rules import guess

    game = await started(store)
    applied = await store.act(lambda g: guess(g, ALICE, MISS), game_id=game.id, source="i:1")
    with pytest.raises(NotYourTurn):
        await store.act(lambda g: guess(g, ALICE, MISS), game_id=game.id, source="i:2")
    assert applied.game.version == 1


async def test_a_solver_that_fails_stores_nothing(store: Store) -> None:
    broken = SolverPool(1, 2.0)
    game = await started(store)
    broken.shutdown()
    with pytest.raises(SolverUnavailable, match=Unavailable.SHUTTING_DOWN):
        await duel.guess(store, broken, game.id or 0, alice("i:1"), MISS)
    stored = await store.game(game.id or 0)
    assert stored is not None and stored.version == 0


async def test_a_start_is_refused_before_anything_is_shown(
    store: Store, solver: SolverPool
) -> None:
    setup = Setup(Variant(), "knuth")
    with pytest.raises(BadChoice):
        await duel.check_start(store, alice("i:1"), Setup(Variant(), "no-such-strategy"))
    with pytest.raises(BadSecret):
        duel.check_secret(setup, "1237")
    with pytest.raises(BadSecret):
        duel.check_secret(Setup(Variant(duplicates=False), "knuth"), "1123")
    await duel.check_start(store, alice("i:1"), setup)
    game = await duel.start(store, alice("i:2"), setup, "6655", 42)
    assert not game.theirs.known and not game.secret.known and game.turn is not None
    with pytest.raises(GameAlreadyActive):
        await duel.check_start(store, alice("i:3"), setup)
    with pytest.raises(GameAlreadyActive):
        await duel.start(store, alice("i:4"), setup, "6655", 43)


async def test_the_store_withholds_both_secrets_until_the_end(
    store: Store, solver: SolverPool
) -> None:
    game = await started(store)
    shown = await store.game(game.id or 0)
    assert isinstance(shown, DuelGame)
    assert not shown.secret.known and not shown.theirs.known
    active = await store.active_game(CHANNEL)
    assert isinstance(active, DuelGame) and not active.theirs.known
    played = await duel.guess(store, solver, game.id or 0, alice("i:1"), MISS)
    assert not played.game.secret.known and not played.game.theirs.known
    await duel.guess(store, solver, game.id or 0, alice("i:2"), BOTS)
    over = await store.game(game.id or 0)
    assert isinstance(over, DuelGame) and over.is_over
    assert over.revealed_secret == BOTS and over.revealed_theirs == THEIRS


def test_the_record_keeps_both_secrets_in_one_column() -> None:
    game = new_duel_game(
        guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, theirs=THEIRS, secret=BOTS, hard=True
    )
    record = game_to_record(game)
    assert record["secret"] == "[0,1,2,3,5,5,4,4]" and record["strategy"] == "knuth"
    back = game_from_record(record, [move_to_record(m) for m in game.log])
    assert isinstance(back, DuelGame) and back.hard
    assert back.secret.reveal() == BOTS and back.theirs.reveal() == THEIRS
    withheld = game_from_record({**record, "secret": None}, [])
    assert isinstance(withheld, DuelGame) and not withheld.theirs.known
    with pytest.raises(RecordError):
        DuelRecord().build({**record, "secret": "[0,1,2,3]"}, {}, game.variant)


def test_a_tally_per_opponent_with_its_wins_in_a_row() -> None:
    rows = [
        {"strategy": "optimal", "status": "won"},
        {"strategy": "knuth", "status": "won"},
        {"strategy": "knuth", "status": "won"},
        {"strategy": "knuth", "status": "draw"},
        {"strategy": "knuth", "status": "won"},
        {"strategy": "optimal", "status": "lost"},
        {"strategy": "knuth", "status": "abandoned"},  # given up or timed out: lost
        {"strategy": "knuth", "status": "won"},
    ]
    knuth, optimal = duel.tally(rows)  # in the order the opponents are offered
    assert knuth == duel.Tally("knuth", won=4, lost=1, drawn=1, streak=1, best_streak=2)
    assert optimal == duel.Tally("optimal", won=1, lost=1, streak=0, best_streak=1)
    assert duel.tally([]) == []


async def test_the_record_counts_finished_duels_only(store: Store, solver: SolverPool) -> None:
    game = await started(store)
    assert await duel.record(store, GUILD, ALICE) == []
    await duel.guess(store, solver, game.id or 0, alice("i:1"), BOTS)
    (knuth,) = await duel.record(store, GUILD, ALICE)
    assert knuth.won == 1 and knuth.streak == 1
    assert await duel.record(store, GUILD + 1, ALICE) == []  # another server's record
    assert len(await duel.record(store, None, ALICE)) == 1  # everywhere
    assert await duel.record(store, GUILD, BOB) == []


async def test_a_hint_reads_the_player_clues_only(store: Store, solver: SolverPool) -> None:
    from bot.engine.scoring import score
    from bot.modes.duel.rules import hint
    from bot.modes.hints import actions as hints

    game = await started(store)
    played = await duel.guess(store, solver, game.id or 0, alice("i:1"), (0, 0, 1, 1), game.version)
    shown = played.game
    with pytest.raises(NotYourGame):  # only the duel's player asks
        hints.check(shown, Actor(user_id=BOB, guild_id=GUILD, channel_id=CHANNEL), hint)
    checked = hints.check(shown, alice("i:2"), hint)
    given = await hints.hint(store, solver, checked, alice("i:2"), hint)
    space = shown.variant.space
    answer = score((0, 0, 1, 1), BOTS)  # the player's one clue: their guess at the bot's code
    fitting = [c for c in map(space.code_at, range(space.size)) if score((0, 0, 1, 1), c) == answer]
    assert given.hint.remaining == len(fitting)  # the bot's own guess told the player nothing
    assert given.level == 1 and given.game.hints == 1


async def test_a_duel_won_shows_in_the_wins_chart_by_the_player_guesses(
    store: Store, solver: SolverPool
) -> None:
    from datetime import UTC, datetime

    from bot.modes.common.actions import wins
    from bot.modes.registry import MODES
    from bot.ui import charts
    from bot.ui.i18n import ENGLISH, messages

    game = await started(store)
    first = await duel.guess(store, solver, game.id or 0, alice("i:1"), MISS, game.version)
    await duel.guess(store, solver, game.id or 0, alice("i:2"), BOTS, first.game.version)
    found = await wins(store, GUILD, ALICE, datetime.now(UTC), [m.kind for m in MODES])
    assert found is not None and found.kinds[-1] == "duel" and found.of_kind("duel") == 1
    assert found.rows == (1, 2)  # two guesses of the player's: the bot's are not counted
    looks = {mode.kind: mode.chart for mode in MODES}
    assert "duel 1" in charts.stats(found, looks, ENGLISH).alt
    assert "pojedynek 1" in charts.stats(found, looks, messages("pl")).alt
