"""SQLite's transactions through aiosqlite: the writes waiting together share one COMMIT, the
reads waiting together share one snapshot, and none waits past its deadline.

aiosqlite runs each statement on its connection's thread: one hop there and back per
statement. A `Batcher` owns one connection and one task that serves its queue: whatever queued
while a transaction ran is the next transaction.

* **Group commit** (the writer): one `BEGIN IMMEDIATE`, the jobs, one COMMIT (one fsync) for all
  of them, and a caller hears of its write only after that COMMIT. A job's last write
  (`execute_last`) runs once the job's code has returned, so nothing of the job fails after it;
  where it is the job's only write it needs no savepoint (SQLite undoes a statement that fails
  by itself). Any other write opens a SAVEPOINT of the job's own first, so a job that fails is
  undone alone (a batch of one needs none: undoing the whole transaction undoes it alone).
  Savepoints are never released one by one: the COMMIT releases them all.
* **Moves alongside each other**: jobs that read and then write once, last, with a statement
  that checks what they read (a move: `SqliteDialect.save_at_once`), run at the same time, and
  the transaction's two ends are queued with them: `BEGIN IMMEDIATE` just before their loads,
  the COMMIT just after the last of their saves. The lot takes two trips to the thread where
  one after the other they took 2N + 2. Moves of one game (`alongside`, the same key) run one
  after the other in it; one whose game another moved on meanwhile is refused by its own
  statement and runs again next, by itself, as do the moves of a try whose BEGIN the lock
  refused (nothing of them was written: a save waits for the BEGIN's answer). The other writes
  run in transactions of their own, taking turns with the moves'.
* **Shared snapshot** (the reader): one `BEGIN` ... `COMMIT` around the waiting reads. A read
  alone in its turn runs without them while it needs one statement (a snapshot of its own; a
  game and its moves are one statement, `Dialect.inline_moves`), and again inside them if it
  needs a second.
* **A deadline per job** (its queueing time plus the budget). The writer takes SQLite's write lock
  in short busy waits (`POLL_SECONDS`) and answers StoreBusy, without running it, every job whose
  deadline passed meanwhile: while another program holds the lock, a caller hears "busy" on
  time however many wait, and nothing it was told was refused is stored.
* A job whose caller was cancelled before its turn is never run; one whose turn came runs to its
  end on the serving task, so cancellation never leaves a transaction half-done.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import aiosqlite

from bot import metrics
from bot.store.dialect import Params, Row, Work
from bot.store.errors import StoreBusy

T = TypeVar("T")

# aiosqlite logs every call with its parameters at DEBUG: a secret would reach the log.
logging.getLogger("aiosqlite").setLevel(logging.INFO)

BATCH_LIMIT = 128
"""The most jobs one transaction carries: a bounded wait for the last of them."""
POLL_SECONDS = 0.1
"""The writer's busy wait per try for SQLite's write lock: how late past its deadline a job
waiting for another program's lock can hear StoreBusy."""


class NeedsSnapshot(BaseException):
    """A read begun without a transaction came to its second statement: run it again in one.
    (A BaseException, so that no `except Exception` in the work stops it.)"""


class JobSession:
    """One job's view of the open transaction; with `savepoint`, its first write opens one.
    With `one_statement` there is no transaction: a second statement raises NeedsSnapshot.
    `last_write_only`: the job runs at the same time as others, so it may write once, last."""

    def __init__(
        self,
        connection: aiosqlite.Connection,
        *,
        savepoint: bool,
        one_statement: bool = False,
        last_write_only: bool = False,
    ) -> None:
        self._connection = connection
        self._savepoint_pending = savepoint
        self._statements_left = 1 if one_statement else -1
        self._last_write_only = last_write_only
        self.saved = False
        self.last: tuple[str, Params] | None = None
        """The job's last write, run once its code has returned (`execute_last`)."""

    async def fetch(self, sql: str, params: Params | None = None) -> Sequence[Row]:
        self._count()
        if not _reads_only(sql):  # INSERT ... RETURNING
            await self._before_write()
        rows = await self._connection.execute_fetchall(sql, params or {})
        return rows  # type: ignore[return-value]  # a list of sqlite3.Row

    async def execute(self, sql: str, params: Params | None = None) -> int:
        self._count()
        await self._before_write()
        cursor = await self._connection.execute(sql, params or {})
        return cursor.rowcount

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            self._count()
            await self._before_write()
            await self._connection.executemany(sql, rows)

    async def execute_last(self, sql: str, params: Params | None = None) -> None:
        """Kept, and run by the batch once the job's code has returned, so nothing of the job
        can fail after it. Where it is also the job's first write no SAVEPOINT goes before it
        (a hop saved per move): SQLite undoes a statement that fails by itself."""
        self._count()
        self._savepoint_pending = False
        self.last = (sql, params or {})

    def _count(self) -> None:
        if self.last is not None:
            raise RuntimeError("a job runs nothing after its last write")
        if self._statements_left == 0:
            raise NeedsSnapshot()
        self._statements_left -= 1

    async def _before_write(self) -> None:
        if self._last_write_only:
            raise RuntimeError("a job run alongside others writes once, with execute_last")
        if self._savepoint_pending:
            self._savepoint_pending = False
            await self._connection.execute("SAVEPOINT job")
            self.saved = True


def _reads_only(sql: str) -> bool:
    return sql.lstrip()[:6].upper() in ("SELECT", "PRAGMA")


@dataclass(eq=False)
class Job:
    work: Work[Any]
    future: asyncio.Future[Any]
    deadline: float
    alongside: Hashable = None
    """Not None: a move, run at the same time as the others but after those with the same key
    (its game)."""
    queued_at: float = field(default_factory=time.monotonic)


Outcome = tuple[Job, Any, BaseException | None]


class Batcher:
    """One aiosqlite connection and the task that runs its queued jobs in shared transactions."""

    def __init__(self, connection: aiosqlite.Connection, *, write: bool, budget: float) -> None:
        self.connection = connection
        self.budget = budget
        self._write = write
        self._queue: list[Job] = []
        self._server: asyncio.Task[None] | None = None
        self._turn = asyncio.Lock()  # one transaction at a time on the connection
        self._closed = False

    async def run(self, work: Work[T], *, alongside: Hashable = None) -> T:
        """Run `work` in a transaction shared with the jobs queued with it; `alongside`, at
        the same time as the others that may (`SqliteDialect.run`)."""
        if self._closed:
            raise closed()
        loop = asyncio.get_running_loop()
        job = Job(work, loop.create_future(), time.monotonic() + self.budget, alongside)
        self._queue.append(job)
        if self._server is None:
            self._server = loop.create_task(self._serve(), name="sqlite batches")
        return await job.future  # type: ignore[no-any-return]

    async def alone(self, step: Callable[[aiosqlite.Connection], Awaitable[T]]) -> T:
        """Run `step` on the connection between transactions (opening, migrating)."""
        async with self._turn:
            return await step(self.connection)

    async def close(self) -> None:
        """Refuse new jobs and finish the queued ones (each within its deadline)."""
        self._closed = True
        if self._server is not None:
            await asyncio.wait({self._server})

    async def _serve(self) -> None:
        try:
            while self._queue:
                batch, self._queue = self._queue[:BATCH_LIMIT], self._queue[BATCH_LIMIT:]
                try:
                    async with self._turn:
                        await self._transaction(batch)
                except BaseException as error:  # a bug or a cancelled task: strand nobody
                    told = error if isinstance(error, Exception) else closed()
                    _settle([(job, None, told) for job in batch + self._queue])
                    self._queue = []
                    raise
        finally:
            self._server = None

    async def _transaction(self, jobs: list[Job]) -> None:
        if not self._write:
            jobs = await (self._read_alone(jobs[0]) if len(jobs) == 1 else self._read_queued(jobs))
        else:  # moves together, the others one by one, in turns: neither waits for the other
            together = jobs[0].alongside is not None
            self._queue[:0] = [job for job in jobs if (job.alongside is not None) != together]
            jobs = [job for job in jobs if (job.alongside is not None) == together]
            if together and not self.connection.in_transaction:
                await self._together(jobs)
                return
        jobs = await self._begin(jobs)
        if not jobs:
            return
        connection = self.connection
        alone = len(jobs) == 1
        outcomes: list[Outcome] = []
        try:
            for job in jobs:
                outcomes.append(await self._run_one(job, savepoint=self._write and not alone))
            undo = alone and outcomes[0][2] is not None and self._write
            ending = time.perf_counter()
            await connection.execute("ROLLBACK" if undo else "COMMIT")
            if self._write and not undo:
                metrics.SINK.commit(time.perf_counter() - ending)
        except sqlite3.Error as error:  # the transaction itself failed: nothing of it holds
            await rollback(connection)
            outcomes = [(job, None, error) for job in jobs]
        except BaseException:
            await asyncio.shield(rollback(connection))
            raise
        _settle(outcomes)

    async def _run_one(self, job: Job, *, savepoint: bool) -> Outcome:
        """A job by itself: one that fails is undone to its savepoint."""
        session = JobSession(self.connection, savepoint=savepoint)
        try:
            result = await job.work(session)
            if session.last is not None:
                await self.connection.execute(*session.last)
            outcome: Outcome = (job, result, None)
        except Exception as error:
            if session.saved:
                await self.connection.execute("ROLLBACK TO job")
            outcome = (job, None, error)
        if not self.connection.in_transaction:  # SQLite ended it itself (I/O, full disk)
            raise sqlite3.OperationalError("the transaction was rolled back")
        return outcome

    async def _together(self, jobs: list[Job]) -> None:
        """Moves (jobs that read, then write once, last, with a statement that checks what they
        read) run at the same time, and their transaction's two ends are queued with them:
        `BEGIN IMMEDIATE` just before their loads, COMMIT just after the last of their saves.
        The lot takes two trips to aiosqlite's thread where one after the other they took
        2N + 2. Nothing is written outside the transaction: a save waits for the BEGIN's
        answer, which comes before its load's. Moves of one game run one after the other. A
        move refused by its own save because another moved its game on meanwhile runs again
        next, by itself; so do the moves of a try whose BEGIN another program's lock refused,
        waiting for that lock as every other write does (StoreBusy past their deadlines)."""
        now = time.monotonic()
        live = [job for job in jobs if not job.future.done() and job.deadline > now]
        _settle([(job, None, StoreBusy()) for job in jobs if job.deadline <= now])
        if not live:
            return
        begin = asyncio.ensure_future(self.connection.execute("BEGIN IMMEDIATE"))
        ending = _Ending(len(live), self.connection, begin)
        try:
            chains: dict[Hashable, list[Job]] = {}
            for job in live:
                chains.setdefault(job.alongside, []).append(job)
            ran = {
                job: outcome
                for done in await asyncio.gather(
                    *(self._chain(chain, begin, ending) for chain in chains.values())
                )
                for job, outcome in done
            }
            committed = await ending.committed()
        except BaseException:
            await asyncio.gather(begin, *ending.tasks(), return_exceptions=True)
            await asyncio.shield(rollback(self.connection))
            raise
        refused = begin.exception()  # then nothing was written, and the COMMIT found nothing
        failed = committed if refused is None else None
        if refused is not None or failed is not None:
            await rollback(self.connection)
        elif ending.seconds is not None:
            metrics.SINK.commit(ending.seconds)
        outcomes: list[Outcome] = []
        again: list[Job] = []
        for job in live:
            outcome = ran[job]
            if outcome is not _AGAIN:
                outcomes.append(outcome if failed is None else (job, None, failed))
            elif refused is not None and not is_busy(refused):
                outcomes.append((job, None, refused))
            else:  # its game moved on, or the lock was refused: next, by itself
                job.alongside = None  # (past a refused lock, after waiting for it alone)
                again.append(job)
        self._queue[:0] = again
        _settle(outcomes)

    async def _chain(
        self, jobs: list[Job], begin: asyncio.Future[Any], ending: _Ending
    ) -> list[tuple[Job, Any]]:
        """Moves of one game, one after the other: each reads what the one before saved."""
        return [(job, await self._move(job, begin, ending)) for job in jobs]

    async def _move(self, job: Job, begin: asyncio.Future[Any], ending: _Ending) -> Any:
        """One of `_together`'s moves: its outcome, or `_AGAIN`."""
        session = JobSession(self.connection, savepoint=False, last_write_only=True)
        try:
            result = await job.work(session)
        except Exception as error:
            ending.queued()
            return (job, None, error)  # refused before it wrote anything
        if session.last is None:
            ending.queued()
            return (job, result, None)
        if not begin.done():  # answered before the load was (one queue), unless it had none
            await asyncio.wait({begin})
        ending.queued()  # the COMMIT goes after this save, once every move has queued its own
        if begin.exception() is not None:
            return _AGAIN
        try:
            await self.connection.execute(*session.last)
        except sqlite3.Error as error:
            return _AGAIN if is_moved_on(error) else (job, None, error)
        return (job, result, None)

    async def _read_alone(self, job: Job) -> list[Job]:
        """A read with nobody to share a snapshot with runs without BEGIN and COMMIT (two
        statements saved): one statement is a snapshot of its own. Returns it if it needs more
        than one, to run again in a transaction (a read changes nothing, so running it twice is
        safe)."""
        if job.future.done() or job.deadline <= time.monotonic():
            return [job]  # `_begin` drops it or answers StoreBusy
        outcome = await self._first_statement(job)
        if outcome is None:
            return [job]
        _settle([outcome])
        return []

    async def _read_queued(self, jobs: list[Job]) -> list[Job]:
        """The reads waiting together share one snapshot, and reach aiosqlite's thread at once:
        `BEGIN`, each read's first statement, `COMMIT`, all queued before any runs, so the
        thread runs them back to back and the loop hears of them together (one trip where
        there were one per statement and two more). Each caller hears once the snapshot has
        ended. Returns the reads that asked for a second statement, to run again in a
        transaction of their own."""
        now = time.monotonic()
        live = [job for job in jobs if not job.future.done() and job.deadline > now]
        _settle([(job, None, StoreBusy()) for job in jobs if job.deadline <= now])
        connection = self.connection
        begin = asyncio.ensure_future(connection.execute("BEGIN"))
        firsts = [asyncio.ensure_future(self._first_statement(job)) for job in live]
        commit = asyncio.ensure_future(connection.execute("COMMIT"))
        try:
            outcomes = await asyncio.gather(*firsts)
        finally:
            # neither can fail but for a BEGIN left open, and then the reads ran without it
            await asyncio.gather(begin, commit, return_exceptions=True)
            await asyncio.shield(rollback(connection))
        _settle([outcome for outcome in outcomes if outcome is not None])
        return [job for job, outcome in zip(live, outcomes, strict=True) if outcome is None]

    async def _first_statement(self, job: Job) -> Outcome | None:
        """Run a read job with one statement allowed: its outcome, or None if it asked for a
        second statement."""
        try:
            session = JobSession(self.connection, savepoint=False, one_statement=True)
            return (job, await job.work(session), None)
        except NeedsSnapshot:
            return None
        except Exception as error:
            return (job, None, error)

    async def _begin(self, jobs: list[Job]) -> list[Job]:
        """Open the transaction for the jobs still waiting (new ones join while the lock is
        refused); a job past its deadline hears StoreBusy and is dropped."""
        if self.connection.in_transaction:  # left open by a cancelled task
            await rollback(self.connection)
        while True:
            now = time.monotonic()
            live = [job for job in jobs if not job.future.done() and job.deadline > now]
            _settle([(job, None, StoreBusy()) for job in jobs if job.deadline <= now])
            if not live:
                return []
            try:
                await self.connection.execute("BEGIN IMMEDIATE" if self._write else "BEGIN")
                return live
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    _settle([(job, None, error) for job in live])
                    return []
            room = BATCH_LIMIT - len(live)
            jobs, self._queue = live + self._queue[:room], self._queue[room:]


_AGAIN = object()
"""A move of `_together` that wrote nothing and runs again."""


class _Ending:
    """Queues a transaction's COMMIT once each of its moves has queued its last statement (or
    ended without one), so the COMMIT reaches aiosqlite's thread right behind them."""

    def __init__(
        self, moves: int, connection: aiosqlite.Connection, begin: asyncio.Future[Any]
    ) -> None:
        self._left = moves
        self._connection = connection
        self._begin = begin
        self._commit: asyncio.Future[Any] | None = None
        self._queued_at = 0.0
        self.seconds: float | None = None
        """From the COMMIT's queuing to its answer: the commit's time, the last saves' with it."""

    def queued(self) -> None:
        self._left -= 1
        refused = self._begin.done() and self._begin.exception() is not None
        if self._left == 0 and not refused:
            self._queued_at = time.perf_counter()
            self._commit = asyncio.ensure_future(self._connection.execute("COMMIT"))

    def tasks(self) -> list[asyncio.Future[Any]]:
        return [] if self._commit is None else [self._commit]

    async def committed(self) -> BaseException | None:
        """Waits for the COMMIT; the error it met, if any. (None was queued if the BEGIN was
        refused: then every move wrote nothing and runs again.)"""
        if self._commit is None:
            return None
        try:
            await self._commit
        except sqlite3.Error as error:
            return error
        self.seconds = time.perf_counter() - self._queued_at
        return None


def _settle(outcomes: list[Outcome]) -> None:
    for job, result, error in outcomes:
        if job.future.done():
            continue  # its caller was cancelled
        if error is None:
            job.future.set_result(result)
        else:
            job.future.set_exception(error)


def closed() -> RuntimeError:
    return RuntimeError("the store is closed")


MOVED_ON = "the game moved on"
"""What `save_at_once` raises when its game is no longer at the version its job read."""


def is_moved_on(error: BaseException | None) -> bool:
    return isinstance(error, sqlite3.IntegrityError) and str(error) == MOVED_ON


def is_busy(error: BaseException) -> bool:
    text = str(error)
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


async def rollback(connection: aiosqlite.Connection) -> None:
    """Undo the open transaction, if one is open."""
    if connection.in_transaction:
        await connection.execute("ROLLBACK")


async def begin_immediate(connection: aiosqlite.Connection, seconds: float) -> None:
    """Take the write lock, trying for up to `seconds` (opening and migrating)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            await connection.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as error:
            if not is_busy(error) or time.monotonic() >= deadline:
                raise
