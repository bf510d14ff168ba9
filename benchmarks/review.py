"""The post-game review's speed: every guess of a 5x8 review within a move's time budget.

    python benchmarks/review.py [--quick] [--check] [--games N] [--seed S]

A review is worked out one guess per worker job (`bot.engine.jobs.review_guess`, what
`SolverPool.review` sends), so the figure that matters is the time of one such job beside the
per-move budget the bot gives its solver (`SOLVER_TIME_BUDGET`, default 2 s). Games are played
the way players play, not the way Knuth does: seeded games whose guesses are random codes that
fit every answer so far (a careful player), or random codes for the first two guesses and then
fitting ones (a careless start), so the review meets positions Knuth's own games never reach.

The baseline, timed in the same run on the same positions, is a plain NumPy review: the codes
still possible by filtering every code, and Knuth's guess by scoring every code against them
(minimax, a code that could win first, then the lowest), with no symmetry and no early stop.
It must pick the same guess as the engine on every position it times.

Exit status: 0, or 1 with `--check` when a target fails.
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import os
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

if __package__ in (None, ""):  # run as `python benchmarks/review.py`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import Settings
from bot.engine import jobs
from bot.engine.codes import Code, CodeSpace
from bot.engine.job_types import SearchSpec, VariantSpec
from bot.engine.scoring import score, score_against
from bot.solver_pool import SolverPool

VARIANT = VariantSpec(5, 8, True)
MAX_GUESSES = 10
BASELINE_LIMIT = 800
"""The baseline times positions with up to this many codes left (it scores every one of the
32,768 codes against them: about a second each)."""


def move_budget() -> float:
    """The bot's per-move solver budget: the settings' default, which the pool also uses."""
    default = next(
        f.default for f in dataclasses.fields(Settings) if f.name == "solver_time_budget"
    )
    pool = inspect.signature(SolverPool).parameters["time_budget"].default
    assert default == pool, (default, pool)
    return float(default)


@dataclasses.dataclass(frozen=True)
class Figure:
    name: str
    measured: str
    target: str
    status: str  # PASS, FAIL or info

    @property
    def failed(self) -> bool:
        return self.status == "FAIL"


def fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.1f} ms" if seconds < 1.0 else f"{seconds:.2f} s"


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest rank from above: a time actually observed."""
    return float(np.percentile(np.asarray(values), q, method="higher"))


# --- games as players play them ---------------------------------------------------------------


def player_game(space: CodeSpace, rng: np.random.Generator, careless: int) -> list:
    """A seeded game: `careless` random first guesses, then random codes that fit; stops when
    the secret is found or the guesses run out."""
    codes = space.codes
    secret: Code = space.code_at(int(rng.integers(space.size)))
    history: list = []
    fitting = np.arange(space.size)
    while len(history) < MAX_GUESSES:
        if len(history) < careless:
            guess = space.code_at(int(rng.integers(space.size)))
        else:
            guess = space.code_at(int(rng.choice(fitting)))
        answer = score(guess, secret)
        history.append((guess, answer))
        found = score_against(space, guess, codes[fitting]).astype(np.int64)
        fitting = fitting[found == answer[0] * space.pegs + answer[0] + answer[1]]
        if answer[0] == space.pegs:
            break
    return history


# --- the baseline -------------------------------------------------------------------------------


def answers(space: CodeSpace, guesses: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """(len(guesses), len(codes)) answer numbers, black * (pegs + 1) + white, in NumPy."""
    black = (guesses[:, None, :] == codes[None, :, :]).sum(axis=2)
    gc = np.stack([(guesses == c).sum(axis=1) for c in range(space.colours)], axis=1)
    cc = np.stack([(codes == c).sum(axis=1) for c in range(space.colours)], axis=1)
    hits = np.minimum(gc[:, None, :], cc[None, :, :]).sum(axis=2)
    return black * (space.pegs + 1) + (hits - black)


def baseline_row(space: CodeSpace, history: list, number: int) -> tuple[int, Code]:
    """(codes possible before guess `number`, Knuth's guess there), the plain way."""
    codes = space.codes.astype(np.int64)
    alive = np.ones(space.size, dtype=bool)
    for guess, (black, white) in history[: number - 1]:
        found = answers(space, np.asarray([guess]), codes)[0]
        alive &= found == black * (space.pegs + 1) + white
    candidates = codes[alive]
    is_candidate = alive
    worst = np.empty(space.size, dtype=np.int64)
    width = (space.pegs + 1) ** 2
    for start in range(0, space.size, 512):
        block = answers(space, codes[start : start + 512], candidates)
        offsets = np.arange(len(block))[:, None] * width
        counts = np.bincount((block + offsets).ravel(), minlength=len(block) * width)
        worst[start : start + 512] = counts.reshape(len(block), width).max(axis=1)
    best = worst.min()
    ties = np.flatnonzero(worst == best)
    preferred = ties[is_candidate[ties]]
    choice = int(preferred[0] if len(preferred) else ties[0])
    return int(alive.sum()), space.code_at(choice)


# --- the run ------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and baseline rows")
    parser.add_argument("--check", action="store_true", help="exit 1 if a target fails")
    parser.add_argument("--games", type=int, help="games reviewed (default 30; quick 8)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    games = args.games or (8 if args.quick else 30)
    baseline_rows = 4 if args.quick else 12
    budget = move_budget()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"review benchmark: python {platform.python_version()}, numpy {np.__version__}, "
        f"{os.cpu_count()} CPUs, load average {load}, {games} games of 5x8, seed {args.seed}"
    )
    space = CodeSpace(*VARIANT.key)
    started = time.perf_counter()
    jobs.warm_up()
    cold = time.perf_counter()
    jobs.review_guess(VARIANT, [((0, 0, 1, 1, 2), 1, 1)], 1)  # builds the 5x8 tables
    first = time.perf_counter() - cold
    print(f"warm-up {fmt(cold - started)}; first 5x8 job (tables built) {fmt(first)}")

    rng = np.random.default_rng(args.seed)
    timings: list[tuple[float, int, int, list, int]] = []  # seconds, before, game, history, n
    for game in range(games):
        history = player_game(space, rng, careless=2 if game % 2 else 0)
        plain = [(list(g), b, w) for g, (b, w) in history]
        for number in range(1, len(history) + 1):
            began = time.perf_counter()
            row = jobs.review_guess(VARIANT, plain, number, SearchSpec(game, budget))
            timings.append((time.perf_counter() - began, row.before, game, history, number))
    seconds = [t for t, *_ in timings]
    slowest = max(timings, key=lambda t: t[0])
    p50, p99, worst = percentile(seconds, 50), percentile(seconds, 99), max(seconds)
    print(f"\n{len(seconds)} review jobs (one per guess) in {games} games")
    print(f"p50 {fmt(p50)}  p99 {fmt(p99)}  max {fmt(worst)}  (budget {fmt(budget)} per move)")
    print(f"slowest: guess {slowest[4]} of game {slowest[2]}, {slowest[1]:,} codes possible")
    whole = max(sum(t for t, _, g, _, _ in timings if g == game) for game in range(games))
    print(f"longest whole review: {fmt(whole)} (its guesses are separate jobs)")

    # The baseline on positions it can afford, the engine timed on the same ones.
    small = [t for t in timings if t[4] > 1 and t[1] <= BASELINE_LIMIT and t[1] > 2]
    small.sort(key=lambda t: -t[1])
    chosen = small[:: max(1, len(small) // baseline_rows)][:baseline_rows]
    base_total = engine_total = 0.0
    agree = True
    print(f"\nbaseline on {len(chosen)} positions (codes possible: engine job / baseline)")
    for _, before, game, history, number in chosen:
        plain = [(list(g), b, w) for g, (b, w) in history]
        began = time.perf_counter()
        row = jobs.review_guess(VARIANT, plain, number, SearchSpec(game, budget))
        engine = time.perf_counter() - began
        began = time.perf_counter()
        count, guess = baseline_row(space, history, number)
        base = time.perf_counter() - began
        same = count == row.before and guess == row.knuth_guess
        agree &= same
        base_total += base
        engine_total += engine
        print(
            f"  {before:>5,} codes  {fmt(engine):>9} / {fmt(base):>9}  "
            f"{'same guess' if same else f'DIFFERENT: {row.knuth_guess} vs {guess}'}"
        )
    ratio = base_total / engine_total if engine_total else 0.0
    print(f"ratio baseline / engine on the same positions: {ratio:,.0f}x")

    figures = [
        Figure("5x8 review job p50", fmt(p50), "(info)", "info"),
        Figure("5x8 review job p99", fmt(p99), f"<= {fmt(budget)}", verdict(p99 <= budget)),
        Figure("5x8 review job max", fmt(worst), f"<= {fmt(budget)}", verdict(worst <= budget)),
        Figure("longest whole review", fmt(whole), "(info: separate jobs)", "info"),
        Figure("baseline ratio", f"{ratio:,.0f}x", "(info)", "info"),
        Figure("baseline agreement", "all" if agree else "NOT all", "all", verdict(agree)),
    ]
    print("\n== summary ==")
    width = max(len(f.name) for f in figures)
    measured = max(len(f.measured) for f in figures)
    target = max(len(f.target) for f in figures)
    print(f"{'figure':<{width}}  {'measured':<{measured}}  {'target':<{target}}  status")
    for f in figures:
        print(f"{f.name:<{width}}  {f.measured:<{measured}}  {f.target:<{target}}  {f.status}")
    failed = [f.name for f in figures if f.failed]
    print(f"\n{len(failed)} target(s) failed; run took {time.perf_counter() - started:.0f} s")
    return 1 if failed and args.check else 0


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


if __name__ == "__main__":
    raise SystemExit(main())
