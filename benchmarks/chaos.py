"""Chaos soak (#22): the load soak with a bot process SIGKILLed every 20 s and started again.

    python benchmarks/chaos.py [--seconds 150] [--interval 20] [--first S] [--channels 10]
                               [--postgres | --database URL] [--processes 2]
                               [--order turn|random] [--aim] [--check]

Channels play every kind of game back to back (benchmarks/soaking/players.py) against the real
`python -m bot` behind the fake Discord, while a process is killed (SIGKILL, its workers with
it) every `--interval` s and restarted at once. After `--seconds`, the players stop and the run
is held against the database and the fake:

- nothing acknowledged is lost, no move is stored twice, nothing refused is stored, every
  interaction sent while every process was up is answered (benchmarks/soaking/verify.py);
- every board converges after the last restart: the store records it drawn at its game's
  version and the fake's message shows that version (soaking/chaos_boards.py);
- no race misses its clock: a lobby or time limit that fell while its process was dead is
  acted on at once by the restarted process (soaking/chaos_clocks.py); every daily move is
  stored on its puzzle's own day.

`--postgres` starts a throwaway PostgreSQL server; `--processes 2` runs a two-process cluster on
it (SHARD_COUNT=2), killed in turn or, with `--order random`, at random. `--aim` moves a kill
to just before a race's deadline when one falls in its interval, so that restarts owe clocks
(with kills every 20 s, a deadline falls in a 1-2 s downtime only now and then). `--check`
exits 1 on any failure above, never on timings.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.soak import scratch_postgres  # noqa: E402
from benchmarks.soaking import collector, paced  # noqa: E402
from benchmarks.soaking.chaos_boards import converge  # noqa: E402
from benchmarks.soaking.chaos_kills import Kill, KillPlan, kill_and_restart  # noqa: E402
from benchmarks.soaking.chaos_verdict import ChaosResult, judge  # noqa: E402
from benchmarks.soaking.driver import Soak, SoakConfig  # noqa: E402

CONVERGE_SECONDS = 15.0
"""How long boards may take to converge once the players stop: one reconcile pass, with room
for a cluster's jobs lease (LEASE_SECONDS=5 in the soak) to pass to a live process; four times
that under --rate-limits, where each channel's redraws wait for its bucket of edits."""


async def chaos(config: SoakConfig, plan: KillPlan) -> ChaosResult:
    """Play under kills for `plan.seconds`, stop the players, and check everything."""
    async with Soak(config) as running:
        running.start_players()
        kills = await kill_and_restart(running, plan)
        await running.stop_players()
        within = CONVERGE_SECONDS * (4 if config.rate_limits else 1)
        boards = await converge(running.fake, running.database, within)
        result = await judge(running, kills, boards)
        lags = await paced.board_lags(running.fake, running.database)
        result.notes += paced.lines(running.fake, lags, boards)
        return result


def count(problems: list[str], *marks: str) -> int:
    return sum(1 for p in problems if any(m in p for m in marks))


def kill_lines(kills: list[Kill]) -> list[str]:
    """The kills, and the time from each SIGKILL to the new process's ready."""
    if not kills:
        return ["kills: none"]
    ready = [k.ready_seconds for k in kills]
    return [
        f"kills: {len(kills)} (SIGKILL), restarts: {len(kills)}; time to ready after a kill: "
        f"median {statistics.median(ready):.1f} s, max {max(ready):.1f} s",
        "  " + ", ".join(f"shard {k.shard}: {k.ready_seconds:.1f} s" for k in kills),
    ]


def result_lines(result: ChaosResult) -> list[str]:
    """The figures of a run, beside what each must be."""
    verdict, clocks, boards = result.verdict, result.clocks, result.boards
    one, five, fifteen = os.getloadavg()
    converged = "never" if boards.seconds is None else f"{boards.seconds:.1f} s"
    late = [d.late for d in clocks.checked if d.late]
    return [
        f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores), "
        f"{result.processes} process(es)",
        *kill_lines(result.kills),
        f"acknowledged moves: {verdict.acknowledged}; stored from player inputs: "
        f"{verdict.stored}; shown only after their player stopped watching: "
        f"{verdict.acknowledged_late}; stored but never acknowledged (answer lost in a kill): "
        f"{verdict.stored_unacknowledged}",
        f"interactions unanswered during downtime: {verdict.unanswered_in_downtime}; "
        f"not sent (no bot connected): {verdict.not_sent_in_downtime}",
        f"lost: {count(verdict.problems, 'lost: ')} (must be 0); duplicated: "
        f"{count(verdict.problems, ' times')} (must be 0); unanswered while up: "
        f"{count(verdict.problems, 'never answered', 'answered late')} (must be 0)",
        f"boards: {boards.boards}, not converged {len(boards.behind)} (must be 0), "
        f"converged {converged} after the players stopped",
        f"race clocks: {len(clocks.checked)} deadlines checked, {clocks.in_downtime} fell "
        f"while their process was dead; missed {clocks.missed}, late "
        f"{sum(1 for x in late if x > 3.0)} (must be 0); latest "
        f"{clocks.worst_late:.1f} s after it was owed",
        f"dailies checked (moves on their puzzle's day): {verdict.dailies_checked}",
        *(f"  PROBLEM: {p}" for p in result.problems[:30]),
        *result.notes,
    ]


def database_for(args: argparse.Namespace) -> contextlib.AbstractContextManager[str | None]:
    """The database of the run: `--database`, a throwaway PostgreSQL, or None (SQLite)."""
    return scratch_postgres() if args.postgres else contextlib.nullcontext(args.database)


def killed_peer(record: logging.LogRecord) -> bool:
    """False for the fake's answer to a bot process just SIGKILLed (aiohttp cannot write it):
    expected on every kill, and no failure of the bot."""
    error = record.exc_info[1] if record.exc_info else None
    return not isinstance(error, ConnectionResetError)


def main(args: argparse.Namespace) -> int:
    logging.getLogger("aiohttp.server").addFilter(killed_peer)
    plan = KillPlan(args.seconds, args.interval, args.first, args.order, args.seed, args.aim)
    with database_for(args) as database:
        config = SoakConfig(
            channels=args.channels,
            processes=args.processes,
            database=database,
            players=args.players,
            rate_limits=args.rate_limits,
        )
        result = asyncio.run(chaos(config, plan))
    print(*result_lines(result), sep="\n")
    print("PASS" if result.passed else "FAIL")
    return 1 if args.check and not result.passed else 0


OPTIONS: dict[str, tuple[type, object, str]] = {
    "--seconds": (float, 150.0, "how long the players play, kills and all"),
    "--interval": (float, 20.0, "seconds between kills"),
    "--first": (float, None, "seconds to the first kill (default: one interval)"),
    "--seed": (int, 22, "which process dies next, with --order random"),
    "--channels": (int, 10, "busy channels per process"),
    "--players": (int, 3, "players per play channel"),
    "--processes": (int, 1, "shard processes (PostgreSQL only)"),
    "--database": (str, None, "a scratch PostgreSQL database's URL"),
}


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, (kind, default, words) in OPTIONS.items():
        parse.add_argument(name, type=kind, default=default, help=words)
    parse.add_argument("--order", choices=("turn", "random"), default="turn")
    switches = {
        "--aim": "time each kill to just before a race's deadline when one falls in its interval",
        "--postgres": "start a throwaway PostgreSQL",
        "--check": "exit 1 on any failure",
        "--rate-limits": "the fake enforces Discord's rate limits (see benchmarks/soak.py)",
    }
    for name, words in switches.items():
        parse.add_argument(name, action="store_true", help=words)
    return parse


if __name__ == "__main__":
    collector.quiet()  # the fake's own collections are not the bot's latency
    sys.exit(main(parser().parse_args()))
