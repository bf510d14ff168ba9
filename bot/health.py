"""A heartbeat file for health checks: `python -m bot run --health-file PATH` touches it while
connected to Discord, and `python -m bot health --file PATH` says whether it is fresh.

A container's HEALTHCHECK runs in a fresh process that cannot ask the bot anything, and the bot
opens no port; a file's age is the one thing both sides can see. Stale means the process is
stuck or has been disconnected for longer than discord.py's own reconnects take.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger(__name__)

BEAT_SECONDS = 30.0
STALE_SECONDS = 90.0
"""Three missed beats: a reconnect that takes this long is a real outage."""


async def beat(path: Path, connected: Callable[[], bool]) -> None:
    """Touch `path` every BEAT_SECONDS while `connected()` (looking every second while not);
    until cancelled, then remove it."""
    failing = False
    try:
        while True:
            if not connected():
                await asyncio.sleep(1.0)
                continue
            try:  # a health check, never a reason to stop; but never silent either
                path.parent.mkdir(parents=True, exist_ok=True)
                path.touch()
            except OSError as error:
                if not failing:
                    log.warning(
                        "cannot write the health file %s (%s): the health check will call the "
                        "bot unhealthy; give --health-file a path this user can write",
                        path,
                        error.strerror or error,
                    )
                failing = True
            else:
                if failing:
                    log.info("the health file %s is written again", path)
                failing = False
            await asyncio.sleep(BEAT_SECONDS)
    finally:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def check(path: Path, now: float | None = None) -> tuple[int, str]:
    """(exit code, one line): 0 when `path` was touched within STALE_SECONDS."""
    try:
        age = (time.time() if now is None else now) - path.stat().st_mtime
    except OSError:
        return 1, f"unhealthy: no heartbeat at {path} (not started, stopped, or not connected)."
    if age > STALE_SECONDS:
        return 1, f"unhealthy: the last heartbeat in {path} is {age:.0f} s old."
    return 0, f"healthy: connected {age:.0f} s ago."


def main(path: Path) -> int:
    """`python -m bot health --file PATH`: reads no setting, so it needs no token."""
    code, line = check(path)
    print(line, file=sys.stdout if code == 0 else sys.stderr)
    return code
