"""Compute the opening book (`book`): every second move of the large variants, exactly.

    python -m bot.engine.book_build [--check] [--jobs N] [--variant 7x7d] [--verbose]

Writes bot/engine/book.txt (50 s on two cores, 90 s of CPU), or with `--check` recomputes it
and exits 1 if any position differs from the shipped file. Each position is one exact search
(`SearchContext.best_guess`, the one a game makes without the book); the positions of a
variant run on `--jobs` threads (the search releases the GIL).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from bot.engine import book
from bot.engine.codes import Code, CodeSpace
from bot.engine.search import colour_mask, symmetries
from bot.engine.simulate import cpu_count, split
from bot.engine.solver import context_for
from bot.engine.strategies import STRATEGIES


@dataclass(frozen=True)
class Position:
    """One book position: its line and how long its exact search took."""

    line: str
    candidates: int
    seconds: float


def rule_strategy(rule: int) -> str:
    """A strategy that plays `rule` (the search needs only its rule)."""
    return next(name for name, s in STRATEGIES.items() if s.rule == rule)


def variant_positions(space: CodeSpace, jobs: int) -> list[Position]:
    """Every book position of one variant, in the file's order."""
    context = context_for(*space.key)
    every = np.arange(space.size, dtype=np.int32)
    tasks: list[tuple[int, Code, int, np.ndarray]] = []
    for rule, first in book.openings(space):
        index = space.index_of(first)
        for answer, group in split(context.scorer.against(index, every), every):
            if answer != context.win:
                tasks.append((rule, first, answer, group))

    def run(task: tuple[int, Code, int, np.ndarray]) -> Position:
        rule, first, answer, group = task
        strategy = STRATEGIES[rule_strategy(rule)]
        started = time.perf_counter()
        symmetry = symmetries(space, [first])
        guess = context.best_guess(strategy, group, colour_mask([first]), None, None, symmetry)
        line = book.format_line(space, rule, first, answer, guess)
        return Position(line, len(group), time.perf_counter() - started)

    order = sorted(range(len(tasks)), key=lambda i: -len(tasks[i][3]))  # largest first
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as threads:
        done = dict(zip(order, threads.map(run, [tasks[i] for i in order]), strict=True))
    return [done[i] for i in range(len(tasks))]


HEADER = (
    "# The opening book: second guesses of the variants above 100,000 codes, one per line\n"
    "# (variant rule opening answer guess). Written by `python -m bot.engine.book_build`.\n"
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.engine.book_build", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--check", action="store_true", help="compare with the shipped book")
    parser.add_argument("--jobs", type=int, default=0, help="threads (0: every core)")
    parser.add_argument("--variant", action="append", help="only these, e.g. 7x7d (with --check)")
    parser.add_argument("--verbose", action="store_true", help="print every position's time")
    args = parser.parse_args(argv)
    jobs = args.jobs or cpu_count()
    lines: list[str] = []
    slowest: list[Position] = []
    for space in book.variants():
        if args.variant and book.variant_name(space) not in args.variant:
            continue
        started = time.perf_counter()
        found = variant_positions(space, jobs)
        lines += [p.line for p in found]
        worst = max(found, key=lambda p: p.seconds)
        slowest.append(worst)
        print(
            f"{book.variant_name(space)}: {len(found)} positions in "
            f"{time.perf_counter() - started:.1f} s; slowest {worst.seconds:.2f} s "
            f"({worst.line}, {worst.candidates} codes)",
            flush=True,
        )
        if args.verbose:
            for p in found:
                print(f"  {p.line}  {p.candidates:>7}  {p.seconds:.3f} s")
    if not args.check:
        book.PATH.write_text(HEADER + "\n".join(lines) + "\n", encoding="ascii")
        print(f"wrote {len(lines)} positions to {book.PATH}")
        return 0
    return check(lines, bool(args.variant))


def check(lines: list[str], partial: bool) -> int:
    """Compare recomputed lines with the shipped file (only their variants if `partial`)."""
    shipped = [
        line for line in book.PATH.read_text(encoding="ascii").splitlines() if line[:1] != "#"
    ]
    if partial:
        names = {line.split()[0] for line in lines}
        shipped = [line for line in shipped if line.split()[0] in names]
    differ = sorted(set(lines) ^ set(shipped))
    for line in differ[:20]:
        print(f"differs: {line}")
    print(f"{len(lines)} positions recomputed, {len(differ)} lines differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
