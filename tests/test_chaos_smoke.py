"""The chaos soak runs briefly in CI (#22): the real `python -m bot` on SQLite, SIGKILLed
twice while every kind of game is played, once just before a race's lobby falls due. Nothing
acknowledged is lost or stored twice, everything sent while the bot was up is answered, every
board converges to its stored game, and the restarted process starts the race at once. Timings
are printed by benchmarks/chaos.py, never asserted."""

from __future__ import annotations

import dataclasses

from benchmarks.chaos import CONVERGE_SECONDS, result_lines
from benchmarks.soaking import chaos_reads
from benchmarks.soaking.chaos_boards import converge, differences
from benchmarks.soaking.chaos_clocks import check_clocks
from benchmarks.soaking.chaos_kills import Kill, KillPlan, kill_and_restart
from benchmarks.soaking.chaos_reads import RaceClock
from benchmarks.soaking.chaos_verdict import judge
from benchmarks.soaking.driver import Soak, SoakConfig


async def test_a_short_chaos_soak_loses_nothing_and_misses_no_clock() -> None:
    async with Soak(SoakConfig(channels=4, players=3, dailies_each=4)) as soak:
        soak.start_players()
        # The first kill aims at the first race's lobby (due about 10 s in): the restarted
        # process owes its clock. The second falls mid-play.
        kills = await kill_and_restart(
            soak, KillPlan(seconds=24.0, interval=8.0, first=12.0, aim=True)
        )
        await soak.stop_players()
        boards = await converge(soak.fake, soak.database, CONVERGE_SECONDS)
        result = await judge(soak, kills, boards)
        report = "\n".join(result_lines(result))
        assert result.passed, report
        assert len(result.kills) == 2, report
        assert result.clocks.in_downtime >= 1, report  # the restart owed the lobby at once
        assert result.verdict.acknowledged > 20, report
        assert boards.boards > 0 and boards.seconds is not None, report

        # The board check has teeth: a board stored at a version its message does not show.
        stored = await chaos_reads.boards(soak.database)
        ahead = dataclasses.replace(stored[0], version=stored[0].version + 1)
        assert differences(soak.fake, [ahead]) == [
            f"{ahead.kind} game {ahead.game_id} ({ahead.status}, version {ahead.version}): "
            f"the store records version {ahead.rendered_version} drawn"
        ]
        marked = dataclasses.replace(ahead, rendered_version=ahead.version)
        assert "its message shows" in differences(soak.fake, [marked])[0]


def test_a_clock_owed_by_a_restart_must_act_at_once_after_it() -> None:
    killed = [Kill(shard=0, killed_at=99.0, ready_at=104.0)]
    lobby = RaceClock(1, 0, lobby_until=100, race_until=None, started_at=None, finished_at=None)

    at_once = check_clocks([dataclasses.replace(lobby, started_at=105.0)], 1, killed, 200.0)
    assert at_once.problems == [] and at_once.in_downtime == 1
    assert at_once.worst_late == 1.0

    late = check_clocks([dataclasses.replace(lobby, started_at=110.0)], 1, killed, 200.0)
    assert late.problems == ["race 1: its lobby was owed at 104.0, and its clock acted 6.0 s late"]
    not_dead = check_clocks([dataclasses.replace(lobby, started_at=105.0)], 1, [], 200.0)
    assert "acted 5.0 s late" in not_dead.problems[0]
    missed = check_clocks([lobby], 1, killed, 200.0)
    assert missed.missed == 1 and "never acted" in missed.problems[0]
    pending = check_clocks([lobby], 1, killed, 106.0)
    assert pending.checked == []  # owed at 104, with 3 s of slack: not yet a miss
