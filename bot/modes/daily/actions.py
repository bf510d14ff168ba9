"""The daily mode: one code per UTC day for everybody, each player cracking it privately once.

The day's secret comes from `bot.engine.daily` and a server-side key: a setting, or else one
made at random the first time and kept in the database, so every process of a cluster (and the
bot after a restart) derives the same code. What "today" is comes from the caller's clock.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from bot.engine import game as core
from bot.engine.actor import Actor
from bot.engine.codes import Code
from bot.engine.errors import AlreadyPlayed, GameOver, NotHere, NotYourGame, OwnerReason
from bot.engine.game import EndOutcome, Game, GuessOutcome, Variant
from bot.modes.daily import rules as days
from bot.modes.daily.rules import KIND, DailyGame
from bot.store import Held, Result, Store

KEY_META = "daily:key"
"""Where the key made at random is kept (hex) when no DAILY_KEY is set."""


@dataclass(frozen=True)
class Day:
    """Which puzzle it is at a moment, and how long until the next one."""

    day: date
    puzzle: int
    next_in: timedelta

    @classmethod
    def at(cls, now: datetime) -> Day:
        today = days.today(now)
        return cls(today, days.puzzle_number(today), days.next_puzzle_in(now))


@dataclass(frozen=True)
class Opened:
    """What `/mastermind daily` found: the player's game of the day, and whether it is new."""

    game: DailyGame
    new: bool


async def key(store: Store, configured: str | None) -> bytes:
    """The daily key: the setting, else the one kept in the database (made once, at random;
    when several processes make one at the same moment, the first stored wins for all)."""
    if configured:
        return configured.encode()
    held = await store.get_meta(KEY_META)
    if held is None:
        held = await store.claim_meta(KEY_META, secrets.token_bytes(days.KEY_BYTES).hex())
    return bytes.fromhex(held)


def secret_of(day: date, daily_key: bytes) -> Code:
    """The day's code on the classic board (4 pegs, 6 colours)."""
    return days.daily_secret(daily_key, day, Variant().space)


async def open_today(
    store: Store, actor: Actor, daily_key: bytes, now: datetime, hard: bool
) -> Opened:
    """The player's game of today: a new one, or (once per player and day) the one they have."""
    today = Day.at(now)
    fresh = days.new_daily_game(
        guild_id=actor.guild_id,
        channel_id=actor.channel_id,
        player_id=actor.user_id,
        puzzle=today.puzzle,
        secret=secret_of(today.day, daily_key),
        hard=hard,
    )
    try:
        game = await store.start(fresh, source=actor.source)
    except AlreadyPlayed as played:
        found = await store.game(played.game_id) if played.game_id is not None else None
        if not isinstance(found, DailyGame):
            raise
        return Opened(found, new=False)
    return Opened(game, new=True)


def own(game: Game | None, actor: Actor) -> DailyGame:
    """`game` if it is the actor's own daily game. A daily game is its player's alone,
    wherever they open it: the check is who, not where (its board is private, shown only to
    them); made again inside a move's own transaction."""
    if not isinstance(game, DailyGame):
        raise NotHere()
    if game.starter_id != actor.user_id:
        raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    return game


async def mine(store: Store, game_id: int, actor: Actor) -> DailyGame:
    """The actor's own daily game `game_id` (see `own`)."""
    return own(await store.game(game_id), actor)


async def may_guess(store: Store, game_id: int, actor: Actor) -> DailyGame:
    game = await mine(store, game_id, actor)
    if game.is_over:
        raise GameOver()
    return game


async def guess(
    store: Store, game_id: int, version: int, actor: Actor, code: str | Code, now: datetime
) -> tuple[DailyGame, GuessOutcome | EndOutcome]:
    """Score a guess made at `now` on the board that showed `version`, in one write
    transaction: one guess per version, so a second click (or a stale copy of the board)
    stores nothing (AlreadyApplied). After the puzzle's day, the game is closed instead
    (an EndOutcome: its answer shows, nothing is scored)."""
    today = Day.at(now).day
    applied = await store.act(
        lambda g: days.guess(own(g, actor), actor.user_id, code, today=today),
        game_id=game_id,
        source=f"daily:{game_id}:{version}",
    )
    return own(applied.game, actor), applied.outcome


def day_of(puzzle: int) -> date:
    """The UTC day of puzzle number `puzzle`."""
    return days.FIRST_DAY + timedelta(days=puzzle - 1)


async def record(store: Store, user_id: int, now: datetime) -> days.Streak:
    """A player's days played and solved and their streaks, as of today."""
    results = await store.results(KIND, user_id)
    return days.streak(((day_of(r.puzzle), r.won) for r in results), Day.at(now).day)


async def result_of(store: Store, user_id: int, puzzle: int) -> Result | None:
    """The player's finished game of daily `puzzle`, if any."""
    results = await store.results(KIND, user_id)
    return next((r for r in results if r.puzzle == puzzle), None)


async def leaderboard(store: Store, guild_id: int, now: datetime) -> tuple[Day, list[Result]]:
    """Today's finished daily games of a server, best first."""
    today = Day.at(now)
    return today, await store.ranking(KIND, guild_id, today.puzzle)


async def close_past_days(
    store: Store, now: datetime, guilds: Callable[[int | None], bool] | None, while_held: Held
) -> list[DailyGame]:
    """End the unfinished games of the days before `now`'s as a late move ends them (`guess`:
    a timeout, its answer shown, nothing scored); `guilds`: only those of the servers it
    accepts. `while_held` is asked before each (the jobs lease of the cluster's pass)."""
    today = Day.at(now).puzzle
    closed: list[DailyGame] = []
    for game in await store.running(KIND):
        if not isinstance(game, DailyGame) or game.id is None or game.puzzle >= today:
            continue
        if guilds is not None and not guilds(game.guild_id):
            continue
        if not while_held():
            break
        try:
            ended, _ = await store.apply(core.expire, game_id=game.id)
        except GameOver:
            continue  # its player's late move ended it meanwhile
        if isinstance(ended, DailyGame):
            closed.append(ended)
    return closed
