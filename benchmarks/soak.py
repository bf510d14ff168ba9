"""Soak: the real `python -m bot` under channels playing whole games as fast as their players can.

    python benchmarks/soak.py [--channels 10] [--seconds 60] [--warmup 10] [--check]
                              [--database URL | --postgres] [--processes 2] [--players 3]

The bot runs as a subprocess (`fake.spawn_bot`) behind the loopback fake Discord that runs in
this process with the players. Each channel plays back to back: cooperative play games (every
player guessing at once, by slash command and through the picker), Knuth solve games, dailies
and races whose clock starts and ends them (see benchmarks/soaking/players.py). After the
warm-up, a window of `--seconds` is measured: the bot's main-process CPU per interaction, the
throughput, first-answer latency per kind, memory of every bot process and child, the load.

Then the ledger is held against the database: every acknowledged move stored exactly once,
nothing refused stored, every interaction answered, no fake-Discord violation, every race's
clock on time. `--check` exits 1 on any of those (never on timings).

`--processes 2` runs two shard processes (SHARD_COUNT=2) on one PostgreSQL database, each with
its own guild of `--channels` channels; `--postgres` starts a throwaway PostgreSQL server for
the run (initdb in a temporary folder, as the tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.soaking.driver import Soak, SoakConfig  # noqa: E402
from benchmarks.soaking.report import (  # noqa: E402
    Window,
    figures,
    latency_failures,
    memory_lines,
)
from tests.store.postgres_server import PostgresServer  # noqa: E402


async def soak(config: SoakConfig, warmup: float, seconds: float) -> tuple[list[str], bool]:
    """Run one soak; returns its printed lines and whether the ledger check passed."""
    async with Soak(config) as running:
        running.start_players()
        await asyncio.sleep(warmup)
        window = Window(running.main_pids())
        await asyncio.sleep(seconds)
        window.close()
        await running.stop_players()
        verdict = await running.verify()
        lines = [
            *figures(window, running.ledger, config.channels, config.processes),
            *memory_lines(running.memory),
            *verdict.lines(),
            *(
                f"  (timing, not checked) {line}"
                for line in latency_failures(
                    window, running.ledger, config.channels * config.processes
                )
            ),
        ]
    return lines, verdict.passed


@contextlib.contextmanager
def scratch_postgres() -> Iterator[str]:
    """A throwaway PostgreSQL server and an empty database on it, for one run."""
    server = PostgresServer()
    server.start()
    try:
        yield server.create_database()
    finally:
        server.stop()


def config_of(args: argparse.Namespace, database: str | None) -> SoakConfig:
    return SoakConfig(
        channels=args.channels,
        processes=args.processes,
        database=database,
        players=args.players,
    )


def main(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack:
        database = args.database
        if args.postgres:
            database = stack.enter_context(scratch_postgres())
        lines, passed = asyncio.run(soak(config_of(args, database), args.warmup, args.seconds))
    print(*lines, sep="\n")
    print("PASS" if passed else "FAIL")
    return 1 if args.check and not passed else 0


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parse.add_argument("--channels", type=int, default=10, help="busy channels per process")
    parse.add_argument("--seconds", type=float, default=60.0, help="the measured window")
    parse.add_argument("--warmup", type=float, default=10.0, help="seconds before it")
    parse.add_argument("--players", type=int, default=3, help="players per play channel")
    parse.add_argument("--processes", type=int, default=1, help="shard processes (PostgreSQL)")
    parse.add_argument("--database", metavar="URL", help="a scratch PostgreSQL database")
    parse.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    parse.add_argument("--check", action="store_true", help="exit 1 if anything is lost")
    return parse


if __name__ == "__main__":
    sys.exit(main(parser().parse_args()))
