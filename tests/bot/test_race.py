"""/mastermind race end to end: the real bot, the fake Discord, a real database file.

Three players race on one secret from the lobby to the ranking; the channel never sees a colour
before the end; each racer plays on a private board of their own; the clock starts a lobby and
ends a race, also after a restart; and whoever is not in a race, or forges a click, is refused
privately with nothing stored."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.app import MastermindBot
from bot.config import Settings
from bot.engine.codes import COLOURS, CodeSpace
from bot.modes.race import inputs as race_inputs
from bot.store import PlayerStats
from tests.bot.helpers import choose, move_count, query
from tests.discord_fake import FakeDiscord, FakeMessage

CLASSIC = CodeSpace(4, 6)
COLOUR_EMOJI = [c.emoji for c in COLOURS]


class Clock:
    """Real time, which the test may move forward (the bot's timers still sleep real time)."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead

    def advance(self, seconds: float) -> None:
        self.ahead += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def bot(
    fake_discord: FakeDiscord, db_path: Path, clock: Clock
) -> AsyncIterator[MastermindBot]:
    settings = Settings(token=fake_discord.token, database_path=db_path)
    async with fake_discord.run_in_process(
        lambda: MastermindBot(settings, clock=clock), timeout=30.0, commands=True
    ) as running:
        yield running


def secret_digits(db_path: Path) -> str:
    """The running race's secret, peeked at like a cheating player would."""
    ((secret,),) = query(db_path, "SELECT secret FROM games WHERE kind = 'race'")
    return "".join(str(c + 1) for c in json.loads(secret))


def wrong(code: str, shift: int = 1) -> str:
    return "".join(str((int(d) - 1 + shift) % 6 + 1) for d in code)


def no_colour(text: str) -> bool:
    return not any(emoji in text for emoji in COLOUR_EMOJI)


def race_id(db_path: Path) -> int:
    return int(query(db_path, "SELECT id FROM games WHERE kind = 'race'")[0][0])


async def open_race(fake: FakeDiscord, user: str = "alice", **options: object) -> FakeMessage:
    handle = await fake.slash("general", user, "mastermind", "race", options=options or None)
    board = await handle.settled()
    assert not board.ephemeral
    return board


async def join(fake: FakeDiscord, board: FakeMessage, user: str) -> None:
    handle = await fake.click(board, "Join", user=user)
    assert await handle.answer() == 7  # the board itself, edited through the click
    await fake.wait_for(lambda: f"<@{fake.user(user).id}>" in board.text, what=f"{user} joined")


async def my_board(fake: FakeDiscord, board: FakeMessage, user: str) -> FakeMessage:
    mine = await (await fake.click(board, "My board", user=user)).response()
    assert mine.ephemeral and mine.visible_to is not None
    assert mine.visible_to.id == fake.user(user).id  # only the presser sees it
    return mine


async def pick_and_submit(fake: FakeDiscord, mine: FakeMessage, user: str, code: str) -> None:
    """Pick `code` peg by peg on a private board and submit it (the board is edited)."""
    for peg, digit in enumerate(code):
        await choose(fake, mine, mine.selects[peg]["custom_id"], str(int(digit) - 1), user)
    edits = mine.edits
    handle = await fake.click(mine, "Submit guess", user=user)
    assert await handle.answer() == 7
    await fake.wait_for(lambda: mine.edits > edits, what="private board redrawn")


async def type_code(fake: FakeDiscord, mine: FakeMessage, user: str, code: str) -> None:
    """Type a code into the private board's modal."""
    edits = mine.edits
    opened = await fake.click(mine, "Type a code", user=user)
    sent = await fake.submit_modal(opened, {"code": code}, user=user)
    assert await sent.answer() == 7
    await fake.wait_for(lambda: mine.edits > edits, what="private board redrawn by the modal")


def public_texts(fake: FakeDiscord) -> list[str]:
    """Every version of every public message in the channel so far."""
    texts = []
    for message in fake.messages("general"):
        if message.ephemeral:
            continue
        versions = getattr(message, "history", None) or []
        texts += [str(v) for v in versions] + [message.text]
    return texts


async def test_three_players_race_one_secret_from_lobby_to_ranking(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    alice, bob, carol = (fake.user(n).id for n in ("alice", "bob", "carol"))
    board = await open_race(fake, guesses=3, hard=False)
    assert "Press **Join**" in board.text and f"<@{alice}>" in board.text
    assert [b["label"] for b in board.buttons] == ["Join", "Start", "Give up"]
    assert re.search(r"<t:\d+:R>", board.text)  # a live countdown to the start
    secret = secret_digits(db_path)
    await join(fake, board, "bob")
    await join(fake, board, "carol")
    assert "Players (3)" in board.text

    refused = await (await fake.click(board, "Start", user="bob")).response()
    assert refused.ephemeral and f"Only <@{alice}> can start this race" in refused.text
    moves = move_count(db_path)

    started = await fake.click(board, "Start", user="alice")
    assert await started.answer() == 7
    line = await started.followup(0)
    assert not line.ephemeral and "The race has started" in line.text
    alice_board = await started.followup(1)
    assert alice_board.ephemeral and "Your race board" in alice_board.text
    assert move_count(db_path) == moves + 1
    await fake.wait_for(lambda: "The race is on" in board.text)
    assert [b["label"] for b in board.buttons] == ["My board", "Give up"]

    # BOB: picker, three guesses, cracks it first (on his third).
    bobs = await my_board(fake, board, "bob")
    assert len(bobs.selects) == 4
    await pick_and_submit(fake, bobs, "bob", wrong(secret))
    assert CLASSIC.emoji(CLASSIC.parse(wrong(secret))) in bobs.text  # his colours, privately
    await fake.wait_for(lambda: f"<@{bob}> · 1 guess" in board.text, what="bob's progress")
    await pick_and_submit(fake, bobs, "bob", wrong(secret, 2))
    await pick_and_submit(fake, bobs, "bob", secret)
    assert "You cracked it in 3 guesses" in bobs.text and bobs.selects == []
    await fake.wait_for(lambda: "cracked it in 3 guesses" in board.text)

    # CAROL: /mastermind guess (answered privately), then the modal; cracks it in 2, later.
    typed = await (
        await fake.slash("general", "carol", "mastermind", "guess", options={"code": wrong(secret)})
    ).response()
    assert typed.ephemeral and "Your race board" in typed.text
    await type_code(fake, typed, "carol", secret)
    assert "You cracked it in 2 guesses" in typed.text

    # ALICE runs out of guesses: everyone has finished, the race is over.
    await pick_and_submit(fake, alice_board, "alice", wrong(secret, 3))
    await pick_and_submit(fake, alice_board, "alice", wrong(secret, 4))
    assert "Out of guesses" not in board.text
    edits = alice_board.edits
    handle = await fake.click(alice_board, "Submit guess", user="alice")  # nothing picked
    unpicked = await handle.response()
    assert unpicked.ephemeral and "Pick a colour for peg 1, 2, 3, 4" in unpicked.text
    assert alice_board.edits == edits
    for peg, digit in enumerate(wrong(secret, 5)):
        await choose(
            fake, alice_board, alice_board.selects[peg]["custom_id"], str(int(digit) - 1), "alice"
        )
    last = await fake.click(alice_board, "Submit guess", user="alice")
    assert await last.answer() == 7
    ending = await last.followup()
    assert not ending.ephemeral and "The race is over" in ending.text
    await fake.wait_for(lambda: "Ranking" in board.text, what="the final race board")

    # Before the end, nothing public showed a colour; the end shows the secret and ranking.
    before_end = [t for t in public_texts(fake) if "race is over" not in t and "Ranking" not in t]
    assert before_end and all(no_colour(t) for t in before_end)
    shown = CLASSIC.emoji(CLASSIC.parse(secret))
    assert shown in board.text and shown in ending.text
    ranking = board.text[board.text.index("Ranking") :]
    assert ranking.index(f"🥇 <@{carol}> · 2 guesses") < ranking.index(f"🥈 <@{bob}> · 3 guesses")
    assert f"<@{alice}> did not crack it (3 guesses)" in ranking
    assert f"First to crack it: <@{bob}>" in board.text
    assert [b["label"] for b in board.buttons] == ["Review"]
    assert query(db_path, "SELECT status, winner_id FROM games") == [("won", bob)]
    stats = await bot.store.player_stats(fake.guild_id, bob, "race")
    assert stats == PlayerStats(bob, 1, 1, 3, 3, kind="race")
    assert (await bot.store.player_stats(fake.guild_id, carol, "race")).best == 2


async def test_the_clock_starts_the_lobby_and_ends_the_race(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path, clock: Clock
) -> None:
    fake = fake_discord
    board = await open_race(fake, join_seconds=60, minutes=1)
    await join(fake, board, "bob")
    assert await race_inputs.clock_pass(bot) == 0  # not yet
    clock.advance(61)
    assert await race_inputs.clock_pass(bot) == 1
    await fake.wait_for(lambda: "The race is on" in board.text)
    await fake.wait_for(
        lambda: any("The race has started" in m.text for m in fake.messages("general"))
    )
    assert query(db_path, "SELECT kind, player_id FROM moves WHERE kind = 'start'") == [
        ("start", None)
    ]
    mine = await my_board(fake, board, "bob")
    await pick_and_submit(fake, mine, "bob", wrong(secret_digits(db_path)))
    clock.advance(60)
    assert await race_inputs.clock_pass(bot) == 1
    assert await race_inputs.clock_pass(bot) == 0  # once
    await fake.wait_for(lambda: "Time is up" in board.text)
    assert "Nobody cracked the code" in board.text
    ended = [m for m in fake.messages("general") if "The race is over" in m.text]
    assert len(ended) == 1 and not ended[0].ephemeral
    late = await (await fake.click(mine, "Submit guess", user="bob")).response()
    assert late is mine and "The race is over" in mine.text and mine.selects == []
    assert query(db_path, "SELECT status FROM games") == [("lost",)]


async def test_outsiders_and_forged_clicks_are_refused_privately_and_store_nothing(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await open_race(fake)
    game = race_id(db_path)
    await join(fake, board, "bob")
    again = await (await fake.click(board, "Join", user="bob")).response()
    assert again.ephemeral and "already in this race" in again.text
    early = await (
        await fake.slash("general", "bob", "mastermind", "guess", options={"code": "1234"})
    ).response()
    assert early.ephemeral and "has not started yet" in early.text
    taken = await (await fake.slash("general", "carol", "mastermind", "play")).settled()
    assert taken.ephemeral and "already running" in taken.text
    await (await fake.click(board, "Start", user="alice")).answer()
    await fake.wait_for(lambda: "The race is on" in board.text)
    moves = move_count(db_path)

    outsider = await (await fake.click(board, "My board", user="dave")).response()
    assert outsider.ephemeral and "not in this race" in outsider.text
    typed = await (
        await fake.slash("general", "dave", "mastermind", "guess", options={"code": "1234"})
    ).response()
    assert typed.ephemeral and "not in this race" in typed.text

    bobs = await my_board(fake, board, "bob")
    for peg in range(4):
        await choose(fake, bobs, bobs.selects[peg]["custom_id"], "0", "bob")
    forged = {
        "dave submits bob's board": dict(
            channel="general", user="dave", custom_id=f"mm:rsend:{game}:0", message=bobs
        ),
        "from another channel": dict(
            channel="games", user="bob", custom_id=f"mm:rsend:{game}:0", message=bobs
        ),
        "dave's my board": dict(
            channel="general", user="dave", custom_id=f"mm:rboard:{game}", message=board
        ),
    }
    for what, forge in forged.items():
        message = forge.pop("message")
        handle = await fake.forge_interaction(
            forge["channel"],
            forge["user"],
            type=3,
            custom_id=forge["custom_id"],
            message=message,
        )
        reply = await handle.response()
        assert reply.ephemeral, what
        assert "not in this race" in reply.text or "another channel" in reply.text, what
    modal = await fake.forge_interaction(
        "general",
        "dave",
        type=5,
        custom_id=f"mm:rcode:{game}:0",
        fields={"code": "1234"},
        message=bobs,
    )
    assert (await modal.response()).ephemeral
    assert move_count(db_path) == moves

    # Two copies of BOB's board: a guess on one makes the other stale, and its Submit (the same
    # guess number) redraws it instead of guessing again.
    copy = await my_board(fake, board, "bob")
    for peg in range(4):
        await choose(fake, copy, copy.selects[peg]["custom_id"], "1", "bob")
    await pick_and_submit(fake, bobs, "bob", "1111")
    assert move_count(db_path) == moves + 1
    stale = await fake.click(copy, "Submit guess", user="bob")
    assert await stale.answer() == 7
    await fake.wait_for(lambda: "behind the race" in copy.text, what="the stale copy redrawn")
    assert move_count(db_path) == moves + 1 and "1111" not in copy.text
    assert CLASSIC.emoji((0, 0, 0, 0)) in copy.text  # it shows the guess made on the other
    assert no_colour(board.text)


async def test_a_race_survives_restarts_in_its_lobby_and_mid_race(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    """`python -m bot` killed with SIGKILL in the lobby: the next start's clock still starts it
    on time; killed again mid-race: the racers' old private boards play on to the ranking."""
    fake = fake_discord
    env = {  # every setting explicit: a developer's own .env must not leak into the test
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "INFO",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
        "SOLVER_TIME_BUDGET": "2",
    }
    first = await fake.spawn_bot(env=env)
    await first.wait_ready(timeout=60.0, commands=True)
    board = await open_race(fake, join_seconds=10, minutes=5)
    await join(fake, board, "bob")
    secret = secret_digits(db_path)
    first.kill()
    await first.wait(10.0)

    second = await fake.spawn_bot(env=env)
    try:
        await second.wait_ready(timeout=60.0)
        await fake.wait_for(lambda: "The race is on" in board.text, timeout=30.0)
        assert query(db_path, "SELECT player_id FROM moves WHERE kind = 'start'") == [(None,)]
        bobs = await my_board(fake, board, "bob")
        await pick_and_submit(fake, bobs, "bob", wrong(secret))
        await fake.wait_for(lambda: "· 1 guess" in board.text, what="bob's progress")
    finally:
        second.kill()
        await second.wait(10.0)
    shown = {secret, CLASSIC.letters(CLASSIC.parse(secret)), CLASSIC.emoji(CLASSIC.parse(secret))}
    for process in (first, second):
        words = re.findall(r"[\w\U0001F300-\U0001FAFF]+", process.output)
        assert [w for w in words if w in shown] == []  # no log line shows the secret

    third = await fake.spawn_bot(env=env)
    try:
        await third.wait_ready(timeout=60.0)
        await pick_and_submit(fake, bobs, "bob", secret)  # the board from before the kill
        assert "You cracked it in 2 guesses" in bobs.text
        done_handle = await fake.slash(
            "general", "alice", "mastermind", "guess", options={"code": secret}
        )
        done = await done_handle.response()
        assert done.ephemeral and "You cracked it in 1 guess" in done.text
        await fake.wait_for(lambda: "Ranking" in board.text, timeout=10.0)
        alice, bob = fake.user("alice").id, fake.user("bob").id
        assert f"🥇 <@{alice}> · 1 guess" in board.text and f"🥈 <@{bob}> · 2 guesses" in board.text
        assert f"First to crack it: <@{bob}>" in board.text
        line = await done_handle.followup()
        assert not line.ephemeral and "The race is over" in line.text
    finally:
        await third.stop()
    ended = [m for m in fake.messages("general") if "The race is over" in m.text]
    assert len(ended) == 1


async def test_a_late_join_or_guess_is_refused_with_the_time_it_closed(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path, clock: Clock
) -> None:
    """The clock's timer has not fired (a tick failed, the pass is minutes away): the time
    limits still hold at the moment of the click, in the move's own transaction."""
    fake = fake_discord
    board = await open_race(fake, join_seconds=60, minutes=1)
    await join(fake, board, "bob")
    ((lobby_until, race_until),) = query(db_path, "SELECT lobby_until, race_until FROM games")
    moves = move_count(db_path)
    clock.advance(61)  # the lobby's time is up; no timer has started the race
    late = await (await fake.click(board, "Join", user="carol")).response()
    assert late.ephemeral and f"lobby closed at <t:{lobby_until}:T>" in late.text
    assert move_count(db_path) == moves and f"<@{fake.user('carol').id}>" not in board.text

    await (await fake.click(board, "Start", user="alice")).answer()
    await fake.wait_for(lambda: "The race is on" in board.text)
    secret = secret_digits(db_path)
    mine = await my_board(fake, board, "bob")
    for peg, digit in enumerate(secret):
        await choose(fake, mine, mine.selects[peg]["custom_id"], str(int(digit) - 1), "bob")
    moves = move_count(db_path)
    clock.advance(60)  # the race's time is up; no timer has ended it
    too_late = await (await fake.click(mine, "Submit guess", user="bob")).response()
    assert too_late.ephemeral and f"time ran out at <t:{race_until}:T>" in too_late.text
    typed = await (
        await fake.slash("general", "alice", "mastermind", "guess", options={"code": secret})
    ).response()
    assert typed.ephemeral and f"time ran out at <t:{race_until}:T>" in typed.text
    assert move_count(db_path) == moves
    assert query(db_path, "SELECT status, winner_id FROM games") == [("active", None)]
    assert await race_inputs.clock_pass(bot) == 1
    await fake.wait_for(lambda: "Nobody cracked the code" in board.text)


async def test_a_typed_race_guess_whose_answer_fails_still_reaches_the_race_board(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    """Issue #29: the private answer to `/mastermind guess` in a race met 404 Unknown
    interaction; the guess is stored and the race board shows the racer's progress all the
    same (before, the board waited for the next move)."""
    fake = fake_discord
    bob = fake.user("bob").id
    board = await open_race(fake)
    await join(fake, board, "bob")
    started = await fake.click(board, "Start", user="alice")
    assert await started.answer() == 7
    await fake.wait_for(lambda: "The race is on" in board.text)
    moves = move_count(db_path)
    failure = fake.fail_next(
        "POST",
        r"/interactions/\d+/[^/]+/callback",
        status=404,
        code=10062,
        message="Unknown interaction",
        times=5,
    )
    code = wrong(secret_digits(db_path))
    await fake.slash("general", "bob", "mastermind", "guess", options={"code": code})
    await fake.wait_for(lambda: failure.hits >= 1, what="the answer refused")
    await fake.wait_for(lambda: move_count(db_path) == moves + 1, what="the guess stored")
    await fake.wait_for(lambda: f"<@{bob}> · 1 guess" in board.text, what="bob's progress")
    fake.advance_time(3.5)
    await fake.wait_for(lambda: bool(fake.violations), what="the unanswered interaction noted")
    assert [v.rule for v in fake.take_violations()] == ["interaction-deadline"]
