"""The SQLite connection's own thread: one hop per transaction, and group commit.

sqlite3 blocks, so the connection lives in a thread of its own. A transaction's work is a
coroutine that awaits only its session, and the session here calls sqlite3 directly, so the
thread runs the whole coroutine to its end without a return to the event loop: a transaction
costs one hop to the thread and one back, not one per statement (aiosqlite's way).

Work that queued up while the thread was busy runs together: the waiting reads in one read
transaction, the waiting writes in one write transaction, each write inside a SAVEPOINT so one
that fails is undone alone, and one COMMIT (one fsync) for all of them: group commit. A caller
hears of its write only after that COMMIT, so an acknowledged move is on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.store.dialect import Params, Row
from bot.store.errors import StoreBusy

T = TypeVar("T")
Work = Callable[["DirectSession"], Coroutine[Any, Any, T]]
Outcome = tuple[asyncio.Future[Any], Any, BaseException | None]

BATCH_LIMIT = 128
"""The most transactions' work one COMMIT carries: a bounded wait for the last of them."""


class DirectSession:
    """A transaction on the thread's connection; its awaits never suspend (sqlite3 blocks)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params | None = None) -> Sequence[Row]:
        return self._connection.execute(sql, params or {}).fetchall()

    async def execute(self, sql: str, params: Params | None = None) -> int:
        return self._connection.execute(sql, params or {}).rowcount

    async def execute_many(self, sql: str, rows: Sequence[Params]) -> None:
        if rows:
            self._connection.executemany(sql, rows)


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends; one that does is a bug in the store's work."""
    try:
        coroutine.send(None)
    except StopIteration as finished:
        return finished.value  # type: ignore[no-any-return]
    coroutine.close()
    raise RuntimeError("a SQLite transaction awaited something other than its session")


@dataclass
class Job:
    """One caller's transaction (`write` or a read) or, with `call`, a plain step on the
    connection (open, pragmas, close) that runs alone."""

    future: asyncio.Future[Any]
    write: bool = False
    work: Work[Any] | None = None
    call: Callable[[ConnectionThread], Any] | None = None
    queued_at: float = field(default_factory=time.monotonic)


class ConnectionThread:
    """The thread that owns the connection and runs every transaction on it."""

    def __init__(self, name: str, busy_timeout: float) -> None:
        self.busy_timeout = busy_timeout
        self.connection: sqlite3.Connection | None = None
        self._jobs: queue.SimpleQueue[list[Job] | None] = queue.SimpleQueue()
        self._pending: list[Job] = []  # submitted in this turn of the event loop
        self._thread = threading.Thread(target=self._serve, name=f"sqlite {name}", daemon=True)
        self._thread.start()

    # --- the event loop's side -----------------------------------------------------------

    async def transaction(self, work: Work[T], *, write: bool) -> T:
        """Run `work` in a transaction (shared with others queued at the same instant)."""
        return await self._submit(Job(_future(), write=write, work=work))  # type: ignore[no-any-return]

    async def call(self, step: Callable[[ConnectionThread], T]) -> T:
        """Run `step` on the thread, alone."""
        return await self._submit(Job(_future(), call=step))  # type: ignore[no-any-return]

    async def stop(self) -> None:
        """Finish what is queued, then end the thread."""
        self._flush()
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)

    async def _submit(self, job: Job) -> Any:
        """Jobs submitted in one turn of the event loop reach the thread together: one wake-up
        of it (waking a thread costs the event loop more than the hop itself)."""
        if not self._thread.is_alive():
            raise RuntimeError("the store is closed")
        if not self._pending:
            job.future.get_loop().call_soon(self._flush)
        self._pending.append(job)
        return await job.future

    def _flush(self) -> None:
        if self._pending:
            pending, self._pending = self._pending, []
            self._jobs.put(pending)

    # --- the thread's side ---------------------------------------------------------------

    def _serve(self) -> None:
        while (first := self._jobs.get()) is not None:
            batch, stopping = _drain(first, self._jobs)
            try:
                self._run_batch(batch)
            except BaseException as error:  # a bug must not strand the callers
                _settle([(job.future, None, error) for job in batch])  # settled ones are skipped
            if stopping:
                break
        self._close()

    def _run_batch(self, batch: list[Job]) -> None:
        """Plain steps one by one, then the reads together, then the writes together."""
        for job in batch:
            if job.call is not None:
                _settle([_called(self, job)])
        self._run_group([job for job in batch if job.call is None and not job.write], False)
        self._run_group([job for job in batch if job.call is None and job.write], True)

    def _run_group(self, jobs: list[Job], write: bool) -> None:
        """One transaction for every job of the group that has not waited too long."""
        late = time.monotonic() - self.busy_timeout
        fresh: list[Job] = []
        outcomes: list[Outcome] = []
        for job in jobs:
            if job.queued_at >= late:
                fresh.append(job)
            else:
                outcomes.append((job.future, None, StoreBusy()))
        for start in range(0, len(fresh), BATCH_LIMIT):
            outcomes += self._one_transaction(fresh[start : start + BATCH_LIMIT], write)
        _settle(outcomes)

    def _one_transaction(self, jobs: list[Job], write: bool) -> list[Outcome]:
        connection = self.connection
        if connection is None:
            return [(job.future, None, RuntimeError("the store is closed")) for job in jobs]
        try:
            connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.Error as error:
            return [(job.future, None, error) for job in jobs]
        session = DirectSession(connection)
        try:
            done = [self._one_job(connection, session, job, write) for job in jobs]
            connection.execute("COMMIT")
        except sqlite3.Error as error:  # the transaction itself failed: nothing of it holds
            rollback(connection)
            return [(job.future, None, error) for job in jobs]
        return done

    @staticmethod
    def _one_job(
        connection: sqlite3.Connection, session: DirectSession, job: Job, write: bool
    ) -> Outcome:
        """Run one job's work; a write that fails is rolled back to its own savepoint."""
        assert job.work is not None
        if write:
            connection.execute("SAVEPOINT job")
        try:
            result = run_to_end(job.work(session))
        except Exception as error:
            if write:
                connection.execute("ROLLBACK TO job")
                connection.execute("RELEASE job")
            return (job.future, None, error)
        if write:
            connection.execute("RELEASE job")
        return (job.future, result, None)

    def _close(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.close()
        while (left := _next_or_none(self._jobs)) is not None:
            _settle([(job.future, None, RuntimeError("the store is closed")) for job in left])


def _future() -> asyncio.Future[Any]:
    return asyncio.get_running_loop().create_future()


def _drain(first: list[Job], jobs: queue.SimpleQueue[list[Job] | None]) -> tuple[list[Job], bool]:
    """Every job queued now, and whether a stop came among them."""
    batch = list(first)
    while (more := _next_or_none(jobs, stop=True)) is not False:
        if more is None:
            return batch, True
        batch += more
    return batch, False


def _next_or_none(jobs: queue.SimpleQueue[list[Job] | None], *, stop: bool = False) -> Any:
    """The next queued item; when the queue is empty, False if `stop` else None."""
    try:
        return jobs.get_nowait()
    except queue.Empty:
        return False if stop else None


def _called(thread: ConnectionThread, job: Job) -> Outcome:
    assert job.call is not None
    try:
        return (job.future, job.call(thread), None)
    except BaseException as error:  # handed to the caller, raised there
        return (job.future, None, error)


def _settle(outcomes: list[Outcome]) -> None:
    """Hand results back to the event loop: one hop for the whole group."""
    if not outcomes:
        return
    loop = outcomes[0][0].get_loop()
    with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
        loop.call_soon_threadsafe(_deliver, outcomes)


def _deliver(outcomes: list[Outcome]) -> None:
    for future, result, error in outcomes:
        if future.done():
            continue
        if error is None:
            future.set_result(result)
        else:
            future.set_exception(error)


def rollback(connection: sqlite3.Connection) -> None:
    """Undo the open transaction; OperationalError: none is open any more."""
    with contextlib.suppress(sqlite3.OperationalError):
        connection.execute("ROLLBACK")
