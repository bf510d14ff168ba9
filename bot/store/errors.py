"""What a store raises besides the rules' own errors: the same for every implementation."""

from __future__ import annotations


class StoreUnavailable(RuntimeError):
    """The database cannot be used at all (unreadable, read-only, corrupt, locked by another
    bot process). `str(error)` is one line naming the file and what to do."""


class SchemaError(StoreUnavailable):
    """The database cannot be used by this version of the bot."""


class StoreBusy(RuntimeError):
    """The database stayed locked past the bound; nothing was written."""

    code = "store-busy"

    def __init__(self) -> None:
        super().__init__(self.code)


class AlreadyApplied(RuntimeError):
    """This input already made a move (a double click, a resubmitted modal, a retry)."""

    code = "already-applied"

    def __init__(self, game_id: int, move_no: int) -> None:
        self.game_id, self.move_no = game_id, move_no
        super().__init__(f"{self.code}(game_id={game_id}, move_no={move_no})")
