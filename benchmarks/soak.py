"""Soak: the real `python -m bot` under channels playing whole games as fast as their players can.

    python benchmarks/soak.py [--channels 10] [--seconds 60] [--warmup 10] [--check]
                              [--database URL | --postgres] [--processes 2] [--players 3]
                              [--rate-limits] [--activity-ab N]

The bot runs as a subprocess (`fake.spawn_bot`) behind the loopback fake Discord that runs in
this process with the players. Each channel plays back to back: cooperative play games (every
player guessing at once, by slash command and through the picker), Knuth solve games, dailies
and races whose clock starts and ends them (see benchmarks/soaking/players.py). After the
warm-up, a window of `--seconds` is measured: the bot's main-process CPU per interaction, the
throughput, first-answer latency per kind, memory of every bot process and child, the load.

`--rate-limits` has the fake enforce Discord's rate limits (tests/discord_fake/limits.py): the
bot then paces its requests on Discord's headers as it would in production. Every run prints
how long each board took to show its game's last move (p50, p99, max), and with the limits the
429s met, any retry sooner than `retry_after` (a violation) and the invalid requests per 10,000
interactions (Discord bans at 10,000 in 10 minutes).

Then the ledger is held against the database: every acknowledged move stored exactly once,
nothing refused stored, every interaction answered, no fake-Discord violation, every race's
clock on time. `--check` exits 1 on any of those (never on timings).

`--activity-ab N` runs N pairs of soaks, the Activity's server on (no page open) then off, for
the CPU an idle Activity costs an interaction (#33).

`--processes 2` runs two shard processes (SHARD_COUNT=2) on one PostgreSQL database, each with
its own guild of `--channels` channels; `--postgres` starts a throwaway PostgreSQL server for
the run (initdb in a temporary folder, as the tests do).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import os
import socket
import sys
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.soaking import collector, paced  # noqa: E402
from benchmarks.soaking.chaos_boards import converge  # noqa: E402
from benchmarks.soaking.driver import Soak, SoakConfig  # noqa: E402
from benchmarks.soaking.report import (  # noqa: E402
    Summary,
    Window,
    figures,
    latency_failures,
    memory_lines,
    summary,
)
from tests.store.postgres_server import PostgresServer  # noqa: E402

CONVERGE_SECONDS = 60.0
"""How long boards may take to show their games once the players stop (a busy channel's
boards wait for its bucket of edits under --rate-limits)."""


async def soak(
    config: SoakConfig, warmup: float, seconds: float, label: str = "soak"
) -> tuple[list[str], Summary]:
    """Run one soak; returns its printed lines and its headline figures."""
    async with Soak(config) as running:
        running.start_players()
        await asyncio.sleep(warmup)
        window = Window(running.main_pids())
        await asyncio.sleep(seconds)
        window.close()
        await running.stop_players()
        scrape = await asyncio.to_thread(scraped, config)
        converged = await converge(running.fake, running.database, CONVERGE_SECONDS)
        lags = await paced.board_lags(running.fake, running.database)
        verdict = await running.verify()
        total = config.channels * config.processes
        missed = latency_failures(window, running.ledger, total)
        lines = [
            f"== {label} ==",
            *figures(window, running.ledger, config.channels, config.processes),
            *memory_lines(running.memory),
            *paced.lines(running.fake, lags, converged),
            *verdict.lines(),
            *(f"  (timing, not checked) {line}" for line in missed),
            *scrape,
        ]
        return lines, summary(label, window, running.ledger, verdict.passed)


async def series(
    runs: list[tuple[str, SoakConfig]], warmup: float, seconds: float
) -> tuple[list[str], list[Summary]]:
    """Several soaks one after another (each with its own bot), figures side by side."""
    lines: list[str] = []
    summaries: list[Summary] = []
    for label, config in runs:
        printed, figures_of_run = await soak(config, warmup, seconds, label)
        print(*printed, sep="\n", flush=True)
        lines += printed
        summaries.append(figures_of_run)
    return lines, summaries


def plan_runs(args: argparse.Namespace, database: str | None) -> list[tuple[str, SoakConfig]]:
    """The soaks to run: one, or the orjson A/B pairs, or 1 process x N against 2 x N."""
    base = config_of(args, database)
    if args.orjson_ab:
        if importlib.util.find_spec("orjson") is None:
            raise SystemExit("--orjson-ab compares the bot with orjson: pip install orjson first")
        pairs = [
            (f"{'with' if on else 'without'} orjson #{n + 1}", replace(base, orjson=on))
            for n in range(args.orjson_ab)
            for on in (True, False)
        ]
        return pairs
    if args.activity_ab:
        return [
            (
                f"{'with' if on else 'without'} the Activity #{n + 1}",
                with_activity(base) if on else base,
            )
            for n in range(args.activity_ab)
            for on in (True, False)
        ]
    if args.metrics_ab:
        return [
            (f"{'with' if on else 'without'} metrics #{n + 1}", with_metrics(base) if on else base)
            for n in range(args.metrics_ab)
            for on in (True, False)
        ]
    if args.scale_out:
        return [
            (f"1 process x {args.channels} ch", replace(base, processes=1)),
            (f"2 processes x {args.channels} ch", replace(base, processes=2)),
        ]
    return [(f"{args.processes} process(es) x {args.channels} ch", base)]


def with_metrics(config: SoakConfig) -> SoakConfig:
    """The same soak with the Prometheus endpoint on (METRICS_PORT), scraped after the window."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return replace(config, env={**config.env, "METRICS_PORT": str(port)})


def with_activity(config: SoakConfig) -> SoakConfig:
    """The same soak with the Activity's server on (ACTIVITY_PORT) and no page open: what an
    idle Activity costs each interaction (#33)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    secret = "an idle Activity signs nobody in"
    return replace(
        config, env={**config.env, "ACTIVITY_PORT": str(port), "DISCORD_CLIENT_SECRET": secret}
    )


def scraped(config: SoakConfig) -> list[str]:
    """The endpoint's count of answered interactions, to hold beside the ledger's."""
    port = config.env.get("METRICS_PORT")
    if not port:
        return []
    url = f"http://127.0.0.1:{port}/metrics"
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()

    def total(prefix: str, having: str = "") -> float:
        return sum(
            float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.startswith(prefix) and having in line
        )

    answered = total("mastermind_interactions_total{", 'outcome="answered"')
    waits = total("mastermind_discord_bucket_waits_total{")
    held = total("mastermind_discord_bucket_wait_seconds_total{")
    return [
        f"  metrics: scraped {url}: {answered:.0f} interactions answered since start; "
        f"{waits:.0f} requests held on an empty rate-limit bucket, {held:.1f} s in all"
    ]


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
        orjson=not args.no_orjson,
        think=args.think,
        rate_limits=args.rate_limits,
    )


def main(args: argparse.Namespace) -> int:
    with contextlib.ExitStack() as stack:
        database = args.database
        if args.postgres:
            database = stack.enter_context(scratch_postgres())
        runs = plan_runs(args, database)
        _, summaries = asyncio.run(series(runs, args.warmup, args.seconds))
    one, five, fifteen = os.getloadavg()
    print(f"== summary (load average now {one:.2f} {five:.2f} {fifteen:.2f}) ==")
    print(Summary.HEADER, *(s.row() for s in summaries), sep="\n")
    passed = all(s.passed for s in summaries)
    print("PASS" if passed else "FAIL: something was lost, duplicated or unanswered")
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
    parse.add_argument(
        "--think", type=float, default=0.0, help="seconds a player pauses before acting"
    )
    parse.add_argument("--no-orjson", action="store_true", help="the bot without orjson")
    parse.add_argument(
        "--rate-limits", action="store_true", help="the fake enforces Discord's rate limits"
    )
    parse.add_argument(
        "--orjson-ab", type=int, default=0, metavar="N", help="N pairs: with, then without orjson"
    )
    parse.add_argument(
        "--metrics-ab", type=int, default=0, metavar="N", help="N pairs: with, then without metrics"
    )
    parse.add_argument(
        "--activity-ab",
        type=int,
        default=0,
        metavar="N",
        help="N pairs: with the Activity on (no page open), then off",
    )
    parse.add_argument(
        "--scale-out", action="store_true", help="1 process, then 2 (needs PostgreSQL)"
    )
    return parse


if __name__ == "__main__":
    collector.quiet()  # the fake's own collections are not the bot's latency
    sys.exit(main(parser().parse_args()))
