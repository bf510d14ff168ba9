"""A race whose time limit falls while the bot is down (issue #34): the bot that starts
afterwards, on the same database, posts the result once, at its start, and ranks the racers as
the bot that was up would have (what they did before the limit, the race ended at the limit).

The restart is a new bot on the same database file in this process, since the test moves the
bot's clock past the limit instead of waiting out a real minute."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from bot.app import MastermindBot
from bot.config import Settings
from bot.modes.race import inputs as race_inputs
from tests.bot.helpers import query
from tests.bot.test_race import (
    Clock,
    join,
    my_board,
    open_race,
    pick_and_submit,
    secret_digits,
    type_code,
    wrong,
)
from tests.discord_fake import FakeDiscord


def _at(value: object) -> float:
    return (
        value if isinstance(value, (int, float)) else datetime.fromisoformat(str(value)).timestamp()
    )


async def test_a_race_that_ends_while_the_bot_is_down_is_ranked_once_at_the_next_start(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    fake = fake_discord
    clock = Clock()
    settings = Settings(token=fake.token, database_path=db_path)
    factory: Callable[[], MastermindBot] = lambda: MastermindBot(settings, clock=clock)  # noqa: E731
    alice, bob, carol = (fake.user(n).id for n in ("alice", "bob", "carol"))

    async with fake.run_in_process(factory, timeout=30.0, commands=True) as first:
        board = await open_race(fake, join_seconds=10, minutes=1)
        await join(fake, board, "bob")
        await join(fake, board, "carol")
        clock.advance(11)
        assert await race_inputs.clock_pass(first) == 1  # the lobby closed: the race is on
        await fake.wait_for(lambda: "The race is on" in board.text)
        secret = secret_digits(db_path)
        await pick_and_submit(fake, await my_board(fake, board, "bob"), "bob", secret)
        carols = await my_board(fake, board, "carol")
        await pick_and_submit(fake, carols, "carol", wrong(secret))
        await type_code(fake, carols, "carol", secret)  # bob first in 1 guess, carol in 2
        await fake.wait_for(lambda: "cracked it in 2 guesses" in board.text, what="carol")
        # alice has not cracked it when the bot goes down
    ((race_until,),) = query(db_path, "SELECT race_until FROM games")
    assert query(db_path, "SELECT status FROM games") == [("active",)]
    lines_before = [m for m in fake.messages("general") if "The race is over" in m.text]
    assert lines_before == []

    clock.advance(70)  # the time limit passes while no bot runs
    async with fake.run_in_process(factory, timeout=30.0) as second:
        await fake.wait_for(lambda: "Ranking" in board.text, 10.0, "the ranking at the start")
        assert await race_inputs.clock_pass(second) == 0  # owed once, done once
        ranking = board.text[board.text.index("Ranking") :]
        assert ranking.index(f"🥇 <@{bob}> · 1 guess") < ranking.index(f"🥈 <@{carol}> · 2 guesses")
        assert f"<@{alice}> did not crack it" in ranking
        assert f"First to crack it: <@{bob}>" in board.text
    ended = [m for m in fake.messages("general") if "The race is over" in m.text]
    assert len(ended) == 1 and not ended[0].ephemeral
    ((status, winner, finished),) = query(
        db_path, "SELECT status, winner_id, finished_at FROM games"
    )
    assert (status, winner) == ("won", bob)
    assert _at(finished) <= race_until + 1  # it ended at its limit, not when the bot came back
