"""The one migration runner: each dialect brings its own steps (`sqlite_schema.py`,
`postgres_schema.py`) and its own way to lock and to count them; this applies the missing ones.

Opening a database runs its missing steps in one transaction that one process holds at a time,
so processes starting together migrate it once; a database from a newer bot, or one that holds
another application's tables, is refused (SchemaError) and left untouched.
"""

from __future__ import annotations

import logging

from bot.store.dialect import Dialect, Session
from bot.store.errors import SchemaError

log = logging.getLogger(__name__)


async def migrate(dialect: Dialect, target: int | None = None) -> None:
    """Bring the schema up to `target` steps (the newest unless a test builds an older one)."""
    newest = len(dialect.steps)
    goal = newest if target is None else target

    async def work(session: Session) -> int:
        found = await dialect.schema_version(session)
        if found > newest:
            raise SchemaError(
                f"{dialect.name} was written by a newer mastermind-bot (schema {found}; this one "
                f"knows up to {newest}): upgrade the bot."
            )
        if found == 0:
            await _refuse_foreign_tables(dialect, session)
        for number in range(found, goal):
            for statement in dialect.steps[number]:
                await session.execute(statement)
        await dialect.set_schema_version(session, found, max(found, goal))
        return found

    found = await dialect.run_migration(work)
    if found == 0 and goal > 0:
        log.info("%s: new database, schema %d created", dialect.name, goal)
    elif found < goal:
        log.info("%s: schema upgraded from %d to %d", dialect.name, found, goal)


async def _refuse_foreign_tables(dialect: Dialect, session: Session) -> None:
    """A database with tables but no schema of ours belongs to someone else: never add ours."""
    tables = await dialect.table_names(session)
    if tables:
        shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
        raise SchemaError(
            f"{dialect.name} holds another application's tables ({shown}) and no mastermind-bot "
            "schema: give the bot a database of its own (DATABASE_PATH or DATABASE_URL)."
        )
