"""The load benchmark runs end to end on a small scale (its figures are not checked here)."""

import argparse

import pytest

from benchmarks.load import main


async def test_load_benchmark_runs_and_prints_every_figure(capsys: pytest.CaptureFixture) -> None:
    args = argparse.Namespace(
        channels=2, players=2, rounds=2, solves=1, workers=1, check=False, quick=True
    )
    assert await main(args) == 0
    out = capsys.readouterr().out
    assert "guesses accepted: 8 of 8" in out
    assert "solve games: guesses needed" in out
    assert "4x6 solve answer (click to next guess) while two 6x10 simulations run: n=" in out
    assert "solver worker peak memory (VmHWM) after 4 large-variant games" in out
    assert out.count("  simulation: ") == 2
