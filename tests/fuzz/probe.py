"""Send fuzzed interactions in small concurrent batches and judge each one: answered within
Discord's 3 s, privately, with nothing stored, nothing logged above INFO and no rule of
Discord broken."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import traceback
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.discord_fake import FakeDiscord, FakeDiscordError, InteractionHandle

DEADLINE = 3.0
"""Discord's limit to the first answer."""
UPDATES = (6, 7)
"""Answers that edit the message the component sits on."""
NOT_SNAPSHOT = ("leases",)
"""Tables that change with time, not with input: the clusters' leases."""


@dataclass(frozen=True)
class Case:
    """One fuzzed input: `what` says it in full (to replay by hand), `send` dispatches it."""

    family: str
    what: str
    send: Callable[[FakeDiscord], Awaitable[InteractionHandle]]
    public_ok: bool = False
    """A read every value of which is valid (stats, a server's leaderboard): it answers in
    public by design."""


@dataclass
class Result:
    case: Case
    latency: float | None = None
    problems: list[str] = field(default_factory=list)


CAPACITY = ("took over", "Can't keep up")
"""Warnings about the machine, not the input: a chart drawn too slowly is sent without it, and
discord.py's heartbeat thread, starved of the GIL on a loaded host, measures an ACK against the
heartbeat before last (the "41.3 s behind" of a 41.25 s interval; an input's own answer time is
judged case by case). Counted apart (`LoudLog.capacity`), not failed."""


class LoudLog(logging.Handler):
    """Collects every record above INFO, and any record that carries a traceback."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.capacity: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno == logging.WARNING and not record.exc_info:
            message = record.getMessage()
            if any(mark in message for mark in CAPACITY):
                self.capacity.append(message)
                return
        if record.levelno > logging.INFO or record.exc_info:
            self.records.append(record)

    def take(self) -> list[str]:
        taken = [f"{r.levelname} {r.name}: {r.getMessage()[:200]}{_why(r)}" for r in self.records]
        self.records.clear()
        return taken


def _why(record: logging.LogRecord) -> str:
    """The exception a record carries, with where it was raised."""
    if not record.exc_info or record.exc_info[1] is None:
        return ""
    error = record.exc_info[1]
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
    return f" ({type(error).__name__}: {str(error)[:200]} at {where})"


@contextmanager
def loud_log() -> Iterator[LoudLog]:
    handler = LoudLog()
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield handler
    finally:
        root.removeHandler(handler)


def snapshot(db_path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table the bot keeps (games, moves, meta, ...), sorted."""
    with sqlite3.connect(db_path) as connection:
        tables = [
            name
            for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type='table'")
            if not name.startswith("sqlite_") and name not in NOT_SNAPSHOT
        ]
        return {
            table: sorted(connection.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in tables
        }


async def quiet(db_path: Path, pause: float = 0.3, timeout: float = 10.0) -> None:
    """Wait until the database stops changing (the scene's last board marks are written)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    last = snapshot(db_path)
    while loop.time() < deadline:
        await asyncio.sleep(pause)
        now = snapshot(db_path)
        if now == last:
            return
        last = now
    raise FakeDiscordError(f"the database still changes after {timeout} s")


def changes(before: dict[str, list[tuple[object, ...]]], after: dict[str, list]) -> list[str]:
    """What differs between two snapshots, table by table (a few rows each)."""
    found = []
    for table in sorted(set(before) | set(after)):
        old, new = set(before.get(table, [])), set(after.get(table, []))
        if old != new:
            added, gone = sorted(new - old, key=repr)[:2], sorted(old - new, key=repr)[:2]
            found.append(f"{table} changed: +{added} -{gone}")
    return found


def public_messages(fake: FakeDiscord) -> int:
    return sum(1 for m in fake.all_messages() if not m.ephemeral)


async def run_batch(
    fake: FakeDiscord, db_path: Path, log: LoudLog, cases: list[Case]
) -> list[Result]:
    """Send `cases` at once, wait for every answer, then judge each, and the batch as a whole:
    the database unchanged, no public message unless a case may post one, a quiet log."""
    before, public = snapshot(db_path), public_messages(fake)
    violations = len(fake.violations)
    handles = await asyncio.gather(*(case.send(fake) for case in cases))
    results = await asyncio.gather(
        *(_judge(fake, case, handle) for case, handle in zip(cases, handles, strict=True))
    )
    await _settled(fake, [h for h in handles if h.answered])
    batch: list[str] = changes(before, snapshot(db_path))
    if not any(case.public_ok for case in cases) and public_messages(fake) != public:
        batch.append(f"{public_messages(fake) - public} public message(s) posted")
    batch += [
        f"Discord refused: {v}"
        for v in fake.violations[violations:]
        if v.rule != "interaction-deadline"  # judged case by case, and reported 3 s late
    ]
    batch += [f"logged: {line}" for line in log.take()]
    for result, handle in zip(results, handles, strict=True):
        result.problems += _private(result.case, handle)
    if batch:  # blamed on every case of the batch: replay them one by one to find which
        for result in results:
            result.problems += batch
    return list(results)


async def _judge(fake: FakeDiscord, case: Case, handle: InteractionHandle) -> Result:
    result = Result(case)
    try:
        await handle.answer(timeout=DEADLINE + 0.5)
    except FakeDiscordError:
        result.problems.append("no answer within 3 s")
        return result
    result.latency = handle.latency
    if result.latency is not None and result.latency > DEADLINE:
        result.problems.append(f"answered after {result.latency:.2f} s")
    return result


async def _settled(fake: FakeDiscord, handles: list[InteractionHandle]) -> None:
    """Every deferred answer filled in (or deleted), so its followups can be judged."""
    with contextlib.suppress(FakeDiscordError):  # one left "thinking" is judged a public answer
        await fake.wait_for(
            lambda: not any(m.loading and not m.deleted for h in handles for m in h.messages),
            DEADLINE,
            "deferred answers filled in",
        )


def _private(case: Case, handle: InteractionHandle) -> list[str]:
    """A private answer: an ephemeral message, an edit of an ephemeral message, or a modal."""
    if not handle.answered or case.public_ok:
        return []
    problems = []
    edited = handle.message if handle.answer_type in UPDATES else None
    if edited is not None and not edited.ephemeral:
        problems.append(f"edited the public message {handle.message.id}")
    public = [m for m in handle.messages if not m.ephemeral and not m.deleted]
    if public:
        problems.append(f"answered in public: {public[0].text[:120]!r}")
    return problems
