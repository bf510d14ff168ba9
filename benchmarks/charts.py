"""The charts' cost: time to draw each kind, its size, and what matplotlib costs the chart worker.

    python benchmarks/charts.py [--quick] [--check] [--draws N]

Each chart kind is drawn from its largest ordinary case (stats: four kinds, hard and hinted wins
over ten rows; the review: twelve guesses on 8 pegs x 10 colours, a log axis of nine decades;
simulate: ten bars), in English and in Polish, `--draws` times each: in this process (the
drawing alone) and through `ChartPool` (what an answer waits for: the drawing plus sending the
spec to the worker and the PNG back). Also: the worker's cold start (spawn and import
matplotlib), the installed size of matplotlib and the packages it pulls in, and whether the
bot's own process imports matplotlib (it must not).

Exit status: 0, or 1 with `--check` when a target fails.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path

if __package__ in (None, ""):  # run as `python benchmarks/charts.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.charts import data
from bot.charts.pool import ChartPool
from bot.charts.spec import Chart
from bot.engine.job_types import Leave, ReviewedGuess, SimulationResult
from bot.modes import registry
from bot.store.values import Win
from bot.ui import charts
from bot.ui.i18n import messages

P99_MS = 300.0
MAX_KB = 200.0
DEPENDENCIES = ("matplotlib", "pillow", "fonttools", "kiwisolver", "contourpy", "cycler",
                "pyparsing", "python-dateutil")  # fmt: skip


ORDER = tuple(mode.kind for mode in registry.MODES)
LOOKS = {mode.kind: mode.chart for mode in registry.MODES}


def stats_case(language: str) -> Chart:
    wins = [
        Win(
            kind,
            1 + (n * 7) % 10,
            n % 3 == 0,
            n % 4 == 0,
            datetime(2026, 11, 1 + n % 26, tzinfo=UTC),
        )
        for n, kind in enumerate(list(ORDER) * 30)
    ]
    found = data.distribution(wins, date(2026, 11, 26), ORDER)
    assert found is not None
    return charts.stats(found, LOOKS, messages(language)).chart


def review_case(language: str) -> Chart:
    left = [10**8, 4_000_000, 300_000, 40_000, 5_000, 700, 90, 20, 6, 3, 2, 1, 1]
    rows = [
        ReviewedGuess(n, (0,) * 8, (0, 1), left[n - 1], left[n], n % 5 != 3,
                      Leave(left[n] * 2, 1.0), (1,) * 8, Leave(max(1, left[n] // 2), 1.0))
        for n in range(1, 13)
    ]  # fmt: skip
    found = data.narrowing(rows, hinted=(4, 9))
    assert found is not None
    return charts.review(found, 123456, messages(language)).chart


def simulation_case(language: str) -> Chart:
    counts = ((1, 1), (2, 13), (3, 108), (4, 1620), (5, 12000), (6, 30000), (7, 20000),
              (8, 5000), (9, 200), (10, 3))  # fmt: skip
    result = SimulationResult(6, 10, True, "entropy", "112233", counts, 100000, False, 9.0)
    found = data.histogram(result)
    assert found is not None
    return charts.simulation(found, "Neuwirth entropy, 6 × 10", messages(language)).chart


CASES: dict[str, Callable[[str], Chart]] = {
    "stats": stats_case,
    "review": review_case,
    "simulate": simulation_case,
}


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def installed_mb() -> float:
    total = 0
    for name in DEPENDENCIES:
        files = importlib.metadata.distribution(name).files or []
        total += sum(f.size or 0 for f in files)
    return total / 1e6


def main_process_imports_matplotlib() -> bool:
    script = "import sys, bot.app; print(any(m.startswith('matplotlib') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "True"


async def through_the_pool(specs: list[Chart], draws: int) -> tuple[float, list[float]]:
    pool = ChartPool()
    try:
        start = time.perf_counter()
        await pool.warm_up()
        cold = time.perf_counter() - start
        times = []
        for _ in range(draws):
            for spec in specs:
                start = time.perf_counter()
                png = await pool.render(spec, wait=30.0)
                times.append(time.perf_counter() - start)
                assert png is not None
        return cold, times
    finally:
        pool.shutdown()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 draws of each chart")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target fails")
    parser.add_argument("--draws", type=int, default=40, help="draws of each chart and language")
    args = parser.parse_args(argv)
    draws = 5 if args.quick else args.draws
    from bot.charts import draw  # matplotlib, here only: this process is the benchmark's

    failed = False
    load = os.getloadavg()[0]
    print(
        f"{os.cpu_count()} cores, load average {load:.1f} (wall times include waiting for a core)"
    )
    print(f"{'chart':<10}{'draw p50':>10}{'draw p99':>10}{'CPU p99':>10}{'largest':>10}   target")
    for name, make in CASES.items():
        specs = [make("en"), make("pl")]
        times, cpu, sizes = [], [], []
        for _ in range(draws):
            for spec in specs:
                start, started_cpu = time.perf_counter(), time.process_time()
                sizes.append(len(draw.render(spec)))
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - started_cpu)
        p99 = percentile(times, 0.99) * 1000
        kb = max(sizes) / 1024
        ok = p99 <= P99_MS and kb <= MAX_KB
        failed |= not ok
        print(
            f"{name:<10}{statistics.median(times) * 1000:>8.0f}ms{p99:>8.0f}ms"
            f"{percentile(cpu, 0.99) * 1000:>8.0f}ms{kb:>8.0f}KB"
            f"   <= {P99_MS:.0f} ms p99, <= {MAX_KB:.0f} KB {'ok' if ok else 'FAILED'}"
        )
    every = [make(language) for make in CASES.values() for language in ("en", "pl")]
    cold, pooled = asyncio.run(through_the_pool(every, max(1, draws // 2)))
    pooled_p99 = percentile(pooled, 0.99) * 1000
    ok = pooled_p99 <= P99_MS
    failed |= not ok
    print(
        f"through ChartPool (spec to the worker, PNG back): p50 "
        f"{statistics.median(pooled) * 1000:.0f} ms, p99 {pooled_p99:.0f} ms over {len(pooled)} "
        f"charts   <= {P99_MS:.0f} ms p99 {'ok' if ok else 'FAILED'}"
    )
    print(f"chart worker cold start (spawn, import matplotlib): {cold:.2f} s")
    print(f"matplotlib and what it pulls in, installed: {installed_mb():.0f} MB")
    leaked = main_process_imports_matplotlib()
    failed |= leaked
    print(f"the bot's process imports matplotlib: {'YES (FAILED)' if leaked else 'no (ok)'}")
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
