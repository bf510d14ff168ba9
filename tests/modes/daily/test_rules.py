"""The daily code: same for everybody on a UTC day, different each day and with each key,
uniform over the codes; streaks count consecutive solved days."""

from __future__ import annotations

import secrets
from collections import Counter
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from bot.engine.codes import CodeSpace
from bot.modes.daily.rules import (
    FIRST_DAY,
    daily_secret,
    next_puzzle_in,
    puzzle_number,
    streak,
    today,
)

CLASSIC = CodeSpace(4, 6)
KEY = bytes(range(32))


def test_one_secret_per_utc_day_for_everybody() -> None:
    day = date(2026, 11, 24)
    assert daily_secret(KEY, day, CLASSIC) == daily_secret(KEY, day, CLASSIC)
    late_in_tokyo = datetime(2026, 11, 25, 8, 30, tzinfo=timezone(timedelta(hours=9)))
    early_in_utc = datetime(2026, 11, 24, 23, 30, tzinfo=UTC)
    assert today(late_in_tokyo) == today(early_in_utc) == day
    with pytest.raises(ValueError, match="aware"):
        today(datetime(2026, 11, 24, 12))


def test_the_key_decides_the_code() -> None:
    days = [FIRST_DAY + timedelta(days=n) for n in range(60)]
    mine = [daily_secret(KEY, d, CLASSIC) for d in days]
    other = [daily_secret(secrets.token_bytes(32), d, CLASSIC) for d in days]
    assert mine != other
    assert len(set(mine)) > 30  # different days, different codes
    with pytest.raises(ValueError):
        daily_secret(b"short", FIRST_DAY, CLASSIC)


def test_every_code_is_about_equally_likely() -> None:
    space = CodeSpace(2, 3)  # 9 codes
    counts = Counter(daily_secret(KEY, FIRST_DAY + timedelta(days=n), space) for n in range(9000))
    assert len(counts) == 9 and min(counts.values()) > 850 and max(counts.values()) < 1150


def test_puzzle_numbers_and_the_time_to_the_next() -> None:
    assert puzzle_number(FIRST_DAY) == 1 and puzzle_number(date(2026, 11, 24)) == 328
    now = datetime(2026, 11, 24, 22, 15, tzinfo=UTC)
    assert next_puzzle_in(now) == timedelta(hours=1, minutes=45)


def test_streaks() -> None:
    d = date(2026, 3, 10)
    days = [(d - timedelta(days=n), True) for n in range(1, 4)]  # solved the 3 days before
    days += [(d - timedelta(days=6), True), (d - timedelta(days=5), False)]
    record = streak(days, d)
    assert (record.played, record.solved, record.current, record.best) == (5, 4, 3, 3)
    assert streak([*days, (d, True)], d).current == 4  # today solved extends it
    assert streak(days, d + timedelta(days=2)).current == 0  # a missed day breaks it
    assert streak([(d, False), (d, True)], d).solved == 1  # a day counts once
