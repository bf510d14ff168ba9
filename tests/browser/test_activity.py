"""The Activity in a real browser beyond one game: the channel and the page are one game, a
phone played by keyboard alone, Polish, refusals, and a page that catches up after its live
connection dropped."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from playwright.async_api import Route, WebSocketRoute

from tests.bot.helpers import board_shows, move_count, query, secret_text
from tests.browser.harness import CDN, PHONE, DiscordClients
from tests.browser.test_play import wrong
from tests.discord_fake import FakeDiscord

REFUSED = "Failed to load resource"
"""What chromium logs for an API call answered 4xx, which the refusal tests expect."""


async def test_a_slash_guess_shows_on_the_activity_and_an_activity_guess_on_the_board(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("bob",))
    bob = await discord_clients.open("bob", instance)
    secret = secret_text(db_path)

    slash = await fake_discord.slash(
        "general", "alice", "mastermind", "guess", options={"code": wrong(secret, 2)}
    )
    await slash.response()
    await bob.wait_rows(1)
    assert await bob.row_codes() == [wrong(secret, 2)]
    await bob.guess(wrong(secret, 3))
    # Alice never opened the Activity: the bot asked Discord her name, shown from the next view.
    names = await bob.app.locator("#game .row .by .name").all_inner_texts()
    assert names == ["Alice", "Bob"]
    assert discord_clients.avatars  # each from Discord's CDN, nothing from anywhere else
    assert all(url.startswith(CDN) for url in discord_clients.avatars)
    await board_shows(fake_discord, board, "**8** of 10")
    assert move_count(db_path) == 2
    assert not bob.problems, bob.problems


async def test_a_phone_plays_by_keyboard_alone(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await discord_clients.open("alice", instance, viewport=PHONE, platform="mobile")
    secret = secret_text(db_path)
    frame = alice.frame
    assert await frame.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for target in await alice.app.locator("button:visible").all():
        box = await target.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, await target.inner_text()

    # Tab moves focus as the browser does (never captured): into the Activity's first button.
    keyboard = alice.page.keyboard
    await keyboard.press("Tab")
    assert await frame.evaluate("document.activeElement.tagName") == "BUTTON"
    for key in wrong(secret, 0)[:-1] + "9":  # a 6-colour game: 9 is no colour, ignored
        await keyboard.press(key)
    await keyboard.press("Backspace")  # and one more deleted
    await keyboard.type(wrong(secret, 0)[-2:])
    await keyboard.press("Enter")
    await alice.wait_rows(1)
    assert await alice.row_codes() == [wrong(secret, 0)]

    # Esc closes the give-up question.
    await alice.app.locator("button[data-action='giveup']").focus()
    await keyboard.press("Enter")
    assert await frame.evaluate("document.getElementById('confirm').open")
    await keyboard.press("Escape")
    assert not await frame.evaluate("document.getElementById('confirm').open")
    await keyboard.type(secret)
    await keyboard.press("Enter")
    await alice.app.locator("#game[data-status='won']").wait_for()
    assert move_count(db_path) == 2  # the question closed with Esc gave nothing up
    assert not alice.problems, alice.problems


async def test_polish_players_read_polish(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients
) -> None:
    fake_discord.set_user_locale("alice", "pl")
    await (await fake_discord.slash("general", "bob", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await discord_clients.open("alice", instance)
    assert await alice.frame.evaluate("document.documentElement.lang") == "pl"
    assert await alice.text("#game .remaining") == "Pozostałe próby: 10"
    assert await alice.text("button[data-submit='guess']") == "Zgadnij"
    assert await alice.text("button[data-action='hint']") == "Podpowiedź"
    label = await alice.app.locator("button[data-pick='1']").get_attribute("aria-label")
    assert label == "1 czerwony"
    assert not alice.problems, alice.problems


async def test_a_user_not_in_the_instance_is_refused_and_nothing_is_stored(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    carol = await discord_clients.open("carol", instance, wait=False)
    await carol.app.locator('body[data-ready="failed"]').wait_for(state="attached")
    assert await carol.notice()  # the server's words, shown
    assert await carol.app.locator("#game").is_hidden()
    assert await carol.commands() == ["AUTHORIZE"]  # never authenticated
    assert move_count(db_path) == 0
    assert not carol.unexpected(REFUSED), carol.problems


async def test_a_move_on_a_stale_board_is_refused_and_the_page_catches_up(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    secret = secret_text(db_path)
    bob = await discord_clients.open("bob", instance)
    alice = await discord_clients.open("alice", instance, wait=False)

    async def deaf(socket: WebSocketRoute) -> None:
        """Alice's live feed never reaches the bot: her board stays where it was."""

    await alice.context.route_web_socket("**/api/live", deaf)
    await alice.signed_in()
    await bob.guess(wrong(secret, 0))
    await asyncio.sleep(0.5)
    assert await alice.rows().count() == 0  # she has not heard of it

    await alice.pick(wrong(secret, 1))
    await alice.app.locator("button[data-submit='guess']").click()
    assert await alice.notice()  # refused, in words
    await alice.wait_rows(1)  # and shown where the game is now
    assert await alice.row_codes() == [wrong(secret, 0)]
    assert move_count(db_path) == 1
    assert not alice.unexpected(REFUSED), alice.problems


async def test_the_page_reconnects_and_catches_up_with_what_it_missed(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    secret = secret_text(db_path)
    bob = await discord_clients.open("bob", instance)
    alice = await discord_clients.open("alice", instance, wait=False)
    routes: list[WebSocketRoute] = []

    async def through(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        routes.append(socket)

    await alice.context.route_web_socket("**/api/live", through)
    await alice.signed_in()
    await bob.guess(wrong(secret, 0))
    await alice.wait_rows(1)

    await routes[0].close(code=1001)  # the connection drops
    await bob.guess(wrong(secret, 1))  # a move made while alice is away
    await alice.wait_rows(2)  # reconnected with back-off, caught up at hello
    assert len(routes) == 2
    assert await alice.row_codes() == [wrong(secret, 0), wrong(secret, 1)]
    assert not alice.problems, alice.problems


async def test_a_move_whose_answer_was_lost_is_sent_again_and_stored_once(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await discord_clients.open("alice", instance)
    secret = secret_text(db_path)
    sent: list[str] = []

    async def lose_the_first_answer(route: Route) -> None:
        sent.append(route.request.post_data or "")
        if len(sent) == 1:
            await route.fetch()  # the bot stores the move...
            await route.abort("connectionreset")  # ...and its answer never arrives
        else:
            await route.continue_()

    await alice.context.route("**/api/action", lose_the_first_answer)
    await alice.guess(wrong(secret, 0))
    for _ in range(100):  # the page sends it again after half a second
        if len(sent) == 2:
            break
        await asyncio.sleep(0.1)
    await alice.app.locator("#app[aria-busy='false']").wait_for(state="attached")
    assert len(sent) == 2 and sent[0] == sent[1]  # the same move, the same nonce
    assert move_count(db_path) == 1
    assert await alice.row_codes() == [wrong(secret, 0)]
    assert await alice.app.locator("#notice").is_hidden()  # the player is told nothing wrong
    assert not alice.unexpected(REFUSED, "ERR_CONNECTION_RESET"), alice.problems


async def test_a_forged_session_is_refused_and_nothing_is_stored(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await discord_clients.open("alice", instance, wait=False)

    async def forge(route: Route) -> None:
        """The page's session swapped for one the bot never gave."""
        response = await route.fetch()
        body = await response.json()
        body["session"] = "forged-" + body["session"][7:]
        await route.fulfill(response=response, json=body)

    await alice.context.route("**/api/session", forge)
    await alice.app.locator('body[data-ready="failed"]').wait_for(state="attached")
    assert await alice.notice()  # told, in words
    assert await alice.app.locator("#game").is_hidden()
    assert move_count(db_path) == 0
    assert not alice.unexpected(REFUSED, "Uncaught"), alice.problems


async def test_reduced_motion_is_honoured_and_the_safe_areas_kept_clear(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    calm = await discord_clients.open("alice", instance, reduced_motion="reduce")
    lively = await discord_clients.open("bob", instance, reduced_motion="no-preference")
    await lively.guess(wrong(secret_text(db_path), 0))
    await calm.wait_rows(1)
    animation = (  # a row that just arrived
        "(() => { const row = document.createElement('li'); row.className = 'row fresh';"
        " document.querySelector('.rows').append(row);"
        " const name = getComputedStyle(row).animationName; row.remove(); return name; })()"
    )
    assert await lively.frame.evaluate(animation) == "arrive"
    assert await calm.frame.evaluate(animation) == "none"

    inset = "document.documentElement.style.setProperty('--discord-safe-area-inset-top', '40px')"
    top = "parseFloat(getComputedStyle(document.body).paddingTop)"
    before = await calm.frame.evaluate(top)
    await calm.frame.evaluate(inset)
    assert await calm.frame.evaluate(top) == before + 40


async def test_open_board_in_a_dm_plays_on_the_activity(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    """In a DM with the bot the Activity runs in a private channel, with no guild at all."""
    dm = fake_discord.dm_channel("alice")
    board = await (await fake_discord.slash(dm, "alice", "mastermind", "play")).settled()
    opened = [b for b in board.buttons if b["label"] == "Open board"]
    assert opened, board.buttons
    instance = await (await fake_discord.click(board, "Open board", user="alice")).launched()
    assert instance.kind == "pc"
    alice = await discord_clients.open("alice", instance, platform="mobile")
    await alice.guess(wrong(secret_text(db_path), 0))
    await board_shows(fake_discord, board, "**9** of 10")
    assert not alice.problems, alice.problems


async def test_a_move_aimed_at_another_channels_game_is_refused_and_nothing_is_stored(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    await (await fake_discord.slash("games", "bob", "mastermind", "play")).settled()
    ((elsewhere,),) = query(db_path, "SELECT max(id) FROM games")
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await discord_clients.open("alice", instance)

    async def aim_elsewhere(route: Route) -> None:
        """A page that names the other channel's game in its move."""
        body = json.loads(route.request.post_data or "{}")
        body["game_id"] = elsewhere
        await route.continue_(post_data=json.dumps(body))

    await alice.context.route("**/api/action", aim_elsewhere)
    await alice.pick("1234")
    async with alice.page.expect_response("**/api/action") as answered:
        await alice.app.locator("button[data-submit='guess']").click()
    refusal = await (await answered.value).json()
    assert refusal["error"] == "not_here", refusal
    assert await alice.notice() == refusal["message"]  # refused, in words
    assert move_count(db_path) == 0
    assert not alice.unexpected(REFUSED), alice.problems
