"""The fake's Activity side: the Activities flag and its Entry Point command, the OAuth2 code
exchange, bearer tokens on /users/@me, activity instances, and the LAUNCH_ACTIVITY callback,
each refusal as Discord makes it. Over real HTTP, and through the real discord.py client."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import Route

from tests.discord_fake import FakeDiscord, FakeDiscordError
from tests.discord_fake.activities import (
    ACTIVITIES_NOT_ENABLED,
    EMBEDDED,
    ENTRY_POINT,
    ENTRY_POINT_REMOVED,
)
from tests.sample_bot import SampleBot

pytest_plugins = ["tests.discord_fake.fixtures"]

USE_ACTIVITIES = discord.Permissions(use_embedded_activities=True)


@pytest.fixture
async def sample(fake_discord: FakeDiscord) -> AsyncIterator[SampleBot]:
    """The sample bot, ready with its commands synced (before any test turns Activities on)."""
    async with fake_discord.run_in_process(SampleBot, commands=True) as bot:
        yield bot


def _bot(fake: FakeDiscord) -> dict[str, str]:
    return {"Authorization": f"Bot {fake.token}"}


def _commands_url(fake: FakeDiscord, guild: int | None = None) -> str:
    where = f"/guilds/{guild}" if guild is not None else ""
    return f"{fake.rest_base}/applications/{fake.application_id}{where}/commands"


def _slash(name: str) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": "A command"}


async def test_enabling_activities_adds_discords_entry_point(fake_discord: FakeDiscord) -> None:
    """Enabled, the app is EMBEDDED and owns a global Entry Point that Discord handles."""
    assert not fake_discord.activities_enabled
    assert fake_discord.synced_commands() == []
    fake_discord.enable_activities()
    [entry] = fake_discord.synced_commands()
    assert (entry["type"], entry["name"], entry["handler"]) == (ENTRY_POINT, "launch", 2)
    async with aiohttp.ClientSession(headers=_bot(fake_discord)) as http:
        async with http.get(f"{fake_discord.rest_base}/applications/@me") as response:
            assert (await response.json())["flags"] & EMBEDDED
        async with http.get(_commands_url(fake_discord)) as response:
            assert [c["type"] for c in await response.json()] == [ENTRY_POINT]
    fake_discord.disable_activities()
    assert fake_discord.synced_commands() == []


async def test_a_bulk_overwrite_must_keep_the_entry_point(fake_discord: FakeDiscord) -> None:
    """Leaving the Entry Point out is 50240; sending it back keeps it (same id); deleting it on
    its own is allowed, and after that an overwrite without it is fine."""
    fake_discord.enable_activities()
    [entry] = fake_discord.synced_commands()
    async with aiohttp.ClientSession(headers=_bot(fake_discord)) as http:
        async with http.put(_commands_url(fake_discord), json=[_slash("play")]) as response:
            assert response.status == 400
            assert (await response.json())["code"] == ENTRY_POINT_REMOVED
        assert fake_discord.synced_commands() == [entry]  # nothing changed
        async with http.put(_commands_url(fake_discord), json=[]) as response:
            assert response.status == 400
        kept = {k: entry[k] for k in ("type", "name", "description", "handler")}
        async with http.put(_commands_url(fake_discord), json=[_slash("play"), kept]) as response:
            assert response.status == 200
            stored = await response.json()
        assert [(c["type"], c["id"]) for c in stored] == [(1, stored[0]["id"]), (4, entry["id"])]
        async with http.delete(f"{_commands_url(fake_discord)}/{entry['id']}") as response:
            assert response.status == 204
        async with http.put(_commands_url(fake_discord), json=[_slash("play")]) as response:
            assert response.status == 200
    rules = [v.rule for v in fake_discord.take_violations()]
    assert rules == ["command-sync", "command-sync"]


@pytest.mark.parametrize(
    ("activities", "guild", "commands"),
    [
        (False, False, [{"type": 4, "name": "launch", "handler": 2}]),
        (True, True, [{"type": 4, "name": "launch", "handler": 2}]),
        (True, False, [{"type": 4, "name": "a", "handler": 2}, {"type": 4, "name": "b"}]),
        (True, False, [{"type": 4, "name": "launch", "handler": 3}]),
    ],
    ids=["without-activities", "in-a-guild", "two-entry-points", "unknown-handler"],
)
async def test_entry_points_only_where_discord_allows_them(
    fake_discord: FakeDiscord, activities: bool, guild: bool, commands: list[dict[str, Any]]
) -> None:
    if activities:
        fake_discord.enable_activities()
    url = _commands_url(fake_discord, fake_discord.guild_id if guild else None)
    async with (
        aiohttp.ClientSession(headers=_bot(fake_discord)) as http,
        http.put(url, json=commands) as response,
    ):
        assert response.status == 400
        assert (await response.json())["code"] == 50035
    assert [v.rule for v in fake_discord.take_violations()] == ["command-sync"]


async def _exchange(
    fake: FakeDiscord, form: dict[str, str], headers: dict[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http:
        url = f"{fake.rest_base}/oauth2/token"
        async with http.post(url, data=form, headers=headers or {}) as response:
            return response.status, await response.json()


def _form(fake: FakeDiscord, code: str, **extra: str) -> dict[str, str]:
    return {
        "client_id": str(fake.application_id),
        "client_secret": fake.client_secret,
        "grant_type": "authorization_code",
        "code": code,
        **extra,
    }


async def test_a_code_is_exchanged_once_for_a_token_that_reads_the_user(
    fake_discord: FakeDiscord,
) -> None:
    fake_discord.set_user_locale("alice", "pl")
    code = fake_discord.oauth_code("alice", scopes=("identify", "guilds"))
    status, token = await _exchange(fake_discord, _form(fake_discord, code))
    assert status == 200
    assert token["token_type"] == "Bearer"
    assert token["scope"] == "identify guilds"
    assert token["expires_in"] > 0
    bearer = {"Authorization": f"Bearer {token['access_token']}"}
    async with (
        aiohttp.ClientSession(headers=bearer) as http,
        http.get(f"{fake_discord.rest_base}/users/@me") as response,
    ):
        user = await response.json()
    alice = fake_discord.user("alice")
    assert (user["id"], user["username"], user["locale"]) == (str(alice.id), "alice", "pl")
    assert "global_name" in user and "avatar" in user
    assert fake_discord.login_count == 0  # a user's /users/@me is not the bot logging in
    again = await _exchange(fake_discord, _form(fake_discord, code))
    assert again == (
        400,
        {"error": "invalid_grant", "error_description": again[1]["error_description"]},
    )


async def test_the_client_may_authenticate_with_http_basic(fake_discord: FakeDiscord) -> None:
    code = fake_discord.oauth_code("bob")
    basic = base64.b64encode(f"{fake_discord.application_id}:{fake_discord.client_secret}".encode())
    form = {"grant_type": "authorization_code", "code": code}
    status, token = await _exchange(
        fake_discord, form, {"Authorization": f"Basic {basic.decode()}"}
    )
    assert status == 200 and token["access_token"]


@pytest.mark.parametrize(
    ("change", "status", "error"),
    [
        ({"client_secret": "wrong"}, 401, "invalid_client"),
        ({"client_id": "1"}, 401, "invalid_client"),
        ({"code": "made-up"}, 400, "invalid_grant"),
        ({"grant_type": "client_credentials"}, 400, "unsupported_grant_type"),
        ({"grant_type": None}, 400, "invalid_request"),
        ({"redirect_uri": "https://elsewhere.example/"}, 400, "invalid_grant"),
    ],
    ids=["secret", "client-id", "code", "grant-type", "no-grant-type", "redirect-uri"],
)
async def test_a_bad_exchange_is_refused_as_oauth2_says(
    fake_discord: FakeDiscord, change: dict[str, str | None], status: int, error: str
) -> None:
    form = _form(fake_discord, fake_discord.oauth_code("alice"))
    for key, value in change.items():
        if value is None:
            del form[key]
        else:
            form[key] = value
    got_status, body = await _exchange(fake_discord, form)
    assert (got_status, body["error"]) == (status, error)
    assert set(body) == {"error", "error_description"}


async def test_a_code_expires_and_a_json_body_is_refused(fake_discord: FakeDiscord) -> None:
    code = fake_discord.oauth_code("alice")
    async with aiohttp.ClientSession() as http:
        url = f"{fake_discord.rest_base}/oauth2/token"
        async with http.post(url, json=_form(fake_discord, code)) as response:
            assert (response.status, (await response.json())["error"]) == (400, "invalid_request")
    fake_discord.advance_time(601)
    status, body = await _exchange(fake_discord, _form(fake_discord, code))
    assert (status, body["error"]) == (400, "invalid_grant")
    assert [status for _, status in fake_discord.activity_side.exchanges] == [400]


@pytest.mark.parametrize(
    "authorization", ["Bearer made-up", "Bearer {no_identify}", "Bearer {expired}", ""]
)
async def test_users_me_refuses_a_bad_bearer(fake_discord: FakeDiscord, authorization: str) -> None:
    no_identify = fake_discord.oauth_token("alice", scopes=("guilds",))
    expired = fake_discord.oauth_token("alice")
    fake_discord.advance_time(8 * 24 * 3600)
    header = authorization.format(no_identify=no_identify, expired=expired)
    async with aiohttp.ClientSession() as http:
        url = f"{fake_discord.rest_base}/users/@me"
        async with http.get(url, headers={"Authorization": header} if header else {}) as response:
            assert response.status == 401


async def test_an_activity_instance_as_the_bot_reads_it(fake_discord: FakeDiscord) -> None:
    """Instances are read with the bot token; a DM's is "pc" without a guild; an instance ends
    with its last user, and an unknown or ended one is 404."""
    instance = fake_discord.start_activity("general", ["alice", "bob"])
    dm = fake_discord.start_activity(fake_discord.dm_channel("carol"), ["carol"])
    general = fake_discord.channel("general")
    base = f"{fake_discord.rest_base}/applications/{fake_discord.application_id}"
    async with aiohttp.ClientSession(headers=_bot(fake_discord)) as http:
        async with http.get(f"{base}/activity-instances/{instance.instance_id}") as response:
            data = await response.json()
        assert data == {
            "application_id": str(fake_discord.application_id),
            "instance_id": instance.instance_id,
            "launch_id": str(instance.launch_id),
            "location": {
                "id": f"gc-{general.guild_id}-{general.id}",
                "kind": "gc",
                "channel_id": str(general.id),
                "guild_id": str(general.guild_id),
            },
            "users": [str(fake_discord.user(n).id) for n in ("alice", "bob")],
        }
        async with http.get(f"{base}/activity-instances/{dm.instance_id}") as response:
            location = (await response.json())["location"]
        assert location["kind"] == "pc" and "guild_id" not in location
        fake_discord.join_activity(instance, "carol")
        for name in ("alice", "bob"):
            fake_discord.leave_activity(instance, name)
        async with http.get(f"{base}/activity-instances/{instance.instance_id}") as response:
            assert (await response.json())["users"] == [str(fake_discord.user("carol").id)]
        fake_discord.leave_activity(instance, "carol")
        assert instance.ended
        for missing in (instance.instance_id, "i-1-gc-2-3"):
            async with http.get(f"{base}/activity-instances/{missing}") as response:
                assert response.status == 404
    async with (
        aiohttp.ClientSession() as http,  # no bot token
        http.get(f"{base}/activity-instances/{dm.instance_id}") as response,
    ):
        assert response.status == 401


async def test_the_bot_reaches_it_all_through_discord_http(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """What the bot's server does, through discord.py's own HTTP client and Route."""
    instance = fake_discord.start_activity("games", ["dave"])
    route = Route(
        "GET",
        "/applications/{app}/activity-instances/{instance}",
        app=fake_discord.application_id,
        instance=instance.instance_id,
    )
    assert (await sample.http.request(route))["users"] == [str(fake_discord.user("dave").id)]
    form = _form(fake_discord, fake_discord.oauth_code("dave"))
    token = await sample.http.request(Route("POST", "/oauth2/token"), data=form)
    assert token["token_type"] == "Bearer"
    with pytest.raises(discord.HTTPException) as refused:
        await sample.http.request(Route("POST", "/oauth2/token"), data=form)  # used once
    assert refused.value.status == 400


async def _launch(interaction: discord.Interaction) -> None:
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        await interaction.response.send_message(
            f"refused {error.status} {error.code}", ephemeral=True
        )


async def test_launch_activity_opens_or_joins_the_channels_instance(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    fake_discord.enable_activities()
    responses: list[discord.InteractionCallbackResponse[Any]] = []

    async def launch(interaction: discord.Interaction) -> None:
        responses.append(await interaction.response.launch_activity())

    sample.script = launch
    first = await fake_discord.slash("general", "alice", "sample", "script")
    instance = await first.launched()
    second = await fake_discord.slash("general", "bob", "sample", "script")
    assert await second.launched() is instance
    assert [u.name for u in instance.users] == ["alice", "bob"]
    assert [launch.interaction for launch in fake_discord.activity_launches] == [first, second]
    assert isinstance(responses[0].resource, discord.InteractionCallbackActivityInstance)
    assert responses[0].resource.id == instance.instance_id
    with pytest.raises(FakeDiscordError):
        await (await fake_discord.slash("general", "alice", "sample", "ask")).launched()


async def test_launch_activity_is_refused_without_activities(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Discord refuses the callback, the interaction stays unanswered, and the bot may still
    answer it; nothing was launched."""
    sample.script = _launch
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    reply = await handle.response()
    assert reply.content == f"refused 400 {ACTIVITIES_NOT_ENABLED}" and reply.ephemeral
    assert fake_discord.activity_instances == []


async def test_launch_activity_needs_use_activities_in_the_channel(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    fake_discord.enable_activities()
    await fake_discord.set_overwrite("games", "alice", deny=USE_ACTIVITIES)
    sample.script = _launch
    handle = await fake_discord.slash("games", "alice", "sample", "script")
    assert (await handle.response()).content == "refused 403 50013"
    elsewhere = await fake_discord.slash("general", "alice", "sample", "script")
    assert (await elsewhere.launched()).channel.name == "general"


async def test_launch_activity_answers_no_autocomplete(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """LAUNCH_ACTIVITY answers a command, a component or a modal submit, nothing else."""
    fake_discord.enable_activities()
    handle = await fake_discord.forge_interaction(
        "general",
        "alice",
        type=4,
        custom_id="x",
        data={"name": "x", "options": []},
        expect_answer=False,
    )
    url = f"{fake_discord.rest_base}/interactions/{handle.id}/{handle.token}/callback"
    async with aiohttp.ClientSession() as http, http.post(url, json={"type": 12}) as response:
        assert response.status == 400
    assert [v.rule for v in fake_discord.take_violations()] == ["callback-type"]


async def test_the_entry_point_launches_without_the_bot(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    with pytest.raises(FakeDiscordError):
        fake_discord.launch_from_entry_point("general", "alice")
    fake_discord.enable_activities()
    before = len(fake_discord.interactions)
    instance = fake_discord.launch_from_entry_point("general", "alice")
    assert fake_discord.launch_from_entry_point("general", "bob") is instance
    assert len(fake_discord.interactions) == before
    assert [launch.interaction for launch in fake_discord.activity_launches] == [None, None]
