"""Shared bits for the store tests: a settable clock and quick game builders."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.engine.game import Variant
from bot.modes.play.rules import PlayGame, new_play_game
from bot.modes.solve.rules import SolveGame, new_solve_game

GUILD, CHANNEL = 700, 800
ALICE, BOB, CAROL = 1, 2, 3
SECRET = (0, 1, 2, 3)  # "1234"


class Clock:
    """A clock the test moves by hand, so expiry and history order are exact."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(microseconds=1)  # every call is a distinct, later instant
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def play(
    channel_id: int = CHANNEL,
    *,
    guild_id: int | None = GUILD,
    starter_id: int = ALICE,
    secret: tuple[int, ...] | None = SECRET,
    hard: bool = False,
    **variant: int | bool,
) -> PlayGame:
    return new_play_game(
        guild_id=guild_id,
        channel_id=channel_id,
        starter_id=starter_id,
        variant=Variant(**variant),  # type: ignore[arg-type]
        secret=secret,
        hard=hard,
    )


def solve(channel_id: int = CHANNEL, *, starter_id: int = ALICE) -> SolveGame:
    return new_solve_game(
        guild_id=GUILD, channel_id=channel_id, starter_id=starter_id, first_guess=(0, 0, 1, 1)
    )


def query(path: Path, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """Read a SQLite file with a plain sqlite3 connection, as an outside tool would."""
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql, params).fetchall()
