"""What the finished games add up to: players' records, leaderboards, history and results,
each one query in the store's one SQL (the dialect adds only how to subtract two timestamps)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, TypedDict, Unpack

from bot.store import codec, game_rows
from bot.store.dialect import Dialect, Row, Session
from bot.store.values import HistoryEntry, PlayerStats, Result, Win

_STATS = """
    SELECT m.player_id AS user_id,
           count(DISTINCT m.game_id) AS played,
           count(DISTINCT CASE WHEN g.winner_id = m.player_id THEN m.game_id END) AS won,
           count(*) AS guesses,
           min(CASE WHEN m.black = g.pegs THEN (
               SELECT count(*) FROM moves AS e
               WHERE e.game_id = m.game_id AND e.kind = 'guess' AND e.move_no <= m.move_no
                 AND (NOT :alone OR e.player_id = m.player_id)
           ) END) AS best,
           count(DISTINCT CASE WHEN g.winner_id = m.player_id AND g.hard THEN m.game_id END)
               AS hard_won,
           count(DISTINCT CASE WHEN g.hints > 0 THEN m.game_id END) AS hinted
    FROM moves AS m JOIN games AS g ON g.id = m.game_id
    WHERE g.kind = :kind AND g.status <> 'active' AND m.kind = 'guess'
      AND m.player_id IS NOT NULL AND {where}
    GROUP BY m.player_id
"""
"""Per-player records of one kind of game, narrowed by `{where}`: players' guesses only (a guess
with no player is the bot's). `best` counts only guesses (a log also holds hints and joins), and
where each player plays alone (`:alone`) only their own."""

IN_GUILD = "(CAST(:guild AS BIGINT) IS NULL OR g.guild_id = :guild)"
"""In one guild, or everywhere when `:guild` is NULL (typed, so PostgreSQL knows it)."""

_WINS = f"""
    SELECT g.kind, g.hard, g.hints > 0 AS hinted, g.finished_at,
           (SELECT count(*) FROM moves AS e
            WHERE e.game_id = g.id AND e.kind = 'guess' AND e.move_no <= m.move_no
              AND (g.kind NOT IN ({{alone}}) OR e.player_id = m.player_id)) AS guesses
    FROM moves AS m JOIN games AS g ON g.id = m.game_id
    WHERE g.status <> 'active' AND g.winner_id = :user AND m.player_id = :user
      AND m.kind = 'guess' AND m.black = g.pegs AND {IN_GUILD}
"""
"""Every game a player cracked, in a guild or everywhere (counted as their record's `best`
counts); each kind that counts wins of its own adds its query (`KindCodec.wins`, the same
columns), and the whole is ordered oldest first."""

_RESULTS = """
    SELECT g.starter_id AS user_id, g.id AS game_id, g.puzzle, g.status = 'won' AS won,
           (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'guess')
               AS guesses,
           {seconds} AS seconds,
           g.hard, g.hints > 0 AS hinted
    FROM games AS g
    WHERE g.kind = :kind AND g.status <> 'active' AND {where}
"""
"""Finished games of one kind as results; `{where}` narrows them (by player, or guild and
puzzle)."""


async def player_stats(
    session: Session, guild_id: int | None, user_id: int, kind: str
) -> PlayerStats:
    own = codec.of(kind).stats
    sql = own or _STATS.format(where=f"m.player_id = :user AND {IN_GUILD}")
    params = {"user": user_id, "guild": guild_id, "kind": kind, "alone": _alone(kind)}
    rows = await session.fetch(sql, params)
    found = (_player(row, kind) for row in rows if row["played"])
    return next(found, PlayerStats(user_id, kind=kind))


async def kind_rows(
    session: Session, kind: str, query: str, params: Mapping[str, object]
) -> list[dict[str, Any]]:
    """The rows of `kind`'s own read query `query` (`KindCodec.queries`), as plain dicts
    (`:kind` and `:alone`, whether its players play alone, bound)."""
    sql = codec.of(kind).queries[query]
    bound = {**params, "kind": kind, "alone": _alone(kind)}
    return [dict(row) for row in await session.fetch(sql, bound)]


def ranked(where: str) -> str:
    """A leaderboard's query: the players of one kind in the games `where` narrows (params
    :kind, :alone, :limit and those of `where`), most wins first, then the best game, then
    fewest games played; its rows are `PlayerStats`' fields. A kind's own query may narrow it
    further (`KindCodec.queries`)."""
    order = " ORDER BY won DESC, best ASC NULLS LAST, played, user_id LIMIT :limit"
    return _STATS.format(where=where) + order


async def leaderboard(session: Session, guild_id: int, limit: int, kind: str) -> list[PlayerStats]:
    """Most wins first, then the best game, then fewest games played."""
    params = {"guild": guild_id, "limit": limit, "kind": kind, "alone": _alone(kind)}
    rows = await session.fetch(ranked("g.guild_id = :guild"), params)
    return [_player(row, kind) for row in rows]


def _alone(kind: str) -> bool:
    """Each player of this kind plays alone on one code (its record says): a best counts only
    their own guesses."""
    return codec.of(kind).plays_alone


def _player(row: Row, kind: str) -> PlayerStats:
    return PlayerStats(**dict(row), kind=kind)


@cache
def _wins_sql(kinds: tuple[str, ...]) -> str:
    alone = ", ".join(f"'{kind}'" for kind in kinds if _alone(kind)) or "''"
    own = (codec.of(kind).wins for kind in kinds)
    parts = [_WINS.format(alone=alone), *(sql for sql in own if sql)]
    return " UNION ALL ".join(parts) + " ORDER BY finished_at"


async def wins(session: Session, dialect: Dialect, guild_id: int | None, user_id: int) -> list[Win]:
    kinds = tuple(each.kind for each in codec.codecs())
    rows = await session.fetch(_wins_sql(kinds), {"user": user_id, "guild": guild_id})
    return [
        Win(
            kind=str(row["kind"]),
            guesses=int(row["guesses"]),
            hard=bool(row["hard"]),
            hinted=bool(row["hinted"]),
            finished_at=dialect.moment(row["finished_at"]),
        )
        for row in rows
    ]


class HistoryFilter(TypedDict, total=False):
    """Whose finished games `history` lists (each None or left out: anyone's), and how many
    (20 unless given)."""

    guild_id: int | None
    channel_id: int | None
    player_id: int | None
    limit: int


async def history(
    session: Session, dialect: Dialect, **where: Unpack[HistoryFilter]
) -> list[HistoryEntry]:
    """Finished games, newest first; a player's are those they started or moved in."""
    if unknown := where.keys() - HistoryFilter.__optional_keys__:
        raise TypeError(f"unexpected keyword arguments: {sorted(unknown)}")
    guild_id, channel_id = where.get("guild_id"), where.get("channel_id")
    player_id, limit = where.get("player_id"), where.get("limit", 20)
    conditions = ["status <> 'active'"]
    params = {"guild": guild_id, "channel": channel_id, "player": player_id, "limit": limit}
    if guild_id is not None:
        conditions.append("guild_id = :guild")
    if channel_id is not None:
        conditions.append("channel_id = :channel")
    if player_id is not None:
        conditions.append(
            "(starter_id = :player OR EXISTS (SELECT 1 FROM moves "
            "WHERE moves.game_id = games.id AND moves.player_id = :player))"
        )
    clause = " AND ".join(conditions) + " ORDER BY finished_at DESC, id DESC LIMIT :limit"
    found = await game_rows.fetch(
        session, clause, params, skipped=[]
    )  # an unreadable one: left out
    return [
        HistoryEntry(
            each.game,
            dialect.moment(each.row["created_at"]),
            dialect.moment(each.row["finished_at"]),
        )
        for each in found
    ]


async def results(session: Session, dialect: Dialect, kind: str, user_id: int) -> list[Result]:
    """A player's finished games of one kind everywhere, oldest puzzle first."""
    sql = _results_sql(dialect, "g.starter_id = :user") + " ORDER BY g.puzzle, g.id"
    params = {"user": user_id, "kind": kind}
    return [_result(row) for row in await session.fetch(sql, params)]


async def ranking(
    session: Session, dialect: Dialect, kind: str, guild_id: int, puzzle: int, limit: int
) -> list[Result]:
    """A guild's finished games of one puzzle: solved, fewer guesses, less time."""
    sql = (
        _results_sql(dialect, "g.guild_id = :guild AND g.puzzle = :puzzle")
        + " ORDER BY won DESC, guesses, seconds, g.finished_at, g.id LIMIT :limit"
    )
    params = {"guild": guild_id, "puzzle": puzzle, "limit": limit, "kind": kind}
    return [_result(row) for row in await session.fetch(sql, params)]


def _results_sql(dialect: Dialect, where: str) -> str:
    seconds = dialect.seconds_between.format(start="g.created_at", end="g.finished_at")
    return _RESULTS.format(seconds=seconds, where=where)


def _result(row: Row) -> Result:
    return Result(
        user_id=row["user_id"],
        game_id=row["game_id"],
        puzzle=row["puzzle"],
        won=bool(row["won"]),
        guesses=row["guesses"],
        seconds=round(max(0.0, row["seconds"] or 0.0), 3),
        hard=bool(row["hard"]),
        hinted=bool(row["hinted"]),
    )
