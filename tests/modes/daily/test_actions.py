"""The daily mode over a real store: the key, today's game once per player, guesses, streaks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.engine.actor import Actor
from bot.engine.codes import CodeSpace
from bot.engine.errors import GameOver, NotHere, NotYourGame
from bot.engine.game import EndOutcome, MoveKind, Status
from bot.modes.daily import actions as daily
from bot.modes.daily.rules import FIRST_DAY, Streak, daily_secret
from bot.store import AlreadyApplied, Store, open_store

CLASSIC = CodeSpace(4, 6)
NOON = datetime(2026, 3, 14, 12, 0, tzinfo=UTC)
KEY = b"k" * 32


def who(user: int, n: int = 0, guild: int | None = 1, channel: int = 2) -> Actor:
    return Actor(user_id=user, guild_id=guild, channel_id=channel, source=f"i:{user}:{n}")


async def test_the_key_is_made_once_kept_and_shared(store: Store, tmp_path) -> None:
    made = await daily.key(store, None)
    assert len(made) == 32 and await daily.key(store, None) == made
    async with await open_store(tmp_path / "modes.db") as again:  # another process, same file
        assert await daily.key(again, None) == made
    assert await daily.key(store, "a setting of sixteen+") == b"a setting of sixteen+"


def test_without_the_key_the_days_code_is_another() -> None:
    day = NOON.date()
    code = daily.secret_of(day, KEY)
    assert code == daily_secret(KEY, day, CLASSIC)  # the same for everybody with the key
    other = b"o" * 32  # the source and the date, but another key
    assert daily.secret_of(day, other) != code
    month = [day + timedelta(days=n) for n in range(30)]
    assert sum(daily.secret_of(d, other) != daily.secret_of(d, KEY) for d in month) >= 28
    assert len({daily.secret_of(d, KEY) for d in month}) >= 25  # and each day has its own


async def test_today_is_one_game_per_player_whatever_the_channel(store: Store) -> None:
    first = await daily.open_today(store, who(10), KEY, NOON, hard=False)
    again = await daily.open_today(store, who(10, 1, channel=3), KEY, NOON, hard=True)
    assert first.new and not again.new and again.game.id == first.game.id
    assert first.game.puzzle == (NOON.date() - FIRST_DAY).days + 1
    other = await daily.open_today(store, who(11), KEY, NOON, hard=True)
    assert other.new and other.game.hard and other.game.id != first.game.id
    tomorrow = await daily.open_today(store, who(10, 2), KEY, NOON + timedelta(days=1), False)
    assert tomorrow.new and tomorrow.game.puzzle == first.game.puzzle + 1


async def test_only_its_player_guesses_and_one_guess_per_version(store: Store) -> None:
    game = (await daily.open_today(store, who(10), KEY, NOON, hard=False)).game
    assert game.id is not None
    with pytest.raises(NotYourGame):
        await daily.guess(store, game.id, game.version, who(11), "1111", NOON)
    played, outcome = await daily.guess(store, game.id, game.version, who(10), "1111", NOON)
    assert outcome.number == 1 and played.version == game.version + 1
    with pytest.raises(AlreadyApplied):  # the same board version a second time
        await daily.guess(store, game.id, game.version, who(10, 5), "2222", NOON)
    secret = "".join(str(c + 1) for c in daily.secret_of(NOON.date(), KEY))
    won, outcome = await daily.guess(store, game.id, played.version, who(10), secret, NOON)
    assert won.status is Status.WON and outcome.secret is not None
    with pytest.raises(GameOver):
        await daily.may_guess(store, game.id, who(10))
    with pytest.raises(NotHere):
        await daily.mine(store, 999, who(10))


async def test_streaks_over_days(store: Store) -> None:
    async def finish(day: int, solve: bool) -> None:
        now = NOON + timedelta(days=day)
        game = (await daily.open_today(store, who(10, day), KEY, now, hard=False)).game
        assert game.id is not None
        secret = daily.secret_of(now.date(), KEY)
        wrong = "".join(str((c + 1) % 6 + 1) for c in secret)
        right = "".join(str(c + 1) for c in secret)
        version = game.version
        for code in [right] if solve else [wrong] * 10:
            game, _ = await daily.guess(store, game.id, version, who(10, day), code, now)
            version = game.version

    await finish(0, True)
    await finish(1, True)
    assert await daily.record(store, 10, NOON + timedelta(days=1)) == Streak(2, 2, 2, 2)
    await finish(2, False)
    await finish(3, True)
    assert await daily.record(store, 10, NOON + timedelta(days=3)) == Streak(4, 3, 1, 2)
    assert await daily.record(store, 10, NOON + timedelta(days=5)) == Streak(4, 3, 0, 2)
    result = await daily.result_of(store, 10, (NOON.date() - FIRST_DAY).days + 3)
    assert result is not None and not result.won


async def test_a_puzzle_is_played_on_its_own_day_only(store: Store) -> None:
    """Yesterday's puzzle, opened and left: after midnight UTC its answer may be public, so a
    guess closes it (its answer shows) instead of solving it, and it counts as not solved."""
    game = (await daily.open_today(store, who(10), KEY, NOON, hard=False)).game
    assert game.id is not None
    secret = "".join(str(c + 1) for c in daily.secret_of(NOON.date(), KEY))
    midnight = datetime.combine(NOON.date() + timedelta(days=1), datetime.min.time(), UTC)
    closed, outcome = await daily.guess(store, game.id, game.version, who(10), secret, midnight)
    assert isinstance(outcome, EndOutcome) and outcome.reason is MoveKind.TIMEOUT
    assert closed.is_over and closed.status is not Status.WON and closed.moves == ()
    assert closed.revealed_secret == daily.secret_of(NOON.date(), KEY)
    assert await daily.record(store, 10, midnight) == Streak(1, 0, 0, 0)
