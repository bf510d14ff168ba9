"""The published exact Knuth sweeps of the large variants (mikemag/Mastermind's CUDA solver,
fixed openings): every secret as one decision tree, on every core. Minutes each, so they are
marked slow and run by `benchmarks/solver.py --large`, not on every CI run."""

import pytest

from bot.engine.codes import CodeSpace
from bot.engine.simulate import cpu_count, simulate

PUBLISHED = [
    # pegs, colours, opening, average, worst
    pytest.param(7, 6, "1122334", 5.8044, 8, id="7x6"),
    pytest.param(6, 8, "112234", 6.0867, 8, id="6x8"),
    pytest.param(8, 5, "11122334", 5.8407, 8, id="8x5"),
    pytest.param(7, 7, "1122334", 6.2222, 8, id="7x7"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("pegs", "colours", "first", "average", "worst"), PUBLISHED)
def test_published_large_knuth_sweep(
    pegs: int, colours: int, first: str, average: float, worst: int
) -> None:
    space = CodeSpace(pegs, colours)
    result = simulate(space, "knuth", space.parse(first), jobs=cpu_count())
    assert result.games == space.size
    assert (round(result.average, 4), result.worst) == (average, worst)
