"""`python -m bot` killed with SIGKILL mid-game, started again: old buttons finish the game."""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine.codes import CodeSpace
from tests.bot.helpers import (
    answer_label,
    board_shows,
    bot_guess,
    choose,
    guesses,
    press,
    query,
    secret_text,
)
from tests.discord_fake import FakeDiscord

CLASSIC = CodeSpace(4, 6)


async def test_games_survive_sigkill_and_old_buttons_still_work(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    env = {  # every setting explicit: a developer's own .env must not leak into the test
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "INFO",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "SOLVER_TIME_BUDGET": "2",
    }
    first = await fake_discord.spawn_bot(env=env)
    await first.wait_ready(timeout=30.0, commands=True)

    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    secret = secret_text(db_path)
    wrong = ("2" if secret[0] == "1" else "1") + secret[1:]
    await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": wrong})
    ).response()
    await board_shows(fake_discord, board, "**9** of 10")

    solve_secret = "3456"
    solve = await (await fake_discord.slash("games", "carol", "mastermind", "solve")).settled()
    await press(fake_discord, solve, answer_label(CLASSIC, "1122", solve_secret), "carol")
    assert bot_guess(solve)[0] == 2

    first.kill()
    await first.wait(10.0)
    shown = {secret, CLASSIC.letters(CLASSIC.parse(secret)), CLASSIC.emoji(CLASSIC.parse(secret))}
    leaks = [w for w in re.findall(r"[\w\U0001F300-\U0001FAFF]+", first.output) if w in shown]
    assert leaks == []  # no log line shows the active game's secret, in any spelling
    assert fake_discord.token not in first.output
    assert "ready as" in first.output  # the log was captured at all

    second = await fake_discord.spawn_bot(env=env)
    await second.wait_ready(timeout=30.0)
    try:
        picker = await (await fake_discord.click(board, "Guess", user="alice")).response()
        for peg, digit in enumerate(secret):
            await choose(
                fake_discord, picker, picker.selects[peg]["custom_id"], str(int(digit) - 1), "alice"
            )
        sent = await fake_discord.click(picker, "Submit guess", user="alice")
        await sent.response()
        won = await sent.followup()
        assert "cracked the code in 2 guesses" in won.text
        await board_shows(fake_discord, board, "Cracked by")
        game_id = query(db_path, "SELECT id FROM games WHERE kind = 'play'")[0][0]
        assert len(guesses(db_path, game_id)) == 2  # the guess before the kill is still there

        for _ in range(8):
            number, guess = bot_guess(solve)
            await press(fake_discord, solve, answer_label(CLASSIC, guess, solve_secret), "carol")
            if "Solved in" in solve.text:
                break
        assert "Solved in" in solve.text and number <= 5
    finally:
        await second.stop()
    global_syncs = [sync for sync in fake_discord.command_syncs if sync[0] is None]
    assert len(global_syncs) == 1  # the unchanged tree was not synced again after the restart
