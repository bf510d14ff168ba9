"""/mastermind solve end to end: the bot cracks codes that a truthful test player holds."""

from __future__ import annotations

import numpy as np

from bot.engine.codes import CodeSpace
from tests.bot.helpers import (
    answer_label,
    bot_guess,
    choose,
    move_count,
    press,
    query,
)
from tests.discord_fake import FakeDiscord, FakeMessage

CLASSIC = CodeSpace(4, 6)


async def crack(fake: FakeDiscord, board: FakeMessage, secret: str, user: str = "alice") -> int:
    """Answer truthfully until the bot wins; returns the number of guesses it needed."""
    for _ in range(12):
        number, guess = bot_guess(board)
        await press(fake, board, answer_label(CLASSIC, guess, secret), user)
        if "Solved in" in board.text:
            return number
        assert bot_guess(board)[0] == number + 1, board.text
    raise AssertionError(f"not solved: {board.text}")


async def test_knuth_cracks_twenty_secrets_within_five(fake_discord: FakeDiscord, bot) -> None:
    rng = np.random.default_rng(2026)
    secrets = [
        "".join(str(d + 1) for d in CLASSIC.code_at(int(i)))
        for i in rng.choice(CLASSIC.size, 20, replace=False)
    ]
    needed = []
    for secret in secrets:
        handle = await fake_discord.slash("games", "alice", "mastermind", "solve")
        board = await handle.settled()
        assert "`1122`" in board.text and "1,296" in board.text
        # every answer 1122 can earn (not ⚫⚪⚪⚪: its colours pair up), then Give up
        assert len(board.buttons) == 13 + 1
        needed.append(await crack(fake_discord, board, secret))
        assert "🎯 Solved in" in board.text and board.buttons == []
    assert max(needed) <= 5
    assert len(needed) == 20


async def test_a_wrong_answer_is_detected_and_undone(fake_discord: FakeDiscord, bot) -> None:
    secret = "1234"
    board = await (await fake_discord.slash("general", "bob", "mastermind", "solve")).settled()
    await press(fake_discord, board, answer_label(CLASSIC, "1122", secret), "bob")
    assert bot_guess(board)[0] == 2
    # Now lie until no code is left, then undo the lies.
    lies = 0
    while "No code fits all your answers" not in board.text:
        await press(fake_discord, board, "⚪⚪⚪⚪", "bob")
        lies += 1
        assert lies < 6
    assert "Undo last answer" in [b["label"] for b in board.buttons]
    assert "⚪⚪⚪⚪" not in [b["label"] for b in board.buttons]  # nothing to answer while stuck
    assert "undo it to go on" in board.text
    for _ in range(lies):
        await press(fake_discord, board, "Undo last answer", "bob")
    assert bot_guess(board)[0] == 2
    assert await crack(fake_discord, board, secret, user="bob") <= 5


async def test_only_the_starter_answers_and_impossible_answers_are_refused(
    fake_discord: FakeDiscord, bot, db_path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled()
    before = move_count(db_path)
    other = await press(fake_discord, board, "⚫", "bob")
    assert other.ephemeral and f"<@{fake_discord.user('alice').id}>'s game" in other.text
    assert move_count(db_path) == before
    labels = {b["label"] for b in board.buttons}
    assert "⚫⚫⚫⚪" not in labels and "⚫⚫⚫⚫" in labels


async def test_other_strategies_and_big_variants_use_selects(
    fake_discord: FakeDiscord, bot, db_path
) -> None:
    board = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "solve", options={"strategy": "entropy"}
        )
    ).settled()
    assert "`1234`" in board.text and "Neuwirth" in board.text
    await press(fake_discord, board, "Give up", "alice")
    assert "Given up" in board.text and board.buttons == []
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]

    big = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "solve", options={"pegs": 6, "colours": 8}
        )
    ).settled()
    assert len(big.selects) == 2  # 27 answers do not fit as buttons
    values = [o["value"] for s in big.selects for o in s["options"]]
    assert len(values) == len(CodeSpace(6, 8).answers()) and "5:1" not in values
    await choose(fake_discord, big, big.selects[0]["custom_id"], "0:0", "alice")
    assert bot_guess(big)[0] == 2


async def test_finished_game_buttons_say_the_game_is_over(fake_discord: FakeDiscord, bot) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled()
    copy = await (await fake_discord.slash("general", "alice", "mastermind", "board")).settled()
    assert copy.id != board.id and "`1122`" in copy.text
    fake_discord.fail_message_edit(copy, status=503)  # the copy is left behind, with buttons
    await press(fake_discord, board, "⚫⚫⚫⚫", "alice")
    assert "Solved in 1 guess!" in board.text and board.buttons == []
    reply = await press(fake_discord, copy, "⚫⚪", "alice")  # the older copy still has buttons
    assert reply.ephemeral and "This game is over." in reply.text
    await fake_discord.wait_for(lambda: copy.buttons == [], what="the stale copy redrawn")
    later = await (await fake_discord.slash("general", "alice", "mastermind", "board")).settled()
    assert later.ephemeral and "No game is running" in later.text


async def test_a_moderator_ends_a_solve_game_and_its_board_says_so(
    fake_discord: FakeDiscord, bot, db_path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled()
    refused = await (await fake_discord.slash("general", "bob", "mastermind", "giveup")).response()
    assert refused.ephemeral and "moderator" in refused.text
    confirm = await (await fake_discord.slash("general", "mod", "mastermind", "giveup")).response()
    assert confirm.ephemeral and "stop my guessing" in confirm.text
    ended = await fake_discord.click(confirm, "Yes, end the game", user="mod")
    await ended.response()
    assert "ended the solving game" in (await ended.followup()).text
    await fake_discord.wait_for(lambda: "Given up" in board.text, what="solve board ended")
    assert board.buttons == []
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]
