"""Memory benchmark: the real `python -m bot` behind the loopback fake Discord, per process.

    python benchmarks/memory.py [--check] [--quick] [--cold] [--charts OFF] [--workers 1]

Starts the bot as a host runs it (a subprocess, warm solver cache, SQLite), waits until the
solver is ready, and prints each process of the bot's tree (the bot, its workers, any helper
such as multiprocessing's resource tracker) with its resident (RSS), proportional (PSS) and
unique (USS) memory from /proc/<pid>/smaps_rollup; then plays one Knuth solve game and prints
them again. Both sums are printed beside the target at start (250 MB, issue #25): PSS splits
each shared page between the processes that map it, so its sum over the tree counts every page
once (what the host gives), where the sum of RSS counts a shared library once per process; the
target is checked on the RSS sum, which bounds the other. Then it times the first
`/mastermind simulate`, which starts the simulation worker, and measures again. `--quick`
skips the simulations (about 5 s); `--cold` starts on an empty solver cache and also prints the
highest sample taken while the kernels compile (about 30 s more).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.load import solve_channel  # noqa: E402
from bot.engine import cache_dir  # noqa: E402
from tests.discord_fake import BotProcess, FakeDiscord  # noqa: E402

TARGET_MB = 250.0
"""Memory at start of the bot and its workers together (#25)."""
READY_LINE = "solver ready in"


@dataclass(frozen=True)
class Footprint:
    """One process's memory, in MB."""

    pid: int
    role: str
    rss: float
    pss: float
    uss: float
    numba: bool
    """Whether numba's compiler (its LLVM library) is loaded in the process."""


def children(pid: int) -> list[int]:
    """The direct children of `pid` (Linux: every thread's children file)."""
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:  # the process or a thread ended meanwhile
        pass
    return found


def tree(pid: int) -> list[int]:
    """`pid` and every descendant, parents first."""
    pids = [pid]
    for child in children(pid):
        pids += tree(child)
    return pids


def role(pid: int, root: int) -> str:
    """What the process is: the bot itself, a worker (named by its pool), or a helper."""
    if pid == root:
        return "bot"
    command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    if "resource_tracker" in command:
        return "resource tracker"
    if "forkserver" in command:
        return "fork server"
    return Path(f"/proc/{pid}/comm").read_text().strip()


def footprint(pid: int, root: int) -> Footprint:
    """`pid`'s RSS, PSS and USS (private clean + private dirty) from smaps_rollup."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, _, value = line.partition(":")
        fields[name] = int(value.split()[0]) / 1024
    uss = fields["Private_Clean"] + fields["Private_Dirty"]
    numba = "llvmlite" in Path(f"/proc/{pid}/maps").read_text()
    return Footprint(pid, role(pid, root), fields["Rss"], fields["Pss"], uss, numba)


def measure(root: int) -> list[Footprint]:
    """Every live process of the tree under `root` (one that exits meanwhile is left out)."""
    footprints = []
    for pid in tree(root):
        try:
            footprints.append(footprint(pid, root))
        except OSError:  # gone between the listing and the reading
            continue
    return footprints


def report(title: str, footprints: list[Footprint]) -> tuple[float, float]:
    """Print one table of the tree's processes and its totals; returns total RSS and PSS."""
    print(f"{title} (load average {', '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"  {'process':<20}{'pid':>8}{'RSS MB':>10}{'PSS MB':>10}{'USS MB':>10}  numba")
    for f in footprints:
        print(
            f"  {f.role:<20}{f.pid:>8}{f.rss:>10.1f}{f.pss:>10.1f}{f.uss:>10.1f}"
            f"  {'yes' if f.numba else 'no'}"
        )
    totals = [sum(getattr(f, name) for f in footprints) for name in ("rss", "pss", "uss")]
    print(f"  {'total':<28}{totals[0]:>10.1f}{totals[1]:>10.1f}{totals[2]:>10.1f}")
    return totals[0], totals[1]


async def solver_ready(bot: BotProcess, timeout: float = 120.0) -> list[Footprint]:
    """Wait for the warm-up's log line (every worker has loaded, or compiled, the kernels and
    tables), sampling the tree meanwhile; returns the sample with the most resident in all."""
    peak: list[Footprint] = []
    for _ in range(int(timeout * 4)):
        if READY_LINE in bot.output:
            return peak
        sample = measure(bot.pid)
        if sum(f.rss for f in sample) > sum(f.rss for f in peak):
            peak = sample
        await asyncio.sleep(0.25)
    raise TimeoutError(f"the solver was not ready within {timeout} s:\n{bot.output}")


async def simulate_seconds(fake: FakeDiscord, channel: str) -> float:
    """The time from a 4 x 6 `/mastermind simulate` to its answer (every 1,296 secrets)."""
    started = time.perf_counter()
    handle = await fake.slash(channel, "alice", "mastermind", "simulate")
    answer = await handle.settled(timeout=60.0)
    seconds = time.perf_counter() - started
    if "every secret" not in answer.text:
        raise RuntimeError(f"the simulation was not answered: {answer.text}")
    return seconds


@dataclass
class Run:
    """What one run measured: the tree at start and after each step, and the first
    simulate's answer time beside the second's."""

    at_start: list[Footprint]
    steps: dict[str, list[Footprint]]
    simulate: tuple[float, float] | None
    output: str


async def measured_run(args: argparse.Namespace, folder: Path) -> Run:
    """Start the bot on a warm cache and measure it at start, after a solve game, and after
    the first simulations (which start the simulation worker)."""
    fake = FakeDiscord(members=("alice",), channels=("general", "second"))
    await fake.start()
    try:
        if args.cold:  # an empty cache: the start compiles, as the first after an install
            (folder / "cache").mkdir()
        else:  # a copy of this install's cache: the start loads the kernels
            shutil.copytree(cache_dir.choose().path, folder / "cache")
        env = {
            "DATABASE_PATH": str(folder / "memory.db"),
            "CACHE_DIR": str(folder / "cache"),
            "SOLVER_WORKERS": str(args.workers),
            "CHARTS": args.charts,
            "DEV_GUILD_ID": "",
            "LOG_LEVEL": "INFO",
        }
        bot = await fake.spawn_bot(env=env)
        await bot.wait_ready(timeout=30.0, commands=True)
        starting = await solver_ready(bot)
        await asyncio.sleep(args.settle)
        run = Run(measure(bot.pid), {}, None, "")
        if args.cold:
            run.steps["the highest sample while compiling"] = starting
        guesses = await solve_channel(fake, "general", "alice", "3456")
        run.steps[f"after a first solve game ({guesses} guesses)"] = measure(bot.pid)
        if not args.quick:
            first = await simulate_seconds(fake, "general")
            run.simulate = (first, await simulate_seconds(fake, "second"))
            await asyncio.sleep(args.settle)  # the chart worker, if any, is drawing
            run.steps["after two 4x6 simulations"] = measure(bot.pid)
        bot.terminate()
        await bot.wait(15.0)
        run.output = bot.output
        return run
    finally:
        await fake.close()


async def main(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        run = await measured_run(args, Path(tmp))
    rss, pss = report("memory at start", run.at_start)
    for title, footprints in run.steps.items():
        report(title, footprints)
    if run.simulate is not None:
        first, second = run.simulate
        print(
            f"4x6 simulate answered in {first:.2f} s the first time (it starts the simulation "
            f"worker{', and the chart worker' if args.charts == 'ON' else ''}), "
            f"{second:.2f} s the second"
        )
    passed = rss <= TARGET_MB
    print(
        f"at start: {rss:.0f} MB resident in all, {pss:.0f} MB proportional "
        f"(target <= {TARGET_MB:.0f} MB, checked on the resident sum: it counts shared pages "
        "once per process, so it bounds the proportional one)"
    )
    print("PASS" if passed else "FAIL")
    return 1 if args.check and not passed else 0


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1, help="SOLVER_WORKERS")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds idle before measuring")
    parser.add_argument("--check", action="store_true", help="exit 1 if the target fails")
    parser.add_argument("--cold", action="store_true", help="an empty cache: compile at start")
    parser.add_argument("--charts", choices=("ON", "OFF"), default="ON", help="CHARTS")
    parser.add_argument("--quick", action="store_true", help="no simulations (about 5 s)")
    return parser.parse_args(argv)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse())))
