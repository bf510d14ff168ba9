"""The Activity's web fuzz, small (#33; the full 10^4 per family is `benchmarks/web_fuzz.py`):
every route and WebSocket message family, each input refused with a clear error, nothing
stored, nothing logged above INFO."""

from __future__ import annotations

import argparse

import pytest

from benchmarks.web_fuzz import main


async def test_every_family_is_refused_and_stores_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(count=40, seed=2033, families=None, batch=8, check=True)
    assert await main(args) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    for family in ("session", "action", "route", "socket"):
        assert f"{family:8} n=40 answered=40" in out and "failures 0" in out
    assert "web fuzz: PASS" in out
