"""A loopback fake of Discord (REST + gateway) that the real discord.py client connects to.

Nothing of discord.py is mocked: the client logs in, identifies, syncs commands and answers
interactions over real HTTP and a real websocket on 127.0.0.1. Tests act as users through the
driver and read back what the bot posted. Discord's rules that discord.py does not check are
enforced here; each broken rule is a `Violation`, and the `fake_discord` fixture fails the test.

Quick start::

    pytest_plugins = ["tests.discord_fake.fixtures"]

    async def test_play(fake_discord: FakeDiscord) -> None:
        async with fake_discord.run_in_process(MyBot) as bot:      # factory or instance
            h = await fake_discord.slash("general", "alice", "mastermind", "play",
                                         options={"pegs": 4})
            msg = await h.response()                # first answer's message, 5 s timeout
            click = await fake_discord.click(msg, "Guess", user="bob")   # custom_id or label
            await click.response()                  # type 7: the same message, edited
            assert "..." in msg.text                # FakeMessage objects are live

The fake (`FakeDiscord(**options)`; options: token, members, channels, interaction_deadline=3.0,
token_lifetime=900.0, heartbeat_interval_ms=41250, guild_ready_timeout=0.1, message_events=True):

- `await start()` / `await close()` or `async with FakeDiscord() as fake`; `rest_base`,
  `gateway_url`, `token` (the bot token it accepts), `guild_id`, `application_id`.
- World: guild "Fake Guild" with text channels "general" and "games"; members "alice", "bob",
  "carol", "dave", "mod" (role Moderator: Manage Messages), "owner" (guild owner, all
  permissions) and the bot. `fake.user("alice")`, `fake.channel("general")`,
  `fake.dm_channel("alice")`; `fake.world` has roles and payload builders.

Running the bot under test:

- `async with fake.run_in_process(client_or_factory, *, timeout=10.0, commands=False) as bot:`
  patches discord.py (patching.py), runs `bot.start(fake.token)` in this loop and yields once
  the bot is ready; closes it at the end.
- `proc = await fake.spawn_bot(module="bot", *, env=None, token=None, args=())` runs
  `python -m tests.discord_fake.launch <rest> <gateway> <module>` with DISCORD_TOKEN set.
  `BotProcess`: `await proc.wait_ready(timeout=20.0, *, commands=False)`, `proc.kill()`
  (SIGKILL), `proc.terminate()` (SIGTERM), `proc.interrupt()`, `await proc.wait(timeout)` -> exit
  code, `await proc.stop()`, `proc.output`, `proc.returncode`, `proc.pid`.
- `await fake.wait_ready(timeout=10.0, *, commands=False)`: the newest IDENTIFY led to
  discord.py's `ready` event (reported by the test-side patch), and with `commands=True` the
  bot also synced commands since its last login. `fake.is_ready(commands=...)` checks now.

Acting as users (all return an `InteractionHandle` as soon as INTERACTION_CREATE is sent):

- `await fake.slash(channel, user, command, *subcommands, options=None, locale="en-US")`;
  options are checked against the synced command (types, required, choices, ranges); user,
  channel and role options take names and are put in `resolved`.
- `await fake.autocomplete(channel, user, command, *subcommands, options=None, focused=name)`
- `await fake.click(message, custom_id_or_label, *, user=None)` (user defaults to whoever
  triggered the message; disabled buttons and other users' ephemeral messages are refused)
- `await fake.select(message, custom_id, values, *, user=None)`
- `await fake.submit_modal(modal_or_handle, {custom_id: value}, *, user=None)`
  Clicks, selects and submits first wait for the bot to finish processing every REST answer
  (a gateway heartbeat round trip), because discord.py registers views only after the
  message's request returns.

`InteractionHandle`: `await h.answer(timeout=5.0)` -> callback type; `await h.response()` ->
`FakeMessage` (new reply for 4/5, the updated message for 6/7); `await h.settled()` -> the
reply once a defer is filled in; `await h.followup(index=0)`; `await h.modal()` ->
`FakeModal`; `await h.choices()`; `h.latency` (seconds from dispatch to first answer, None if
unanswered), `h.answer_type`, `h.original`, `h.followups`, `h.messages`, `h.late`.

Reading state:

- `fake.messages(channel, *, include_deleted=False)` -> list of `FakeMessage` (oldest first,
  ephemeral ones included); `fake.message(id)`; `fake.all_messages()`.
  `FakeMessage`: id, channel, author, content, embeds, components, attachments, flags,
  deleted, edits, history, and `.ephemeral`, `.loading`, `.visible_to`, `.text` (content and
  embed text), `.embed`, `.buttons`, `.selects`, `.component(target)`, `.payload()`.
- `fake.synced_commands(guild=None)` (guild id for guild commands), `fake.command_syncs`.
- `fake.interactions`, `fake.latencies()`, `fake.requests` (every REST call and status),
  `fake.modals`, `fake.presence`, `fake.identify_count`, `fake.resume_count`,
  `fake.ready_count`, `fake.login_count`.
- `await fake.wait_for(predicate, timeout=5.0, what="...")`: re-checked on every change.
- `fake.violations`, `fake.take_violations(rule=None)` (for tests that expect one),
  `fake.assert_no_violations()`. Rules: interaction-deadline (3 s to the first answer),
  token-expired (15 min), content-length (2000), embed-limit, embed-count, component-rows,
  component-type, custom-id-length (100), custom-id-duplicate, button, select, modal,
  text-input, modal-after-modal, callback-type, double-answer, followup-before-answer,
  no-original-response, empty-message, components-v2, command-sync, unknown-route.
- `fake.advance_time(seconds)`: move the fake's clock, to test the 3 s and 15 min rules.

Gateway control: `await fake.drop_gateway(code=4000, *, abort=False, wait_resumed=True)`,
`await fake.request_reconnect()` (op 7), `await fake.invalidate_session()` (op 9).

Every wait raises `FakeDiscordError` (an AssertionError) on timeout, listing violations, the
last REST requests and any bot process output.
"""

from tests.discord_fake.driver import FakeDiscord
from tests.discord_fake.models import (
    FakeDiscordError,
    FakeMessage,
    FakeModal,
    InteractionHandle,
    RecordedRequest,
    Violation,
)
from tests.discord_fake.patching import apply_patches, patch_discord
from tests.discord_fake.process import BotProcess
from tests.discord_fake.world import FakeChannel, FakeUser

__all__ = [
    "BotProcess",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeMessage",
    "FakeModal",
    "FakeUser",
    "InteractionHandle",
    "RecordedRequest",
    "Violation",
    "apply_patches",
    "patch_discord",
]
