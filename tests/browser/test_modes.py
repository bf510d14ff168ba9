"""Every mode on the Activity in a real browser: solve (answering the bot, undo, a
contradiction named), the daily (private), and a race of two racers from the lobby."""

from __future__ import annotations

import asyncio
import itertools
import json
from pathlib import Path

from bot.engine.scoring import score
from tests.bot.helpers import query
from tests.browser.harness import DiscordClients, Player
from tests.discord_fake import FakeDiscord


def codes(pegs: int = 4, colours: int = 6) -> list[str]:
    return ["".join(c) for c in itertools.product("123456"[:colours], repeat=pegs)]


def fits(code: str, rows: list[tuple[str, int, int]]) -> bool:
    return all(score(tuple(g), tuple(code)) == (b, w) for g, b, w in rows)


async def answers(player: Player) -> list[tuple[str, int, int]]:
    """The rows of a solve board: the bot's guess and the answer it had."""
    found = []
    for row in await player.rows().all():
        code = "".join(await row.locator(".pegs .peg").all_inner_texts())
        black = await row.locator(".dot.black").count()
        white = await row.locator(".dot.white").count()
        found.append((code, black, white))
    return found


async def answer(player: Player, black: int, white: int) -> None:
    before = await player.rows().count()
    await player.app.locator(f"button[data-count='black'][data-value='{black}']").click()
    await player.app.locator(f"button[data-count='white'][data-value='{white}']").click()
    await player.app.locator("button[data-submit='answer']").click()
    await player.wait_rows(before + 1)


async def bot_guess(player: Player) -> str:
    pegs = player.app.locator("#game .bot-guess .peg")
    await pegs.first.wait_for()
    return "".join(await pegs.all_inner_texts())


async def test_solve_answered_on_the_board_with_a_contradiction_undone(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled()
    instance = fake_discord.start_activity("general", users=("alice",))
    alice = await discord_clients.open("alice", instance)
    assert await alice.app.locator("#game").get_attribute("data-kind") == "solve"

    # "None of these colours", again and again, until no code fits: the page names it.
    contradiction = alice.app.locator("#game .contradiction")
    # The first answer by keyboard alone: Tab into the Activity, a digit for each count, Enter.
    await bot_guess(alice)
    for key in ("Tab", "0", "0", "Enter"):
        await alice.page.keyboard.press(key)
    await alice.wait_rows(1)
    for _ in range(8):
        await bot_guess(alice)
        await answer(alice, 0, 0)
        if await contradiction.count():
            break
    assert "contradict" in await contradiction.inner_text()
    stuck = await alice.rows().count()
    await alice.app.locator("button[data-action='undo']").click()
    await alice.wait_rows(stuck - 1)
    await contradiction.wait_for(state="detached")
    assert await alice.rows().count() == stuck - 1

    # A code that fits every answer left, answered truthfully: the bot cracks it.
    answered = await answers(alice)
    secret = next(c for c in codes() if fits(c, answered))
    for _ in range(8):
        guess = await bot_guess(alice)
        black, white = score(tuple(guess), tuple(secret))
        await answer(alice, black, white)
        if (black, white) == (4, 0):
            break
    await alice.app.locator("#game[data-status='won']").wait_for()
    assert (await answers(alice))[-1] == (secret, 4, 0)
    assert await alice.text("#game .result") == "Cracked!"
    assert not alice.problems, alice.problems


async def test_the_daily_stays_private(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "daily")).response()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await discord_clients.open("alice", instance)
    bob = await discord_clients.open("bob", instance)
    assert await alice.app.locator("#game").get_attribute("data-kind") == "daily"
    await alice.guess("1234")
    await alice.guess("5566")
    assert await alice.row_codes() == ["1234", "5566"]
    await asyncio.sleep(0.5)  # what a push to bob would have needed

    ((secret,),) = query(db_path, "SELECT secret FROM games WHERE kind = 'daily'")
    code = "".join(str(c + 1) for c in json.loads(secret))
    seen = await bob.frame.evaluate("document.body.innerText")
    assert await bob.rows().count() == 0 and "1234" not in seen and "5566" not in seen
    assert code not in seen.replace(" ", "")
    assert not alice.problems and not bob.problems, alice.problems + bob.problems


async def test_a_race_of_two_racers_from_the_lobby_to_the_standings(
    fake_discord: FakeDiscord, bot, discord_clients: DiscordClients, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "race")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await discord_clients.open("alice", instance)
    bob = await discord_clients.open("bob", instance)
    await bob.app.locator("#game .lobby").wait_for()
    await bob.app.locator("button[data-action='join']").click()
    await alice.app.locator("#game .side li", has_text="Bob").wait_for()
    await alice.app.locator("button[data-action='start']").click()
    await bob.app.locator("button[data-submit='guess']").wait_for()
    await bob.app.locator("#game .clock").wait_for()

    ((secret,),) = query(db_path, "SELECT secret FROM games WHERE kind = 'race'")
    code = "".join(str(c + 1) for c in json.loads(secret))
    wrong = ("2" if code[0] == "1" else "1") + code[1:]
    await alice.guess(wrong)
    await bob.app.locator("#game .side li", has_text="Alice — guesses: 1").wait_for()
    assert await bob.rows().count() == 0  # alice's guess is hers alone
    await bob.guess(code)
    await alice.app.locator("#game .side li", has_text="Bob").filter(has_text="1.").wait_for()
    assert await alice.row_codes() == [wrong]
    assert not alice.problems and not bob.problems, alice.problems + bob.problems
