"""The one migration runner: the one list of steps (`schema.py`, with each registered mode's),
each in the dialect's own words (`Dialect.flavour`); the dialect brings its way to lock and to
count them; this applies the missing ones.

Opening a database runs its missing steps in one transaction that one process holds at a time,
so processes starting together migrate it once; a database from a newer bot, or one that holds
another application's tables, is refused (SchemaError) and left untouched.
"""

from __future__ import annotations

import logging

from bot.store import schema
from bot.store.dialect import Dialect, Session
from bot.store.errors import SchemaError

log = logging.getLogger(__name__)


async def migrate(dialect: Dialect, target: int | None = None) -> None:
    """Bring the schema up to `target` steps (the newest unless a test builds an older one)."""
    steps = schema.steps()
    newest = steps[-1].number
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
        for step in steps:
            if found < step.number <= goal:
                for statement in getattr(step, dialect.flavour):
                    if isinstance(statement, str):
                        await session.execute(statement)
                    else:
                        await statement(session)
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
