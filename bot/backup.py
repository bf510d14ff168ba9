"""`python -m bot backup`: a consistent copy of the SQLite database, taken while the bot runs.

The file is in WAL mode, so copying `mastermind.db` alone can miss what is still in its `-wal`
file. SQLite's online backup (the `sqlite3` driver's `Connection.backup`, which the store's
driver wraps) copies the database as one reader sees it, while the bot goes on writing. The
copy is made into a temporary file, turned into a single self-contained file (no WAL), checked
(`PRAGMA integrity_check`, and the same schema as the source), and only then renamed into
place, so a copy that exists is a good one. With `--into FOLDER --keep N` it is named by the
time and only the newest N are kept: what a timer runs once a day. PostgreSQL has its own tool.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.config import ConfigError, offline_settings
from bot.redact import redact

PREFIX = "mastermind-"
SUFFIX = ".db"


class BackupError(Exception):
    """The copy could not be made or failed its check; `str(error)` is the one line to show."""


@dataclass(frozen=True)
class Copy:
    """What a backup holds, as checked."""

    path: Path
    schema: int
    games: int
    moves: int
    size: int
    seconds: float

    def line(self) -> str:
        return (
            f"backed up to {self.path}: schema {self.schema}, {self.games} game(s), "
            f"{self.moves} move(s), {self.size / 1e6:.1f} MB in {self.seconds:.1f} s; "
            "integrity check ok"
        )


def back_up(source: Path, target: Path) -> Copy:
    """Copy `source` (a SQLite database, in use or not) to `target`, checked; raises
    BackupError and leaves no `target` behind if anything fails."""
    started = time.perf_counter()
    if not source.is_file():
        raise BackupError(f"there is no database at {source} (DATABASE_PATH) to back up.")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    try:
        with closing(sqlite3.connect(source)) as src:  # it only reads (a WAL reader)
            src.execute("PRAGMA busy_timeout = 10000")
            schema = src.execute("PRAGMA user_version").fetchone()[0]
            with closing(sqlite3.connect(partial)) as dst:
                src.backup(dst)  # one step: a consistent snapshot, the bot writing meanwhile
                dst.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
        copy = check(partial, schema)
        os.replace(partial, target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up {source} to {target}: {error}.") from error
    except OSError as error:
        raise BackupError(f"cannot write {target}: {error.strerror or error}.") from error
    finally:
        partial.unlink(missing_ok=True)
    return Copy(target, copy.schema, copy.games, copy.moves, copy.size, _since(started))


def check(path: Path, schema: int | None = None) -> Copy:
    """Open `path` as a database and check it whole; its counts. Raises BackupError."""
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)) as db:
            verdict = [row[0] for row in db.execute("PRAGMA integrity_check")]
            if verdict != ["ok"]:
                raise BackupError(f"the copy failed its integrity check: {'; '.join(verdict)}")
            found = db.execute("PRAGMA user_version").fetchone()[0]
            games = db.execute("SELECT count(*) FROM games").fetchone()[0]
            moves = db.execute("SELECT count(*) FROM moves").fetchone()[0]
    except sqlite3.Error as error:
        raise BackupError(f"the copy {path} cannot be read back: {error}.") from error
    if schema is not None and found != schema:
        raise BackupError(f"the copy has schema {found}, the database {schema}.")
    return Copy(path, found, games, moves, path.stat().st_size, 0.0)


def rotate(folder: Path, keep: int) -> list[Path]:
    """Remove all but the newest `keep` backups this command named in `folder`; the removed."""
    ours = sorted(folder.glob(f"{PREFIX}*{SUFFIX}"))  # the names sort by time
    old = ours[:-keep] if keep > 0 else []
    for path in old:
        path.unlink(missing_ok=True)
    return old


def named_in(folder: Path, now: datetime | None = None) -> Path:
    """`FOLDER/mastermind-2026-11-27T031500Z.db`: sortable, and one a second."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H%M%SZ")
    return folder / f"{PREFIX}{stamp}{SUFFIX}"


def main(to: Path | None, into: Path | None, keep: int | None, source: Path | None) -> int:
    """The command; its exit code."""
    try:
        settings = offline_settings()
    except ConfigError as error:
        print(f"mastermind-bot: {error}", file=sys.stderr)
        return 2
    if settings.database_url and source is None:
        print(
            f"mastermind-bot: the database is PostgreSQL ({redact(settings.database_url)}): back "
            'it up with its own tool, `pg_dump --format=custom --file=mastermind.dump "$DATABASE_'
            'URL"`, and restore with `pg_restore --clean --dbname="$DATABASE_URL" '
            "mastermind.dump` (docs/hosting.md, Backing up).",
            file=sys.stderr,
        )
        return 2
    target = to if to is not None else named_in(into) if into is not None else None
    if target is None:
        print("mastermind-bot: say where: --to FILE, or --into FOLDER [--keep N].", file=sys.stderr)
        return 2
    try:
        copy = back_up(source or settings.database_path, target)
    except BackupError as error:
        print(f"mastermind-bot: {error}", file=sys.stderr)
        return 1
    print(copy.line())
    if into is not None and keep is not None:
        for old in rotate(into, keep):
            print(f"removed {old} (keeping the newest {keep})")
    return 0


def _since(started: float) -> float:
    return time.perf_counter() - started
