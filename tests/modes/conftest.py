"""Mode actions over a real store file and the real solver workers; no Discord anywhere."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.solver_pool import SolverPool
from bot.store import Store, open_store


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    async with await open_store(tmp_path / "modes.db") as opened:
        yield opened


@pytest.fixture(scope="module")
def solver() -> Iterator[SolverPool]:
    pool = SolverPool(1, 2.0)
    yield pool
    pool.shutdown()
