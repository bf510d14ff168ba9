"""The store's seam: every call the bot makes on its database, as a Protocol.

The modes and the app hold a `Store`, never a concrete class; its one implementation is
`sql.SqlStore` over a dialect (SQLite or PostgreSQL), and `tests/store/` runs the same suite on
each. What it promises:

* One player action is one transaction: `act` loads the game, runs the pure transition, saves
  only what it appended and reads where the board is, and returns all of it (`Applied`); no
  other round trip. A cancelled caller never leaves half a move.
* At most one active game per channel (games played once per puzzle aside: each is one
  player's own, one per player and puzzle); a repeated `source` never makes a second move.
* An active play game leaves the store with its secret withheld; only `apply` sees it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol, Self, TypedDict, Unpack, runtime_checkable

from bot.engine.game import G, Game
from bot.store.leases import Lease
from bot.store.values import (
    Absorbed,
    Applied,
    Board,
    Held,
    HistoryEntry,
    OutcomeT,
    PlayerStats,
    Result,
    Snapshot,
    Win,
    always,
)


class ActionTarget(TypedDict, total=False):
    """Which game an action is for and what guards it (the keywords of `act` and `apply`)."""

    channel_id: int | None
    """The channel's active game (give this or `game_id`)."""
    game_id: int | None
    """That game, or GameOver once it has ended."""
    expected_version: int | None
    """Refuse (StaleGame) a move based on another version of the board."""
    source: str | None
    """The input that makes the move; a second move from it raises AlreadyApplied."""


@runtime_checkable
class Store(Protocol):
    """The single source of truth for games, boards, statistics and a few settings."""

    # --- games ---------------------------------------------------------------------------

    async def start(
        self, game: G, *, board: tuple[int, int] | None = None, source: str | None = None
    ) -> G:
        """Store a new game and return it with its id (nothing else: its board is the one
        given); raises GameAlreadyActive if the channel has one, AlreadyPlayed for a
        puzzle the player has. `board` (channel id, message id) is written with it; `source`
        marks its first move (a solve game's opening guess)."""
        ...

    async def act(
        self, transition: Callable[[Game], tuple[Game, OutcomeT]], **target: Unpack[ActionTarget]
    ) -> Applied[OutcomeT]:
        """The single action path: load a game (by exactly one of `channel_id` or `game_id`;
        `expected_version` and `source` guard it, see `ActionTarget`), apply one pure transition,
        save it and read where its board is, all in one write transaction. Returns the game
        (secret withheld while it runs), the outcome and the board row as that transaction saw
        it. Raises what `apply` raises."""
        ...

    def listen(self, listener: Callable[[Applied[Any]], None]) -> None:
        """Call `listener` with every action `act` commits, at once (before its caller
        resumes): how the bot learns a board's newer version is on its way; and with every game
        `start` stores (its outcome and board None: no board of it to redraw yet), which the
        Activity's viewers of its channel are shown."""
        ...

    async def listen_everywhere(self, listener: Callable[[Applied[Any]], None]) -> None:
        """`listen`, and also hear of every game another process sharing the database commits
        (read again here; outcome and board None: its board is that process's to draw). On
        PostgreSQL through LISTEN/NOTIFY; a SQLite file has one process."""
        ...

    async def apply(
        self,
        transition: Callable[[Game], tuple[Game, OutcomeT]],
        *,
        channel_id: int | None = None,
        game_id: int | None = None,
        expected_version: int | None = None,
        source: str | None = None,
    ) -> tuple[Game, OutcomeT]:
        """Load a game (by exactly one of channel_id or game_id), apply one pure transition and
        save it in one transaction: `act` without the board. Raises NoActiveGame, GameOver,
        StaleGame (version is not `expected_version`) or AlreadyApplied (`source` already made
        a move; nothing is written)."""
        ...

    async def game(self, game_id: int) -> Game | None:
        """Any game by id; a finished play game comes with its secret, an active one without."""
        ...

    async def active_game(self, channel_id: int) -> Game | None:
        """The channel's active game for display (its secret withheld), or None."""
        ...

    async def running(self, kind: str) -> list[Game]:
        """Every game of `kind` still running (secrets withheld), oldest first: what a mode's
        clock starts and ends, also after a restart."""
        ...

    async def end_unreadable(self, game_id: int, player_id: int) -> bool:
        """End a game this version cannot read (UnreadableGame) at its starter's or a
        moderator's request: a give-up move by `player_id`, the game abandoned and its channel
        free. The caller checks who may; True if it was running."""
        ...

    async def expire_stale(
        self,
        older_than: timedelta,
        *,
        while_held: Held = always,
        guilds: Callable[[int | None], bool] | None = None,
    ) -> list[Game]:
        """Abandon (as timed out) every active game with no move for `older_than` (`guilds`:
        only the games of the servers it accepts); a game that cannot be read is skipped and
        the others still end. Before each, `while_held()` must still say the work is this
        process's (its lease), else it stops."""
        ...

    async def last_moves(self) -> list[tuple[int | None, datetime]]:
        """Each active game's server and the time of its last move (its expiry's start), so
        the expiry timer knows the next deadline without reading any game."""
        ...

    def lease(self, name: str, holder: str, ttl: float) -> Lease:
        """The lease `name` for `holder` on this database (`bot.cluster` keeps it): shared by
        every process of a cluster on PostgreSQL, always this process's on SQLite."""
        ...

    # --- boards --------------------------------------------------------------------------

    async def board(self, game_id: int) -> Board | None:
        """Where the game's board is, or None if it has none (yet)."""
        ...

    async def drawn(self, game_id: int) -> tuple[Game, Board] | None:
        """A game and where its board is, read together (one read where `game` and `board`
        are two); None if there is no such game or it has no board (yet)."""
        ...

    async def move_board(
        self, game_id: int, channel_id: int, message_id: int, version: int
    ) -> None:
        """A new board message showing `version`."""
        ...

    async def mark_rendered(
        self, game_id: int, version: int, message_id: int | None = None
    ) -> None:
        """The board now shows `version`; an older version never lowers the mark. With
        `message_id`, only if that message is still the board of record: a drawing of a copy
        the board has left (`move_board`) says nothing about the new one."""
        ...

    async def mark_rendered_many(self, marks: Mapping[int, tuple[int, int]]) -> None:
        """`mark_rendered` for several boards (game id -> (message id, version)) in one write
        transaction: how the boards drawn in one moment are recorded together."""
        ...

    async def board_versions(self, game_id: int) -> tuple[int, Board] | None:
        """(the game's version, its channel board: which message, showing which version) in
        one read; None for a game with no channel board (none yet, or one only interactions
        reach)."""
        ...

    async def boards_behind(self, limit: int = 100) -> list[int]:
        """Games whose board shows an older version than the stored game, oldest first."""
        ...

    # --- statistics, history, settings ---------------------------------------------------

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "play"
    ) -> PlayerStats:
        """One player's record in one kind of game, in a guild or everywhere (`guild_id` None)."""
        ...

    async def leaderboard(
        self, guild_id: int, limit: int = 10, kind: str = "play"
    ) -> list[PlayerStats]:
        """A guild's players, most wins first, then the best game, then fewest games played."""
        ...

    async def kind_rows(
        self, kind: str, query: str, params: Mapping[str, object]
    ) -> list[dict[str, Any]]:
        """The rows of a kind's own read query (`KindCodec.queries[query]`, with `params`,
        `:kind` and `:alone`), as plain dicts: what a mode's record or leaderboard shows beyond
        the shared counts.
        KeyError for a query the kind does not declare."""
        ...

    async def history(
        self,
        *,
        guild_id: int | None = None,
        channel_id: int | None = None,
        player_id: int | None = None,
        limit: int = 20,
    ) -> list[HistoryEntry]:
        """Finished games, newest first; a player's are those they started or moved in."""
        ...

    async def wins(self, guild_id: int | None, user_id: int) -> list[Win]:
        """Every game `user_id` won, in a guild or everywhere, oldest first: the games they
        cracked and their codes the bot cracked (what their guess distribution counts)."""
        ...

    async def results(self, kind: str, user_id: int) -> list[Result]:
        """A player's finished games of a kind played once per puzzle, everywhere (a streak
        follows the player, not the server), oldest puzzle first."""
        ...

    async def ranking(self, kind: str, guild_id: int, puzzle: int, limit: int = 10) -> list[Result]:
        """The finished games of one `puzzle` started in a guild: solved first, then fewer
        guesses, then less time."""
        ...

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...

    async def claim_meta(self, key: str, value: str) -> str:
        """Set `key` to `value` only if it holds nothing yet; return what it holds now. Of
        several processes claiming at once, exactly one value wins and all of them see it."""
        ...

    # --- the whole database --------------------------------------------------------------

    async def export(self) -> Snapshot:
        """Every game, move and meta value as of one instant (what a copy reads)."""
        ...

    async def absorb(self, snapshot: Snapshot) -> Absorbed:
        """Merge a snapshot of another database in one transaction: only what is missing, a
        game that went on brought up to date, verified before it commits. Raises ImportRefused
        (nothing written) if this database holds other games under the snapshot's ids, an
        active game in a channel where the snapshot has one, or would not hold it all."""
        ...

    # --- lifetime ------------------------------------------------------------------------

    async def close(self) -> None:
        """Release the database; closing twice is fine, and a closed store refuses work."""
        ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, *exc_info: object) -> None: ...
