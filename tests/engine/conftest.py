"""The engine's test options: `slow` tests (the published sweeps of the large variants, minutes
each) run only with MASTERMIND_SLOW_TESTS=1, as `benchmarks/solver.py --large` does."""

import os

import pytest

SLOW = os.environ.get("MASTERMIND_SLOW_TESTS") == "1"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: minutes long; runs only with MASTERMIND_SLOW_TESTS=1 (a benchmark run)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set MASTERMIND_SLOW_TESTS=1 (benchmarks/solver.py)")
    for item in items:
        if item.get_closest_marker("slow") is not None:  # the marker, not any keyword "slow"
            item.add_marker(skip)
