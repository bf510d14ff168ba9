"""How a solve game is kept: the strategy the bot plays (the code is only in the player's
head)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.game import Game, Variant
from bot.modes.solve.rules import KIND, SolveGame
from bot.store.codec import KindCodec, Record
from bot.store.stats_queries import IN_GUILD

_ANSWERED = """(SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'answer')
             - (SELECT count(*) FROM moves AS m WHERE m.game_id = g.id AND m.kind = 'undo')"""
"""The bot's guesses in a solve game: the answers its player gave that still stand (an undo
takes one back)."""

_STATS = f"""
    SELECT CAST(:user AS BIGINT) AS user_id,
           count(*) AS played,
           count(CASE WHEN s.status = 'solved' THEN 1 END) AS won,
           CAST(coalesce(sum(s.answered), 0) AS BIGINT) AS guesses,
           min(CASE WHEN s.status = 'solved' THEN s.answered END) AS best
    FROM (
        SELECT g.status, {_ANSWERED} AS answered
        FROM games AS g
        WHERE g.kind = :kind AND g.status <> 'active' AND g.starter_id = :user AND {IN_GUILD}
    ) AS s
"""
"""One player's record as the holder of solve games: the bot's guesses on their codes."""

_WINS = f"""
    SELECT g.kind, g.hard, g.hints > 0 AS hinted, g.finished_at, {_ANSWERED} AS guesses
    FROM games AS g
    WHERE g.kind = '{KIND}' AND g.status = 'solved' AND g.starter_id = :user AND {IN_GUILD}
"""
"""A player's codes the bot cracked, as their guess distribution counts them (its answered
guesses, as `_STATS` counts them)."""


class SolveRecord(KindCodec[SolveGame]):
    """The solve mode's columns (`bot.store.codec.KindCodec`) and its record, counted from the
    player's answers rather than their guesses."""

    kind = KIND
    stats = _STATS
    wins = _WINS

    def columns(self, game: SolveGame) -> Record:
        return {"solo": True, "strategy": game.strategy}

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        return SolveGame(**header, variant=variant, strategy=record["strategy"])
