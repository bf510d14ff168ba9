"""A small pool of worker processes for CPU-bound jobs, with a lifecycle the bot can rely on.

Workers are spawned fresh, not forked from a process that runs an event loop. A worker that
dies (a crash, the OOM killer) gets the pool replaced instead of leaving it broken. Shutting
down joins every worker, terminating one that is still busy after a short grace period, so the
bot's exit neither hangs on a long job nor leaves processes or semaphores behind. After each
job a worker hands its freed heap back to the OS, so one large variant does not keep the
worker's memory high for the rest of its life. Workers never see a terminal's Ctrl-C (it goes
to the whole process group): they start with SIGINT blocked, and the bot stops them itself.
"""

from __future__ import annotations

import asyncio
import ctypes
import functools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from multiprocessing.process import BaseProcess
from typing import TypeVar

from bot.engine import cache_dir

log = logging.getLogger(__name__)

T = TypeVar("T")

PARENT_CHECK_SECONDS = 0.5
KILL_AFTER_SECONDS = 2.0
"""How long a terminated (SIGTERM) worker may take before it is killed (SIGKILL)."""
IDLE_EXIT_SECONDS = 0.25
"""However short the grace period, an idle worker gets this long to exit on its own."""


class WorkerLost(RuntimeError):
    """A worker died during the job; a new pool has replaced it, so a retry can succeed."""


class WorkersClosed(RuntimeError):
    """The pool was shut down; no job runs any more."""


def _start_worker(parent_pid: int, name: str) -> None:
    """Worker initializer: take the pool's name and leave as soon as the bot process is gone."""
    _take_name(name)
    _exit_with_parent(parent_pid)


def _take_name(name: str) -> None:
    """Show as `mm-<pool>` (`ps`, `top`, /proc/<pid>/comm) rather than `python`, so a host can
    tell a solver worker from a simulation or chart worker (Linux; nothing elsewhere)."""
    try:
        with open("/proc/self/comm", "w", encoding="ascii") as comm:
            comm.write(f"mm-{name}"[:15])
    except OSError:
        pass


def _exit_with_parent(parent_pid: int) -> None:
    """Leave as soon as the bot process is gone.

    If the bot is killed (SIGKILL, the OOM killer), nothing tells its workers; they would wait
    on their queue forever, holding memory and the bot's stdout. A daemon thread notices the
    re-parenting within half a second and ends the worker.
    """

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):  # not glibc
        return None
    return trim


def _release_free_memory() -> None:
    """Return freed heap pages to the OS (glibc's malloc_trim, ~50 µs; nothing elsewhere).

    NumPy's temporaries of a large variant are freed after a job, but glibc keeps much of them
    in the heap, so without this a worker's resident size stays near its highest.
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@contextmanager
def _without_sigint() -> Iterator[None]:
    """Block SIGINT in this thread while it starts a worker: the worker inherits the blocked
    signal from its first instruction, so a Ctrl-C at any moment leaves it no traceback to
    print. The bot process itself still gets the signal (another thread, or once unblocked)."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _run_job(function: Callable[..., T], *args: object) -> T:
    """What a worker runs: the job, then the memory release."""
    try:
        return function(*args)
    finally:
        _release_free_memory()


def _cancelling() -> bool:
    """Whether the running task itself is being cancelled (not only a future it awaits)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


class WorkerProcesses:
    """`workers` spawned processes running module-level functions (`await run(f, *args)`)."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self.workers = workers
        self._closed = False
        self._jobs = 0
        """Jobs running or waiting, warm-ups not counted: whether a stop abandons any."""
        self._warm_ups = 0
        """Warm-ups running: while one runs, every job waits behind it, and a stop answers
        those jobs' callers (WorkersClosed) rather than abandoning work under way."""
        cache_dir.choose()  # before any worker imports numba; keeps a folder chosen already
        self._executor = self._new_executor()
        self._stopping: list[BaseProcess] = []
        self._manager: threading.Thread | None = None

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(os.getpid(), self.name),
        )

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def pids(self) -> list[int]:
        """The ids of the live worker processes (workers start on the first job)."""
        processes = self._executor._processes or {}
        return [pid for pid, process in list(processes.items()) if process.is_alive()]

    async def run(self, function: Callable[..., T], *args: object, warm_up: bool = False) -> T:
        """`function(*args)` in a worker; raises WorkerLost or WorkersClosed as documented.
        A `warm_up` is no player's job: a stop during it abandons nothing worth a log line."""
        if self._closed:
            raise WorkersClosed(f"the {self.name} workers are shut down")
        executor = self._executor
        loop = asyncio.get_running_loop()
        counted = 0 if warm_up else 1
        self._jobs += counted
        self._warm_ups += 1 - counted
        future: asyncio.Future[T] | None = None
        try:
            with _without_sigint():  # the executor starts a worker, if needed, in this call
                future = loop.run_in_executor(executor, _run_job, function, *args)
            return await future
        except asyncio.CancelledError:
            if future is not None and future.cancelled() and self._closed and not _cancelling():
                # the stop cancelled this waiting job, not a cancel of the caller
                raise WorkersClosed(f"the {self.name} workers were shut down") from None
            raise
        except BrokenProcessPool:
            if self._closed:
                raise WorkersClosed(f"the {self.name} workers were shut down") from None
            if executor is self._executor:  # the first job to notice replaces the pool
                log.error("a %s worker died; starting a new one", self.name)
                self._executor = self._new_executor()
                executor.shutdown(wait=False, cancel_futures=True)
            raise WorkerLost(f"a {self.name} worker died") from None
        finally:
            self._jobs -= counted
            self._warm_ups -= 1 - counted

    def stop(self) -> None:
        """Begin shutting down: cancel waiting jobs and ask idle workers to exit."""
        if self._closed:
            return
        self._closed = True
        executor = self._executor
        self._stopping = list((executor._processes or {}).values())
        manager = getattr(executor, "_executor_manager_thread", None)
        self._manager = manager if isinstance(manager, threading.Thread) else None
        executor.shutdown(wait=False, cancel_futures=True)

    def join(self, deadline: float) -> None:
        """Wait for the workers until `deadline` (time.monotonic), then terminate the busy
        ones and join every process and the executor's manager thread."""
        deadline = max(deadline, time.monotonic() + IDLE_EXIT_SECONDS)
        for process in self._stopping:
            process.join(max(0.0, deadline - time.monotonic()))
        busy = [process for process in self._stopping if process.is_alive()]
        for process in busy:
            if self._jobs and not self._warm_ups:  # else warming up, or idle and slow to exit
                log.info(
                    "stopping a busy %s worker (pid %s): its job is abandoned",
                    self.name,
                    process.pid,
                )
            process.terminate()
        for process in busy:
            process.join(KILL_AFTER_SECONDS)
            if process.is_alive():
                process.kill()
                process.join()
        if self._manager is not None:
            self._manager.join(KILL_AFTER_SECONDS)
        self._stopping, self._manager = [], None

    def shutdown(self, grace: float = 1.0) -> None:
        """Stop and join every worker, giving a busy one `grace` seconds to finish its job."""
        self.stop()
        self.join(time.monotonic() + grace)
