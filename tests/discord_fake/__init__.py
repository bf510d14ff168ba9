"""A loopback fake of Discord (REST + gateway) that the real discord.py client connects to.

Nothing of discord.py is mocked: the client logs in, identifies, syncs commands and answers
interactions over real HTTP and a real websocket on 127.0.0.1. Tests act as users through the
driver and read back what the bot posted. Discord's rules that discord.py does not check are
enforced here; each broken rule is a `Violation`, and the `fake_discord` fixture fails the test.

Quick start::

    pytest_plugins = ["tests.discord_fake.fixtures"]   # or import the fixture in a conftest

    async def test_play(fake_discord: FakeDiscord) -> None:
        async with fake_discord.run_in_process(lambda: MyBot(...), commands=True) as bot:
            h = await fake_discord.slash("general", "alice", "mastermind", "play",
                                         options={"pegs": 4})
            msg = await h.response()                 # the reply, or FakeDiscordError after 5 s
            click = await fake_discord.click(msg, "Guess", user="bob")  # custom_id or label
            await click.response()                   # type 7: the same message, edited
            assert "..." in msg.text                 # FakeMessage objects are live

FakeDiscord(*, token=None, members=("alice", "bob", "carol", "dave"),
            channels=("general", "games"), interaction_deadline=3.0, token_lifetime=900.0,
            heartbeat_interval_ms=41250, guild_ready_timeout=0.1, message_events=True,
            bot_permissions=None, guilds=1, shard_count=1, heartbeat_before_clicks=True,
            rate_limits=limits.DISCORD)

- `await start()` / `await close()` (close also stops bots), or `async with FakeDiscord()`.
  `rest_base`, `gateway_url`, `token` (the only bot token it accepts), `guild_id`,
  `application_id` (= the bot's user id), `world` (roles, payload builders).
- The guild "Fake Guild" has text channels "general" and "games" and members alice, bob,
  carol, dave, mod (role Moderator: Manage Messages), owner (the guild owner: all permissions)
  and the bot. `user("alice")`, `channel("general")`, `dm_channel("alice")` (names, ids or
  objects are accepted everywhere a user or channel is asked for).
- Sharding: `guilds=n` adds "Fake Guild 2".."Fake Guild n", each with the same members and
  roles and channels named "general-k", "games-k" (k its number). `shard_count=s` is what
  `GET /gateway/bot` recommends; guild k then lives on shard (k-1) % s, and every event of a
  guild (GUILD_CREATE, interactions, messages) goes only to the session that identified with
  that shard, `(guild_id >> 22) % s` as Discord routes it (DMs: shard 0). An IDENTIFY with
  fewer shards is closed with 4011, an impossible shard with 4010. Several bot processes, one
  per shard, may be connected at once. `guild_ids`, `shard_of(guild_id or channel)`.

Installs and contexts (where the bot is not a member, only interactions work):

- Every interaction carries Discord's `context` (0 a server, 1 the bot's DM, 2 a group DM)
  and `authorizing_integration_owners`: "0" (the guild id, or "0" in the bot's DM) for the
  server install where the bot is, plus "1" (the user id) for a user who installed the app
  (`install_for_user(user)`). A click carries the owners of the message it is on.
  `interaction_context(channel, user)` computes both.
- `add_foreign_guild(name="Other Guild", channels=("elsewhere",)) -> guild id`: a server that
  never invited the bot (no GUILD_CREATE, no gateway events; its members are the usual
  people). `group_dm(name, members)`: a group DM (type 3) without the bot. Commands there
  need a user install; `app_permissions` is the interaction-response set (embeds, files,
  external emojis, mentions). Every bot-token route of their channels (messages, edits,
  history, the channel itself) and guild routes of a foreign guild answer 403 Missing Access
  (50001) and record a `not-a-member` violation.
- `slash` refuses (FakeDiscordError) a global command whose synced `contexts` (default all,
  `[0]` with dm_permission false) leave out the interaction's context, or whose
  `integration_types` (default [0]) match no install authorizing it there. Guild commands
  exist only in their guild.
- Interaction tokens live `token_lifetime` (15 min): `age_interaction(handle, seconds)`
  makes one interaction older (or `advance_time` all); a followup, @original edit or fetch
  with an expired token is 401 Invalid Webhook Token (50027) and a `token-expired` violation.

Permissions (the bot's are enforced on REST, see below):

- By default @everyone grants what a new server's does (view, send, history, embeds, files,
  reactions...) and the bot's role adds Manage Messages. `bot_permissions=discord.Permissions(
  ...)` (or an int) gives the bot exactly that: its role gets it, @everyone grants nothing, and
  people get the usual rights from a "Member" role instead.
- `bot_permissions_in(channel) -> discord.Permissions`, `permissions_in(channel, user)`:
  computed as Discord does (guild roles, then @everyone / role / member overwrites; no View
  Channel means nothing; no Send Messages drops Embed Links, Attach Files, TTS, @everyone).
  Every interaction's `app_permissions` is the bot's, and `member.permissions` the user's, in
  the interaction's channel (a fixed DM set in DMs).
- `await set_bot_permissions(perms)`, `await set_role_permissions(role, perms)` (role names,
  "@everyone", "bot"), `await set_overwrite(channel, target, *, allow=0, deny=0)` (a role or
  a user; `fake.world.bot_user` for the bot's own member; allow=deny=0 removes it). Each sends
  the bot GUILD_ROLE_UPDATE / CHANNEL_UPDATE and waits until it has processed it.
- Enforced on the bot-token routes of guild channels: View Channel for everything (else 403
  50001 Missing Access); creating a message needs Send Messages (a reply also Read Message
  History; a message of embeds only also Embed Links); other embeds without Embed Links are
  dropped silently, as Discord does; fetching one message needs Read Message History (else
  403 50013 Missing Permissions) and history without it is empty; editing the bot's own
  message needs only View Channel; reactions need Read Message History (+ Add Reactions);
  deleting others' messages needs Manage Messages. Each refusal and each dropped embed is a
  `missing-permissions` violation. Interaction callbacks, followups and @original edits
  (webhooks) need no channel permission.

Running the bot under test:

- `async with run_in_process(client_or_factory, *, timeout=10.0, commands=False) as bot`:
  patches discord.py (patching.py), builds the client if given a factory, runs
  `bot.start(fake.token)` in this loop and yields once it is ready; closes it on exit.
- `await spawn_bot(module="bot", *, env=None, token=None, args=()) -> BotProcess` runs
  `python -m tests.discord_fake.launch <rest> <gateway> <module> *args` with this environment
  plus DISCORD_TOKEN=fake.token and `env`. BotProcess: `await wait_ready(timeout=20.0, *,
  commands=False)` (fails at once if the process exits), `kill()` (SIGKILL), `terminate()`
  (SIGTERM), `interrupt()` (SIGINT), `send_signal(sig)`, `await wait(timeout=10.0) -> exit code`
  (-9 after kill), `await stop(timeout=5.0)` (TERM, then KILL, then its whole process group),
  `kill_group()`, `output` / `output_lines` (stdout+stderr), `returncode`, `pid`.
- `await wait_ready(timeout=10.0, *, commands=False, since_identify=0)`: the newest IDENTIFY
  led to discord.py's `ready` (reported by the test-side patch), and with `commands=True` the
  bot also synced commands since its last login. `is_ready(...)` checks without waiting.

Acting as users (each returns an `InteractionHandle` as soon as INTERACTION_CREATE is sent):

- `await slash(channel, user, command, *subcommands, options=None, locale=None)`; options
  are checked against the synced command like a Discord client would (names, types, required,
  choices, ranges, lengths); user, channel and role options take names and fill `resolved`.
  An unsynced command is refused once anything was synced; if nothing was, types are guessed.
  Commands and options go by their default names, as Discord sends them whatever the client's
  language.

Languages: every interaction carries the user's client language as `locale` (default "en-US";
`set_user_locale(user, "pl")`, or `locale=` on one `slash`) and, in a guild, the guild's
`guild_locale` (`await set_guild_locale("pl", guild=None)`: the guild's `preferred_locale`
too, with GUILD_UPDATE to a connected bot). Only Discord's locales (`rules.LOCALES`) are taken.
A command sync is checked as Discord checks localisations: keys are Discord locales, localized
names follow the name rules (lower case, 1-32), descriptions and choice names 1-100, and no two
options of one command show the same name in any locale.
- `await autocomplete(channel, user, command, *subcommands, options=None, focused=name)`
- `await click(message, custom_id_or_label, *, user=None)` (user defaults to whoever triggered
  the message; disabled buttons and other users' ephemeral messages are refused)
- `await select(message, custom_id_or_placeholder, values, *, user=None)`
- `await submit_modal(modal_or_handle, {custom_id: value}, *, user=None)` (checks required
  fields and lengths; unfilled fields keep their default)
  Clicks, selects and submits first wait until every REST answer in flight is written and the
  bot answered a gateway heartbeat, because discord.py registers a view only after the
  message's request returns. discord.py sends that heartbeat through its gateway rate limiter
  (110 a minute): a load test of custom_id routes passes `heartbeat_before_clicks=False`.
- `await forge_interaction(channel, user, *, type, custom_id, component_type=2, values=None,
  fields=None, data=None, message=None, payload=None, expect_answer=True, settle=True)`: what a
  malicious client could send, checked against nothing (`settle=False`: without the gateway
  round trip clicks wait for first, which discord.py rate-limits; for thousands of inputs the
  bot matches by custom_id alone). Type 3 (component: `values` for a select) or 5
  (modal submit: `fields` = {text input custom_id: value}); `data` replaces the whole `data`.
  From any guild channel or a DM (`dm_channel(user)`: the payload has `user`, no `guild_id`).
  `message` (any message, any channel) is attached, or none is. `payload` entries override
  top-level keys (None deletes one). Note: discord.py dispatches a component interaction to
  a view or `DynamicItem` only if the attached message carries a component with that type and
  custom_id; with no message, or another message, the bot never sees it. Pass
  `expect_answer=False` for those: their unanswered deadline is then not a violation. Modal
  submits reach the client's `on_interaction` whatever they carry. The handle's `forged` is
  True.

InteractionHandle: `await answer(timeout=5.0) -> callback type`; `await response(timeout=5.0)
-> FakeMessage` (the new reply for 4/5, the updated message for 6/7); `await settled()` (the
reply once a defer is filled in); `await followup(index=0)`; `await modal() -> FakeModal`;
`await choices()`; `latency` (seconds from dispatch to the first answer; None if none),
`answer_type`, `original`, `followups`, `messages`, `late`, `payload`, `id`, `token`.

Reading state:

- `messages(channel, *, include_deleted=False)` -> [FakeMessage] oldest first, ephemeral ones
  included; `message(id)`; `all_messages()`. FakeMessage: id, channel, author, content,
  embeds, components, attachments, flags, deleted, edits, history (every version),
  history_times (when each was applied, unix seconds), and
  `ephemeral`, `loading`, `visible_to`, `text` (content + embed text + text displays), `embed`,
  `buttons`, `selects`, `component(target)`, `payload()`.
- `synced_commands(guild=None)` (a guild id for guild commands), `command_syncs` [(guild,
  login number)], `interactions`, `latencies()`, `requests` (every REST call with its status),
  `modals`, `presence`, `login_count`, `identify_count`, `resume_count`, `ready_count`.
- `await wait_for(predicate, timeout=5.0, what="...")`: re-checked on every change (and every
  20 ms, for state outside the fake).
- `violations`, `take_violations(rule=None)` (for tests that expect some),
  `assert_no_violations()`. Rules: interaction-deadline (3 s to the first answer),
  token-expired (15 min), content-length (2000), embed-limit, embed-count, component-rows,
  component-type, component-count, custom-id-length (100), custom-id-duplicate, button,
  select, modal, text-input, modal-after-modal, callback-type, double-answer,
  followup-before-answer, no-original-response, empty-message, components-v2, command-sync,
  autocomplete, unknown-route, unknown-interaction, unknown-webhook, gateway-op,
  missing-permissions, not-a-member, retry-too-soon, invalid-requests.
- `advance_time(seconds)`: moves the fake's clock, to test the 3 s and 15 min rules at once.

Rate limits (numbers and their sources in limits.py; `rate_limits=None` or the test marker
`unlimited_discord` for an unlimited fake, which a test must ask for):

- Every bot-token route answers Discord's headers (`X-RateLimit-Limit`, `-Remaining`, `-Reset`,
  `-Reset-After`, `-Bucket`) and, past its bucket, 429 with `Retry-After`, `X-RateLimit-Scope`
  (`user`), `Via` and the JSON body (`retry_after`, `global`). Buckets: a channel's sends and
  edits together (5 per 5 s), its deletes, its reactions, each interaction token's followups
  and @original edits, and one per other route and major parameter. Bot-token routes also
  share the global limit (50 a second; its 429 has `X-RateLimit-Global: true`, scope
  `global`). The interaction callback is never limited.
- `rate_limiter.hits` lists every 429 (`RateLimitHit`: at, method, path, bucket, scope,
  retry_after); `rate_limiter.invalid_total` counts requests answered 401, 403 or 429.
- Violations: `retry-too-soon` (the same request again before its 429's `retry_after` ran
  out) and `invalid-requests` (Discord's 10,000 in 10 minutes: the bot would be banned; the
  fake then answers every request 429 "error code: 1015", as Cloudflare does).

Injected failures (not violations: Discord failing, not the bot):

- `fail_next(method, path, *, status=403, code=None, message=None, times=1) -> InjectedFailure`
  answers the next `times` requests whose path (after /api/v10) fully matches the regex `path`
  with that error (403 defaults to 50013, 404 to 10008). discord.py retries 500/502/504/524 up
  to 5 times (sleeping 1, 3, 5, 7 s); 503 fails at once. `.hits` counts answered requests.
- `fail_message_edit(message, *, status=403, times=1, ...)`: the same for the bot's next edit
  of that message through `PATCH /channels/{channel}/messages/{message}` (a board edit).
- `injected_failures` lists them.
- `stall_next(method, path) -> StalledRequest` holds the next matching request unserved;
  `await stall.wait_arrived()`, then `stall.release(serve=True)` (served) or `serve=False`
  (answered 503 and never applied): kill the bot in between to test a crash in that window.

The Activity (activities.py; `FakeDiscord(activities=True)`, or `enable_activities()` /
`disable_activities()` at any time; the `fake_discord` fixture starts without them):

- With Activities the application carries the EMBEDDED flag (1 << 17) and owns a global Entry
  Point command (type 4, name "launch", `handler` 2: Discord launches the Activity itself). A
  bulk overwrite of the global commands that would remove it is refused 400 with code 50240 and
  a `command-sync` violation; sending it back (type, name, description, handler) keeps it with
  its id; deleting it on its own is allowed. An Entry Point in a guild, a second one, one with
  an unknown handler, or any without Activities is 400 Invalid Form Body (50035).
- `POST /oauth2/token` (form-encoded; the client's id and secret in the form or HTTP Basic):
  `oauth_code(user, *, scopes=("identify",), redirect_uri=None) -> code` mints what the
  Discord client gets after the user authorizes; it is exchanged once, within 10 minutes, for
  `{access_token, token_type: "Bearer", expires_in, refresh_token, scope}`. Refusals are
  OAuth2's shape `{error, error_description}`: 401 `invalid_client` (id or `client_secret`),
  400 `invalid_grant` (unknown, used or expired code, redirect_uri mismatch),
  `unsupported_grant_type`, `invalid_request` (no grant_type, a JSON body).
  `activity_side.exchanges` lists every exchange with its status.
- `GET /users/@me` with `Authorization: Bearer <access_token>` (scope identify): the user with
  `locale` (`set_user_locale`); a bad, expired or identify-less token is 401. The bot token
  still logs the bot in there. `oauth_token(user, *, scopes=("identify",))` mints a token
  directly.
- `GET /applications/{app}/activity-instances/{instance_id}` with the bot token: `{application_id,
  instance_id, launch_id, location: {id, kind "gc"|"pc", channel_id, guild_id (gc only)},
  users}`; 404 for an unknown or ended instance. `start_activity(channel, users=("alice",)) ->
  FakeActivityInstance` (one per channel), `join_activity(instance, user)`,
  `leave_activity(instance, user)` (it ends with its last user), `launch_from_entry_point(
  channel, user)` (the App Launcher: the bot hears nothing), `activity_instances`,
  `activity_instance(id)`, `activity_launches` ([Launch(user, instance, interaction)]).
  FakeActivityInstance: instance_id, launch_id, channel, users, ended, kind, location_id.
- The LAUNCH_ACTIVITY callback (type 12, `interaction.response.launch_activity()`) answers a
  command, a component or a modal submit (else a `callback-type` violation): the user joins the
  channel's running instance or starts one, `handle.activity_instance` / `await
  handle.launched()` return it, and `?with_response` carries `activity_instance_id` and the
  `activity_instance` resource. Refused as Discord refuses, with no violation (Discord, not
  the bot) and the interaction left unanswered: an app without Activities, 400 code 50234
  (Discord documents the refusal but no code; the bot must not rely on the number); a user
  without Use Activities in the guild channel, 403 50013. @everyone grants Use Activities.

Gateway control: `await drop_gateway(code=4000, *, abort=False, wait_resumed=True,
timeout=10.0)`, `await request_reconnect(*, timeout=10.0)` (op 7), `await
invalidate_session()` (op 9: a new IDENTIFY; discord.py waits 5 s before it).

Every wait raises `FakeDiscordError` (an AssertionError) on timeout, listing violations, the
last REST requests and the output of bot processes.
"""

from tests.discord_fake.activities import FakeActivityInstance
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
from tests.discord_fake.server import InjectedFailure
from tests.discord_fake.world import FakeChannel, FakeRole, FakeUser

__all__ = [
    "BotProcess",
    "FakeActivityInstance",
    "FakeChannel",
    "FakeDiscord",
    "FakeDiscordError",
    "FakeMessage",
    "FakeModal",
    "FakeRole",
    "FakeUser",
    "InjectedFailure",
    "InteractionHandle",
    "RecordedRequest",
    "Violation",
    "apply_patches",
    "patch_discord",
]
