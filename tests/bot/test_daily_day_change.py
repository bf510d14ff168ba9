"""The daily's day change happens at 00:00 UTC (issue #29 point 5): a game of the day before
that nobody finished ends at midnight through the daily's own timer, the way a late move ends
it (a timeout, its answer shown, nothing scored, nothing public), not whenever its player next
clicks. The clock here runs in real time from 23:59:52 UTC, so the midnight is 8 s away."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.app import MastermindBot
from bot.modes.daily import actions as daily
from tests.bot.helpers import choose, query
from tests.bot.test_daily import CLASSIC, code_of, open_daily, puzzle, rows, settings, wrong
from tests.discord_fake import FakeDiscord


class RunningClock:
    """The bot's clock: real time, from a moment the test chooses."""

    def __init__(self, start: datetime) -> None:
        self.start, self.began = start, time.monotonic()

    def __call__(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self.began)


async def test_yesterdays_unfinished_daily_ends_at_midnight(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    fake = fake_discord
    clock = RunningClock(datetime(2026, 3, 14, 23, 59, 52, tzinfo=UTC))
    day = clock().date()
    secret = code_of(day)
    factory = lambda: MastermindBot(settings(fake, db_path), clock=clock)  # noqa: E731
    async with fake.run_in_process(factory, timeout=30.0, commands=True) as bot:
        board = await open_daily(fake, "alice")
        for peg, digit in enumerate(wrong(secret)):
            await choose(fake, board, board.selects[peg]["custom_id"], str(int(digit) - 1), "alice")
        public = [m for m in fake.messages("general") if not m.ephemeral]
        assert query(db_path, "SELECT status FROM games") == [("active",)]
        seen: list[datetime] = []

        def ended() -> bool:
            if query(db_path, "SELECT status FROM games") != [("abandoned",)]:
                return False
            seen.append(clock())
            return True

        await fake.wait_for(ended, 12.0, "the day's change")
        midnight = datetime(2026, 3, 15, tzinfo=UTC)
        assert midnight <= seen[0] <= midnight + timedelta(seconds=2)  # on time
        assert query(db_path, "SELECT kind FROM moves ORDER BY move_no") == [("timeout",)]
        # its player's next click finds the board closed, as a late move would have
        click = await fake.click(board, "Submit guess", user="alice")
        await click.answer()
        await fake.wait_for(lambda: "closed at midnight" in board.text, what="closed board")
        assert f"Daily #{puzzle(day)} closed" in board.text and "Cracked" not in board.text
        assert CLASSIC.emoji(CLASSIC.parse(secret)) in board.text  # its answer
        assert board.selects == [] and rows(board) == []
        assert [m for m in fake.messages("general") if not m.ephemeral] == public
        assert (await daily.record(bot.store, fake.user("alice").id, clock())).solved == 0
