"""What a store raises besides the rules' own errors: the same for every dialect.

Each error is a `code` and its `data`, so whoever shows it words it (the UI for a player, the
command line for an operator). Only a database that cannot be used at all explains itself in
`str(error)`: that line is for the person setting the bot up, never for a player.
"""

from __future__ import annotations

from typing import Any, ClassVar


class StoreError(Exception):
    """A failure of the store, as a code and its data."""

    code: ClassVar[str] = "store"

    def __init__(self, line: str = "", **data: Any) -> None:
        super().__init__(line or self.code)
        self.line = line
        self.data = data

    def __str__(self) -> str:
        """The operator's line where there is one, else the code and its data (for logs)."""
        if self.line:
            return self.line
        shown = ", ".join(f"{name}={value!r}" for name, value in self.data.items())
        return f"{self.code}({shown})" if shown else self.code


class StoreUnavailable(StoreError, RuntimeError):
    """The database cannot be used at all (unreadable, read-only, corrupt, locked by another
    bot process). `str(error)` is one line for the operator naming it and what to do."""

    code = "store.unavailable"


class SchemaError(StoreUnavailable):
    """The database cannot be used by this version of the bot."""

    code = "store.schema"


class StoreInUse(StoreUnavailable):
    """Another bot process holds the database file (data: `pid`, as its lock file says)."""

    code = "store.in_use"


class StoreBusy(StoreError, RuntimeError):
    """The database stayed locked past the bound; nothing was written."""

    code = "store.busy"


class AlreadyApplied(StoreError, RuntimeError):
    """This input already made a move (a double click, a resubmitted modal, a retry)."""

    code = "store.already_applied"

    def __init__(self, game_id: int, move_no: int) -> None:
        super().__init__(game_id=game_id, move_no=move_no)
        self.game_id, self.move_no = game_id, move_no


class UnreadableGame(StoreError, RuntimeError):
    """A stored game this version cannot read: written by a newer version (a rolling upgrade of
    a cluster) or damaged. data: `game_id`, `starter_id`, `channel_id`, `why`. Its starter or
    a moderator may end it (`Store.end_unreadable`), which frees its channel."""

    code = "store.unreadable_game"

    def __init__(self, game_id: int, starter_id: int, channel_id: int, why: str) -> None:
        super().__init__(game_id=game_id, starter_id=starter_id, channel_id=channel_id, why=why)
        self.game_id, self.starter_id, self.channel_id, self.why = (
            game_id,
            starter_id,
            channel_id,
            why,
        )


class Conflict(StoreError):
    """A write met a unique index of the schema (data: `index`, named as in both schemas)."""

    code = "store.conflict"


class ImportRefused(StoreError):
    """`absorb` wrote nothing. data `reason`: `other_games` (the database holds other games;
    `game_id`), `channel_taken` (an active game where the copy has one) or `unverified` (the
    `expected` and `held` counts of games, moves and meta differ)."""

    code = "store.import_refused"
