"""Solver speed and memory, measured against the issue's targets and a pure-Python baseline.

    python benchmarks/solver.py [--quick] [--check] [--baseline-secrets N] [--baseline-full]
                                [--games-5x8 N] [--seed S]

This prints figures; it is not a timed test (timings on a shared 2-core machine are noisy, so
nothing in the test suite asserts them). The baseline is `benchmarks/baseline_knuth.py`, the
plain list-and-loop Knuth solver of the seed documents, timed in the same run so the ratio does
not depend on the machine. Memory is measured in fresh subprocesses, because a peak RSS is a
high-water mark that an earlier measurement in the same process would hide (see `maxrss_mb`).

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
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.engine.codes import Code, CodeSpace
from bot.engine.scoring import score
from bot.engine.simulate import Simulation, simulate
from bot.engine.solver import Contradiction, History, Solver, context_for, solve_secret
from bot.engine.strategies import STRATEGIES

try:
    from benchmarks import baseline_knuth
except ImportError:  # run as `python benchmarks/solver.py`: this folder is on sys.path
    import baseline_knuth  # type: ignore[no-redef]

SCRIPT = Path(__file__).resolve()

# The targets, on the project's 2-core machine, warm.
SWEEP_4X6_SECONDS = 0.02
BASELINE_RATIO = 1000.0
MOVE_4X6_P99_SECONDS = 0.002
MOVE_5X8_P99_SECONDS = 0.5
SWEEP_5X8_SECONDS = 30.0
GAME_5X8_PEAK_MB = 300.0
APPROX_BUDGET_SECONDS = 2.0  # SearchLimits' default budget; a figure to watch, not an issue target

# Published 4 x 6 all-secrets figures (total guesses, worst case) with each strategy's opening.
PUBLISHED = {
    "knuth": (5801, 5),
    "expected-size": (5696, 6),
    "entropy": (5722, 6),
    "most-parts": (5668, 6),
}

CLASSIC = (4, 6, True)
BIG = (5, 8, True)
KNUTH_FIRST = "1122"
BIG_FIRST = "11223"


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
    space: CodeSpace, strategy: str = "knuth", first: Code | None = None
) -> Simulation:
    """All secrets as one decision tree (the engine's fast path)."""
    return simulate(space, strategy, first)


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


def sweep_4x6(runs: int) -> tuple[list[Figure], float, Simulation]:
    heading(f"4x6 knuth, all 1296 secrets as one decision tree (first {KNUTH_FIRST})")
    space = space_of(CLASSIC)
    first = space.parse(KNUTH_FIRST)
    engine_sweep(space, "knuth", first)  # warm: scoring table, canonical guess sets
    gc.collect()
    times, cpu, result = [], [], None
    for _ in range(runs):
        cpu_started = time.process_time()
        result = engine_sweep(space, "knuth", first)
        cpu.append(time.process_time() - cpu_started)
        times.append(result.seconds)
    assert result is not None
    median = statistics.median(times)
    print(
        f"{runs} warm runs: min {fmt_seconds(min(times))}, median {fmt_seconds(median)}, "
        f"max {fmt_seconds(max(times))} (wall clock; CPU time median "
        f"{fmt_seconds(statistics.median(cpu))}: a wall median well above it means other "
        "processes took the CPU)"
    )
    print(
        f"total {result.total}, average {result.average:.4f}, worst {result.worst}, "
        f"games per guess count {result.counts()}"
    )
    figure = Figure(
        "4x6 knuth sweep, warm (median)",
        f"{fmt_seconds(median)} (min {fmt_seconds(min(times))})",
        f"<= {fmt_seconds(SWEEP_4X6_SECONDS)}",
        verdict(median <= SWEEP_4X6_SECONDS),
    )
    return [figure], median, result


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
    for name in STRATEGIES:
        engine_sweep(space, name)  # warm
        results = [engine_sweep(space, name) for _ in range(runs)]
        result = results[-1]
        seconds = statistics.median(r.seconds for r in results)
        published = PUBLISHED.get(name)
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
            "all 4 match" if all_match else "mismatch",
            "knuth/expected/entropy/most-parts",
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

    def timed(clear_symmetry_cache: bool) -> list[float]:
        context = context_for(*space.key)
        cache = getattr(context, "_canonical", None)
        gc.collect()
        times = []
        for history in positions:
            solver = Solver(space, "knuth", first_guess=first)
            if clear_symmetry_cache and cache is not None:
                cache.clear()
            started = time.perf_counter()
            solver.next_move(history)
            times.append(time.perf_counter() - started)
        return times

    times = timed(False)
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
    cold = timed(True)
    print(
        f"with the canonical-guess (symmetry) cache also cleared before every move: "
        f"p50 {fmt_seconds(percentile(cold, 50))}, p99 {fmt_seconds(percentile(cold, 99))}, "
        f"max {fmt_seconds(max(cold))}"
    )
    return [
        Figure(
            "4x6 move, no memo (p99)",
            f"{fmt_seconds(p99)} (p50 {fmt_seconds(p50)}, max {fmt_seconds(max(times))}, "
            f"n={len(times)})",
            f"<= {fmt_seconds(MOVE_4X6_P99_SECONDS)}",
            verdict(p99 <= MOVE_4X6_P99_SECONDS),
        ),
        Figure(
            "  same, symmetry cache cleared (p99)",
            f"{fmt_seconds(percentile(cold, 99))}",
            "(info)",
            "info",
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


def child_sweep_5x8() -> dict:
    """The 5x8 sweep once, after building the tables (timed apart), with the peak RSS."""
    imported = maxrss_mb()
    space = space_of(BIG)
    first = space.parse(BIG_FIRST)
    started = time.perf_counter()
    Solver(space, "knuth", first_guess=first).next_move([(first, (0, 0))])
    build = time.perf_counter() - started
    result = engine_sweep(space, "knuth", first)
    return {
        "imported_mb": imported,
        "build_seconds": build,
        "seconds": result.seconds,
        "total": result.total,
        "worst": result.worst,
        "average": result.average,
        "counts": result.counts(),
        "peak_mb": maxrss_mb(),
    }


def child_approximate(
    pegs: int, colours: int, games: int, moves: int, cap: float, seed: int
) -> dict:
    """The first `moves` moves of a few seeded games in a space searched approximately."""
    space = CodeSpace(pegs, colours)
    rng = np.random.default_rng(seed)
    started = time.perf_counter()
    records = []
    for game in range(games):
        secret = space.code_at(int(rng.integers(space.size)))
        solver = Solver(space, "knuth", seed=game)
        history: list = []
        for number in range(1, moves + 1):
            if records and time.perf_counter() - started > cap:
                break
            move_started = time.perf_counter()
            move = solver.next_move(history)
            elapsed = time.perf_counter() - move_started
            records.append(
                {"game": game, "move": number, "seconds": elapsed, "left": move.remaining}
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


def sweep_5x8_section() -> list[Figure]:
    heading(f"5x8 knuth, all 32768 secrets as one decision tree (first {BIG_FIRST}, subprocess)")
    child = run_child("sweep")
    print(
        f"table build (first search, excluded): {child['build_seconds']:.2f} s; sweep "
        f"{child['seconds']:.2f} s; total {child['total']}, average {child['average']:.4f}, "
        f"worst {child['worst']}, games per guess count {child['counts']}"
    )
    print(
        f"peak RSS of the sweep process: {child['peak_mb']:.0f} MB "
        f"(imports {child['imported_mb']:.0f} MB)"
    )
    return [
        Figure(
            "5x8 knuth sweep, once",
            f"{child['seconds']:.2f} s (total {child['total']}, worst {child['worst']})",
            f"<= {SWEEP_5X8_SECONDS:.0f} s",
            verdict(child["seconds"] <= SWEEP_5X8_SECONDS),
        ),
        Figure("5x8 sweep peak RSS", f"{child['peak_mb']:.0f} MB", "(info)", "info"),
    ]


def approximate_section(
    variants: list[tuple[int, int]], games: int, moves: int, cap: float, seed: int
) -> list[Figure]:
    heading(
        f"approximate search (> 50,000 codes), default {APPROX_BUDGET_SECONDS:.0f} s budget, "
        f"first {moves} moves of up to {games} games (stop after ~{cap:.0f} s), subprocess each"
    )
    figures = []
    for pegs, colours in variants:
        child = run_child(
            "approx", "--pegs", str(pegs), "--colours", str(colours), "--games", str(games),
            "--moves", str(moves), "--cap", str(cap), "--seed", str(seed),
        )  # fmt: skip
        records = child["moves"]
        searched = [r for r in records if r["move"] > 1] or records
        worst = max(searched, key=lambda r: r["seconds"])
        detail = ", ".join(
            f"g{r['game']}#{r['move']} {fmt_seconds(r['seconds'])} ({r['left']} left)"
            for r in records
        )
        print(
            f"{pegs}x{colours} ({child['size']:,} codes): {detail}; "
            f"peak RSS {child['peak_mb']:.0f} MB"
        )
        figures.append(
            Figure(
                f"{pegs}x{colours} approximate move (max)",
                f"{fmt_seconds(worst['seconds'])} (move {worst['move']}, n={len(records)}, "
                f"peak {child['peak_mb']:.0f} MB)",
                f"~{APPROX_BUDGET_SECONDS:.0f} s budget (info)",
                "info" if worst["seconds"] <= APPROX_BUDGET_SECONDS * 1.25 else "WARN",
            )
        )
    return figures


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
    parser.add_argument("--quick", action="store_true", help="skip the 5x8 sweep, smaller samples")
    parser.add_argument("--check", action="store_true", help="exit 1 if any target fails")
    parser.add_argument("--baseline-secrets", type=int, help="baseline games to time (12; quick 4)")
    parser.add_argument("--baseline-full", action="store_true", help="baseline on all 1296 (slow)")
    parser.add_argument(
        "--games-5x8", type=int, help="5x8 games to time move by move (40; quick 10)"
    )
    parser.add_argument("--seed", type=int, default=0, help="seed for every random sample")
    parser.add_argument("--child", choices=["memory", "sweep", "approx"], help=argparse.SUPPRESS)
    parser.add_argument("--pegs", type=int, default=6, help=argparse.SUPPRESS)
    parser.add_argument("--colours", type=int, default=10, help=argparse.SUPPRESS)
    parser.add_argument("--games", type=int, default=2, help=argparse.SUPPRESS)
    parser.add_argument("--moves", type=int, default=3, help=argparse.SUPPRESS)
    parser.add_argument("--cap", type=float, default=60.0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        if args.child == "memory":
            result = child_memory_5x8(args.games_5x8 or 3, args.seed)
        elif args.child == "sweep":
            result = child_sweep_5x8()
        else:
            result = child_approximate(
                args.pegs, args.colours, args.games, args.moves, args.cap, args.seed
            )
        print(json.dumps(result))
        return 0

    quick = args.quick
    started = time.perf_counter()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"solver benchmark: python {platform.python_version()}, numpy {np.__version__}, "
        f"{os.cpu_count()} CPUs, load average {load}, {'quick' if quick else 'default'} run, "
        f"seed {args.seed}"
    )
    if os.getloadavg()[0] >= 0.5:
        print(
            "note: other processes are using the CPU (load average above); wall-clock figures "
            "may be inflated, so compare medians with mins and rerun on a quiet machine"
        )
    figures, sweep_median, sweep = sweep_4x6(10 if quick else 20)
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
    figures += memory_section(3, args.seed)
    if not quick:
        figures += sweep_5x8_section()
    variants = [(7, 7)] if quick else [(7, 7), (6, 10)]
    figures += approximate_section(
        variants, 1 if quick else 2, 2 if quick else 3, 10 if quick else 60, args.seed
    )
    summary(figures)
    failed = [f.name for f in figures if f.failed]
    print(
        f"\n{len(failed)} target(s) failed{': ' + ', '.join(failed) if failed else ''}; "
        f"run took {time.perf_counter() - started:.0f} s"
    )
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
