"""Play every secret (or N random ones) with a strategy and summarise the guess counts.

Seed 003's MastermindAll and MastermindAuto. A deterministic strategy plays all secrets as one
decision tree: secrets that got the same answers so far share a candidate set and therefore the
same next guess, so each node of the tree is searched once, not once per secret. Random
strategies seed their choices from the history, so the tree is shared for them too.

    python -m bot.engine.simulate --pegs 4 --colours 6 --strategy knuth [--first 1122]
                                  [--games N --seed S] [--no-duplicates]
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from bot.engine.codes import Code, CodeError, CodeSpace
from bot.engine.search import SearchLimits, TooLarge, colour_mask, symmetries
from bot.engine.solver import IndexHistory, Solver
from bot.engine.strategies import STRATEGIES, get_strategy


def cpu_count() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


PARALLEL_FROM = 2048
"""Smaller sweeps take a few ms: threads would cost more than they save."""

MAX_DEPTH = 40
"""A guard against a strategy that stops making progress; none of ours gets near it."""


@dataclass
class Simulation:
    """How many guesses each secret took."""

    pegs: int
    colours: int
    duplicates: bool
    strategy: str
    first_guess: str
    distribution: Counter[int] = field(default_factory=Counter)
    seconds: float = 0.0
    all_secrets: bool = True
    planned: int = 0
    """Games the run set out to play; more than `games` when a time budget cut it short."""
    note: str | None = None
    """Why the strategy played differently than its name says (`Solver.note`), if it did."""

    @property
    def games(self) -> int:
        return sum(self.distribution.values())

    @property
    def cut_short(self) -> bool:
        return self.games < self.planned

    @property
    def total(self) -> int:
        return sum(guesses * games for guesses, games in self.distribution.items())

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0

    @property
    def worst(self) -> int:
        return max(self.distribution, default=0)

    def counts(self) -> list[int]:
        """Games solved in 1, 2, ... worst guesses."""
        return [self.distribution.get(k, 0) for k in range(1, self.worst + 1)]


class TreeWalker:
    """Walks a solver's decision tree; every node's guess is computed once."""

    def __init__(self, solver: Solver) -> None:
        self.solver = solver
        self.space = solver.space
        self.context = solver.context
        self.scorer = solver.context.scorer
        self.win = solver.context.win
        self.first = solver.space.index_of(solver.first_guess())
        self._memo: dict[IndexHistory, int] = {}

    @property
    def compiled(self) -> bool:
        """Whether a sweep runs wholly in compiled code: an exact search with a fixed rule."""
        strategy = self.solver.strategy
        return self.context.exact and not strategy.is_random and self.solver.tree is None

    def guess_at(self, candidates: np.ndarray, history: IndexHistory, used: int) -> int:
        """The guess the solver makes at this node (same rule as `Solver.next_move`)."""
        if not history:
            return self.first
        cached = self._memo.get(history)
        if cached is None:
            cached = self._memo[history] = self.solver.choose(candidates, history, used)
        return cached

    def sweep(self, jobs: int = 1) -> Counter[int]:
        """Guess counts for every secret; `jobs` threads share the work of a compiled sweep."""
        if self.compiled:
            return sweep_compiled(self.solver, self.first, jobs)
        distribution: Counter[int] = Counter()
        stack: list[tuple[np.ndarray, IndexHistory, int]] = [(np.arange(self.space.size), (), 0)]
        shortcut = not self.solver.strategy.is_random
        while stack:
            candidates, history, used = stack.pop()
            depth = len(history) + 1
            if depth > MAX_DEPTH:
                raise RuntimeError("the strategy stopped making progress")
            if shortcut and history and len(candidates) <= 2:
                distribution[depth] += 1  # the lowest candidate is guessed and may win
                if len(candidates) == 2:
                    distribution[depth + 1] += 1
                continue
            guess = self.guess_at(candidates, history, used)
            next_used = colour_mask([self.space.codes[guess]], used)
            for answer, group in split(self.scorer.against(guess, candidates), candidates):
                if answer == self.win:
                    distribution[depth] += 1
                else:
                    stack.append((group, (*history, (guess, answer)), next_used))
        return distribution

    def play(self, secret: int) -> int:
        """Guesses needed for one secret, reusing every node already searched."""
        candidates = np.arange(self.space.size)
        history: IndexHistory = ()
        used = 0
        for depth in range(1, MAX_DEPTH + 1):
            guess = self.guess_at(candidates, history, used)
            answer = int(self.scorer.against(guess, np.array([secret]))[0])
            if answer == self.win:
                return depth
            candidates = candidates[self.scorer.against(guess, candidates) == answer]
            history = (*history, (guess, answer))
            used = colour_mask([self.space.codes[guess]], used)
        raise RuntimeError("the strategy stopped making progress")


def split(feedback: np.ndarray, codes: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """The codes grouped by answer number, each group in its original order."""
    order = np.argsort(feedback, kind="stable")
    ordered = feedback[order]
    bounds = [0, *(np.flatnonzero(ordered[1:] != ordered[:-1]) + 1).tolist(), len(order)]
    return [
        (int(ordered[start]), codes[order[start:end]]) for start, end in itertools.pairwise(bounds)
    ]


def sweep_compiled(solver: Solver, first: int, jobs: int = 1) -> Counter[int]:
    """Every secret through the compiled tree walk (`kernels.sweep`), one subtree under the
    first guess at a time. With several jobs the subtrees go to threads, largest first (the
    kernel runs without the GIL, so they use as many cores)."""
    from bot.engine import kernels

    context, space = solver.context, solver.space
    rule = solver.strategy.rule
    assert rule is not None, "a random strategy has no compiled sweep"
    every = np.arange(space.size, dtype=np.int32)
    used = colour_mask([space.codes[first]])
    symmetry = symmetries(space, [space.codes[first]])
    groups = split(context.scorer.against(first, every), every)
    roots = sorted((g for a, g in groups if a != context.win), key=len, reverse=True)

    def run(part: list[np.ndarray]) -> np.ndarray:
        counts = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
        bounds = np.cumsum([0, *(len(root) for root in part)])
        if not kernels.sweep(
            context.scorer.tables, space.duplicates, context.answers_without_win, rule,
            context.plogp, np.concatenate(part), bounds, 2, used, symmetry, context.win, counts,
        ):  # fmt: skip
            raise RuntimeError("the strategy stopped making progress")
        return counts

    totals = np.zeros(MAX_DEPTH + 2, dtype=np.int64)
    totals[1] = 1  # the first guess itself was the secret
    if jobs <= 1 or len(roots) <= 1 or space.size < PARALLEL_FROM:
        totals += run(roots)
    else:
        with ThreadPoolExecutor(max_workers=jobs) as threads:
            for counts in threads.map(run, [[root] for root in roots]):
                totals += counts
    return Counter({depth: int(n) for depth, n in enumerate(totals) if n})


def simulate(
    space: CodeSpace,
    strategy: str,
    first_guess: Code | None = None,
    games: int | None = None,
    seed: int = 0,
    limits: SearchLimits | None = None,
    budget: float | None = None,
    jobs: int = 1,
) -> Simulation:
    """Play every secret, or `games` random ones (seeded), and time it.

    With `budget` (seconds of wall clock), random secrets stop being started once it has run
    out; the secrets are in random order, so the games played are still a random sample.
    A full sweep is not cut (it is only run on spaces small enough to sweep quickly).
    """
    solver = Solver(space, strategy, first_guess=first_guess, seed=seed, limits=limits)
    walker = TreeWalker(solver)
    started = time.perf_counter()
    if games is None or games >= space.size:
        distribution = walker.sweep(jobs)
        all_secrets = True
        planned = space.size
    else:
        rng = np.random.default_rng(seed)
        secrets = rng.choice(space.size, size=games, replace=False)
        distribution = Counter[int]()
        deadline = None if budget is None else started + budget
        for secret in secrets:
            if deadline is not None and time.perf_counter() > deadline:
                break
            distribution[walker.play(int(secret))] += 1
        all_secrets = False
        planned = games
    return Simulation(
        pegs=space.pegs,
        colours=space.colours,
        duplicates=space.duplicates,
        strategy=strategy,
        first_guess=space.digits(solver.first_guess()),
        distribution=distribution,
        seconds=time.perf_counter() - started,
        all_secrets=all_secrets,
        planned=planned,
        note=solver.note,
    )


def format_table(result: Simulation) -> str:
    """The summary as a plain-text table."""
    games = f"all {result.games}" if result.all_secrets else f"{result.games} random"
    if result.cut_short:
        games += f" (of {result.planned} planned: the time budget ran out)"
    lines = [
        f"{result.strategy} on {result.pegs} pegs x {result.colours} colours"
        f"{'' if result.duplicates else ' (no repeats)'}, first guess {result.first_guess}, "
        f"{games} secrets",
        "",
        "guesses  secrets",
    ]
    if result.note:
        lines[1:1] = [f"note: {result.note}"]
    lines += [f"{k:>7}  {n:>7}" for k, n in enumerate(result.counts(), start=1)]
    lines += [
        "",
        f"total    {result.total}",
        f"average  {result.average:.4f}",
        f"worst    {result.worst}",
        f"time     {result.seconds:.3f} s",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine.simulate", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--pegs", type=int, default=4)
    parser.add_argument("--colours", type=int, default=6)
    parser.add_argument("--no-duplicates", action="store_true", help="colours may not repeat")
    parser.add_argument("--strategy", default="knuth", choices=sorted(STRATEGIES))
    parser.add_argument("--first", help="first guess, e.g. 1122 (default: the strategy's own)")
    parser.add_argument("--games", type=int, help="play N random secrets instead of all")
    parser.add_argument("--seed", type=int, default=0, help="seed for random secrets/strategies")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds per guess, big spaces")
    parser.add_argument(
        "--jobs", type=int, default=1, help="threads for a sweep of every secret (0: every core)"
    )
    args = parser.parse_args(argv)
    try:
        space = CodeSpace(args.pegs, args.colours, not args.no_duplicates)
        get_strategy(args.strategy)
        first = space.parse(args.first) if args.first else None
        result = simulate(
            space,
            args.strategy,
            first,
            args.games,
            args.seed,
            SearchLimits(args.budget, exact_seconds=None),  # every move exact: a measurement
            jobs=args.jobs or cpu_count(),
        )
    except (CodeError, TooLarge, ValueError) as error:
        print(f"simulate: {error}", file=sys.stderr)
        return 2
    print(format_table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
