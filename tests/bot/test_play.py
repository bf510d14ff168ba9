"""/mastermind play end to end: the real bot, the fake Discord, a real database file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.bot.helpers import active_game, board_shows, guesses, move_count, query, secret_text
from tests.discord_fake import FakeDiscord


def other_code(secret: str) -> str:
    """A wrong guess: the secret with its first peg changed."""
    first = "2" if secret[0] == "1" else "1"
    return first + secret[1:]


async def test_cooperative_game_won_by_the_second_player(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    assert not board.ephemeral
    assert "🔴 **R** red" in board.text and "**10** of 10" in board.text
    assert [b["label"] for b in board.buttons] == ["Guess", "Hint", "Give up"]
    secret = secret_text(db_path)
    assert secret not in board.text

    alice = await fake_discord.slash(
        "general", "alice", "mastermind", "guess", options={"code": other_code(secret)}
    )
    line = await alice.response()
    assert not line.ephemeral and "9 guesses left" in line.text
    await board_shows(fake_discord, board, "**9** of 10")

    bob_id = fake_discord.user("bob").id
    winning = await fake_discord.slash(
        "general", "bob", "mastermind", "guess", options={"code": secret}
    )
    won = await winning.response()
    assert f"<@{bob_id}> cracked the code in 2 guesses" in won.text
    await fake_discord.wait_for(lambda: "Knuth's algorithm would have needed" in won.text)
    await board_shows(fake_discord, board, "Cracked by")
    assert "Secret" in board.text and [b["label"] for b in board.buttons] == ["Review"]
    assert query(db_path, "SELECT status, winner_id FROM games") == [("won", bob_id)]

    stats = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "stats", options={"player": "bob"}
        )
    ).response()
    assert "1 (100%)" in stats.text
    board_of_leaders = await (
        await fake_discord.slash("general", "carol", "mastermind", "leaderboard")
    ).response()
    assert f"<@{bob_id}>" in board_of_leaders.text


async def test_lost_game_reveals_the_secret(fake_discord: FakeDiscord, bot, db_path) -> None:
    board = await (
        await fake_discord.slash("general", "alice", "mastermind", "play", options={"guesses": 2})
    ).settled()
    secret = secret_text(db_path)
    wrong = other_code(secret)
    await (
        await fake_discord.slash("general", "alice", "mastermind", "guess", options={"code": wrong})
    ).response()
    last = await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": wrong})
    ).response()
    emoji = "".join(["🔴", "🟢", "🔵", "🟡", "🟠", "🟤"][int(d) - 1] for d in secret)
    assert "Out of guesses" in last.text and emoji in last.text
    await board_shows(fake_discord, board, "Out of guesses")
    assert emoji in board.text


async def test_solo_game_refuses_other_players(fake_discord: FakeDiscord, bot, db_path) -> None:
    await (
        await fake_discord.slash("general", "alice", "mastermind", "play", options={"solo": True})
    ).settled()
    refused = await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": "1234"})
    ).response()
    assert refused.ephemeral and "solo game" in refused.text
    assert move_count(db_path) == 0
    accepted = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "guess", options={"code": "1234"}
        )
    ).response()
    assert not accepted.ephemeral and move_count(db_path) == 1


async def test_every_bad_input_is_ephemeral_and_changes_nothing(
    fake_discord: FakeDiscord, bot, db_path
) -> None:
    impossible = await fake_discord.slash(
        "general",
        "alice",
        "mastermind",
        "play",
        options={"pegs": 6, "colours": 4, "duplicates": False},
    )
    reply = await impossible.response()
    assert reply.ephemeral and "6 pegs need at least 6 colours" in reply.text

    no_game = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "guess", options={"code": "1234"}
        )
    ).response()
    assert no_game.ephemeral and "/mastermind play" in no_game.text

    await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "play", options={"duplicates": False}
        )
    ).settled()
    cases = {
        "123": "4 pegs",
        "RGBX": "'X'",
        "1123": "may not repeat",
        "1239": "'9'",
    }
    for code, fragment in cases.items():
        reply = await (
            await fake_discord.slash(
                "general", "bob", "mastermind", "guess", options={"code": code}
            )
        ).response()
        assert reply.ephemeral, code
        assert fragment in reply.text, (code, reply.text)
    assert move_count(db_path) == 0

    second = await (await fake_discord.slash("general", "bob", "mastermind", "play")).settled()
    assert second.ephemeral and "already running" in second.text
    assert "/mastermind giveup" in second.text
    assert query(db_path, "SELECT count(*) FROM games") == [(1,)]

    await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "guess", options={"code": secret_text(db_path)}
        )
    ).response()
    late = await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": "1234"})
    ).response()
    assert late.ephemeral and "No game is running" in late.text
    assert move_count(db_path) == 1


async def test_two_players_guessing_at_once_are_both_recorded_in_order(
    fake_discord: FakeDiscord, bot, db_path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    secret = secret_text(db_path)
    wrong = other_code(secret)
    handles = await asyncio.gather(
        fake_discord.slash("general", "alice", "mastermind", "guess", options={"code": wrong}),
        fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": "6543"}),
    )
    replies = await asyncio.gather(*(h.response() for h in handles))
    assert not any(r.ephemeral for r in replies)
    game_id, _ = active_game(db_path)
    recorded = guesses(db_path, game_id)
    assert len(recorded) == 2
    assert {player for player, _ in recorded} == {
        fake_discord.user("alice").id,
        fake_discord.user("bob").id,
    }
    left = sorted(int(r.text.split(" · ")[-1].split()[0]) for r in replies)
    assert left == [8, 9]  # each reply saw its own place in the order


async def test_picker_buttons_and_give_up(fake_discord: FakeDiscord, bot, db_path) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    picker = await (await fake_discord.click(board, "Guess", user="carol")).response()
    assert picker.ephemeral and len(picker.selects) == 4
    submit_early = await (await fake_discord.click(picker, "Submit guess", user="carol")).response()
    assert submit_early.ephemeral and "Pick a colour for peg 1, 2, 3, 4" in submit_early.text
    for peg, colour in enumerate("3456"):
        select = picker.selects[peg]["custom_id"]
        await (
            await fake_discord.select(picker, select, [str(int(colour) - 1)], user="carol")
        ).response()
    assert "🔵🟡🟠🟤" in picker.text
    sent = await fake_discord.click(picker, "Submit guess", user="carol")
    await sent.response()
    line = await sent.followup()
    assert not line.ephemeral and "🔵🟡🟠🟤" in line.text
    await board_shows(fake_discord, board, "🔵🟡🟠🟤")
    assert move_count(db_path) == 1

    spare = await (await fake_discord.click(board, "Guess", user="dave")).response()
    refused = await (await fake_discord.click(board, "Give up", user="bob")).response()
    assert refused.ephemeral and "moderator" in refused.text
    confirm = await (await fake_discord.click(board, "Give up", user="mod")).response()
    assert confirm.ephemeral
    ended = await fake_discord.click(confirm, "Yes, end the game", user="mod")
    await ended.response()
    public = await ended.followup()
    assert "ended the game. The secret was" in public.text
    await board_shows(fake_discord, board, "Given up by")

    stale = await (await fake_discord.click(spare, "Submit guess", user="dave")).response()
    assert stale.ephemeral and "This game is over." in stale.text
    assert move_count(db_path) == 2  # the guess and the give-up, nothing else


async def test_long_codes_use_a_modal(fake_discord: FakeDiscord, bot, db_path) -> None:
    board = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "play", options={"pegs": 6, "colours": 8}
        )
    ).settled()
    opened = await fake_discord.click(board, "Guess", user="bob")
    modal = await opened.modal()
    submitted = await fake_discord.submit_modal(modal, {"code": "RGBYOP"}, user="bob")
    line = await submitted.response()
    assert "🔴🟢🔵🟡🟠🟣" in line.text
    await board_shows(fake_discord, board, "🔴🟢🔵🟡🟠🟣")
