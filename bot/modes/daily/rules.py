"""The daily mode's rules: one secret per UTC day, the same for everybody, unguessable in
advance, and each player's game on it (one board, played privately once; its guess is the
one-board transition play shares, `bot.modes.common.rules.guess_on`).

The secret is derived from the date and a server-side key with HMAC-SHA256, so anyone with the
source but not the key cannot compute tomorrow's code, and the bot needs to store nothing per
day to know it. Days are UTC dates: one puzzle for the whole world, never one per time zone.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import ClassVar

from bot.engine import game as core
from bot.engine.codes import Code, CodeSpace
from bot.engine.game import EndOutcome, GuessOutcome, Reach, Secret, Variant
from bot.modes.common.rules import OneBoardGame, guess_on

FIRST_DAY = date(2026, 1, 1)
"""Puzzle #1. Fixed for ever: changing it renumbers every past result."""

KEY_BYTES = 32


KIND = "daily"
"""The daily mode's registered name: its games' `kind` in the store and in the registry."""


def today(now: datetime) -> date:
    """The puzzle's day for an aware moment: its UTC date."""
    if now.tzinfo is None:
        raise ValueError("give an aware datetime: the daily code follows UTC")
    return now.astimezone(UTC).date()


def puzzle_number(day: date) -> int:
    """#1 on FIRST_DAY, one more each UTC day after."""
    return (day - FIRST_DAY).days + 1


def next_puzzle_in(now: datetime) -> timedelta:
    """Time left until the next UTC midnight, when the next puzzle starts."""
    moment = now.astimezone(UTC)
    midnight = datetime.combine(moment.date() + timedelta(days=1), datetime.min.time(), UTC)
    return midnight - moment


def daily_secret(key: bytes, day: date, space: CodeSpace) -> Code:
    """The secret of `day` in `space`. 256 bits reduced modulo the space's size: the bias is
    below 2**-230 for every variant, so every code is as likely as any other."""
    if len(key) < 16:
        raise ValueError("the daily key must hold at least 128 bits")
    message = f"mastermind-daily:{day.isoformat()}:{space.pegs}:{space.colours}:{space.duplicates}"
    digest = hmac.new(key, message.encode(), hashlib.sha256).digest()
    return space.code_at(int.from_bytes(digest, "big") % space.size)


@dataclass(frozen=True)
class Streak:
    """A player's daily record: days played and solved, and runs of consecutive solved days."""

    played: int
    solved: int
    current: int  # solved days in a row ending today or yesterday (today may not be played yet)
    best: int


def streak(results: Iterable[tuple[date, bool]], day: date) -> Streak:
    """The record from (day, solved) results as of `day`; a day counts once."""
    by_day: dict[date, bool] = {}
    for when, solved in results:
        by_day[when] = by_day.get(when, False) or solved
    solved_days = sorted(d for d, won in by_day.items() if won)
    best = run = 0
    previous: date | None = None
    for when in solved_days:
        run = run + 1 if previous is not None and when - previous == timedelta(days=1) else 1
        best = max(best, run)
        previous = when
    current = 0
    cursor = day if by_day.get(day) else day - timedelta(days=1)
    while by_day.get(cursor):
        current += 1
        cursor -= timedelta(days=1)
    return Streak(played=len(by_day), solved=len(solved_days), current=current, best=best)


@dataclass(frozen=True, kw_only=True, repr=False)
class DailyGame(OneBoardGame):
    """One player's game on the day's shared secret (`puzzle` numbers the UTC day); played
    privately, once per player and day."""

    kind: ClassVar[str] = KIND
    shown_first: ClassVar[str] = "puzzle"
    owner_ends_only: ClassVar[bool] = True  # a moderator ending it would cost them the day

    puzzle: int
    reach: Reach = Reach.PRIVATE


def new_daily_game(
    *,
    guild_id: int | None,
    channel_id: int,
    player_id: int,
    puzzle: int,
    secret: Code,
    hard: bool = False,
) -> DailyGame:
    """A player's game on day `puzzle`'s shared secret (`secret_for`): classic rules."""
    variant = Variant()
    return DailyGame(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=player_id,
        variant=variant,
        secret=Secret(variant.space.validate(secret)),
        puzzle=puzzle,
        hard=hard,
    )


def guess(
    game: DailyGame, player_id: int, code: Code | str, *, today: date
) -> tuple[DailyGame, GuessOutcome | EndOutcome]:
    """Score a guess on the puzzle of `today`. A puzzle is played on its own day only: once
    that is over (midnight UTC, when its answer may be public), the move closes the game
    instead (a TIMEOUT, so it shows its answer and counts as not solved) and scores nothing."""
    if puzzle_number(today) != game.puzzle:
        return core.expire(game)
    return guess_on(game, player_id, code, alone=True)
