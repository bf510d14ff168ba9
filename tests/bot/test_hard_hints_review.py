"""Hard mode, hints and the post-game review, end to end: the real bot and solver workers, the
fake Discord, a real database file.

Hard mode refuses a guess that breaks an earlier answer, naming that answer, and stores nothing.
Hints are counted in the game, shown on its board and marked in the records. The review a
player opens after the game shows the engine's own numbers for every guess.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from bot.app import MastermindBot
from bot.engine.codes import CodeSpace
from bot.engine.errors import BreaksAClue
from bot.engine.game import Variant
from bot.engine.hard import first_broken_clue
from bot.engine.review import review, summarise
from bot.engine.scoring import score
from bot.engine.solver import Solver
from bot.modes.review.board import summary_text
from bot.solver_pool import SolverBusy, Unavailable
from bot.ui import clues, text
from bot.ui.i18n import ENGLISH
from tests.bot.helpers import active_game, board_shows, move_count, query, secret_text
from tests.bot.test_security import private_refusal
from tests.discord_fake import FakeDiscord, FakeMessage

CLASSIC = CodeSpace(4, 6)


async def guess(fake: FakeDiscord, user: str, code: str) -> FakeMessage:
    handle = await fake.slash("general", user, "mastermind", "guess", options={"code": code})
    return await handle.response()


def wrong_codes(secret: str) -> list[str]:
    """Codes that are not the secret, to guess before cracking it."""
    return [c for c in ("1122", "3456", "6543", "1234") if c != secret]


def stored_clues(db_path: Path, game_id: int) -> list[tuple[tuple[int, ...], tuple[int, int]]]:
    rows = query(
        db_path,
        "SELECT code, black, white FROM moves WHERE game_id = ? AND kind = 'guess' "
        "ORDER BY move_no",
        game_id,
    )
    return [(tuple(json.loads(code)), (black, white)) for code, black, white in rows]


# --- hard mode ------------------------------------------------------------------------------------


async def test_hard_mode_refuses_a_guess_that_breaks_a_clue_naming_it_and_stores_nothing(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash("general", "alice", "mastermind", "play", options={"hard": True})
    ).settled()
    assert "Hard mode" in board.text
    secret = secret_text(db_path)
    first = wrong_codes(secret)[0]
    await guess(fake_discord, "alice", first)
    history = [(CLASSIC.parse(first), score(CLASSIC.parse(first), CLASSIC.parse(secret)))]
    codes = [CLASSIC.code_at(i) for i in range(CLASSIC.size)]
    refused_code = next(c for c in codes if first_broken_clue(history, c) is not None)
    broken = first_broken_clue(history, refused_code)
    assert broken is not None
    moves, version = move_count(db_path), query(db_path, "SELECT version FROM games")[0][0]

    refused = await guess(fake_discord, "bob", CLASSIC.digits(refused_code))

    assert refused.ephemeral
    assert refused.text == clues.broken_clue(BreaksAClue(broken), ENGLISH)
    named = f"guess 1 ({text.code_line(CLASSIC, CLASSIC.parse(first))} → "
    assert named in refused.text and "every guess must fit every answer" in refused.text
    assert move_count(db_path) == moves
    assert query(db_path, "SELECT version FROM games")[0][0] == version

    won = await guess(fake_discord, "bob", secret)  # the secret always fits
    assert not won.ephemeral and "cracked the code" in won.text
    await board_shows(fake_discord, board, "Cracked by")
    assert "Hard mode" in board.text
    record = await bot.store.player_stats(fake_discord.guild_id, fake_discord.user("bob").id)
    assert (record.won, record.hard_won, record.hinted) == (1, 1, 0)


# --- hints --------------------------------------------------------------------------------------


async def test_hints_are_counted_shown_on_the_board_and_marked_in_the_records(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    assert [b["label"] for b in board.buttons] == ["Guess", "Hint", "Give up"]
    game_id, _ = active_game(db_path)
    secret = secret_text(db_path)

    first = await (await fake_discord.click(board, "Hint", user="bob")).settled()
    assert first.ephemeral and "**1,296** codes still fit" in first.text
    assert "1 hint used" in first.text

    opening = wrong_codes(secret)[0]
    await guess(fake_discord, "alice", opening)
    history = stored_clues(db_path, game_id)
    solver = Solver(CLASSIC, "knuth")
    left = len(solver.candidates(history))
    second = await (await fake_discord.click(board, "Hint", user="alice")).settled()
    assert second.ephemeral and f"**{ENGLISH.number(left)}** code" in second.text
    third = await (await fake_discord.click(board, "Hint", user="alice")).settled()
    knuth = solver.next_move(history).guess
    assert third.ephemeral and text.code_line(CLASSIC, knuth) in third.text
    assert "Knuth's algorithm would guess" in third.text and "3 hints used" in third.text

    assert query(db_path, "SELECT hints FROM games WHERE id = ?", game_id) == [(3,)]
    kinds = query(db_path, "SELECT kind FROM moves WHERE game_id = ? ORDER BY move_no", game_id)
    assert [k for (k,) in kinds] == ["hint", "guess", "hint", "hint"]
    await board_shows(fake_discord, board, "Hints used")

    await guess(fake_discord, "alice", secret)
    await board_shows(fake_discord, board, "Cracked by")
    assert "Hints used\n3" in board.text
    assert [b["label"] for b in board.buttons] == ["Review"]
    record = await bot.store.player_stats(fake_discord.guild_id, fake_discord.user("alice").id)
    assert (record.won, record.hinted, record.hard_won) == (1, 1, 0)


async def test_a_hint_in_someone_elses_solo_game_is_refused_and_stores_nothing(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash("general", "alice", "mastermind", "play", options={"solo": True})
    ).settled()
    refused = await (await fake_discord.click(board, "Hint", user="bob")).response()
    assert refused.ephemeral and "solo game" in refused.text
    assert move_count(db_path) == 0 and query(db_path, "SELECT hints FROM games") == [(0,)]


# --- the review ---------------------------------------------------------------------------------

ROW = re.compile(
    r"Codes possible: \*\*([\d,]+)\*\* → \*\*([\d,]+)\*\* · (✅|❌).*?\n"
    r"This guess could have left up to \*\*([\d,]+)\*\* codes?\.\n"
    r"🧠 (?:Knuth would have guessed (\S+) `([A-Z]+)`: up to \*\*([\d,]+)\*\* codes?\."
    r"|Knuth: the same)"
)


def number(value: str) -> int:
    return int(value.replace(",", ""))


async def test_the_review_shows_the_engines_numbers_for_every_guess(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    game_id, _ = active_game(db_path)
    secret = secret_text(db_path)

    # No running game's board offers a Review; a forged one (pinned on the board here, as if
    # Discord sent it) is refused: the review would give the secret away.
    review_id = f"mm:review:{game_id}"
    button = {"type": 2, "style": 2, "label": "Review", "custom_id": review_id}
    board.components.append({"type": 1, "components": [button]})
    early = await fake_discord.forge_interaction(
        "general", "bob", type=3, custom_id=review_id, message=board
    )
    await private_refusal(early)
    assert "when the game is over" in (await early.settled()).text
    board.components.pop()

    for code in wrong_codes(secret)[:2]:
        await guess(fake_discord, "alice", code)
    await guess(fake_discord, "carol", secret)
    await board_shows(fake_discord, board, "Cracked by")

    elsewhere = await fake_discord.forge_interaction(
        "games", "bob", type=3, custom_id=review_id, message=board
    )
    await private_refusal(elsewhere)  # another channel's game: not reviewed here

    opened = await (await fake_discord.click(board, "Review", user="bob")).settled()
    assert opened.ephemeral and opened.embed is not None
    history = stored_clues(db_path, game_id)
    expected = review(CLASSIC, history)
    fields = opened.embed["fields"]
    assert len(fields) == len(expected) == 3
    for row, field in zip(expected, fields, strict=True):
        assert field["name"].startswith(f"Guess {row.number}: {CLASSIC.emoji(row.guess)}")
        match = ROW.match(field["value"])
        assert match, field["value"]
        assert (number(match[1]), number(match[2])) == (row.before, row.after)
        assert (match[3] == "✅") == row.could_be_secret
        assert number(match[4]) == row.leaves.worst
        if row.knuth_guess is None:
            assert match[5] is None
        else:
            assert match[6] == CLASSIC.letters(row.knuth_guess)
            assert row.knuth_leaves is not None and number(match[7]) == row.knuth_leaves.worst
    assert opened.embed["description"] == summary_text(summarise(expected), t=ENGLISH)
    assert move_count(db_path) == 3  # a review stores nothing


async def test_one_review_per_player_at_a_time_through_the_real_workers(
    bot: MastermindBot,
) -> None:
    """A second review by the same player while the first runs is refused, not queued."""
    history = [([0, 0, 1, 1], 1, 1), ([0, 1, 2, 3], 4, 0)]
    first = asyncio.create_task(bot.solver.review(Variant(4, 6, True), history, 1, 42))
    await asyncio.sleep(0)
    try:
        await bot.solver.review(Variant(4, 6, True), history, 1, 42)
    except SolverBusy as busy:
        assert busy.reason is Unavailable.REVIEWING
    else:
        raise AssertionError("a second review of the same player was not refused")
    rows = await first
    assert [r.before for r in rows] == [1296, 208]
    assert len(await bot.solver.review(Variant(4, 6, True), history, 1, 42)) == 2  # free again
