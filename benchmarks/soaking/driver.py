"""The soak driver: the real `python -m bot` behind the fake Discord, players, kills, verdict.

    async with Soak(SoakConfig(channels=10, database=None, processes=1)) as soak:
        soak.start_players()                 # every channel plays back to back
        await asyncio.sleep(20)
        await soak.restart(0, kill=True)     # SIGKILL shard 0's process, start it again
        await soak.stop_players()            # let the players finish what they are doing
        verdict = await soak.verify()        # ledger against the database, answers, clocks

`Soak.bots[i]` is shard i's `BotProcess` (one process per shard: `processes=2` runs SHARD_COUNT=2
with SHARD_IDS 0 and 1 on one PostgreSQL database; `processes=1` runs one process with
every shard). `kill(i)` / `start_bot(i)` / `restart(i, kill=True)` record the downtime in
`soak.ledger`, so interactions that fail while a bot is down are counted apart, never as lost.
`soak.ledger` holds every interaction sent (`Sent`: kind, handle, source, acknowledged);
`soak.memory` samples every bot process and its children; `soak.database` is where the bot
keeps its games (a SQLite path or the PostgreSQL URL).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from benchmarks.soaking import players
from benchmarks.soaking.database import is_postgres, read_stored
from benchmarks.soaking.ledger import Downtime, Ledger
from benchmarks.soaking.plan import ChannelPlan, Plan, plan
from benchmarks.soaking.procstat import MemorySampler
from benchmarks.soaking.table import Table
from benchmarks.soaking.verify import Verdict, verify
from tests.discord_fake import BotProcess, FakeDiscord, limits

ROOT = Path(__file__).resolve().parents[2]
READY_TIMEOUT = 90.0
"""Seconds a bot process may take to start (a cold numba cache compiles for about 30 s)."""
DAILY_KEY = "the soak's daily key, not a secret"


@dataclass
class SoakConfig:
    """What to run. `channels` is per process (each process serves its own guild)."""

    channels: int = 10
    processes: int = 1
    database: str | None = None  # a PostgreSQL URL; None: a SQLite file in a temporary folder
    players: int = 3  # per play channel
    dailies_each: int = 40  # players queued per daily channel (one daily each per UTC day)
    seed: int = 2026
    env: dict[str, str] = field(default_factory=dict)  # more settings for every bot process
    orjson: bool = True  # False: the bot cannot import orjson (discord.py's `speed` JSON)
    think: float = 0.0  # seconds each player pauses before acting (0: as fast as it can)
    rate_limits: bool = False  # the fake enforces Discord's rate limits (--rate-limits)


class Soak:
    """The fake Discord, the bot processes, the players and the ledger of one soak."""

    def __init__(self, config: SoakConfig) -> None:
        if config.processes > 1 and not (config.database and is_postgres(config.database)):
            raise ValueError("several processes need a PostgreSQL database (--database URL)")
        self.config = config
        self.plan: Plan = plan(
            config.channels, config.processes, config.players, config.dailies_each
        )
        self.ledger = Ledger()
        self.memory = MemorySampler()
        self.fake = FakeDiscord(
            members=self.plan.members,
            channels=self.plan.base_names,
            guilds=config.processes,
            shard_count=config.processes,
            heartbeat_before_clicks=False,
            rate_limits=limits.DISCORD if config.rate_limits else None,
        )
        self.table = Table(self.fake, self.ledger, random.Random(config.seed), think=config.think)
        self.bots: list[BotProcess | None] = [None] * config.processes
        self._folder = tempfile.TemporaryDirectory(prefix="soak-")
        self.database = config.database or str(Path(self._folder.name) / "soak.db")
        self._tasks: list[asyncio.Task[None]] = []
        self._sampler: asyncio.Task[None] | None = None
        self._downtime: Downtime | None = None

    async def __aenter__(self) -> Self:
        await self.fake.start()
        for shard in range(self.config.processes):
            await self.start_bot(shard)
        self._sampler = asyncio.create_task(self._sample_memory(), name="soak-memory")
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    def bot_env(self, shard: int) -> dict[str, str]:
        """Every setting explicit: a developer's own .env must not leak into the soak."""
        env = {
            "DATABASE_PATH": self.database if not is_postgres(self.database) else "",
            "LOG_LEVEL": "INFO",
            "DEV_GUILD_ID": "",
            "SOLVER_WORKERS": "1",
            "SOLVER_TIME_BUDGET": "2",
            "GAME_TIMEOUT_HOURS": "24",
            "DAILY_KEY": DAILY_KEY,
            "NO_COLOR": "1",
        }
        if is_postgres(self.database):
            env.update(DATABASE_URL=self.database, LEASE_SECONDS="5")
            env.update(SHARD_COUNT=str(self.config.processes), SHARD_IDS=str(shard))
        if not self.config.orjson:
            env["PYTHONPATH"] = os.pathsep.join([self._no_orjson(), str(ROOT)])
        return {**env, **self.config.env}

    def _no_orjson(self) -> str:
        """A folder whose `orjson` module fails to import: discord.py then uses json."""
        folder = Path(self._folder.name) / "no-orjson"
        folder.mkdir(exist_ok=True)
        blocker = 'raise ModuleNotFoundError("orjson turned off by the soak")\n'
        (folder / "orjson.py").write_text(blocker)
        return str(folder)

    async def start_bot(self, shard: int = 0) -> BotProcess:
        """Start shard `shard`'s process and wait until it is ready (commands synced once);
        this ends the downtime a `kill` began."""
        process = await self.fake.spawn_bot(env=self.bot_env(shard))
        self.bots[shard] = process
        await process.wait_ready(timeout=READY_TIMEOUT, commands=not self.fake.command_syncs)
        if self._downtime is not None and self._downtime.end is None:
            self.ledger.bot_up(self._downtime)  # the downtime a kill opened ends here
        return process

    async def kill(self, shard: int = 0) -> None:
        """SIGKILL shard `shard`'s process (a crash) and wait for it to be gone."""
        process = self.bots[shard]
        if process is None:
            return
        self._downtime = self.ledger.bot_down()
        process.kill()
        await process.wait(10.0)
        process.kill_group()  # its workers die with it, as under a service manager

    async def restart(self, shard: int = 0, *, kill: bool = True) -> BotProcess:
        """Kill (SIGKILL, or SIGTERM with kill=False) and start shard `shard` again; the
        ledger's downtime span runs from the signal to the new process's `ready`."""
        process = self.bots[shard]
        if kill:
            await self.kill(shard)
        elif process is not None:
            self._downtime = self.ledger.bot_down()
            await process.stop(timeout=15.0)
        return await self.start_bot(shard)

    def start_players(self) -> None:
        """Every channel starts playing, back to back, until `stop_players`."""
        self.table.playing = True
        self._tasks = [
            asyncio.create_task(self._play(channel), name=f"soak-{channel.channel}")
            for channel in self.plan.channels
        ]

    async def _play(self, channel: ChannelPlan) -> None:
        table, users = self.table, list(channel.users)
        if channel.mode == "play":
            await players.play_channel(table, channel.channel, users)
        elif channel.mode == "solve":
            await players.solve_channel(table, channel.channel, users[0])
        elif channel.mode == "daily":
            await players.daily_players(table, channel.channel, users)
        else:
            await players.race_channel(table, channel.channel, users[0], users[1:])

    async def stop_players(self, grace: float = 10.0) -> None:
        """Players finish the interaction they are in (waiting up to `grace` s), then stop."""
        self.table.playing = False
        self.fake.changed()
        done, pending = await asyncio.wait(self._tasks, timeout=grace) if self._tasks else ((), ())
        for task in pending:
            task.cancel()
        for task in [*done, *pending]:
            with contextlib.suppress(asyncio.CancelledError):
                await task  # a player's own failure surfaces here
        await asyncio.sleep(0.5)  # answers already on their way arrive

    async def verify(self) -> Verdict:
        """The ledger against the database, every interaction answered, no violation, clocks."""
        return verify(self.ledger, await read_stored(self.database), list(self.fake.violations))

    def main_pids(self) -> list[int]:
        """The running bot processes' main pids (the launcher runs the bot in its own process)."""
        return [b.pid for b in self.bots if b is not None and b.returncode is None]

    async def _sample_memory(self) -> None:
        while True:
            for shard, process in enumerate(self.bots):
                if process is not None and process.returncode is None:
                    self.memory.sample(process.pid, f"shard {shard} main")
            await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Stop the players, the sampler, the bot processes and the fake."""
        if self._tasks and self.table.playing:
            await self.stop_players(grace=2.0)
        if self._sampler is not None:
            self._sampler.cancel()
        for process in self.bots:
            if process is not None:
                await process.stop(timeout=15.0)
        await self.fake.close()
        self._folder.cleanup()
