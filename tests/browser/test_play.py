"""Play on the Activity in a real browser: the real page, the real SDK in a parent frame that
plays the Discord client, the real bot and store behind it, the fake Discord around them."""

from __future__ import annotations

from pathlib import Path

from tests.bot.helpers import board_shows, secret_text
from tests.browser.harness import DiscordClients
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
