"""`python -m bot copy-to-postgres`: copy a SQLite database into PostgreSQL, verified by counts.

Games (with their secrets, boards and ids), moves and meta are read from the file as one
snapshot and merged into PostgreSQL in one transaction, both through the store's interface
(`Store.export`, `Store.absorb`). Running it again copies only what is missing: a game that went
on in the file since the last copy is brought up to date, nothing is copied twice, and a game of
the database that is not the file's game of the same id stops the copy before anything is
written. Statistics are computed from games and moves, so they come along. Before committing,
the copy checks that the database holds every game, move and meta value of the file, and
reports the counts.

The file's lock is taken for the whole copy, so the copy refuses to run while a bot still runs on
the file (stop it first); the bot started on PostgreSQL afterwards finds everything.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import cast

from dotenv import load_dotenv

import bot.modes.registry  # noqa: F401  # every kind's columns and steps, before a store opens
from bot.redact import redact
from bot.store import (
    Absorbed,
    ImportRefused,
    StoreInUse,
    StoreUnavailable,
    is_postgres_url,
    open_store,
)


class CopyError(Exception):
    """The copy cannot be done; `str(error)` is one line saying why and what to do."""


@dataclass(frozen=True)
class CopyReport(Absorbed):
    """What one copy found and did: the counts, from where to where."""

    source: str
    target: str

    def lines(self) -> list[str]:
        return [
            f"copied {self.source} to {self.target}",
            f"games: {self.games} in the file: {self.games_new} new, {self.games_updated} "
            f"brought up to date, {self.games - self.games_new - self.games_updated} already there",
            f"moves: {self.moves} in the file: {self.moves_new} new, "
            f"{self.moves - self.moves_new} already there",
            f"meta: {self.meta} key(s) in the file: {self.meta_changed} new or changed",
            f"verified: the database holds all {self.games} games, {self.moves} moves and "
            f"{self.meta} meta key(s) of the file",
        ]


async def copy_to_postgres(source: Path, target: str) -> CopyReport:
    """Copy the SQLite file `source` into the PostgreSQL database `target` (see the module)."""
    if not is_postgres_url(target):
        raise CopyError(f"--to must be a postgresql:// URL, got {redact(target)!r}.")
    if not source.is_file():
        raise CopyError(f"there is no database file at {source}.")
    try:  # held for the whole copy: the bot running on the file would go on writing to it
        origin = await open_store(source, exclusive=True)  # an older file is migrated first
    except StoreInUse as error:
        raise CopyError(f"{error} The copy needs the bot stopped.") from error
    try:
        snapshot = await origin.export()
        async with await open_store(target) as destination:
            absorbed = await destination.absorb(snapshot)
    except ImportRefused as refused:
        raise CopyError(_refusal(refused, source, redact(target))) from None
    finally:
        await origin.close()
    return CopyReport(source=str(source), target=redact(target), **asdict(absorbed))


def _refusal(refused: ImportRefused, source: Path, target: str) -> str:
    """Why the database would not take the file's games, for the person copying."""
    data = refused.data
    if refused.data["reason"] == "other_games":
        return (
            f"game {data['game_id']} of {target} is not game {data['game_id']} of {source}: the "
            "database already holds other games. Copy into a new, empty database."
        )
    if refused.data["reason"] == "channel_taken":
        return (
            f"{target} already has an active game in a channel where {source} has one too. "
            "Copy into a new, empty database."
        )
    games, moves, meta = cast("tuple[int, int, int]", data["expected"])
    held_games, held_moves, held_meta = cast("tuple[int, int, int]", data["held"])
    return (
        f"verification failed, nothing was copied: of the file's {games} games, {moves} moves "
        f"and {meta} meta keys the database would hold {held_games}, {held_moves} and "
        f"{held_meta} as they are in the file. Copy into a new, empty database."
    )


def main(source: str | None, target: str | None) -> int:
    """The command: defaults from DATABASE_PATH and DATABASE_URL (environment, then .env)."""
    load_dotenv(Path.cwd() / ".env", override=False)
    path = Path(source or os.environ.get("DATABASE_PATH", "").strip() or "mastermind.db")
    url = target or os.environ.get("DATABASE_URL", "").strip()
    if not url:
        print(
            "mastermind-bot: say where to copy to: --to postgresql://user:password@host/database "
            "(or set DATABASE_URL).",
            file=sys.stderr,
        )
        return 2
    try:
        report = asyncio.run(copy_to_postgres(path, url))
    except (CopyError, StoreUnavailable) as error:
        print(f"mastermind-bot: {error}", file=sys.stderr)
        return 1
    print("\n".join(report.lines()))
    return 0
