"""`python -m bot` at LOG_LEVEL=DEBUG, killed with SIGKILL mid-duel and started again: the old
board, a guess picker and a secret picker opened before the kill all still work, and neither
secret of a running duel reached a line of the log, at any level."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.helpers import query
from tests.discord_fake import FakeDiscord
from tests.modes.duel.test_duel_bot import (
    SOLVER_WAIT,
    SPACE,
    THEIRS,
    a_miss,
    bots_secret,
    pick,
    set_secret,
)


def spelled(code: str) -> set[str]:
    parsed = SPACE.parse(code)
    return {code, SPACE.letters(parsed), SPACE.emoji(parsed), str(list(parsed)).replace(" ", "")}


async def test_a_duel_survives_sigkill_and_its_secrets_never_reach_the_debug_log(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    fake = fake_discord
    env = {  # every setting explicit: a developer's own .env must not leak into the test
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "DEBUG",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "SOLVER_TIME_BUDGET": "2",
    }
    first = await fake.spawn_bot(env=env)
    await first.wait_ready(timeout=30.0, commands=True)
    picker = await (await fake.slash("general", "alice", "mastermind", "duel")).response()
    _, board = await set_secret(fake, picker, THEIRS, "alice")
    secret = bots_secret(db_path)
    miss = a_miss(secret)
    await (
        await fake.slash("general", "alice", "mastermind", "guess", options={"code": miss})
    ).settled(timeout=SOLVER_WAIT)
    await fake.wait_for(lambda: "**9** of 10" in board.text, what="the board after a round")
    guessing = await (await fake.click(board, "Guess", user="alice")).response()
    setting = await (await fake.slash("games", "bob", "mastermind", "duel")).response()
    await pick(fake, setting, "6", "bob")

    first.kill()
    await first.wait(10.0)
    assert "WebSocket Event" in first.output  # the log was at DEBUG
    words = set(re.findall(r"[\w\U0001F300-\U0001FAFF\[\],]+", first.output))
    assert words & (spelled(secret) | spelled(THEIRS)) == set()
    assert fake.token not in first.output

    second = await fake.spawn_bot(env=env)
    await second.wait_ready(timeout=30.0)
    try:
        await pick(fake, guessing, secret, "alice")
        sent = await fake.click(guessing, "Submit guess", user="alice")
        await sent.response()
        won = await sent.followup(timeout=SOLVER_WAIT)
        assert "wins" in won.text
        await fake.wait_for(lambda: "The player's secret" in board.text, what="the final board")

        await pick(fake, setting, "6234", "bob", first=1)  # its first peg was picked before
        _, other = await set_secret(fake, setting, "", "bob")
        assert "Mastermind duel" in other.text
    finally:
        await second.stop()
    assert query(db_path, "SELECT status FROM games ORDER BY id") == [("won",), ("active",)]
    assert "WebSocket Event" in second.output
    assert (
        spelled("6234") & set(re.findall(r"[\w\U0001F300-\U0001FAFF\[\],]+", second.output))
        == set()
    )
