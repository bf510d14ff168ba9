"""Boards in a cluster converge (#22, the chaos soak). A process killed between a move and its
board's edit leaves that board behind, and the process that starts again for its shard redraws
it at once, not the lease holder's pass ten minutes later. And the lease holder's pass, which
redraws boards of other processes' servers, never leaves one showing an older version than the
store records: its edit may land after the serving process drew a newer move.
"""

from __future__ import annotations

import asyncio

from bot.cluster import JOBS_LEASE, LeaseKeeper, open_lease
from bot.config import Settings
from bot.store import open_store
from tests.bot.helpers import assert_never_went_back
from tests.discord_fake import FakeDiscord
from tests.store.pg_fixtures import postgres_server, postgres_url
from tests.store.postgres_server import query
from tests.test_shards import QuickIdentify, cluster_env, guess, wrong

__all__ = ["postgres_server", "postgres_url"]  # the fixtures of a real PostgreSQL server


async def test_a_restarted_process_without_the_jobs_lease_redraws_its_boards_behind(
    postgres_url: str,
) -> None:
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        store = await open_store(postgres_url)
        jobs = LeaseKeeper(open_lease(store, JOBS_LEASE, holder="the other process", ttl=60))
        shard_one = cluster_env(postgres_url, 1, LEASE_SECONDS="60", DISCORD_TOKEN=fake.token)
        settings = Settings.from_env(shard_one)  # the other process keeps the jobs lease
        try:
            assert await jobs.start()  # the other process runs the passes, every ten minutes
            assert fake.shard_of("general-2") == 1
            async with fake.run_in_process(lambda: QuickIdentify(settings), timeout=30.0) as bot:
                assert bot.jobs is not None and not bot.jobs.held
                board = await (await fake.slash("general-2", "bob", "mastermind", "play")).settled()
                refused = fake.fail_message_edit(board)  # as if the process died before it
                channel_id = fake.channel("general-2").id
                assert "guessed" in await guess(
                    fake, "general-2", "bob", wrong(postgres_url, channel_id)
                )
                await fake.wait_for(lambda: refused.hits == 1, what="the board's edit refused")
                assert "move 0" in board.text and "move 1" not in board.text
            behind = "SELECT version, rendered_version FROM games WHERE channel_id = ?"
            assert query(postgres_url, behind, (channel_id,)) == [(1, 0)]

            async with fake.run_in_process(lambda: QuickIdentify(settings), timeout=30.0) as bot:
                assert bot.jobs is not None and not bot.jobs.held
                await fake.wait_for(
                    lambda: "move 1" in board.text, what="the board redrawn at the restart"
                )
            assert query(postgres_url, behind, (channel_id,)) == [(1, 1)]
            fake.assert_no_violations()
        finally:
            await jobs.close()
            await store.close()


async def test_the_lease_holders_redraw_landing_late_never_leaves_a_board_behind(
    postgres_url: str,
) -> None:
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        holder = Settings.from_env({**cluster_env(postgres_url, 0), "DISCORD_TOKEN": fake.token})
        async with fake.run_in_process(lambda: QuickIdentify(holder), timeout=30.0) as bot:
            await fake.wait_for(lambda: bot.jobs is not None and bot.jobs.held, what="the jobs")
            owner = await fake.spawn_bot(env=cluster_env(postgres_url, 1))
            try:
                await owner.wait_ready(timeout=30.0)
                board = await (await fake.slash("general-2", "bob", "mastermind", "play")).settled()
                channel_id = fake.channel("general-2").id
                refused = fake.fail_message_edit(board, status=503)  # move 1's edit is lost
                await guess(fake, "general-2", "bob", wrong(postgres_url, channel_id))
                await fake.wait_for(lambda: refused.hits == 1, what="the owner's edit refused")
                behind = "SELECT rendered_version FROM games WHERE channel_id = ?"
                await fake.wait_for(
                    lambda: query(postgres_url, behind, (channel_id,)) == [(0,)],
                    what="the board marked as showing move 0",
                )

                late = fake.stall_next("PATCH", f"/channels/{channel_id}/messages/{board.id}")
                passing = asyncio.create_task(bot.boards.reconcile())  # reads move 1, stalls
                await late.wait_arrived()
                await guess(fake, "general-2", "bob", wrong(postgres_url, channel_id))
                await fake.wait_for(lambda: "move 2" in board.text, what="the owner's move 2")
                late.release(serve=True)  # the holder's move 1 lands after it
                await passing
                await fake.wait_for(lambda: "move 2" in board.text, what="move 2 shown again")
                await fake.wait_for(
                    lambda: query(postgres_url, behind, (channel_id,)) == [(2,)],
                    what="the board marked as showing move 2",
                )
                # Nothing later may take it back: both processes stop (SIGTERM: what they had
                # under way lands or never will), and no version after this one is older.
                since = len(board.history) - 1
                assert "move 2" in board.text
                assert await owner.stop(timeout=15.0) == 0
            finally:
                await owner.stop(timeout=15.0)
        assert_never_went_back(board, "move 2", since)
