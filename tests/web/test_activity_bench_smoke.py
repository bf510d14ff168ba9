"""The Activity benchmark runs end to end on a small scale (its figures are not checked here)."""

from __future__ import annotations

import pytest

from benchmarks.activity import main, parse_args


async def test_the_activity_benchmark_prints_every_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert await main(parse_args(["--quick"])) == 0
    out = capsys.readouterr().out
    assert "move through the Activity beside 2 busy slash channels: n=20" in out
    assert "9 pages over 3 channels, 2 rounds (each over 1 s): 18 pushes of 18" in out
    assert "bot's process CPU per delivered push" in out
    assert "memory per connected page" in out
