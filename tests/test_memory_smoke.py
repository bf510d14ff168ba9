"""The memory benchmark runs end to end on the real bot (its figures are not checked here), and
what it measures has the shape that keeps memory at start low (#25): one solver worker and no
simulation worker until a simulation is asked for, and numba loaded only in the worker."""

import argparse
from pathlib import Path

from benchmarks.memory import measured_run, parse


async def test_memory_benchmark_runs_and_the_bot_starts_lean(tmp_path: Path) -> None:
    args: argparse.Namespace = parse(["--quick", "--settle", "0"])
    run = await measured_run(args, tmp_path)
    assert sorted(f.role for f in run.at_start) == ["bot", "mm-solver", "resource tracker"]
    assert [f.role for f in run.at_start if f.numba] == ["mm-solver"]
    assert all(f.rss > 0 and 0 < f.pss <= f.rss and f.uss <= f.pss for f in run.at_start)
    after_solve = next(iter(run.steps.values()))
    assert sorted(f.role for f in after_solve) == sorted(f.role for f in run.at_start)
    assert "solver ready in" in run.output and "ERROR" not in run.output
