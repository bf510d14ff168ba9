"""Solver work for a worker process: typed plain values in, typed plain values out.

The bot sends these functions to its worker processes, so their arguments and results are the
frozen dataclasses of `job_types` (and ints, tuples, lists). A worker keeps one search context
per variant (scoring tables, symmetry caches) in a cache bounded by bytes, shared by every
strategy and seed; solvers themselves are cheap and built per call, with the game's seed.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Sequence

from bot.engine import book, cache_dir, hints, review
from bot.engine.codes import CodeSpace
from bot.engine.job_types import (
    Hint,
    NextGuess,
    NoCodeLeft,
    ReviewedGuess,
    SearchSpec,
    SimulationBudget,
    SimulationResult,
    VariantSpec,
    WorkerMemory,
)
from bot.engine.search import SearchLimits, check_size
from bot.engine.simulate import TreeWalker, cpu_count, simulate
from bot.engine.solver import Contradiction, Solver, context_for, contexts

PlainHistory = Sequence[tuple[Sequence[int], int, int]]
"""(guess colours, black, white) per answered guess."""

KNUTH_FIGURE_LIMIT = 100_000
"""Up to this many codes a finished game is told how many guesses Knuth's algorithm needs.
Larger variants are searched exactly too (#21), but walking a whole game of one costs seconds
of a worker; whether a board should wait for that is the bot's call, not the engine's."""

SAMPLED_LIMIT = 100_000
"""Up to this many codes /mastermind simulate plays `sampled_games` random secrets; above it,
`approximate_games` (fewer: each game costs more, every move still exact)."""

FULL_SWEEP_LIMIT = 8192
"""Up to this many codes, /mastermind simulate plays every secret (well under a second, on
every core of the simulation worker)."""

CLASSIC = VariantSpec(4, 6, True)

_knuth_walkers: dict[tuple[int, int, bool], TreeWalker] = {}
"""Knuth's decision tree per variant, kept while its context is cached (never a second copy
of a variant's tables)."""


def warm_up() -> int:
    """Load the compiled search (compiled on the first run after an install, then read from
    numba's disk cache: about a second) and build the default variant's tables, so no player
    waits for either; returns the pid."""
    _solver(CLASSIC, "knuth").next_move([])
    _knuth_walker(CLASSIC).play(0)
    _load_sweep()
    _solver(CLASSIC, "knuth").context.warm_approximate()
    book.load()  # the opening book's 1,170 positions, parsed once (0.1 s)
    return os.getpid()


def _load_sweep() -> None:
    """Load the compiled sweep (or compile it, on the first run after an install)."""
    simulate(CodeSpace(2, 3), "knuth")


@functools.cache
def _sweep_ready() -> None:
    """Once per worker: a simulation worker starts with its first job, not with the bot, so
    that job loads the sweep under the compile lock, and one asked for during an install's
    first compile waits for it rather than compiling a second time beside it."""
    cache_dir.warmed_alone(_load_sweep)


DEFAULT_SEARCH = SearchSpec()


def _solver(variant: VariantSpec, strategy: str, search: SearchSpec = DEFAULT_SEARCH) -> Solver:
    space = context_for(*variant.key).space
    limits = SearchLimits(time_budget=search.time_budget)
    return Solver(space, strategy, seed=search.seed, limits=limits)


def _knuth_walker(variant: VariantSpec) -> TreeWalker:
    context = context_for(*variant.key)
    for key in [k for k, w in _knuth_walkers.items() if not contexts.holds(w.context)]:
        del _knuth_walkers[key]
    walker = _knuth_walkers.get(variant.key)
    if walker is None:
        walker = _knuth_walkers[variant.key] = TreeWalker(Solver(context.space, "knuth"))
    return walker


def _plain(history: PlainHistory) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    return [(tuple(guess), (black, white)) for guess, black, white in history]


def next_move(
    variant: VariantSpec, strategy: str, history: PlainHistory, search: SearchSpec = DEFAULT_SEARCH
) -> NextGuess | NoCodeLeft:
    """The next guess, or which answer left no code."""
    solver = _solver(variant, strategy, search)
    try:
        move = solver.next_move(_plain(history))
    except Contradiction as error:
        return NoCodeLeft(index=error.index, message=str(error))
    return NextGuess(guess=tuple(move.guess), remaining=move.remaining, exact=move.exact)


def knuth_guesses(variant: VariantSpec, secret: Sequence[int]) -> int | None:
    """How many guesses Knuth's algorithm needs for `secret`; None where it can't run exactly
    (checked before any table of the variant is built)."""
    if variant.size > KNUTH_FIGURE_LIMIT:
        return None
    walker = _knuth_walker(variant)
    return walker.play(walker.space.index_of(tuple(secret)))


def remaining(variant: VariantSpec, history: PlainHistory) -> int | None:
    """How many codes fit the answers so far; None when none does."""
    try:
        return len(_solver(variant, "knuth").candidates(_plain(history)))
    except Contradiction:
        return None


def review_guess(
    variant: VariantSpec, history: PlainHistory, number: int, search: SearchSpec = DEFAULT_SEARCH
) -> ReviewedGuess:
    """Guess `number` (1-based) of a finished game reviewed: one job per guess, so a review
    never holds a move worker longer than a move does (its time budget bounds the approximate
    search; the exact one stays within it on its own, see benchmarks/review.py)."""
    deadline = time.perf_counter() + search.time_budget
    solver = review.reviewer(context_for(*variant.key).space, search.seed)
    row, _ = review.review_guess(solver, _plain(history), number, deadline=deadline)
    return row


def hint(
    variant: VariantSpec,
    history: PlainHistory,
    level: int,
    hard: bool = False,
    search: SearchSpec = DEFAULT_SEARCH,
) -> Hint:
    """A play game's hint (see `bot.engine.hints`): the codes left, and at level 2 a guess."""
    space = context_for(*variant.key).space
    seed, budget = search.seed, search.time_budget
    return hints.hint(space, _plain(history), level, hard=hard, seed=seed, time_budget=budget)


def simulation(
    variant: VariantSpec, strategy: str, budget: SimulationBudget, seed: int = 0
) -> SimulationResult:
    """A simulate run within `budget`: every secret of small variants, a sample of big ones."""
    _sweep_ready()
    space = context_for(*variant.key).space
    check_size(space)
    if space.size <= FULL_SWEEP_LIMIT:
        games = None
    elif space.size <= SAMPLED_LIMIT:
        games = budget.sampled_games
    else:
        games = budget.approximate_games
    limits = SearchLimits(time_budget=budget.move_seconds)
    result = simulate(
        space,
        strategy,
        games=games,
        seed=seed,
        limits=limits,
        budget=budget.seconds,
        jobs=cpu_count(),
    )
    return SimulationResult(
        pegs=result.pegs,
        colours=result.colours,
        duplicates=result.duplicates,
        strategy=result.strategy,
        first_guess=result.first_guess,
        distribution=tuple(sorted(result.distribution.items())),
        planned=result.planned,
        all_secrets=result.all_secrets,
        seconds=result.seconds,
        note=result.note,
    )


def memory() -> WorkerMemory:
    """This worker's resident and peak memory (Linux; zeros elsewhere)."""
    fields = {"VmRSS": 0.0, "VmHWM": 0.0}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in fields:
                    fields[name] = int(value.split()[0]) / 1024
    except OSError:
        pass
    return WorkerMemory(pid=os.getpid(), rss_mb=fields["VmRSS"], peak_mb=fields["VmHWM"])
