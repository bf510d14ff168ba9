"""Crash safety: a worker process is SIGKILLed at random moments while it plays, 20 times.

After every kill the file must pass `PRAGMA integrity_check`, hold every move the worker had
been told was stored (and at most the one in flight besides), and the next worker must carry
on with the same game from exactly where the last one stopped.
"""

from __future__ import annotations

import random
import select
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

from tests.store.helpers import query

WORKER = Path(__file__).with_name("crash_worker.py")
KILLS = 20
AHEAD = 3  # workers importing in advance: start-up, not the database, is the slow part


def spawn(path: Path, channels: int = 1) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), str(path), str(channels)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def state(path: Path) -> tuple[tuple[int, int] | None, int, int]:
    """(active game id and version, highest game id, number of move rows) as stored now."""
    if not path.exists():
        return None, 0, 0
    active = query(path, "SELECT id, version FROM games WHERE status = 'active'")
    ((last_id, moves),) = query(
        path, "SELECT coalesce(max(id), 0), (SELECT count(*) FROM moves) FROM games"
    )
    return (tuple(active[0]) if active else None), last_id, moves  # type: ignore[return-value]


def run_until_killed(worker: subprocess.Popen[str], delay: float) -> list[list[str]]:
    """Let the worker go, wait for its first move, kill it `delay` later; return its reports."""
    assert worker.stdin and worker.stdout and worker.stderr
    try:
        worker.stdin.write("go\n")
        worker.stdin.flush()
        ready, _, _ = select.select([worker.stdout], [], [], 30)
        first = worker.stdout.readline() if ready else ""
        if first:
            time.sleep(delay)
        worker.kill()
        worker.wait()
        # Printed before it died: those calls returned. A kill can cut the last line short (a
        # busy worker's output reaches the pipe in pieces): that report never arrived.
        rest = worker.stdout.read().split("\n")[:-1]
        assert first, f"the worker made no move: {worker.stderr.read()}"
    finally:
        reap(worker)
    return [line.split() for line in [first, *rest]]


def assert_stored(path: Path, reports: list[list[str]]) -> None:
    """The file is sound and holds every move whose call returned, as it was reported."""
    assert query(path, "PRAGMA integrity_check") == [("ok",)]
    for game_id, move_no, digits, black, white in reports:
        row = query(
            path,
            "SELECT code, black, white FROM moves WHERE game_id = ? AND move_no = ?",
            (int(game_id), int(move_no)),
        )
        code = "[" + ",".join(str(int(d) - 1) for d in digits) + "]"
        assert row == [(code, int(black), int(white))], (game_id, move_no)


def reap(worker: subprocess.Popen[str]) -> None:
    worker.kill()
    worker.wait()
    for stream in (worker.stdin, worker.stdout, worker.stderr):
        if stream is not None:
            stream.close()


def test_sigkill_never_loses_a_returned_move(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random(5)
    waiting = deque(spawn(path) for _ in range(AHEAD))
    reported = 0
    try:
        for _ in range(KILLS):
            before, last_id, moves_before = state(path)
            worker = waiting.popleft()
            waiting.append(spawn(path))
            reports = run_until_killed(worker, rng.uniform(0, 0.04))

            assert_stored(path, reports)
            _, _, moves_after = state(path)
            assert moves_after - moves_before in (len(reports), len(reports) + 1)

            first_game, first_move = int(reports[0][0]), int(reports[0][1])
            if before is not None:  # the same game goes on from its next move
                assert (first_game, first_move) == (before[0], before[1] + 1)
            else:
                assert first_game > last_id and first_move == 1
            reported += len(reports)
    finally:
        for worker in waiting:
            reap(worker)
    assert reported >= KILLS


def test_sigkill_during_group_commits_never_loses_a_returned_move(tmp_path: Path) -> None:
    """Eight channels at once: their moves share commits, and a kill in the middle of one loses
    none that was reported, and adds at most one per channel that was not."""
    path, channels = tmp_path / "crash.db", 8
    rng = random.Random(8)
    waiting = deque(spawn(path, channels) for _ in range(AHEAD))
    try:
        for _ in range(KILLS // 2):
            _, _, moves_before = state(path)
            worker = waiting.popleft()
            waiting.append(spawn(path, channels))
            reports = run_until_killed(worker, rng.uniform(0.01, 0.08))
            assert_stored(path, reports)
            _, _, moves_after = state(path)
            assert len(reports) <= moves_after - moves_before <= len(reports) + channels
            ((grouped,),) = query(path, "SELECT count(DISTINCT game_id) FROM moves")
            assert grouped >= 2  # the channels really played at once
    finally:
        for worker in waiting:
            reap(worker)
