"""Play on the Activity in a real browser: the real page, the real SDK in a parent frame that
plays the Discord client, the real bot and store behind it, the fake Discord around them."""

from __future__ import annotations

import json
from pathlib import Path

from bot.engine.scoring import score
from tests.bot.helpers import board_shows, move_count, secret_text
from tests.browser.harness import DiscordClients
from tests.browser.test_page_files import ROOT, SDK
from tests.discord_fake import FakeDiscord


def wrong(secret: str, peg: int = 0) -> str:
    """The secret with one peg changed."""
    changed = "2" if secret[peg] == "1" else "1"
    return secret[:peg] + changed + secret[peg + 1 :]


async def test_two_players_in_one_instance_play_a_whole_game_and_see_each_other(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await discord_clients.open("alice", instance)
    bob = await discord_clients.open("bob", instance)
    secret = secret_text(db_path)
    assert await alice.commands() == ["AUTHORIZE", "AUTHENTICATE"]
    pinned = json.loads((ROOT / "contrib" / "vendor-sdk" / "package.json").read_text())
    assert await alice.page.evaluate("window.__sdkVersion") == pinned["dependencies"][SDK]
    assert await alice.text("#game .remaining") == "Guesses left: 10"

    await alice.guess(wrong(secret, 0))
    await bob.wait_rows(1)  # live: alice's move reaches bob's window
    assert await bob.row_codes() == [wrong(secret, 0)]
    assert await bob.text("#game .row .by .name") == "Alice"
    await bob.guess(wrong(secret, 1))
    await alice.wait_rows(2)
    assert await alice.row_codes() == [wrong(secret, 0), wrong(secret, 1)]
    await board_shows(fake_discord, board, "**8** of 10")  # the channel's board follows

    await bob.guess(secret)
    for player in (alice, bob):
        await player.app.locator("#game[data-status='won']").wait_for()
        assert await player.text("#game .result") == "Cracked!"
        assert "".join(await player.app.locator("#game .secret .peg").all_inner_texts()) == secret
        assert not player.problems, player.problems
    await board_shows(fake_discord, board, "Cracked by")


async def test_presence_hints_and_hard_mode_on_the_board(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (
        await fake_discord.slash("general", "alice", "mastermind", "play", options={"hard": True})
    ).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await discord_clients.open("alice", instance)
    bob = await discord_clients.open("bob", instance)
    bob_id = str(fake_discord.user("bob").id)
    await alice.app.locator(f"#presence li[data-user='{bob_id}']").wait_for()  # who is here
    assert "Hard mode" in await alice.text("#game .meta")

    secret = secret_text(db_path)
    first = wrong(wrong(secret, 0), 1)
    await alice.guess(first)
    # Hard mode: a guess that ignores the clue so far is refused in words, nothing stored.
    ignoring = next(
        code
        for code in ("1111", "2222", "3333", "4444", "5555", "6666")
        if code != secret and score(tuple(first), tuple(code)) != score(tuple(first), tuple(secret))
    )
    await bob.pick(ignoring)
    await bob.app.locator("button[data-submit='guess']").click()
    assert await bob.notice()
    assert await bob.rows().count() == 1 and move_count(db_path) == 1

    await alice.app.locator("button[data-action='hint']").click()
    await alice.app.locator("#notice.info").wait_for()  # the hint, for the asker alone
    hint = await alice.text("#notice")
    assert "fit" in hint and "**" not in hint  # Discord's bold, drawn bold
    assert await alice.app.locator("#notice strong").count() == 1
    assert await bob.app.locator("#notice.info").count() == 0

    await bob.page.close()  # bob closes Discord's window: he is no longer here
    await alice.app.locator(f"#presence li[data-user='{bob_id}']").wait_for(state="detached")
    assert not alice.unexpected(), alice.problems


async def test_the_review_of_a_finished_game_with_its_chart(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await discord_clients.open("alice", instance)
    bob = await discord_clients.open("bob", instance)
    secret = secret_text(db_path)
    await alice.guess(wrong(secret, 0))
    await alice.guess(secret)
    await alice.app.locator("button[data-action='review']").click()
    panel = alice.app.locator("#game .review")
    await panel.wait_for(timeout=30_000)  # the solver's workers review every guess
    assert "Knuth" in await panel.inner_text() and "**" not in await panel.inner_text()
    chart = panel.locator("img.chart")
    assert (await chart.get_attribute("src") or "").startswith("data:image/png;base64,")
    assert await chart.evaluate("image => image.complete && image.naturalWidth > 0")
    assert await bob.app.locator("#game .review").count() == 0  # for the asker alone
    assert not alice.problems, alice.problems
