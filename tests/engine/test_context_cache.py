"""A worker's tables are bounded by bytes, shared by every solver of a variant; simulations
keep to their time budget."""

from __future__ import annotations

from bot.engine import jobs
from bot.engine.codes import CodeSpace
from bot.engine.job_types import SimulationBudget, VariantSpec
from bot.engine.search import expected_bytes
from bot.engine.simulate import simulate
from bot.engine.solver import ContextCache, Solver, context_for


def test_the_cache_keeps_what_fits_and_always_the_newest() -> None:
    roomy = ContextCache(max_bytes=64 << 20)
    small = roomy.get(3, 4, True)
    classic = roomy.get(4, 6, True)
    assert roomy.get(3, 4, True) is small and roomy.holds(classic)

    tight = ContextCache(max_bytes=1)
    first = tight.get(3, 4, True)
    first.scorer.tables  # noqa: B018 - build its tables, so it holds bytes
    assert first.nbytes > 0
    second = tight.get(4, 6, True)
    assert tight.holds(second) and not tight.holds(first)
    assert tight.get(3, 4, True) is not first  # rebuilt: the old one was let go
    assert tight.nbytes == tight.get(3, 4, True).nbytes


def test_least_recently_used_goes_first() -> None:
    cache = ContextCache(max_bytes=1 << 30)
    contexts = [cache.get(pegs, 4, True) for pegs in (2, 3, 4)]
    for context in contexts:
        context.scorer.tables  # noqa: B018
    cache.get(2, 4, True)  # (3, 4) is now the oldest
    cache.max_bytes = contexts[0].nbytes + contexts[2].nbytes
    cache.get(4, 4, True)
    assert cache.holds(contexts[0]) and cache.holds(contexts[2])
    assert not cache.holds(contexts[1])


def test_expected_bytes_bounds_what_a_context_holds() -> None:
    for pegs, colours in ((4, 6), (5, 8)):
        solver = Solver(CodeSpace(pegs, colours), "knuth")
        solver.next_move([((0, 0, 1, 1, 2)[:pegs], (1, 1))])
        context = solver.context
        assert 0 < context.nbytes <= expected_bytes(context.space)


def test_solvers_of_a_variant_share_one_space_and_its_arrays() -> None:
    solvers = [Solver(CodeSpace(4, 6), "knuth", seed=seed) for seed in range(3)]
    assert all(s.space is context_for(4, 6, True).space for s in solvers)


def test_sampled_simulations_stop_at_their_budget() -> None:
    cut = simulate(CodeSpace(5, 8), "knuth", games=50, budget=0.0)
    assert cut.planned == 50 and cut.cut_short and cut.games < 50
    sweep = simulate(CodeSpace(3, 4), "knuth", budget=0.0)  # a full sweep is never cut
    assert sweep.all_secrets and sweep.games == sweep.planned == 64


def test_simulation_jobs_report_how_many_games_were_played() -> None:
    budget = SimulationBudget(seconds=0.0)
    swept = jobs.simulation(VariantSpec(3, 4), "knuth", budget)
    assert swept.all_secrets and swept.games == swept.planned == 64 and not swept.cut_short
    sampled = jobs.simulation(VariantSpec(5, 8), "knuth", budget)
    assert not sampled.all_secrets and sampled.planned == budget.sampled_games
    assert sampled.cut_short and sampled.games < sampled.planned
    assert sampled.total == sum(k * n for k, n in sampled.chart().items())
