"""The fake Discord end to end, in-process: the real discord.py client against the loopback fake.

The sample bot (tests/sample_bot) stands in for the real bot; its `/sample script` command runs
whatever a test sets, which is how the rule tests make discord.py break Discord's rules.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest
from discord.ext import commands
from discord.http import Route

from tests.discord_fake import FakeDiscord, FakeDiscordError, patch_discord
from tests.sample_bot import SampleBot

pytest_plugins = ["tests.discord_fake.fixtures"]


@pytest.fixture
async def sample(fake_discord: FakeDiscord) -> AsyncIterator[SampleBot]:
    """The sample bot, running in this event loop and ready with its commands synced."""
    async with fake_discord.run_in_process(SampleBot, commands=True) as bot:
        yield bot


async def test_login_identify_and_command_tree(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """The bot logged in, synced `/sample`, and sees the fake guild and its channels."""
    (group,) = fake_discord.synced_commands()
    assert group["name"] == "sample"
    subcommands = {option["name"]: option for option in group["options"]}
    assert set(subcommands) == {"play", "think", "ask", "secret", "post", "pick", "script"}
    (pegs,) = subcommands["play"]["options"]
    assert (pegs["type"], pegs["min_value"], pegs["max_value"]) == (4, 2, 8)
    guild = sample.get_guild(fake_discord.guild_id)
    assert guild is not None
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    assert guild.me is not None
    assert sample.user is not None and sample.user.id == fake_discord.application_id
    assert (fake_discord.identify_count, fake_discord.ready_count) == (1, 1)


async def test_reply_with_button_and_select_then_edits(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """A type 4 reply with components; a click and a select each edit it in place (type 7)."""
    play = await fake_discord.slash("general", "alice", "sample", "play", options={"pegs": 5})
    reply = await play.response()
    assert play.answer_type == 4
    assert reply.embed is not None and reply.embed["description"] == "5 pegs"
    assert [b["label"] for b in reply.buttons] == ["Count 0"]
    assert reply.selects[0]["custom_id"] == "sample:colour"
    assert not reply.ephemeral and reply.author.id == fake_discord.application_id

    click = await fake_discord.click(reply, "Count 0", user="bob")
    assert await click.response() is reply
    assert click.answer_type == 7
    assert (reply.content, reply.embeds, reply.edits) == ("Count: 1", [], 1)
    assert [b["custom_id"] for b in reply.buttons] == ["sample:count:1"]

    pick = await fake_discord.select(reply, "sample:colour", ["green"], user="carol")
    await pick.response()
    assert reply.content == "You picked green"
    assert fake_discord.messages("general") == [reply]
    assert all(latency < 1.0 for latency in fake_discord.latencies())
    assert len(fake_discord.latencies()) == 3


async def test_deferred_answer_with_followup_after_executor_work(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Type 5 shows "thinking"; the followup after the executor work resolves it."""
    think = await fake_discord.slash("games", "carol", "sample", "think", options={"n": 100})
    assert await think.answer() == 5
    message = await think.settled()
    assert message.content == f"sum of squares below 100 is {sum(i * i for i in range(100))}"
    assert think.followups == [message]
    assert not message.loading
    assert fake_discord.messages("games") == [message]


async def test_modal_round_trip(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """A modal (type 9) with a classic row and a 2.7 label; the submit answers ephemerally."""
    ask = await fake_discord.slash("general", "carol", "sample", "ask")
    modal = await ask.modal()
    assert modal.title == "Your guess"
    assert [f["custom_id"] for f in modal.fields()] == ["sample:guess", "sample:note"]
    with pytest.raises(ValueError, match="4 to 4"):
        await fake_discord.submit_modal(modal, {"sample:guess": "RGB"})
    with pytest.raises(ValueError, match="only carol"):
        await fake_discord.submit_modal(modal, {"sample:guess": "RGBY"}, user="bob")
    submit = await fake_discord.submit_modal(
        modal, {"sample:guess": "RGBY", "sample:note": "first try"}
    )
    reply = await submit.response()
    assert reply.content == "Guess RGBY noted (first try)"
    assert reply.ephemeral and reply.visible_to == fake_discord.user("carol")
    with pytest.raises(ValueError, match="already submitted"):
        await fake_discord.submit_modal(modal, {"sample:guess": "RGBY"})


async def test_ephemeral_reply_button(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """Only the caller can click an ephemeral reply's button; the click edits it."""
    secret = await fake_discord.slash("general", "alice", "sample", "secret")
    reply = await secret.response()
    assert reply.ephemeral and reply.content == "Shh."
    with pytest.raises(ValueError, match="only alice"):
        await fake_discord.click(reply, "Reveal", user="bob")
    click = await fake_discord.click(reply, "Reveal")
    await click.response()
    assert (reply.content, reply.components) == ("The secret is 42", [])
    with pytest.raises(KeyError, match="no component"):
        reply.component("Reveal")


async def test_channel_messages_edit_fetch_delete(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Channel message routes: send, edit, fetch and delete; the defer is edited at the end."""
    post = await fake_discord.slash("games", "mod", "sample", "post", options={"text": "hello"})
    done = await post.settled()
    assert done.content == "posted HELLO" and done.ephemeral
    visible = [m.content for m in fake_discord.messages("games") if not m.ephemeral]
    assert visible == ["HELLO"]
    everything = fake_discord.messages("games", include_deleted=True)
    deleted = [m for m in everything if m.deleted]
    assert [m.content for m in deleted] == ["temporary"]
    (hello,) = [m for m in everything if m.content == "HELLO"]
    assert hello.edits == 1 and [v["content"] for v in hello.history] == ["hello", "HELLO"]


async def test_autocomplete_offers_choices(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """Type 4 interactions with a focused option, answered with type 8 choices."""
    typing = await fake_discord.autocomplete(
        "general", "bob", "sample", "pick", options={"colour": "gr"}, focused="colour"
    )
    assert await typing.choices() == [{"name": "green", "value": "green"}]
    empty = await fake_discord.autocomplete("general", "bob", "sample", "pick", focused="colour")
    assert len(await empty.choices()) == 4
    pick = await fake_discord.slash("general", "bob", "sample", "pick", options={"colour": "green"})
    assert (await pick.response()).content == "You chose green"


async def test_slash_options_are_checked_like_the_discord_client(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """The driver refuses what a Discord client would not let a user send."""
    with pytest.raises(ValueError, match="at most 8"):
        await fake_discord.slash("general", "alice", "sample", "play", options={"pegs": 9})
    with pytest.raises(ValueError, match="unknown options"):
        await fake_discord.slash("general", "alice", "sample", "play", options={"colours": 6})
    with pytest.raises(ValueError, match="needs a subcommand"):
        await fake_discord.slash("general", "alice", "sample")
    with pytest.raises(FakeDiscordError, match="not a synced command"):
        await fake_discord.slash("general", "alice", "mastermind", "play")


@pytest.mark.parametrize("mode", ["close", "abort", "reconnect"])
async def test_gateway_drop_is_resumed(
    fake_discord: FakeDiscord, sample: SampleBot, mode: str
) -> None:
    """After a server-side drop the bot RESUMEs (no new IDENTIFY) and still answers."""
    if mode == "reconnect":
        await fake_discord.request_reconnect()
    else:
        await fake_discord.drop_gateway(abort=mode == "abort")
    assert (fake_discord.resume_count, fake_discord.identify_count) == (1, 1)
    play = await fake_discord.slash("general", "bob", "sample", "play")
    reply = await play.response()
    click = await fake_discord.click(reply, "Count 0")
    await click.response()
    assert reply.content == "Count: 1"


async def test_invalidated_session_identifies_again(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Op 9 (not resumable) makes the bot IDENTIFY anew and get a second `ready`."""
    await fake_discord.invalidate_session()
    await fake_discord.wait_ready(since_identify=1)
    assert (fake_discord.identify_count, fake_discord.ready_count) == (2, 2)
    play = await fake_discord.slash("general", "bob", "sample", "play")
    await play.response()


async def test_interaction_that_gets_no_answer_times_out_clearly(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """`response()` names the interaction and lists what the bot did instead."""

    async def ignore(interaction: discord.Interaction) -> None:
        return None

    sample.script = ignore
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    with pytest.raises(FakeDiscordError, match=r"first answer to /sample script by alice"):
        await handle.response(timeout=0.2)
    assert handle.latency is None
    fake_discord.advance_time(3.5)
    (violation,) = fake_discord.take_violations()
    assert violation.rule == "interaction-deadline"


# Rules discord.py does not check: the bot breaks one, the fake answers like Discord and records
# a violation. Each script answers first, so only the rule under test is broken.


async def _too_long_content(interaction: discord.Interaction) -> None:
    await interaction.followup.send("x" * 2001)


async def _too_long_embed(interaction: discord.Interaction) -> None:
    await interaction.followup.send(embed=discord.Embed(description="x" * 4097))


async def _too_many_embed_characters(interaction: discord.Interaction) -> None:
    embeds = [discord.Embed(title="t", description="x" * 4000) for _ in range(2)]
    await interaction.followup.send(embeds=embeds)


async def _too_long_custom_id(interaction: discord.Interaction) -> None:
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="Go", custom_id="g" * 101))
    await interaction.followup.send("go", view=view)


def _button(index: int) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": str(index), "custom_id": f"b{index}"}


def _select(custom_id: str) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": [{"label": "a", "value": "a"}]}


async def _raw_send(interaction: discord.Interaction, components: list[dict[str, Any]]) -> None:
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id)
    await interaction.client.http.request(route, json={"content": "x", "components": components})


async def _six_rows(interaction: discord.Interaction) -> None:
    rows = [{"type": 1, "components": [_button(i)]} for i in range(6)]
    await _raw_send(interaction, rows)


async def _six_buttons_in_a_row(interaction: discord.Interaction) -> None:
    await _raw_send(interaction, [{"type": 1, "components": [_button(i) for i in range(6)]}])


async def _two_selects_in_a_row(interaction: discord.Interaction) -> None:
    await _raw_send(interaction, [{"type": 1, "components": [_select("s1"), _select("s2")]}])


async def _unknown_route(interaction: discord.Interaction) -> None:
    route = Route("GET", "/guilds/{guild_id}/bans", guild_id=interaction.guild_id)
    await interaction.client.http.request(route)


@pytest.mark.parametrize(
    ("action", "rule", "status"),
    [
        (_too_long_content, "content-length", 400),
        (_too_long_embed, "embed-limit", 400),
        (_too_many_embed_characters, "embed-limit", 400),
        (_too_long_custom_id, "custom-id-length", 400),
        (_six_rows, "component-rows", 400),
        (_six_buttons_in_a_row, "component-rows", 400),
        (_two_selects_in_a_row, "component-rows", 400),
        (_unknown_route, "unknown-route", 404),
    ],
)
async def test_broken_message_rules_are_refused_and_recorded(
    fake_discord: FakeDiscord, sample: SampleBot, action: Any, rule: str, status: int
) -> None:
    """Discord refuses the request (the bot gets HTTPException) and the test sees why."""
    errors: list[discord.HTTPException] = []

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        try:
            await action(interaction)
        except discord.HTTPException as error:
            errors.append(error)

    sample.script = script
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    await handle.response()
    await fake_discord.wait_for(lambda: bool(errors), what="the bot's request to fail")
    assert errors[0].status == status
    rules = {v.rule for v in fake_discord.take_violations()}
    assert rules == {rule}


async def test_a_modal_cannot_answer_a_modal(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """Answering a modal submit with another modal is refused; the bot may then reply."""
    errors: list[discord.HTTPException] = []

    class Second(discord.ui.Modal, title="Second"):
        answer: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Answer")

    class First(discord.ui.Modal, title="First"):
        name: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Name", custom_id="name")

        async def on_submit(self, interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_modal(Second())
            except discord.HTTPException as error:
                errors.append(error)
                await interaction.response.send_message("cannot chain modals")

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(First())

    sample.script = script
    opened = await fake_discord.slash("general", "dave", "sample", "script")
    submit = await fake_discord.submit_modal(opened, {"name": "Dave"})
    await fake_discord.wait_for(lambda: bool(errors), what="the second modal to be refused")
    assert errors[0].status == 400
    assert [v.rule for v in fake_discord.take_violations()] == ["modal-after-modal"]
    assert (await submit.response()).content == "cannot chain modals"


async def test_first_answer_after_three_seconds_is_refused(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """A late first answer gets Discord's 404 Unknown interaction and one violation."""
    gate = asyncio.Event()
    errors: list[discord.HTTPException] = []

    async def script(interaction: discord.Interaction) -> None:
        await gate.wait()
        try:
            await interaction.response.send_message("too late")
        except discord.NotFound as error:
            errors.append(error)

    sample.script = script
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    fake_discord.advance_time(3.5)
    gate.set()
    await fake_discord.wait_for(lambda: bool(errors), what="the late answer to be refused")
    assert errors[0].code == 10062
    assert handle.late and not handle.answered
    assert [v.rule for v in fake_discord.take_violations()] == ["interaction-deadline"]


async def test_token_expires_after_fifteen_minutes(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """A followup 15 minutes after the interaction is refused (Invalid Webhook Token)."""
    gate = asyncio.Event()
    errors: list[discord.HTTPException] = []

    async def script(interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await gate.wait()
        try:
            await interaction.followup.send("much later")
        except discord.HTTPException as error:
            errors.append(error)

    sample.script = script
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    assert await handle.answer() == 5
    fake_discord.advance_time(15 * 60 + 1)
    gate.set()
    await fake_discord.wait_for(lambda: bool(errors), what="the followup to be refused")
    assert (errors[0].status, errors[0].code) == (401, 50027)
    assert [v.rule for v in fake_discord.take_violations()] == ["token-expired"]


async def test_callback_misuse_is_refused(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """Raw callbacks: a wrong type, a double answer and a followup before any answer."""

    async def ignore(interaction: discord.Interaction) -> None:
        return None

    sample.script = ignore
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    callback = f"{fake_discord.rest_base}/interactions/{handle.id}/{handle.token}/callback"
    followup = f"{fake_discord.rest_base}/webhooks/{fake_discord.application_id}/{handle.token}"
    async with aiohttp.ClientSession() as http:
        async with http.post(followup, json={"content": "early"}) as response:
            assert response.status == 404
        async with http.post(callback, json={"type": 7, "data": {"content": "x"}}) as response:
            assert response.status == 400
        async with http.post(callback, json={"type": 4, "data": {"content": "ok"}}) as response:
            assert response.status == 204  # no ?with_response=1
        async with http.post(callback, json={"type": 4, "data": {"content": "again"}}) as response:
            assert response.status == 400
            assert (await response.json())["code"] == 40060
    rules = [v.rule for v in fake_discord.take_violations()]
    assert rules == ["followup-before-answer", "callback-type", "double-answer"]
    assert (await handle.response()).content == "ok"


async def test_responses_are_json_without_charset(fake_discord: FakeDiscord) -> None:
    """discord.py parses a body only when Content-Type is exactly application/json."""
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{fake_discord.rest_base}/users/@me") as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["id"] == str(fake_discord.application_id)
        async with http.get(f"{fake_discord.rest_base}/nowhere") as response:
            assert response.status == 404
            assert (await response.json())["message"] == "404: Not Found"
    assert [v.rule for v in fake_discord.take_violations()] == ["unknown-route"]


async def test_wrong_token_is_a_login_failure(fake_discord: FakeDiscord) -> None:
    """The fake checks the bot token like Discord: 401 on /users/@me."""
    with patch_discord(fake_discord.rest_base, fake_discord.gateway_url):
        client = discord.Client(intents=discord.Intents.none())
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
        await client.close()


class ShardedBot(commands.AutoShardedBot):
    """An AutoShardedBot with one guild command: asks /gateway/bot for the shard count."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.guild_id = guild_id

    async def setup_hook(self) -> None:
        @discord.app_commands.command(description="Ping")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pong from shard {interaction.guild.shard_id}")

        guild = discord.Object(self.guild_id)
        self.tree.add_command(ping, guild=guild)
        await self.tree.sync(guild=guild)


async def test_auto_sharded_bot(fake_discord: FakeDiscord) -> None:
    """AutoShardedBot: one shard from /gateway/bot, guild-synced command, drop and resume."""
    async with fake_discord.run_in_process(
        lambda: ShardedBot(fake_discord.guild_id), commands=True
    ) as bot:
        assert bot.shard_count == 1
        assert any(r.path == "/gateway/bot" for r in fake_discord.requests)
        assert [c["name"] for c in fake_discord.synced_commands(fake_discord.guild_id)] == ["ping"]
        assert fake_discord.synced_commands() == []
        ping = await fake_discord.slash("games", "owner", "ping")
        assert (await ping.response()).content == "pong from shard 0"
        await fake_discord.drop_gateway()
        again = await fake_discord.slash("games", "owner", "ping")
        await again.response()


async def test_direct_messages(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """A slash command in the bot's DM channel, and the bot opening a DM to a user."""

    async def dm_back(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("sent you a DM", ephemeral=True)
        await interaction.user.send("hello in private")

    sample.script = dm_back
    handle = await fake_discord.slash("games", "bob", "sample", "script")
    await handle.response()
    dm = fake_discord.dm_channel("bob")
    await fake_discord.wait_for(lambda: bool(fake_discord.messages(dm)), what="the DM")
    assert [m.content for m in fake_discord.messages(dm)] == ["hello in private"]

    sample.script = None
    in_dm = await fake_discord.slash(dm, "bob", "sample", "script")
    reply = await in_dm.response()
    assert (reply.channel, reply.content) == (dm, "no script")
    assert "guild_id" not in in_dm.payload and in_dm.payload["user"]["username"] == "bob"


async def test_interaction_sent_during_a_drop_is_replayed_on_resume(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Events dispatched while the bot is disconnected arrive after its RESUME."""
    await fake_discord.drop_gateway(wait_resumed=False)
    play = await fake_discord.slash("general", "carol", "sample", "play")
    await play.response()
    assert fake_discord.resume_count == 1


async def test_concurrent_interactions_each_get_a_latency(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Many users at once: every interaction answered, one latency each (the benchmark's view)."""
    users = ["alice", "bob", "carol", "dave", "mod", "owner"]
    handles = await asyncio.gather(
        *(
            fake_discord.slash("general", user, "sample", "play", options={"pegs": 2 + i % 7})
            for i, user in enumerate(users * 5)
        )
    )
    replies = await asyncio.gather(*(h.response() for h in handles))
    assert len({r.id for r in replies}) == 30
    clicks = await asyncio.gather(*(fake_discord.click(r, "Count 0") for r in replies))
    await asyncio.gather(*(c.response() for c in clicks))
    assert all(r.content == "Count: 1" for r in replies)
    latencies = fake_discord.latencies()
    assert len(latencies) == 60 and max(latencies) < 3.0


async def test_attachments_survive_edits_that_do_not_mention_them(
    fake_discord: FakeDiscord, sample: SampleBot
) -> None:
    """Multipart uploads; an edit without `attachments` keeps them, `attachments=[]` drops them."""
    done = asyncio.Event()

    async def upload(interaction: discord.Interaction) -> None:
        board = discord.File(io.BytesIO(b"RGBY"), filename="board.txt")
        await interaction.response.send_message("your board", file=board)
        await interaction.edit_original_response(content="your board, edited")
        done.set()

    sample.script = upload
    handle = await fake_discord.slash("general", "alice", "sample", "script")
    reply = await handle.response()
    await fake_discord.wait_for(done.is_set, what="the edit")
    assert reply.content == "your board, edited"
    assert [(a["filename"], a["size"]) for a in reply.attachments] == [("board.txt", 4)]

    async def strip(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("stripping")
        message = await interaction.channel.fetch_message(reply.id)  # type: ignore[union-attr]
        await message.edit(attachments=[])

    sample.script = strip
    again = await fake_discord.slash("general", "alice", "sample", "script")
    await again.response()
    await fake_discord.wait_for(lambda: not reply.attachments, what="attachments removed")
    assert reply.content == "your board, edited"


async def test_permissions_reach_the_bot(fake_discord: FakeDiscord, sample: SampleBot) -> None:
    """`member.permissions` per user (the mod has Manage Messages) and `app_permissions`."""

    async def report(interaction: discord.Interaction) -> None:
        mine = interaction.permissions
        app = interaction.app_permissions
        await interaction.response.send_message(
            f"manage={mine.manage_messages} send={mine.send_messages} "
            f"app_send={app.send_messages} app_embed={app.embed_links}"
        )

    sample.script = report
    seen: dict[str, str] = {}
    for user in ("alice", "mod", "owner"):
        handle = await fake_discord.slash("general", user, "sample", "script")
        seen[user] = (await handle.response()).content
    assert seen["alice"] == "manage=False send=True app_send=True app_embed=True"
    assert seen["mod"] == "manage=True send=True app_send=True app_embed=True"
    assert seen["owner"] == seen["mod"]


class UnsyncedClient(discord.Client):
    """A plain Client with a command tree it never syncs (as a bot run with sync disabled)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = discord.app_commands.CommandTree(self)

        @self.tree.command(description="Echo")
        async def echo(interaction: discord.Interaction, text: str, times: int) -> None:
            await interaction.response.send_message(" ".join([text] * times))


async def test_commands_that_were_never_synced_infer_option_types(
    fake_discord: FakeDiscord,
) -> None:
    """With nothing synced the driver infers option types; no intents means no message events."""
    async with fake_discord.run_in_process(UnsyncedClient()):
        assert fake_discord.command_syncs == []
        echo = await fake_discord.slash(
            "general", "alice", "echo", options={"text": "hi", "times": 3}
        )
        assert (await echo.response()).content == "hi hi hi"
        options = echo.payload["data"]["options"]
        assert [(o["name"], o["type"]) for o in options] == [("text", 3), ("times", 4)]
