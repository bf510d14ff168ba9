"""The fake's Discord rules: limits as pure functions (each payload below breaks exactly one rule),
then the bot's permissions on REST, injected failures and forged interactions."""

from __future__ import annotations

import io
from typing import Any

import aiohttp
import discord
import pytest

from tests.discord_fake import FakeDiscord
from tests.discord_fake.rules import (
    COMPONENTS_V2,
    check_commands,
    check_components,
    check_message,
    check_modal,
    check_uploads,
)
from tests.discord_fake.world import ALL_PERMISSIONS, DM_PERMISSIONS, SnowflakeFactory, World
from tests.sample_bot import SampleBot


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "B", "custom_id": custom_id, **extra}


def _options(count: int) -> list[dict[str, str]]:
    return [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]


def _select(custom_id: str = "s", **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": _options(3), **extra}


def _text_input(custom_id: str = "t", **extra: Any) -> dict[str, Any]:
    return {"type": 4, "style": 1, "label": "T", "custom_id": custom_id, **extra}


def test_a_fine_message_passes() -> None:
    payload = {
        "content": "x" * 2000,
        "embeds": [{"title": "t", "description": "d", "fields": [{"name": "n", "value": "v"}]}],
        "components": [_row(*(_button(f"b{i}") for i in range(5))), _row(_select())],
    }
    assert check_message(payload) == []


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        ({"content": "x" * 2001}, "content-length"),
        ({"content": ""}, "empty-message"),
        ({"embeds": [{"title": "t" * 257}]}, "embed-limit"),
        ({"embeds": [{"description": "d" * 4097}]}, "embed-limit"),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embed-limit"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embed-limit"),
        ({"embeds": [{"fields": [{"name": "", "value": "v"}]}]}, "embed-limit"),
        ({"embeds": [{"title": "t"}] * 11}, "embed-count"),
        ({"embeds": [{"description": "d" * 3001}] * 2}, "embed-limit"),
        ({"components": [_row(_button(f"b{i}")) for i in range(6)]}, "component-rows"),
        ({"components": [_row(*(_button(f"b{i}") for i in range(6)))]}, "component-rows"),
        ({"components": [_row(_select("a"), _select("b"))]}, "component-rows"),
        ({"components": [_row(_select(), _button())]}, "component-rows"),
        ({"components": [_row()]}, "component-rows"),
        ({"components": [_button()]}, "component-type"),
        ({"components": [_row(_text_input())]}, "component-type"),
        ({"components": [_row(_button("c" * 101))]}, "custom-id-length"),
        ({"components": [_row(_button("same"), _button("same"))]}, "custom-id-duplicate"),
        ({"components": [_row(_button(label=""))]}, "button"),
        ({"components": [_row({"type": 2, "style": 5, "label": "L"})]}, "button"),
        ({"components": [_row(_select(options=_options(26)))]}, "select"),
        ({"components": [_row(_select(max_values=4))]}, "select"),
        (
            {"content": "x", "flags": COMPONENTS_V2, "components": [{"type": 10, "content": "y"}]},
            "components-v2",
        ),
    ],
)
def test_each_broken_message_rule_is_named(payload: dict[str, Any], rule: str) -> None:
    assert {p.rule for p in check_message(payload)} == {rule}


def test_an_edit_is_checked_against_the_message_it_changes() -> None:
    previous = {"content": "old", "embeds": [], "components": [], "flags": 0}
    assert check_message({"content": "x" * 2001}, previous=previous)[0].rule == "content-length"
    assert [p.rule for p in check_message({"content": ""}, previous=previous)] == ["empty-message"]
    assert check_message({"components": []}, previous=previous) == []


def test_layout_views_allow_forty_components() -> None:
    texts = [{"type": 10, "content": str(i)} for i in range(40)]
    assert check_components(texts, v2=True) == []
    assert {p.rule for p in check_components([*texts, texts[0]], v2=True)} == {"component-count"}


def test_a_fine_modal_passes() -> None:
    modal = {
        "custom_id": "m",
        "title": "T" * 45,
        "components": [
            _row(_text_input("a")),
            {"type": 18, "label": "L", "component": _text_input("b", label=None)},
            {"type": 18, "label": "Pick", "component": _select("c")},
            {"type": 10, "content": "Some help text"},
        ],
    }
    assert check_modal(modal) == []


@pytest.mark.parametrize(
    ("modal", "rule"),
    [
        ({"custom_id": "m", "title": "T" * 46, "components": [_row(_text_input())]}, "modal"),
        ({"custom_id": "m", "title": "T", "components": []}, "modal"),
        ({"custom_id": "m", "title": "T", "components": [_row(_button())]}, "modal"),
        (
            {"custom_id": "m" * 101, "title": "T", "components": [_row(_text_input())]},
            "custom-id-length",
        ),
        (
            {"custom_id": "m", "title": "T", "components": [_row(_text_input(label=None))]},
            "text-input",
        ),
        (
            {"custom_id": "m", "title": "T", "components": [_row(_text_input(max_length=4001))]},
            "text-input",
        ),
    ],
)
def test_each_broken_modal_rule_is_found(modal: dict[str, Any], rule: str) -> None:
    assert {p.rule for p in check_modal(modal)} == {rule}


def _command(**extra: Any) -> dict[str, Any]:
    return {"name": "mastermind", "description": "Play", "type": 1, **extra}


def test_command_sync_rules() -> None:
    assert check_commands([_command()]) == []
    assert check_commands([_command(name="Mastermind")])[0].rule == "command"
    assert check_commands([_command(description="")])[0].rule == "command"
    assert check_commands([_command(), _command()])[0].message == "duplicate command 'mastermind'"
    options = [
        {"type": 4, "name": "pegs", "description": "d"},
        {"type": 4, "name": "colours", "description": "d", "required": True},
    ]
    (problem,) = check_commands([_command(options=options)])
    assert "required options must come before" in problem.message
    many = [_command(name=f"c{i}") for i in range(101)]
    assert {p.rule for p in check_commands(many)} == {"command-count"}


# --- the bot's permissions: computed from roles and overwrites, enforced on REST ----------------

README_PERMISSIONS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
EMBED = {"title": "Board", "description": "RRGG"}


async def _rest(fake: FakeDiscord, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """One REST call with the bot's token, as discord.py would make it: (status, JSON body)."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.rest_base + path, json=body, headers=headers) as response,
    ):
        data = await response.json() if response.status != 204 else None
        return response.status, data


def test_channel_permissions_follow_roles_overwrites_and_implicit_rules() -> None:
    world = World(ids=SnowflakeFactory())
    general, games = world.channel("general"), world.channel("games")
    bot = world.bot_user
    default = discord.Permissions(world.bot_permissions(general))
    assert default.view_channel and default.manage_messages and default.read_message_history

    world.set_overwrite(games, bot, deny=discord.Permissions(send_messages=True))
    in_games = discord.Permissions(world.bot_permissions(games))
    assert in_games.view_channel and not in_games.send_messages
    assert not in_games.embed_links and not in_games.attach_files  # lost with Send Messages
    world.set_overwrite(games, "@everyone", deny=discord.Permissions(view_channel=True))
    assert world.channel_permissions(world.user("alice"), games) == 0  # no view: nothing
    world.set_overwrite(games, "Moderator", allow=discord.Permissions(view_channel=True))
    assert discord.Permissions(world.channel_permissions(world.user("mod"), games)).view_channel
    assert world.channel_permissions(world.owner, games) == ALL_PERMISSIONS  # owner keeps all
    world.set_overwrite(games, bot)  # allow=deny=0 removes the overwrite
    assert [o.type for o in games.overwrites] == [0, 0]
    assert {o["id"] for o in games.payload()["permission_overwrites"]} == {
        str(world.everyone_role.id),
        str(world.mod_role.id),
    }
    assert world.bot_permissions(world.open_dm(world.user("alice"))) == DM_PERMISSIONS


def test_bot_permissions_are_exactly_what_the_world_is_given() -> None:
    world = World(ids=SnowflakeFactory(), bot_permissions=README_PERMISSIONS)
    for channel in world.channels.values():
        assert world.bot_permissions(channel) == README_PERMISSIONS.value
    alice = discord.Permissions(
        world.channel_permissions(world.user("alice"), world.channel("games"))
    )
    assert alice.read_message_history and alice.use_application_commands  # from "Member"
    assert world.everyone_role.permissions == 0


async def test_rest_refuses_what_the_bot_may_not_do_as_discord_does() -> None:
    async with FakeDiscord(bot_permissions=README_PERMISSIONS) as fake:
        general = fake.channel("general").id
        status, sent = await _rest(
            fake, "POST", f"/channels/{general}/messages", {"embeds": [EMBED]}
        )
        assert status == 200 and sent["embeds"] == [EMBED]
        mine = f"/channels/{general}/messages/{sent['id']}"
        status, edited = await _rest(fake, "PATCH", mine, {"content": "edited", "embeds": [EMBED]})
        assert status == 200 and edited["content"] == "edited"  # own message: View Channel only
        assert await _rest(fake, "GET", f"/channels/{general}/messages") == (200, [])
        assert fake.violations == []

        status, error = await _rest(fake, "GET", mine)
        assert (status, error["code"]) == (403, 50013)  # Read Message History is missing
        (violation,) = fake.take_violations("missing-permissions")
        assert "read_message_history" in violation.detail

        await fake.set_overwrite("games", fake.world.bot_user, deny=README_PERMISSIONS)
        games = fake.channel("games").id
        status, error = await _rest(fake, "POST", f"/channels/{games}/messages", {"content": "x"})
        assert (status, error["code"], error["message"]) == (403, 50001, "Missing Access")
        status, error = await _rest(fake, "PATCH", mine.replace(str(general), str(games)), {})
        assert (status, error["code"]) == (403, 50001)
        assert len(fake.take_violations("missing-permissions")) == 2


async def test_embeds_need_embed_links_and_messages_need_send_messages() -> None:
    async with FakeDiscord(bot_permissions=discord.Permissions(view_channel=True)) as fake:
        general = f"/channels/{fake.channel('general').id}/messages"
        status, error = await _rest(fake, "POST", general, {"content": "hi"})
        assert (status, error["code"], error["message"]) == (403, 50013, "Missing Permissions")
        await fake.set_bot_permissions(discord.Permissions(view_channel=True, send_messages=True))
        assert not fake.bot_permissions_in("general").embed_links
        status, error = await _rest(fake, "POST", general, {"embeds": [EMBED]})
        assert (status, error["code"]) == (403, 50013)  # embeds only: refused
        status, sent = await _rest(fake, "POST", general, {"content": "hi", "embeds": [EMBED]})
        assert status == 200 and sent["embeds"] == [] and sent["content"] == "hi"  # dropped
        rules = [v.rule for v in fake.take_violations()]
        assert rules == ["missing-permissions"] * 3
        assert [m.content for m in fake.messages("general")] == ["hi"]


async def test_webhooks_need_no_channel_permission_and_app_permissions_tell_the_truth() -> None:
    nothing = discord.Permissions.none()
    async with FakeDiscord(bot_permissions=nothing) as fake:
        seen: list[discord.Permissions] = []
        refused: list[BaseException] = []

        async def script(interaction: discord.Interaction) -> None:
            seen.append(interaction.app_permissions)
            await interaction.response.send_message(embed=discord.Embed(title="reply"))
            await interaction.followup.send(embed=discord.Embed(title="followup"))
            await interaction.edit_original_response(content="edited")
            try:
                await interaction.channel.send("public")  # type: ignore[union-attr]
            except discord.HTTPException as error:
                refused.append(error)

        async with fake.run_in_process(SampleBot, commands=True) as sample:
            sample.script = script
            handle = await fake.slash("general", "alice", "sample", "script")
            reply = await handle.response()
            await handle.followup()
            await fake.wait_for(lambda: bool(refused), what="the channel send to fail")
        assert seen == [nothing]
        assert reply.embed is not None and reply.embed["title"] == "reply"
        assert reply.content == "edited" and handle.followups[0].embed["title"] == "followup"
        (error,) = refused
        assert isinstance(error, discord.Forbidden) and error.code == 50001
        assert [v.rule for v in fake.take_violations()] == ["missing-permissions"]


async def test_injected_failures_answer_the_next_matching_requests_only() -> None:
    # Unlimited: six sends and edits in one channel at once, from a client that paces nothing.
    async with FakeDiscord(rate_limits=None) as fake:
        general = f"/channels/{fake.channel('general').id}/messages"
        status, sent = await _rest(fake, "POST", general, {"content": "board"})
        message = fake.message(int(sent["id"]))
        refusal = fake.fail_message_edit(message, times=2)
        outage = fake.fail_next("POST", r"/channels/\d+/messages", status=503)
        for _ in range(2):
            status, error = await _rest(fake, "PATCH", f"{general}/{message.id}", {"content": "x"})
            assert (status, error["code"]) == (403, 50013)
        assert (await _rest(fake, "PATCH", f"{general}/{message.id}", {"content": "y"}))[0] == 200
        assert message.content == "y" and refusal.hits == 2 and refusal.exhausted
        assert (await _rest(fake, "POST", general, {"content": "a"}))[0] == 503
        assert (await _rest(fake, "POST", general, {"content": "b"}))[0] == 200
        assert outage.hits == 1 and fake.violations == []
        assert [r.status for r in fake.requests] == [200, 403, 403, 200, 503, 200]


# --- forged interactions ------------------------------------------------------------------------


async def test_forged_interactions_carry_what_the_forger_chose() -> None:
    async with FakeDiscord() as fake, fake.run_in_process(SampleBot, commands=True) as sample:
        reply = await (await fake.slash("general", "alice", "sample", "play")).response()
        submits: list[dict[str, Any]] = []

        async def on_interaction(interaction: discord.Interaction) -> None:
            if interaction.type is discord.InteractionType.modal_submit:
                submits.append({"guild": interaction.guild_id, "data": interaction.data})
                await interaction.response.send_message("seen", ephemeral=True)

        sample.add_listener(on_interaction)
        dm = fake.dm_channel("bob")
        modal = await fake.forge_interaction(
            dm, "bob", type=5, custom_id="mm:code:1", fields={"code": "1234"}
        )
        assert (await modal.response()).ephemeral
        assert "guild_id" not in modal.payload and modal.payload["user"]["username"] == "bob"
        assert modal.payload["channel"]["type"] == 1 and modal.forged
        (submit,) = submits
        assert submit["guild"] is None
        assert submit["data"]["components"][0]["components"][0]["value"] == "1234"

        # The counter's custom_id on another channel's message is dispatched; the message
        # is whatever the forger attached, and the reply updates that message.
        click = await fake.forge_interaction(
            "games", "bob", type=3, custom_id="sample:count:0", message=reply
        )
        assert await click.response() is reply and reply.content == "Count: 1"
        assert click.payload["channel_id"] == str(fake.channel("games").id)

        # Without a message, or with one lacking the custom_id, discord.py drops it.
        lacking = modal.original
        assert lacking is not None and lacking.buttons == []
        dropped = [
            await fake.forge_interaction(
                "general", "bob", type=3, custom_id="sample:count:5", expect_answer=False
            ),
            await fake.forge_interaction(
                "general",
                "bob",
                type=3,
                custom_id="sample:count:7",
                message=lacking,
                payload={"app_permissions": "0", "locale": None},
                expect_answer=False,
            ),
            await fake.forge_interaction(
                "games",
                "bob",
                type=3,
                custom_id="sample:colour",
                component_type=3,
                values=["purple"],
                expect_answer=False,
            ),
        ]
        assert dropped[1].payload["app_permissions"] == "0" and "locale" not in dropped[1].payload
        assert dropped[2].payload["data"]["values"] == ["purple"]
        await (await fake.slash("general", "alice", "sample", "play")).response()  # after them
        fake.advance_time(5)
        assert [h.answered for h in dropped] == [False, False, False]
        assert reply.content == "Count: 1" and fake.violations == []


def test_uploads_within_discords_limits_pass_and_beyond_them_are_named() -> None:
    fine = {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1024}]}
    png = {"filename": "a.png", "size": 10 * 1024 * 1024, "index": 0}
    assert check_uploads(fine, [png]) == []
    long = {"attachments": [{"id": 0, "filename": "a.png", "description": "d" * 1025}]}
    assert [p.rule for p in check_uploads(long, [png])] == ["attachment-description"]
    big = {**png, "size": 10 * 1024 * 1024 + 1}
    assert [p.rule for p in check_uploads(fine, [big])] == ["attachment-size"]
    assert [p.rule for p in check_uploads({}, [png] * 11)] == ["attachments"]


async def test_the_fake_keeps_an_upload_with_its_alt_text_and_refuses_a_long_one() -> None:
    async with FakeDiscord() as fake, fake.run_in_process(SampleBot) as bot:
        channel = bot.get_channel(fake.channel("general").id)
        assert isinstance(channel, discord.TextChannel)
        picture = discord.File(io.BytesIO(b"\x89PNG data"), "a.png", description="a chart")
        sent = await channel.send(file=picture)
        (attachment,) = fake.message(sent.id).attachments
        assert attachment["description"] == "a chart" and attachment["filename"] == "a.png"
        assert fake.uploads[attachment["id"]] == b"\x89PNG data"
        too_long = discord.File(io.BytesIO(b"x"), "b.png", description="d" * 1025)
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(file=too_long)
        assert refused.value.status == 400
        assert [v.rule for v in fake.take_violations()] == ["attachment-description"]
