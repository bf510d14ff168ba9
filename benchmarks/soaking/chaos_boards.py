"""Boards converge: after the last restart, every board the bot keeps shows its stored game.

A board has converged when the store records it drawn at the game's version
(rendered_version == version) and the message in the fake Discord shows that same version
(its footer names "Game <id> · move <version>", written by the same redraw as the rest of the
board). `converge` waits, up to a bound, for every board to get there: the restarted process's
reconcile pass (or the cluster's lease holder's) must redraw whatever a kill left behind.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from benchmarks.soaking.chaos_reads import StoredBoard, boards
from tests.discord_fake import FakeDiscord

POLL_SECONDS = 0.25


@dataclass
class Convergence:
    """How boards converged: the seconds it took (None: not within the bound) and what still
    differed at the end."""

    boards: int = 0
    seconds: float | None = None
    behind: list[str] = field(default_factory=list)


def edition(board: StoredBoard) -> str:
    """The footer words naming a version, as the bot writes them in English."""
    return f"Game {board.game_id} · move {board.version}"


def differences(fake: FakeDiscord, stored: list[StoredBoard]) -> list[str]:
    """Each board whose store record or message does not show its game's stored version."""
    found: list[str] = []
    for board in stored:
        where = f"{board.kind} game {board.game_id} ({board.status}, version {board.version})"
        if board.rendered_version != board.version:
            found.append(f"{where}: the store records version {board.rendered_version} drawn")
            continue
        try:
            message = fake.message(board.message_id)
        except KeyError:
            found.append(f"{where}: its board message {board.message_id} was never sent")
            continue
        footer = str(((message.embed or {}).get("footer") or {}).get("text") or "")
        if message.deleted or edition(board) not in footer:
            found.append(f"{where}: its message shows {footer.split(' · ')[-1]!r}")
    return found


async def converge(fake: FakeDiscord, database: str, within: float) -> Convergence:
    """Wait up to `within` seconds for every board to show its stored game."""
    start = time.perf_counter()
    result = Convergence()
    while True:
        stored = await boards(database)
        result.boards, result.behind = len(stored), differences(fake, stored)
        elapsed = time.perf_counter() - start
        if not result.behind:
            result.seconds = elapsed
            return result
        if elapsed >= within:
            return result
        await asyncio.sleep(POLL_SECONDS)
