"""Solver speed and memory, measured against the issue's targets and a pure-Python baseline.

    python benchmarks/solver.py [--quick] [--check] [--jobs N] [--baseline-secrets N]
                                [--baseline-full] [--games-5x8 N] [--seed S]
                                [--large [7x6 6x8 8x5 7x7 ...]]

This prints figures; it is not a timed test (timings on a shared 2-core machine are noisy, so
nothing in the test suite asserts them). The baseline is `benchmarks/baseline_knuth.py`, the
plain list-and-loop Knuth solver of the seed documents, timed in the same run so the ratio does
not depend on the machine. Sweeps run in this process on one core, then on `--jobs` threads;
memory and the compile cache are measured in fresh subprocesses, because a peak RSS is a
high-water mark that an earlier measurement in the same process would hide (see `maxrss_mb`).

Every run also plays seeded games of each variant above 100,000 codes (#21: each move within
the 2 s budget, and how many moves the approximate search had to play) and measures a 7x7
game's peak memory; `--large` adds five exact 7x7 games and the published exact sweeps of the
named variants, beside the CUDA solver's times (`MASTERMIND_SLOW_TESTS=1 pytest -m slow
tests/engine` asserts the same figures).

Exit status: 0, or 1 with `--check` when a target fails.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.engine import book
from bot.engine.codes import Code, CodeSpace
from bot.engine.scoring import score
from bot.engine.search import SearchLimits
from bot.engine.simulate import Simulation, cpu_count, simulate
from bot.engine.solver import Contradiction, History, Solver, solve_secret
from bot.engine.strategies import STRATEGIES

try:
    from benchmarks import baseline_knuth
except ImportError:  # run as `python benchmarks/solver.py`: this folder is on sys.path
    import baseline_knuth  # type: ignore[no-redef]

SCRIPT = Path(__file__).resolve()

# The issues' targets (#12 for the sweeps and the exact moves), on the 2-core machine, warm.
BASELINE_RATIO = 1000.0
MOVE_4X6_P99_SECONDS = 0.002
MOVE_5X8_P99_SECONDS = 0.5
MOVE_EXACT_P99_SECONDS = 0.5
GAME_5X8_PEAK_MB = 300.0


@dataclass(frozen=True)
class SweepTarget:
    """A Knuth sweep of every secret: its opening, the total it must reach, its time target
    on one core, and how many timed runs give the median (default run, quick run)."""

    variant: tuple[int, int, bool]
    first: str
    total: int
    seconds: float
    runs: int
    quick_runs: int  # 0: skipped by --quick


SWEEPS = [
    SweepTarget((4, 6, True), "1122", 5801, 0.005, 21, 11),
    SweepTarget((4, 8, True), "1234", 21230, 0.080, 9, 5),
    SweepTarget((5, 8, True), "11223", 183775, 3.0, 3, 0),
    SweepTarget((6, 6, True), "111234", 248146, 12.0, 1, 0),
]

LARGE_MOVE_P99_SECONDS = 2.0  # #21: every move of the large variants, one core
GAMES_7X7_SECONDS = 60.0  # #21: five exact 7x7 Knuth games, one after another
MOVE_7X7_PEAK_MB = 300.0  # #21: the worker's ceiling


@dataclass(frozen=True)
class PublishedSweep:
    """#21: a published exact Knuth sweep (mikemag/Mastermind's CUDA solver on an RTX 4090,
    fixed opening): its figures, the GPU's time, and this machine's target on every core."""

    variant: tuple[int, int, bool]
    first: str
    average: float
    worst: int
    gpu_seconds: float
    seconds: float | None  # None: no target, the time is reported


LARGE_SWEEPS = [
    PublishedSweep((7, 6, True), "1122334", 5.8044, 8, 0.438, 120.0),
    PublishedSweep((6, 8, True), "112234", 6.0867, 8, 0.407, None),
    PublishedSweep((8, 5, True), "11122334", 5.8407, 8, 0.993, None),
    PublishedSweep((7, 7, True), "1122334", 6.2222, 8, 2.786, None),
]

EXACT_MOVES = [(5, 9), (5, 10), (7, 5), (8, 4)]
"""Variants between 50,000 and 100,000 codes, searched exactly since #12."""

# Published 4 x 6 all-secrets figures (total guesses, worst case) with each strategy's opening.
PUBLISHED = {
    "knuth": (5801, 5),
    "expected-size": (5696, 6),
    "entropy": (5722, 6),
    "most-parts": (5668, 6),
    "optimal": (5625, 6),  # Koyama and Lai
}

CLASSIC = (4, 6, True)
BIG = (5, 8, True)
KNUTH_FIRST = "1122"
BIG_FIRST = "11223"
STRATEGY_OPENINGS = [(name, None) for name in STRATEGIES] + [("entropy", "1123")]
"""Every strategy with its own opening, and the entropy rule also with Irving's and Kooi's."""


# --- figures -------------------------------------------------------------------------------


@dataclass
class Figure:
    """One row of the summary: what was measured, against which target, and the verdict."""

    name: str
    measured: str
    target: str
    status: str  # PASS, FAIL (count for --check), info, WARN (shown, never fail the run)

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def fmt_seconds(seconds: float) -> str:
    """Seconds in the unit a reader expects: µs, ms or s."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def percentile(values: Sequence[float], q: float) -> float:
    """A value actually observed at or above the q-th percentile (nearest rank, conservative)."""
    return float(np.percentile(np.asarray(values), q, method="higher"))


def maxrss_mb() -> float:
    """This process's peak resident set size so far, in MiB.

    Linux's VmHWM belongs to the process image and starts afresh at exec; `ru_maxrss` does not:
    a child inherits its parent's high-water mark across fork and exec, so a subprocess started
    from this (already large) benchmark would report the parent's peak. Other systems fall back
    to `ru_maxrss` (KiB on Linux, bytes on macOS).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def heading(title: str) -> None:
    print(f"\n== {title} ==", flush=True)


def describe(space: CodeSpace, history: History) -> str:
    """A position as players write it: 1122 (1,0) 1344 (0,2)."""
    return " ".join(f"{space.digits(g)} ({b},{w})" for g, (b, w) in history) or "(start)"


def space_of(variant: tuple[int, int, bool]) -> CodeSpace:
    return CodeSpace(*variant)


# --- engine runs (also used by the smoke test) ---------------------------------------------


def engine_sweep(
    space: CodeSpace, strategy: str = "knuth", first: Code | None = None, jobs: int = 1
) -> Simulation:
    """All secrets as one decision tree (the engine's fast path), on `jobs` threads."""
    return simulate(space, strategy, first, jobs=jobs)


def baseline_games(
    space: CodeSpace, first: Code, secrets: Sequence[Code]
) -> list[tuple[Code, list[Code], float]]:
    """Each secret as a separate pure-Python game: (secret, guesses, seconds)."""
    codes = baseline_knuth.all_codes(space.pegs, space.colours)
    played = []
    for secret in secrets:
        started = time.perf_counter()
        guesses = baseline_knuth.play(tuple(secret), codes, tuple(first))
        played.append((tuple(secret), guesses, time.perf_counter() - started))
    return played


def engine_games(space: CodeSpace, first: Code, secrets: Sequence[Code]) -> list[list[Code]]:
    """Each secret as a separate engine game with a fresh Solver (no tree sharing)."""
    return [solve_secret(Solver(space, "knuth", first_guess=first), secret) for secret in secrets]


def play_timed(solver: Solver, secret: Code) -> list[tuple[int, float, int, History]]:
    """One game; per move: (move number, seconds, candidates before it, history before it)."""
    history: list = []
    moves = []
    while True:
        started = time.perf_counter()
        move = solver.next_move(history)
        elapsed = time.perf_counter() - started
        moves.append((len(history) + 1, elapsed, move.remaining, tuple(history)))
        answer = score(move.guess, secret)
        history.append((move.guess, answer))
        if answer[0] == solver.space.pegs:
            return moves


# --- sections ------------------------------------------------------------------------------


def timed_sweeps(
    space: CodeSpace, first: Code, runs: int, jobs: int
) -> tuple[list[float], list[float], Simulation]:
    """Warm-up run, then `runs` timed sweeps: (wall seconds, CPU seconds, last result)."""
    engine_sweep(space, "knuth", first, jobs)
    gc.collect()
    times, cpu, result = [], [], None
    for _ in range(runs):
        cpu_started = time.process_time()
        result = engine_sweep(space, "knuth", first, jobs)
        cpu.append(time.process_time() - cpu_started)
        times.append(result.seconds)
    assert result is not None
    return times, cpu, result


def sweeps_section(quick: bool, jobs: int) -> tuple[list[Figure], float, Simulation]:
    """Every target sweep on one core, then on `jobs` threads; returns the figures and the
    4x6 median and result for the baseline ratio."""
    figures: list[Figure] = []
    classic_median, classic_result = 0.0, None
    for target in SWEEPS:
        runs = target.quick_runs if quick else target.runs
        if not runs:
            continue
        space = space_of(target.variant)
        first = space.parse(target.first)
        name = f"{space.pegs}x{space.colours}"
        heading(
            f"{name} knuth, all {space.size} secrets as one decision tree (first {target.first})"
        )
        times, cpu, result = timed_sweeps(space, first, runs, 1)
        median = statistics.median(times)
        print(
            f"one core, {runs} warm run(s): min {fmt_seconds(min(times))}, median "
            f"{fmt_seconds(median)}, max {fmt_seconds(max(times))} (wall clock; CPU median "
            f"{fmt_seconds(statistics.median(cpu))}: a wall median well above it means other "
            "processes took the CPU)"
        )
        print(
            f"total {result.total}, average {result.average:.4f}, worst {result.worst}, "
            f"games per guess count {result.counts()}"
        )
        par_times, par_cpu, par_result = timed_sweeps(space, first, max(1, runs // 2), jobs)
        par_median = statistics.median(par_times)
        print(
            f"{jobs} threads (--jobs): median {fmt_seconds(par_median)} (CPU "
            f"{fmt_seconds(statistics.median(par_cpu))}), total {par_result.total}"
        )
        same = result.total == par_result.total == target.total
        figures += [
            Figure(
                f"{name} knuth sweep, one core (median)",
                f"{fmt_seconds(median)} (min {fmt_seconds(min(times))}, n={runs})",
                f"<= {fmt_seconds(target.seconds)}",
                verdict(median <= target.seconds),
            ),
            Figure(f"  same, {jobs} threads (median)", fmt_seconds(par_median), "(info)", "info"),
            Figure(
                f"  {name} total, both runs",
                f"{result.total} (worst {result.worst})",
                f"= {target.total}",
                verdict(same),
            ),
        ]
        if target.variant == CLASSIC:
            classic_median, classic_result = median, result
    assert classic_result is not None
    return figures, classic_median, classic_result


def baseline_section(
    sample: int, full: bool, seed: int, sweep_median: float, sweep: Simulation
) -> list[Figure]:
    space = space_of(CLASSIC)
    first = space.parse(KNUTH_FIRST)
    if full:
        indices = np.arange(space.size)
    else:
        indices = np.sort(np.random.default_rng(seed).choice(space.size, sample, replace=False))
    secrets = [space.code_at(int(i)) for i in indices]
    heading(
        "baseline: pure-Python Knuth (benchmarks/baseline_knuth.py), each secret a separate game"
    )
    print(
        f"{'all' if full else f'{len(secrets)} seeded random (seed {seed})'} secrets of "
        f"{space.size}; engine = Solver per game, same first guess {KNUTH_FIRST}"
    )
    played = baseline_games(space, first, secrets)
    engine = engine_games(space, first, secrets)
    agree = same_sequence = 0
    show = len(played) <= 40
    if show:
        print("secret  baseline  engine  same guesses  baseline time")
    for (secret, guesses, seconds), ours in zip(played, engine, strict=True):
        agree += len(guesses) == len(ours)
        same_sequence += guesses == [tuple(g) for g in ours]
        if show:
            print(
                f"{space.digits(secret):>6}  {len(guesses):>8}  {len(ours):>6}  "
                f"{'yes' if guesses == [tuple(g) for g in ours] else 'NO':>12}  "
                f"{seconds:>10.2f} s"
            )
    per_secret = statistics.fmean(s for _, _, s in played)
    measured_total = sum(s for _, _, s in played)
    baseline_all = measured_total if full else per_secret * space.size
    how = (
        f"measured over all {space.size} secrets"
        if full
        else f"EXTRAPOLATED: mean {per_secret:.3f} s/secret over {len(secrets)} secrets "
        f"x {space.size}"
    )
    print(
        f"guess counts equal for {agree}/{len(played)} secrets, "
        f"identical guess sequences for {same_sequence}/{len(played)}"
    )
    print(f"baseline, all {space.size} secrets: {baseline_all:.0f} s ({how})")
    if full:
        distribution = Counter(len(g) for _, g, _ in played)
        print(
            f"baseline distribution {sorted(distribution.items())} vs engine sweep "
            f"{sorted(sweep.distribution.items())}: "
            f"{'identical' if distribution == sweep.distribution else 'DIFFERENT'}"
        )
    ratio = baseline_all / sweep_median
    print(f"ratio baseline / engine sweep (median {fmt_seconds(sweep_median)}): {ratio:,.0f}x")

    # Apples to apples without the shared decision tree: the engine playing every secret alone.
    codes = [space.code_at(i) for i in range(space.size)]
    started = time.perf_counter()
    alone = engine_games(space, first, codes)
    engine_alone = time.perf_counter() - started
    print(
        f"for comparison, engine with each of the {space.size} secrets a separate game (no tree "
        f"sharing, no memo): {engine_alone:.2f} s, {engine_alone / space.size * 1e3:.2f} ms/game; "
        f"baseline/engine per game {baseline_all / engine_alone:,.0f}x; "
        f"total {sum(len(g) for g in alone)}"
    )
    figures = [
        Figure(
            "baseline / 4x6 sweep speed ratio",
            f"{ratio:,.0f}x ({'full' if full else f'extrapolated from {len(secrets)} secrets'})",
            f">= {BASELINE_RATIO:,.0f}x",
            verdict(ratio >= BASELINE_RATIO),
        ),
        Figure(
            "baseline and engine guess counts agree",
            f"{agree}/{len(played)} secrets ({same_sequence} identical sequences)",
            "all",
            verdict(agree == len(played)),
        ),
        Figure(
            "per-game ratio, no tree sharing",
            f"{baseline_all / engine_alone:,.0f}x",
            "(info)",
            "info",
        ),
    ]
    if full:
        figures.append(
            Figure(
                "baseline distribution = engine sweep",
                "identical" if distribution == sweep.distribution else "different",
                "identical",
                verdict(distribution == sweep.distribution),
            )
        )
    return figures


def strategies_section(runs: int) -> list[Figure]:
    heading("4x6 all secrets, every strategy (each with its own opening; seed 0 where random)")
    space = space_of(CLASSIC)
    print(
        f"{'strategy':<18} {'first':>5} {'total':>6} {'average':>8} {'worst':>5} "
        f"{'time':>9}   published"
    )
    all_match = True
    for name, opening in STRATEGY_OPENINGS:
        first = space.parse(opening) if opening else None
        engine_sweep(space, name, first)  # warm
        results = [engine_sweep(space, name, first) for _ in range(runs)]
        result = results[-1]
        seconds = statistics.median(r.seconds for r in results)
        published = None if opening else PUBLISHED.get(name)
        if published is None:
            note = "-"
        else:
            match = (result.total, result.worst) == published
            all_match &= match
            note = f"{published[0]} max {published[1]} {'ok' if match else 'MISMATCH'}"
        print(
            f"{name:<18} {result.first_guess:>5} {result.total:>6} {result.average:>8.4f} "
            f"{result.worst:>5} {fmt_seconds(seconds):>9}   {note}"
        )
    return [
        Figure(
            "4x6 strategies = published figures",
            "all 5 match" if all_match else "mismatch",
            "knuth/expected/entropy/most-parts/optimal",
            verdict(all_match),
        )
    ]


def moves_4x6(count: int, seed: int) -> list[Figure]:
    heading("4x6 knuth single move, no move memo (scoring tables warm)")
    space = space_of(CLASSIC)
    first = space.parse(KNUTH_FIRST)
    positions: list[History] = []
    for answer in space.answers():
        if answer == (space.pegs, 0):
            continue
        try:
            Solver(space, "knuth", first_guess=first).candidates([(first, answer)])
        except Contradiction:
            continue
        positions.append(((first, answer),))
    second_moves = len(positions)
    rng = np.random.default_rng(seed)
    for index in rng.permutation(space.size):
        if len(positions) >= count:
            break
        secret = space.code_at(int(index))
        guesses = solve_secret(Solver(space, "knuth", first_guess=first), secret)
        history: list = []
        for guess in guesses[:-1]:
            history.append((guess, score(guess, secret)))
            positions.append(tuple(history))
    positions = positions[: max(count, second_moves)]
    Solver(space, "knuth", first_guess=first).next_move(positions[0])  # warm tables

    gc.collect()
    times = []
    for history in positions:
        solver = Solver(space, "knuth", first_guess=first)
        started = time.perf_counter()
        solver.next_move(history)
        times.append(time.perf_counter() - started)
    slowest = positions[int(np.argmax(times))]
    p50, p99 = percentile(times, 50), percentile(times, 99)
    print(
        f"{len(times)} moves ({second_moves} second moves after 1122, one per possible answer; "
        f"the rest every position of seeded random games)"
    )
    print(
        f"p50 {fmt_seconds(p50)}, p99 {fmt_seconds(p99)}, max {fmt_seconds(max(times))}; "
        f"slowest position: {describe(space, slowest)}"
    )
    second = times[:second_moves]
    print(
        f"second moves only: p50 {fmt_seconds(percentile(second, 50))}, "
        f"max {fmt_seconds(max(second))}"
    )
    return [
        Figure(
            "4x6 move, no memo (p99)",
            f"{fmt_seconds(p99)} (p50 {fmt_seconds(p50)}, max {fmt_seconds(max(times))}, "
            f"n={len(times)})",
            f"<= {fmt_seconds(MOVE_4X6_P99_SECONDS)}",
            verdict(p99 <= MOVE_4X6_P99_SECONDS),
        ),
    ]


def moves_5x8(games: int, seed: int) -> list[Figure]:
    heading(f"5x8 knuth game, every move timed (first {BIG_FIRST}, fresh Solver per game)")
    space = space_of(BIG)
    first = space.parse(BIG_FIRST)
    rng = np.random.default_rng(seed)
    indices = rng.choice(space.size, games + 1, replace=False)
    started = time.perf_counter()
    play_timed(Solver(space, "knuth", first_guess=first), space.code_at(int(indices[0])))
    print(
        "warm-up game (builds the scoring tables, untimed below): "
        f"{time.perf_counter() - started:.2f} s"
    )
    gc.collect()
    records = []
    for index in indices[1:]:
        secret = space.code_at(int(index))
        records.extend(play_timed(Solver(space, "knuth", first_guess=first), secret))
    times = [seconds for _, seconds, _, _ in records]
    p50, p99 = percentile(times, 50), percentile(times, 99)
    worst_move, worst_seconds, worst_remaining, worst_history = max(records, key=lambda r: r[1])
    print(
        f"{games} seeded random secrets (seed {seed}), {len(times)} moves: p50 {fmt_seconds(p50)}, "
        f"p99 {fmt_seconds(p99)}, max {fmt_seconds(worst_seconds)}"
    )
    print(
        f"slowest: move {worst_move} with {worst_remaining} candidates left, after "
        f"{describe(space, worst_history)}"
    )
    by_move: dict[int, list[float]] = defaultdict(list)
    for move, seconds, _, _ in records:
        by_move[move].append(seconds)
    print(
        "per move number (count: p50 / max): "
        + ", ".join(
            f"#{m} ({len(v)}: {fmt_seconds(statistics.median(v))} / {fmt_seconds(max(v))})"
            for m, v in sorted(by_move.items())
        )
    )
    return [
        Figure(
            "5x8 move, fresh Solver (p99)",
            f"{fmt_seconds(p99)} (p50 {fmt_seconds(p50)}, max {fmt_seconds(worst_seconds)} at "
            f"move {worst_move}, n={len(times)})",
            f"<= {fmt_seconds(MOVE_5X8_P99_SECONDS)}",
            verdict(p99 <= MOVE_5X8_P99_SECONDS),
        )
    ]


# --- subprocess measurements ---------------------------------------------------------------


def run_child(*args: str, timeout: float = 1800) -> dict:
    """Run this script as a fresh process in a child role; its last stdout line is JSON."""
    completed = subprocess.run(
        [sys.executable, str(SCRIPT), "--child", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if completed.returncode != 0:
        raise RuntimeError(f"child {args} failed:\n{completed.stderr}")
    return json.loads(completed.stdout.strip().splitlines()[-1])


def child_memory_5x8(games: int, seed: int) -> dict:
    """Peak RSS after imports, then after playing `games` 5x8 knuth games."""
    imported = maxrss_mb()
    space = space_of(BIG)
    first = space.parse(BIG_FIRST)
    rng = np.random.default_rng(seed + 1)
    moves = 0
    for index in rng.choice(space.size, games, replace=False):
        moves += len(
            play_timed(Solver(space, "knuth", first_guess=first), space.code_at(int(index)))
        )
    return {"imported_mb": imported, "peak_mb": maxrss_mb(), "games": games, "moves": moves}


def child_approximate(
    pegs: int, colours: int, games: int, moves: int, cap: float, seed: int, exact: bool = False
) -> dict:
    """The first `moves` moves of a few seeded knuth games of a large space (default limits;
    `exact`: every move searched exactly, however long)."""
    from bot.engine import jobs

    jobs.warm_up()  # as a worker does before its first job
    space = CodeSpace(pegs, colours)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    records = []
    limits = SearchLimits(exact_seconds=None) if exact else None
    for game in range(games):
        secret = space.code_at(int(rng.integers(space.size)))
        solver = Solver(space, "knuth", seed=game, limits=limits)
        history: list = []
        for number in range(1, moves + 1):
            if records and time.perf_counter() - started > cap:
                break
            move_started = time.perf_counter()
            move = solver.next_move(history)
            elapsed = time.perf_counter() - move_started
            records.append(
                {
                    "game": game,
                    "move": number,
                    "seconds": elapsed,
                    "left": move.remaining,
                    "exact": move.exact,
                }
            )
            answer = score(move.guess, secret)
            history.append((move.guess, answer))
            if answer[0] == pegs:
                break
    return {"size": space.size, "moves": records, "peak_mb": maxrss_mb()}


def memory_section(games: int, seed: int) -> list[Figure]:
    heading("5x8 peak memory (fresh subprocess, peak RSS = VmHWM)")
    child = run_child("memory", "--games-5x8", str(games), "--seed", str(seed))
    share = child["peak_mb"] - child["imported_mb"]
    print(
        f"after importing numpy + the engine: {child['imported_mb']:.0f} MB; after playing "
        f"{child['games']} 5x8 knuth games ({child['moves']} moves): "
        f"peak {child['peak_mb']:.0f} MB "
        f"(the games' own share {share:.0f} MB)"
    )
    return [
        Figure(
            "5x8 game peak RSS",
            f"{child['peak_mb']:.0f} MB (imports {child['imported_mb']:.0f} MB + {share:.0f} MB)",
            f"<= {GAME_5X8_PEAK_MB:.0f} MB",
            verdict(child["peak_mb"] <= GAME_5X8_PEAK_MB),
        )
    ]


def exact_moves_section(games: int, seed: int) -> list[Figure]:
    heading(
        "exact search of 50,000 to 100,000 codes: every move of seeded knuth games timed, "
        "after one warm-up game per variant (fresh Solver per game)"
    )
    figures = []
    for pegs, colours in EXACT_MOVES:
        space = CodeSpace(pegs, colours)
        rng = np.random.default_rng(seed)
        indices = rng.choice(space.size, games + 1, replace=False)
        play_timed(Solver(space, "knuth"), space.code_at(int(indices[0])))
        records = []
        for index in indices[1:]:
            records.extend(play_timed(Solver(space, "knuth"), space.code_at(int(index))))
        times = [seconds for _, seconds, _, _ in records]
        p50, p99 = percentile(times, 50), percentile(times, 99)
        move, slowest, left, history = max(records, key=lambda r: r[1])
        print(
            f"{pegs}x{colours} ({space.size:,} codes), {games} games, {len(times)} moves: "
            f"p50 {fmt_seconds(p50)}, p99 {fmt_seconds(p99)}, max {fmt_seconds(slowest)} "
            f"(move {move}, {left} codes left, after {describe(space, history)})"
        )
        figures.append(
            Figure(
                f"{pegs}x{colours} exact move (p99)",
                f"{fmt_seconds(p99)} (max {fmt_seconds(slowest)}, n={len(times)})",
                f"<= {fmt_seconds(MOVE_EXACT_P99_SECONDS)}",
                verdict(p99 <= MOVE_EXACT_P99_SECONDS),
            )
        )
    return figures


def compile_section() -> list[Figure]:
    heading("compiled kernels: a worker's warm-up with an empty numba cache, then from the cache")
    seconds = []
    with tempfile.TemporaryDirectory() as cache:
        for _ in range(2):
            child = subprocess.run(
                [sys.executable, "-c", WARM_UP],
                capture_output=True,
                text=True,
                check=True,
                env={**os.environ, "NUMBA_CACHE_DIR": cache},
            )
            seconds.append(float(child.stdout.strip().splitlines()[-1]))
    print(
        f"jobs.warm_up() in a fresh process: {seconds[0]:.1f} s compiling (once per install or "
        f"engine change), {seconds[1]:.2f} s loading from the disk cache (every worker start)"
    )
    return [
        Figure("worker warm-up, empty cache (compile)", f"{seconds[0]:.1f} s", "(info)", "info"),
        Figure("worker warm-up, from the cache", f"{seconds[1]:.2f} s", "(info)", "info"),
    ]


WARM_UP = (
    "import time\n"
    "started = time.perf_counter()\n"
    "from bot.engine import jobs\n"
    "jobs.warm_up()\n"
    "print(time.perf_counter() - started)\n"
)


def large_sweeps_section(jobs: int, variants: list[str]) -> list[Figure]:
    heading(
        f"#21 published exact Knuth sweeps of the large variants, every secret, {jobs} threads "
        "(GPU: mikemag/Mastermind's CUDA solver, RTX 4090)"
    )
    figures = []
    for target in LARGE_SWEEPS:
        name = "{}x{}".format(*target.variant)
        if name not in variants:
            continue
        space = space_of(target.variant)
        load = os.getloadavg()[0]
        result = simulate(space, "knuth", space.parse(target.first), jobs=jobs)
        ratio = result.seconds / target.gpu_seconds
        print(
            f"{name} opening {target.first}, {space.size:,} codes: average "
            f"{result.average:.4f} (published {target.average}), worst {result.worst} "
            f"(published {target.worst}), total {result.total:,}; {result.seconds:.1f} s "
            f"(GPU {target.gpu_seconds} s, {ratio:,.0f}x), load {load:.1f} at start"
        )
        same = (round(result.average, 4), result.worst) == (target.average, target.worst)
        figures.append(
            Figure(
                f"{name} knuth sweep = published", f"{result.average:.4f} / {result.worst}",
                f"= {target.average} / {target.worst}", verdict(same),
            )
        )  # fmt: skip
        if target.seconds is not None:
            figures.append(
                Figure(
                    f"{name} knuth sweep ({jobs} threads)",
                    f"{result.seconds:.1f} s (GPU {target.gpu_seconds} s)",
                    f"<= {target.seconds:.0f} s",
                    verdict(result.seconds <= target.seconds),
                )
            )
    return figures


def large_moves_section(games: int, seed: int) -> list[Figure]:
    heading(
        "#21 every move of seeded knuth games of each variant above 100,000 codes, one core, "
        "default limits (book, then exact where it fits the budget, else approximate)"
    )
    figures = []
    for space in book.variants():
        rng = np.random.default_rng(seed)
        play_timed(Solver(space, "knuth"), space.code_at(int(rng.integers(space.size))))
        records, approximate = [], 0
        for game in range(games):
            solver = Solver(space, "knuth", seed=game)
            secret = space.code_at(int(rng.integers(space.size)))
            history: History = []
            while not history or history[-1][1][0] < space.pegs:
                started = time.perf_counter()
                move = solver.next_move(history)
                records.append((time.perf_counter() - started, len(history) + 1, move))
                approximate += not move.exact
                history = [*history, (move.guess, score(move.guess, secret))]
        times = [seconds for seconds, _, _ in records]
        p99 = percentile(times, 99)
        slowest, number, move = max(records, key=lambda r: r[0])
        name = book.variant_name(space)
        print(
            f"{name} ({space.size:,} codes), {games} games, {len(times)} moves: p50 "
            f"{fmt_seconds(percentile(times, 50))}, p99 {fmt_seconds(p99)}, max "
            f"{fmt_seconds(slowest)} (move {number}, {move.remaining} left, "
            f"{'exact' if move.exact else 'approximate'}); {approximate} approximate"
        )
        figures.append(
            Figure(
                f"{name} move (p99; approximate moves)",
                f"{fmt_seconds(p99)}; {approximate}/{len(times)}",
                f"<= {fmt_seconds(LARGE_MOVE_P99_SECONDS)}",
                verdict(p99 <= LARGE_MOVE_P99_SECONDS),
            )
        )
    return figures


def games_7x7_section(seed: int) -> list[Figure]:
    heading("#21 five 7x7 knuth games, every move exact (no budget), one core")
    space = CodeSpace(7, 7)
    rng = np.random.default_rng(seed)
    play_timed(Solver(space, "knuth"), space.code_at(0))  # tables and the book, once
    exact = SearchLimits(exact_seconds=None)
    started = time.perf_counter()
    moves = []
    for game in range(5):
        solver = Solver(space, "knuth", seed=game, limits=exact)
        moves.append(len(play_timed(solver, space.code_at(int(rng.integers(space.size))))))
    seconds = time.perf_counter() - started
    print(f"guesses per game {moves}: {seconds:.1f} s in all")
    return [
        Figure(
            "five exact 7x7 knuth games",
            f"{seconds:.1f} s",
            f"<= {GAMES_7X7_SECONDS:.0f} s",
            verdict(seconds <= GAMES_7X7_SECONDS),
        )
    ]


def large_memory_section(games: int, moves: int, seed: int) -> list[Figure]:
    heading(
        f"#21 7x7 peak memory: the first {moves} moves of {games} knuth game(s), every move "
        "exact (no budget), fresh process warmed up as a worker"
    )
    child = run_child(
        "approx", "--pegs", "7", "--colours", "7", "--games", str(games), "--moves", str(moves),
        "--cap", "600", "--seed", str(seed), "--exact",
    )  # fmt: skip
    detail = ", ".join(
        f"#{r['move']} {fmt_seconds(r['seconds'])} ({r['left']} left"
        f"{'' if r['exact'] else ', approximate'})"
        for r in child["moves"]
    )
    print(f"7x7 ({child['size']:,} codes): {detail}; peak RSS {child['peak_mb']:.0f} MB")
    return [
        Figure(
            "7x7 game peak RSS",
            f"{child['peak_mb']:.0f} MB ({len(child['moves'])} moves)",
            f"<= {MOVE_7X7_PEAK_MB:.0f} MB",
            verdict(child["peak_mb"] <= MOVE_7X7_PEAK_MB),
        )
    ]


# --- main ------------------------------------------------------------------------------------


def summary(figures: list[Figure]) -> None:
    heading("summary")
    width = max(len(f.name) for f in figures)
    measured = max(len(f.measured) for f in figures)
    target = max(len(f.target) for f in figures)
    print(f"{'figure':<{width}}  {'measured':<{measured}}  {'target':<{target}}  status")
    for f in figures:
        print(f"{f.name:<{width}}  {f.measured:<{measured}}  {f.target:<{target}}  {f.status}")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="no 5x8/6x6 sweeps or compile run, smaller samples"
    )
    parser.add_argument("--jobs", type=int, help="threads for the parallel sweeps (every core)")
    parser.add_argument("--check", action="store_true", help="exit 1 if any target fails")
    parser.add_argument("--baseline-secrets", type=int, help="baseline games to time (12; quick 4)")
    parser.add_argument("--baseline-full", action="store_true", help="baseline on all 1296 (slow)")
    parser.add_argument(
        "--games-5x8", type=int, help="5x8 games to time move by move (40; quick 10)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for every random sample")
    parser.add_argument(
        "--large",
        nargs="*",
        metavar="PxC",
        help="#21: five exact 7x7 games and the published sweeps of these variants (7x6 6x8 "
        "8x5 7x7; minutes to an hour each on 2 cores)",
    )
    parser.add_argument("--child", choices=["memory", "approx"], help=argparse.SUPPRESS)
    parser.add_argument("--pegs", type=int, default=6, help=argparse.SUPPRESS)
    parser.add_argument("--colours", type=int, default=10, help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=2, help=argparse.SUPPRESS)
    parser.add_argument("--moves", type=int, default=3, help=argparse.SUPPRESS)
    parser.add_argument("--cap", type=float, default=60.0, help=argparse.SUPPRESS)
    parser.add_argument("--exact", action="store_true", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        if args.child == "memory":
            result = child_memory_5x8(args.games_5x8 or 3, args.seed)
        else:
            result = child_approximate(
                args.pegs, args.colours, args.games, args.moves, args.cap, args.seed, args.exact
            )
        print(json.dumps(result))
        return 0

    quick = args.quick
    jobs = args.jobs or cpu_count()
    started = time.perf_counter()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"solver benchmark: python {platform.python_version()}, numpy {np.__version__}, "
        f"numba {numba_version()}, {os.cpu_count()} CPUs, load average {load}, "
        f"{'quick' if quick else 'default'} run, seed {args.seed}"
    )
    if os.getloadavg()[0] >= 0.5:
        print(
            "note: other processes are using the CPU (load average above); wall-clock figures "
            "may be inflated, so compare medians with mins and rerun on a quiet machine"
        )
    figures, sweep_median, sweep = sweeps_section(quick, jobs)
    figures += baseline_section(
        args.baseline_secrets or (4 if quick else 12),
        args.baseline_full,
        args.seed,
        sweep_median,
        sweep,
    )
    figures += strategies_section(1 if quick else 3)
    figures += moves_4x6(500 if quick else 800, args.seed)
    figures += moves_5x8(args.games_5x8 or (10 if quick else 40), args.seed)
    figures += exact_moves_section(3 if quick else 12, args.seed)
    figures += memory_section(3, args.seed)
    if not quick:
        figures += compile_section()
    figures += large_memory_section(1, 3 if quick else 5, args.seed)
    figures += large_moves_section(1 if quick else 3, args.seed)
    if args.large:
        figures += games_7x7_section(args.seed)
        figures += large_sweeps_section(jobs, args.large)
    summary(figures)
    failed = [f.name for f in figures if f.failed]
    print(
        f"\n{len(failed)} target(s) failed{': ' + ', '.join(failed) if failed else ''}; "
        f"run took {time.perf_counter() - started:.0f} s"
    )
    return 1 if failed and args.check else 0


def numba_version() -> str:
    from importlib.metadata import version

    return version("numba")


if __name__ == "__main__":
    sys.exit(main())
