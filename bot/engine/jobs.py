"""Solver work for a worker process: plain data in, plain data out.

The bot sends these functions to a `ProcessPoolExecutor`, so their arguments and results are
ints, lists and dicts only. Each worker keeps its scoring tables and Knuth decision trees cached
across calls (`functools.lru_cache`), so only the first job of a variant pays for them.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache

from bot.engine.codes import CodeSpace
from bot.engine.search import EXACT_LIMIT, SearchLimits, check_size
from bot.engine.simulate import TreeWalker, simulate
from bot.engine.solver import Contradiction, Solver

PlainHistory = Sequence[tuple[Sequence[int], int, int]]
"""(guess colours, black, white) per answered guess."""

SAMPLED_SIMULATION_GAMES = 200
"""Variants too big to sweep quickly are simulated on this many random secrets."""

FULL_SWEEP_LIMIT = 8192
"""Up to this many codes, /mastermind simulate plays every secret."""


def warm_up(pegs: int = 4, colours: int = 6) -> int:
    """Build the default variant's tables so the first real request is fast; returns the pid."""
    _solver(pegs, colours, True, "knuth", 0, 2.0).next_move([])
    _knuth_walker(pegs, colours, True).play(0)
    return os.getpid()


@lru_cache(maxsize=32)
def _solver(
    pegs: int, colours: int, duplicates: bool, strategy: str, seed: int, budget: float
) -> Solver:
    space = CodeSpace(pegs, colours, duplicates)
    return Solver(space, strategy, seed=seed, limits=SearchLimits(time_budget=budget))


@lru_cache(maxsize=8)
def _knuth_walker(pegs: int, colours: int, duplicates: bool) -> TreeWalker:
    return TreeWalker(Solver(CodeSpace(pegs, colours, duplicates), "knuth"))


def next_move(
    pegs: int,
    colours: int,
    duplicates: bool,
    strategy: str,
    history: PlainHistory,
    seed: int = 0,
    time_budget: float = 2.0,
) -> dict:
    """The next guess, or which answer left no code: {"guess", "remaining"} or
    {"contradiction": index, "message"}."""
    solver = _solver(pegs, colours, duplicates, strategy, seed, time_budget)
    plain = [(tuple(guess), (black, white)) for guess, black, white in history]
    try:
        move = solver.next_move(plain)
    except Contradiction as error:
        return {"contradiction": error.index, "message": str(error)}
    return {"guess": list(move.guess), "remaining": move.remaining}


def knuth_guesses(pegs: int, colours: int, duplicates: bool, secret: Sequence[int]) -> int | None:
    """How many guesses Knuth's algorithm needs for `secret`; None where it can't run exactly."""
    space = CodeSpace(pegs, colours, duplicates)
    if space.size > EXACT_LIMIT:
        return None
    return _knuth_walker(pegs, colours, duplicates).play(space.index_of(tuple(secret)))


def simulation(pegs: int, colours: int, duplicates: bool, strategy: str, seed: int = 0) -> dict:
    """A simulate run as plain data: every secret for small variants, a sample for big ones."""
    space = CodeSpace(pegs, colours, duplicates)
    check_size(space)
    games = None if space.size <= FULL_SWEEP_LIMIT else SAMPLED_SIMULATION_GAMES
    result = simulate(space, strategy, games=games, seed=seed)
    return {
        "distribution": {str(k): v for k, v in sorted(result.distribution.items())},
        "games": result.games,
        "total": result.total,
        "average": result.average,
        "worst": result.worst,
        "seconds": result.seconds,
        "all_secrets": result.all_secrets,
        "first_guess": result.first_guess,
    }


def remaining(pegs: int, colours: int, duplicates: bool, history: PlainHistory) -> int | None:
    """How many codes fit the answers so far; None when none does."""
    solver = _solver(pegs, colours, duplicates, "knuth", 0, 2.0)
    plain = [(tuple(guess), (black, white)) for guess, black, white in history]
    try:
        return len(solver.candidates(plain))
    except Contradiction:
        return None
