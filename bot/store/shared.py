"""What every store implementation does the same way, whatever its SQL dialect: the game
columns, the check that a transition only appends, the move rows, and withholding secrets."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, TypeVar

from bot.engine.game import Game
from bot.store.codec import move_to_record

GameT = TypeVar("GameT", bound=Game)
MomentT = TypeVar("MomentT")

RECORD_COLUMNS = (
    "format",
    "kind",
    "guild_id",
    "channel_id",
    "starter_id",
    "pegs",
    "colours",
    "duplicates",
    "max_guesses",
    "solo",
    "strategy",
    "secret",
    "status",
    "winner_id",
    "version",
    "hard",
    "hints",
    "reach",
    "puzzle",
    "lobby_until",
    "race_until",
)
"""The game row's columns that `codec.game_to_record` fills, in table order."""

CHANNEL_GAMES = "kind <> 'daily'"
"""The games that hold their channel (one active at a time); daily games are each player's own."""


STATS = """
    SELECT m.player_id AS user_id,
           count(DISTINCT m.game_id) AS played,
           count(DISTINCT CASE WHEN g.winner_id = m.player_id THEN m.game_id END) AS won,
           count(*) AS guesses,
           min(CASE WHEN m.black = g.pegs THEN (
               SELECT count(*) FROM moves AS e
               WHERE e.game_id = m.game_id AND e.kind = 'guess' AND e.move_no <= m.move_no
                 AND (g.kind <> 'race' OR e.player_id = m.player_id)
           ) END) AS best,
           count(DISTINCT CASE WHEN g.winner_id = m.player_id AND g.hard THEN m.game_id END)
               AS hard_won,
           count(DISTINCT CASE WHEN g.hints > 0 THEN m.game_id END) AS hinted
    FROM moves AS m JOIN games AS g ON g.id = m.game_id
    WHERE g.kind = {kind} AND g.status <> 'active' AND m.kind = 'guess' AND {where}
    GROUP BY m.player_id
"""
"""Per-player records of one kind of game: `{kind}` and `{where}` take the dialect's
placeholders. `best` counts only guesses (a log also holds hints, joins and other racers)."""


SOLVE_STATS = """
    SELECT count(*) AS played,
           count(CASE WHEN s.status = 'solved' THEN 1 END) AS won,
           coalesce(sum(s.answered), 0) AS guesses,
           min(CASE WHEN s.status = 'solved' THEN s.answered END) AS best
    FROM (
        SELECT g.status,
               (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'answer')
             - (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'undo')
               AS answered
        FROM games AS g
        WHERE g.kind = 'solve' AND g.status <> 'active' AND {where}
    ) AS s
"""
"""One player's record as the holder of solve games: the answers they gave that still stand are
the bot's guesses (an undo takes one back)."""


def select_games(with_secret: bool) -> str:
    """The SELECT list of a game: an active game's secret stays in the database unless the
    caller scores or ends it (`with_secret`)."""
    secret = "secret" if with_secret else "CASE WHEN status = 'active' THEN NULL ELSE secret END"
    columns = ", ".join(c for c in RECORD_COLUMNS if c != "secret")
    return f"id, {columns}, {secret} AS secret, created_at, finished_at, last_move_at"


def check_appended(old: Game, new: Game) -> None:
    """A transition may only append moves to the game it was given."""
    if replace(new, log=old.log) != old or new.log[: len(old.log)] != old.log:
        raise ValueError("a transition may only append moves to the game it was given")


def move_rows(game: Game, start: int, now: MomentT, source: str | None) -> list[tuple[Any, ...]]:
    """Rows for the log from `start`; the first new row carries the source that made them."""
    rows = []
    for number, move in enumerate(game.log[start:], start=start + 1):
        record = move_to_record(move)
        values = (record["kind"], record["player_id"], record["code"], record["black"])
        first = source if number == start + 1 else None
        rows.append((game.id, number, *values, record["white"], now, first))
    return rows


def public(game: GameT) -> GameT:
    """Withhold an active game's secret from everything outside the store."""
    return game if game.is_over else game.withheld()


def utc_now() -> datetime:
    return datetime.now(UTC)


def retrieve(task: asyncio.Task[Any]) -> None:
    """Mark a shielded transaction's error as seen once its caller has gone."""
    if not task.cancelled():
        task.exception()
