"""The soak runs briefly in CI: the real `python -m bot` under every kind of game, and nothing
acknowledged is lost, nothing stored twice, nothing left unanswered (timings are not checked)."""

from __future__ import annotations

import asyncio
import dataclasses

from benchmarks.soaking import paced
from benchmarks.soaking.chaos_boards import converge
from benchmarks.soaking.driver import Soak, SoakConfig
from benchmarks.soaking.ledger import Sent

MOVE_KINDS = {"play guess (slash)", "picker submit", "solve answer", "daily submit", "race join"}


async def test_a_short_soak_loses_nothing_and_answers_everything() -> None:
    async with Soak(SoakConfig(channels=4, players=3, dailies_each=4)) as soak:
        soak.start_players()
        await asyncio.sleep(6.0)
        await soak.stop_players()
        verdict = await soak.verify()
        assert verdict.passed, "\n".join(verdict.lines())
        acknowledged = {e.kind for e in soak.ledger.acknowledged_moves()}
        assert acknowledged >= MOVE_KINDS  # every kind of move was made and checked
        assert verdict.stored >= verdict.acknowledged > 20
        assert all(e.handle.answered for e in soak.ledger.sent)

        # The check has teeth: a move acknowledged but never stored, and a refused input
        # whose move is stored, each fail it.
        stored = next(e for e in soak.ledger.acknowledged_moves() if e.kind == "solve answer")
        lost = dataclasses.replace(stored, source="i:1")
        refused = Sent("play guess (slash)", stored.handle, stored.source, refused=True)
        soak.ledger.sent[soak.ledger.sent.index(stored)] = refused
        soak.ledger.sent.append(lost)
        problems = (await soak.verify()).problems
        assert any(p.startswith("lost: solve answer") for p in problems), problems
        assert any("was refused, yet" in p for p in problems), problems


async def test_a_short_soak_under_discords_rate_limits_answers_everything_in_time() -> None:
    """`--rate-limits`: the same verdict with the fake enforcing Discord's limits (every answer
    within 3 s though boards wait for their channel's bucket), and the board lag it reports."""
    async with Soak(SoakConfig(channels=4, players=3, dailies_each=4, rate_limits=True)) as soak:
        soak.start_players()
        await asyncio.sleep(6.0)
        await soak.stop_players()
        converged = await converge(soak.fake, soak.database, 30.0)
        lags = await paced.board_lags(soak.fake, soak.database)
        verdict = await soak.verify()
        assert verdict.passed, "\n".join(verdict.lines())
        assert converged.behind == [] and lags.seconds and lags.never == 0
        assert max(lags.seconds) < 10.0  # two 5 s windows of a channel's bucket at most
        lines = paced.lines(soak.fake, lags, converged)
        assert "retried sooner than retry_after: 0" in lines[1]
        assert soak.fake.rate_limiter is not None
        assert soak.fake.rate_limiter.invalid_total < 10  # of hundreds of interactions
