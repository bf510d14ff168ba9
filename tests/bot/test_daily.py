"""/mastermind daily end to end: the real bot (with a clock the test moves), the fake Discord,
a real database file. One code a day for everybody, played privately once, a spoiler-free result
in the channel, streaks across days, and a board that outlives a restart."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import MastermindBot
from bot.config import Settings
from bot.engine.codes import COLOURS, CodeSpace
from bot.modes.daily import actions as daily
from bot.modes.daily.rules import FIRST_DAY
from tests.bot.helpers import choose, query
from tests.discord_fake import FakeDiscord, FakeMessage

CLASSIC = CodeSpace(4, 6)
KEY = "a test key that nobody else has"


class Clock:
    """The bot's clock: the test says what day it is."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 14, 18, 30, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def next_day(self) -> None:
        self.now += timedelta(days=1)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def settings(fake: FakeDiscord, db_path: Path, key: str | None = KEY) -> Settings:
    return Settings(token=fake.token, database_path=db_path, daily_key=key)


@pytest.fixture
async def bot(
    fake_discord: FakeDiscord, db_path: Path, clock: Clock
) -> AsyncIterator[MastermindBot]:
    async with fake_discord.run_in_process(
        lambda: MastermindBot(settings(fake_discord, db_path), clock=clock),
        timeout=180.0,
        commands=True,
    ) as running:
        yield running


def puzzle(day: date) -> int:
    return (day - FIRST_DAY).days + 1


def code_of(day: date, key: bytes = KEY.encode()) -> str:
    """The day's code as digits: what the test can know only because it holds the key."""
    return "".join(str(c + 1) for c in daily.secret_of(day, key))


def wrong(code: str) -> str:
    return "".join(str(int(d) % 6 + 1) for d in code)  # every peg another colour


def rows(board: FakeMessage) -> list[str]:
    """The guess rows of a board: guess, colours and pegs (no player named)."""
    description = (board.embed or {}).get("description") or ""
    return [line for line in description.splitlines() if line.startswith("`")]


async def open_daily(
    fake: FakeDiscord, user: str, channel: str = "general", **options: object
) -> FakeMessage:
    board = await (
        await fake.slash(channel, user, "mastermind", "daily", options=options or None)
    ).response()
    assert board.ephemeral and board.visible_to == fake.user(user)
    return board


async def guess(fake: FakeDiscord, board: FakeMessage, user: str, code: str) -> list[FakeMessage]:
    """Pick each peg on the board, submit, and wait for the board to show the guess; the
    followups the submission made (the public line, when it ended the game)."""
    for peg, digit in enumerate(code):
        await choose(fake, board, board.selects[peg]["custom_id"], str(int(digit) - 1), user)
    before = len(rows(board))
    click = await fake.click(board, "Submit guess", user=user)
    assert await click.answer() == 7  # the board itself is redrawn, through this click
    await fake.wait_for(lambda: len(rows(board)) == before + 1, what="the guess on the board")
    if "Result" in board.text:
        await click.followup()
    return list(click.followups)


def no_colour(text: str) -> None:
    """Nothing in `text` names a colour: no colour emoji, no colour word, no code letters."""
    for colour in COLOURS:
        assert colour.emoji not in text
        assert not re.search(rf"\b{colour.name}\b", text, re.IGNORECASE)
    assert not re.search(r"`[RGBYON]{4}`", text)
    assert "||" not in text


async def test_two_players_get_the_same_code_and_a_result_without_colours(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock, db_path: Path
) -> None:
    fake = fake_discord
    today = clock.now.date()
    secret = code_of(today)
    alice = await open_daily(fake, "alice")
    assert f"Mastermind daily #{puzzle(today)}" in alice.text
    assert "in 5 h 30 min" in alice.text  # until midnight UTC
    assert [b["label"] for b in alice.buttons] == ["Submit guess", "Type a code"]
    bob = await open_daily(fake, "bob", "games")
    tries = ["1122", "3456", wrong(secret)]
    for code in tries:
        await guess(fake, alice, "alice", code)
        await guess(fake, bob, "bob", code)
    assert rows(alice) == rows(bob) and len(rows(alice)) == 3  # the same answers to each guess
    assert secret not in alice.text and CLASSIC.emoji(CLASSIC.parse(secret)) not in alice.text

    (public,) = await guess(fake, alice, "alice", secret)
    assert "Cracked in 4 guesses" in alice.text and "Secret" in alice.text
    assert [b["label"] for b in alice.buttons] == ["Share", "Review"]
    assert not public.ephemeral and public.channel == fake.channel("general")
    share = public.text.splitlines()
    assert share[0] == f"Mastermind daily #{puzzle(today)} · 4/10"
    assert share[4] == "⚫⚫⚫⚫" and all(set(r) <= set("⚫⚪▫️") for r in share[1:5])
    assert f"<@{fake.user('alice').id}>" in share[5]
    no_colour(public.text)
    assert [b["label"] for b in public.buttons] == ["Share"]
    # The public line came as a followup of the finishing click, not from the bot's own token.
    assert not [r for r in fake.requests if r.method == "POST" and "/channels/" in r.path]

    copied = await (await fake.click(public, "Share", user="alice")).response()
    assert copied.ephemeral and copied.text == "\n".join(share[:5])
    no_colour(copied.text)
    nothing = await (await fake.click(public, "Share", user="carol")).response()
    assert nothing.ephemeral and "no result for daily" in nothing.text

    (bob_public,) = await guess(fake, bob, "bob", secret)
    assert bob_public.text.splitlines()[:5] == share[:5]  # the same code, the same result
    assert bob_public.channel == fake.channel("games")
    assert len(query(db_path, "SELECT DISTINCT secret FROM games WHERE kind = 'daily'")) == 1


async def test_nobody_plays_the_days_code_twice(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock, db_path: Path
) -> None:
    fake = fake_discord
    secret = code_of(clock.now.date())
    first = await open_daily(fake, "alice")
    await guess(fake, first, "alice", wrong(secret))
    again = await open_daily(fake, "alice", "games", hard=True)  # elsewhere, and in hard mode
    assert "already playing today's code" in again.text and rows(again) == rows(first)
    assert again.id != first.id and "Submit guess" in [b["label"] for b in again.buttons]
    await guess(fake, again, "alice", secret)  # the copy plays the same game
    assert "Cracked in 2 guesses" in again.text

    stale = await fake.click(first, "Submit guess", user="alice")  # the older copy, behind
    assert await stale.answer() == 7
    await fake.wait_for(lambda: "Cracked in 2 guesses" in first.text, what="old copy redrawn")
    assert "behind the game" in first.text

    done = await open_daily(fake, "alice")
    assert "already played today's code" in done.text and "Cracked in 2 guesses" in done.text
    assert [b["label"] for b in done.buttons] == ["Share", "Review"]
    assert query(db_path, "SELECT count(*), sum(hard) FROM games WHERE kind = 'daily'") == [(1, 0)]
    assert len(query(db_path, "SELECT move_no FROM moves WHERE kind = 'guess'")) == 2


async def test_the_streak_counts_across_three_days(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock
) -> None:
    fake = fake_discord
    numbers = []
    for day in range(3):
        if day:
            clock.next_day()
        board = await open_daily(fake, "alice")
        numbers.append(puzzle(clock.now.date()))
        assert f"Mastermind daily #{numbers[-1]}" in board.text
        if day == 1:
            await guess(fake, board, "alice", wrong(code_of(clock.now.date())))
        await guess(fake, board, "alice", code_of(clock.now.date()))
        stats = await (await fake.slash("general", "alice", "mastermind", "stats")).response()
        assert f"Days played **{day + 1}** · solved **{day + 1}**" in stats.text
        assert f"Streak **{day + 1}** · best streak **{day + 1}**" in stats.text
    assert numbers == [numbers[0], numbers[0] + 1, numbers[0] + 2]
    assert "Best day: 1 guess" in stats.text
    assert "None yet: `/mastermind solve`" in stats.text and "No races yet." in stats.text

    bob = await open_daily(fake, "bob")  # a loss on day three
    for _ in range(10):
        await guess(fake, bob, "bob", wrong(code_of(clock.now.date())))
    assert "Out of guesses after 10" in bob.text and "Secret" in bob.text
    (public,) = [m for m in fake.messages("general") if "X/10" in m.text]
    no_colour(public.text)
    leaders = await (
        await fake.slash("games", "carol", "mastermind", "leaderboard", options={"games": "daily"})
    ).response()
    alice_id, bob_id = fake.user("alice").id, fake.user("bob").id
    lines = (leaders.embed or {}).get("description", "").splitlines()
    assert f"Daily #{numbers[2]}" in leaders.text
    assert lines[0].startswith(f"🥇 <@{alice_id}>: 1/10") and f"<@{bob_id}>: X/10" in lines[1]
    no_colour(leaders.text)

    clock.next_day()
    clock.next_day()  # a day missed: the streak is over, the best one stays
    stats = await (await fake.slash("general", "alice", "mastermind", "stats")).response()
    assert "Streak **0** · best streak **3**" in stats.text
    empty = await (
        await fake.slash("games", "carol", "mastermind", "leaderboard", options={"games": "daily"})
    ).response()
    assert "Nobody here has finished today's code yet" in empty.text


async def test_typed_codes_hard_mode_and_other_players_hands(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock, db_path: Path
) -> None:
    fake = fake_discord
    secret = code_of(clock.now.date())
    board = await open_daily(fake, "alice", hard=True)
    assert "hard mode" in board.text
    opened = await fake.click(board, "Type a code", user="alice")
    modal = await opened.modal()
    sent = await fake.submit_modal(modal, {"code": CLASSIC.letters(CLASSIC.parse(wrong(secret)))})
    assert await sent.answer() == 7
    await fake.wait_for(lambda: len(rows(board)) == 1, what="the typed guess on the board")

    # Hard mode: a guess that ignores the first one's pegs is refused, privately; nothing stored.
    opened = await fake.click(board, "Type a code", user="alice")
    refused = await (
        await fake.submit_modal(await opened.modal(), {"code": wrong(secret)})
    ).response()
    assert refused.ephemeral and len(rows(board)) == 1

    # Bob cannot play Alice's board, even with a forged click: refused, nothing stored.
    game_id = query(db_path, "SELECT id FROM games WHERE kind = 'daily'")[0][0]
    version = query(db_path, "SELECT version FROM games WHERE id = ?", game_id)[0][0]
    forged = await fake.forge_interaction(
        "general",
        "bob",
        type=3,
        custom_id=f"mm:dsend:{game_id}:{version}",
        message=board,
    )
    refusal = await forged.response()
    assert refusal.ephemeral and f"<@{fake.user('alice').id}>'s game" in refusal.text
    assert len(query(db_path, "SELECT move_no FROM moves WHERE kind = 'guess'")) == 1

    (public,) = await guess(fake, board, "alice", secret)
    assert public.text.startswith(f"Mastermind daily #{puzzle(clock.now.date())} · 2/10 · hard")
    stats = await (await fake.slash("general", "alice", "mastermind", "stats")).response()
    assert "1 hard-mode win" in stats.text


async def test_a_restart_mid_daily_continues_on_the_old_message(
    fake_discord: FakeDiscord, db_path: Path, clock: Clock
) -> None:
    fake = fake_discord
    async with fake.run_in_process(
        lambda: MastermindBot(settings(fake, db_path, key=None), clock=clock),
        timeout=180.0,
        commands=True,
    ):
        board = await open_daily(fake, "alice")
        await guess(fake, board, "alice", "1122")
        await choose(fake, board, board.selects[0]["custom_id"], "2", "alice")  # picked, unsent
    # No key was set: the bot made one and kept it; the new process reads the same one back.
    ((stored_key,),) = query(db_path, "SELECT value FROM meta WHERE key = 'daily:key'")
    secret = code_of(clock.now.date(), bytes.fromhex(str(stored_key)))
    async with fake.run_in_process(
        lambda: MastermindBot(settings(fake, db_path, key=None), clock=clock),
        timeout=180.0,
        commands=False,
    ):
        assert "🔵❔❔❔" in board.text  # what was picked before the restart is still there
        (public,) = await guess(fake, board, "alice", secret)
        assert "Cracked in 2 guesses" in board.text
        assert public.text.startswith(f"Mastermind daily #{puzzle(clock.now.date())} · 2/10")
    # Everything happened on the one board message; the channel saw only the result.
    assert [m.id for m in fake.messages("general")] == [board.id, public.id]
    assert query(db_path, "SELECT count(*) FROM games") == [(1,)]


async def test_the_daily_code_plays_where_the_bot_is_not_a_member(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock, db_path: Path
) -> None:
    """A user install: in a server that never invited the bot and in a group DM, the daily
    board, every guess and the public result go through interactions only (the fake refuses
    any bot-token route there, and the REST log shows none)."""
    fake = fake_discord
    fake.add_foreign_guild("Friends", ("hangout",))
    group = fake.group_dm("the gang", ["alice", "bob"])
    fake.install_for_user("alice")
    fake.install_for_user("bob")
    since = len(fake.requests)
    secret = code_of(clock.now.date())

    alice = await open_daily(fake, "alice", channel="hangout")
    await guess(fake, alice, "alice", wrong(secret))
    (line,) = await guess(fake, alice, "alice", secret)
    assert not line.ephemeral and "2/10" in line.text
    no_colour(line.text)

    bob = await (await fake.slash(group, "bob", "mastermind", "daily")).response()
    assert bob.ephemeral and bob.visible_to == fake.user("bob")
    (bobs_line,) = await guess(fake, bob, "bob", secret)
    assert "1/10" in bobs_line.text and bobs_line.channel == group

    outside = [
        r for r in fake.requests[since:] if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]
    assert outside == []
    assert query(db_path, "SELECT kind, status FROM games ORDER BY id") == [
        ("daily", "won"),
        ("daily", "won"),
    ]


async def test_a_daily_game_answers_only_through_its_own_routes(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock, db_path: Path
) -> None:
    """A daily game is built on a play game, but play's routes (the code modal, the Guess
    picker, the Hint) are not its own: through them it is refused privately, nothing is stored
    and nothing reaches the channel, however the ids are forged."""
    fake = fake_discord
    board = await open_daily(fake, "alice")
    ((game_id,),) = query(db_path, "SELECT id FROM games WHERE kind = 'daily'")
    secret = code_of(clock.now.date())
    public = [m for m in fake.messages("general") if not m.ephemeral]
    modal = await fake.forge_interaction(
        "general", "alice", type=5, custom_id=f"mm:code:{game_id}:1", fields={"code": secret}
    )
    refused = await modal.response()
    assert refused.ephemeral and "play game" in refused.text, refused.text
    for route in ("guess", "hint"):
        clicked = await fake.forge_interaction(
            "general",
            "alice",
            type=3,
            custom_id=f"mm:{route}:{game_id}",
            payload={
                "message": {
                    **board.payload(),
                    "components": [
                        {
                            "type": 1,
                            "components": [
                                {
                                    "type": 2,
                                    "style": 1,
                                    "label": "x",
                                    "custom_id": f"mm:{route}:{game_id}",
                                }
                            ],
                        }
                    ],
                }
            },
        )
        reply = await clicked.response()
        expected = "play game" if route == "guess" else "no hints"  # the daily offers none
        assert reply.ephemeral and expected in reply.text, (route, reply.text)
    assert query(db_path, "SELECT count(*) FROM moves") == [(0,)]
    assert [m for m in fake.messages("general") if not m.ephemeral] == public
    await guess(fake, board, "alice", secret)  # its own route still plays it
    assert "Result" in board.text


async def test_yesterdays_puzzle_cannot_be_finished_after_midnight(
    fake_discord: FakeDiscord, bot: MastermindBot, clock: Clock, db_path: Path
) -> None:
    """Opened, left without a guess, and cracked the next day when the answer is public: the
    board says the puzzle closed and shows its answer; nothing is scored and no streak grows."""
    fake = fake_discord
    day = clock.now.date()
    board = await open_daily(fake, "alice")
    secret = code_of(day)
    public = [m for m in fake.messages("general") if not m.ephemeral]
    clock.next_day()
    for peg, digit in enumerate(secret):
        await choose(fake, board, board.selects[peg]["custom_id"], str(int(digit) - 1), "alice")
    click = await fake.click(board, "Submit guess", user="alice")
    assert await click.answer() == 7  # the board itself is redrawn, through this click
    await fake.wait_for(lambda: "closed at midnight" in board.text, what="the closed board")
    assert f"Daily #{puzzle(day)} closed" in board.text and "Cracked" not in board.text
    assert CLASSIC.emoji(CLASSIC.parse(secret)) in board.text  # its answer
    assert board.selects == [] and rows(board) == []
    assert [m for m in fake.messages("general") if not m.ephemeral] == public
    assert query(db_path, "SELECT kind FROM moves ORDER BY move_no") == [("timeout",)]
    assert (await daily.record(bot.store, fake.user("alice").id, clock.now)).solved == 0
