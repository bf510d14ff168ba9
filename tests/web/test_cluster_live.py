"""A move stored by another process of a cluster reaches this process's Activity pages (#33):
two bot processes on one PostgreSQL database, the page signed in to the one that does not
serve the channel, a slash-command guess answered by the other."""

from __future__ import annotations

import asyncio

import aiohttp

from bot.config import Settings
from tests.discord_fake import FakeDiscord
from tests.store.pg_fixtures import postgres_server, postgres_url
from tests.test_shards import QuickIdentify, cluster_env, guess, wrong
from tests.web.conftest import Page, free_port

__all__ = ["postgres_server", "postgres_url"]  # the fixtures of a real PostgreSQL server


async def test_a_move_on_another_process_reaches_the_page(postgres_url: str) -> None:
    async with FakeDiscord(guilds=2, shard_count=2) as fake:
        port = free_port()
        env = {
            **cluster_env(postgres_url, 0),
            "DISCORD_TOKEN": fake.token,
            "ACTIVITY_PORT": str(port),
            "DISCORD_CLIENT_SECRET": fake.client_secret,
        }
        here = Settings.from_env(env)
        async with fake.run_in_process(lambda: QuickIdentify(here), timeout=30.0):
            other = await fake.spawn_bot(env=cluster_env(postgres_url, 1))
            try:
                await other.wait_ready(timeout=30.0)
                fake.enable_activities()
                assert fake.shard_of("general-2") == 1  # the other process serves it
                await (await fake.slash("general-2", "bob", "mastermind", "play")).settled()
                instance = fake.start_activity("general-2", users=("bob",))
                async with aiohttp.ClientSession() as http:
                    page = Page(http, f"http://127.0.0.1:{port}")
                    status, body = await page.call(
                        "POST",
                        "/api/session",
                        {"code": fake.oauth_code("bob"), "instance_id": instance.instance_id},
                    )
                    assert status == 200, body
                    page.session = body["session"]
                    async with page.live() as socket:
                        await socket.send_json({"type": "hello", "session": page.session})
                        first = await _next_game(socket)
                        assert first["kind"] == "play" and first["rows"] == []
                        channel_id = fake.channel("general-2").id
                        code = wrong(postgres_url, channel_id)
                        assert "guessed" in await guess(fake, "general-2", "bob", code)
                        pushed = await _next_game(socket)
                        assert [row["code"] for row in pushed["rows"]] == [
                            [int(peg) for peg in code]
                        ]
            finally:
                await other.stop(15.0)


async def _next_game(socket) -> dict:
    while True:
        message = await asyncio.wait_for(socket.receive_json(), 10)
        if message["type"] == "game":
            return message["game"]
