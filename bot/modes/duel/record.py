"""How a duel is kept: both secrets, the bot's strategy, hard mode and the winner.

Both secrets go in the one `secret` column, the bot's code then the player's (2 x pegs colours):
the store withholds that column from every read of a running game but a move's own, so the
player's secret is as hidden as the bot's until the duel ends, with nothing of its own to add.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.engine.game import Game, Secret, Variant
from bot.modes.duel.rules import KIND, DuelGame
from bot.store.codec import KindCodec, Record, RecordError, decode_code, encode_code
from bot.store.stats_queries import IN_GUILD, ranked

RESULTS = "results"
"""The duel's own read query (`Store.kind_rows`): a player's finished duels, oldest first."""

_RESULTS = f"""
    SELECT g.strategy, g.status, g.winner_id
    FROM games AS g
    WHERE g.kind = :kind AND g.status <> 'active' AND g.starter_id = :user AND {IN_GUILD}
    ORDER BY g.finished_at, g.id
"""
"""Each finished duel of a player, in a guild or everywhere (`:guild` NULL), oldest first: the
opponent it was played against and how it ended, from which their record per opponent and
their streaks are counted."""


LEADERS = "leaders"
"""The duel's leaderboard query: a guild's players ranked by their duels against one opponent
(`:opponent`, a strategy), as the shared leaderboard ranks (`:limit` players)."""


class DuelRecord(KindCodec[DuelGame]):
    """The duel's columns (`bot.store.codec.KindCodec`)."""

    kind = KIND
    plays_alone = True
    """The player's count is their own guesses (the bot's share the log)."""
    queries: ClassVar[Mapping[str, str]] = {
        RESULTS: _RESULTS,
        LEADERS: ranked("g.guild_id = :guild AND g.strategy = :opponent"),
    }

    def columns(self, game: DuelGame) -> Record:
        return {
            "solo": True,
            "strategy": game.strategy,
            "secret": secrets_column(game),
            "winner_id": game.winner_id,
            "hard": game.hard,
        }

    def build(self, record: Mapping[str, Any], header: Record, variant: Variant) -> Game:
        ours, theirs = secrets_of(record, variant)
        return DuelGame(
            **header,
            variant=variant,
            secret=ours,
            theirs=theirs,
            strategy=str(record["strategy"]),
            hard=bool(record.get("hard", False)),
        )


def secrets_column(game: DuelGame) -> str | None:
    """Both secrets as stored, or nothing for a game loaded without them."""
    if not (game.secret.known and game.theirs.known):
        return None
    return encode_code(game.secret.reveal() + game.theirs.reveal())


def secrets_of(record: Mapping[str, Any], variant: Variant) -> tuple[Secret, Secret]:
    """The bot's and the player's secrets, as stored (both withheld when read without them)."""
    text = record.get("secret")
    if text is None:
        return Secret.withheld(), Secret.withheld()
    both = decode_code(text)
    pegs = variant.pegs
    if len(both) != 2 * pegs:
        raise RecordError(f"a duel keeps two codes of {pegs} pegs, not {len(both)} colours")
    space = variant.space
    return Secret(space.validate(both[:pegs])), Secret(space.validate(both[pegs:]))
