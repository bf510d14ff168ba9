"""The real bot process tunes its garbage collector once it is ready (bot/heap.py), and only
once: a reconnect's `on_ready` must not freeze garbage made since."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from tests.discord_fake import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


def test_settling_freezes_and_raises_the_threshold_once() -> None:
    script = (
        "import gc; from bot import heap; heap.settle(); frozen = gc.get_freeze_count(); "
        "young = gc.get_threshold()[0]; [object() for _ in range(5)]; x = []; x.append(x); "
        "heap.settle(); print(frozen > 1000, young, gc.get_freeze_count() == frozen)"
    )
    run = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert run.stdout.split() == ["True", "10000", "True"]


async def test_the_bot_process_settles_its_heap_when_ready(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    env = {"DATABASE_PATH": str(db_path), "LOG_LEVEL": "DEBUG", "DEV_GUILD_ID": ""}
    process = await fake_discord.spawn_bot(env=env)
    try:
        await process.wait_ready(timeout=30.0)
        await fake_discord.wait_for(lambda: "heap settled" in process.output, timeout=10.0)
    finally:
        await process.stop()
    settled = [line for line in process.output_lines if "heap settled" in line]
    assert len(settled) == 1 and "objects frozen" in settled[0]


async def test_private_pickers_leave_nothing_behind(fake_discord: FakeDiscord, bot) -> None:
    """discord.py keeps every unfinished view sent in an ephemeral answer for 15 minutes, with a
    timeout task holding it; a busy server's pickers then piled up by the thousand and every
    collection walked them. Drawn views are finished from the start, so none is kept."""
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    for player in ("alice", "bob", "carol", "alice"):
        picker = await (await fake_discord.click(board, "Guess", user=player)).response()
        assert picker.ephemeral and picker.selects  # a private picker was drawn
    daily = await (await fake_discord.slash("general", "bob", "mastermind", "daily")).response()
    assert daily.ephemeral and daily.selects
    await asyncio.sleep(0.1)  # the answers' own tasks end
    waiting = [t for t in asyncio.all_tasks() if "timeout_task" in t.get_coro().__qualname__]
    assert waiting == []
    store = bot._connection._view_store
    assert store._synced_message_views == {} and store.persistent_views == []
