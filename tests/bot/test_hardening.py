"""Issue #8 end to end: one move per input, refusals that stay private and name the right game,
bounded input, only possible answers, and no secret in the log at any level."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest

from bot.engine.codes import CodeSpace
from tests.bot.helpers import move_count, query, secret_text
from tests.discord_fake import FakeDiscord, FakeMessage


async def _picker_with_a_full_guess(
    fake: FakeDiscord, user: str = "carol"
) -> tuple[FakeMessage, FakeMessage]:
    board = await (await fake.slash("general", "alice", "mastermind", "play")).settled()
    picker = await (await fake.click(board, "Guess", user=user)).response()
    for peg, colour in enumerate("1234"):
        await (await fake.select(picker, f"Peg {peg + 1}", [str(int(colour) - 1)])).response()
    return board, picker


async def test_a_picker_submitted_twice_makes_one_guess(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    _, picker = await _picker_with_a_full_guess(fake_discord)
    first, second = await asyncio.gather(
        fake_discord.click(picker, "Submit guess", user="carol"),
        fake_discord.click(picker, "Submit guess", user="carol"),
    )
    await first.answer()
    await second.answer()
    await fake_discord.wait_for(lambda: move_count(db_path) >= 1, what="the guess stored")
    await fake_discord.wait_for(
        lambda: any("already counted" in m.text for h in (first, second) for m in h.messages),
        what="the second submit told it was already counted",
    )
    replies = [m for h in (first, second) for m in h.messages if "already counted" in m.text]
    assert replies and all(m.ephemeral for m in replies)
    assert move_count(db_path) == 1
    assert query(db_path, "SELECT source FROM moves") == [(f"picker:{picker.id}",)]


async def test_a_modal_submitted_twice_makes_one_guess(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "play", options={"pegs": 6, "colours": 8}
        )
    ).settled()
    modal = await (await fake_discord.click(board, "Guess", user="bob")).modal()
    assert modal.custom_id.count(":") == 3  # mm:code:<game>:<the click that opened it>
    sent = await fake_discord.submit_modal(modal, {"code": "RGBYOP"}, user="bob")
    assert not (await sent.response()).ephemeral
    again = await fake_discord.forge_interaction(
        "general", "bob", type=5, custom_id=modal.custom_id, fields={"code": "RGBYOO"}
    )
    refused = await again.response()
    assert refused.ephemeral and "already counted" in refused.text
    assert move_count(db_path) == 1


async def test_solve_races_stay_private_and_name_the_running_game(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    handles = await asyncio.gather(
        fake_discord.slash("games", "alice", "mastermind", "solve"),
        fake_discord.slash("games", "bob", "mastermind", "solve"),
    )
    for handle in handles:
        await handle.answer()
    await fake_discord.wait_for(
        lambda: sum("already running" in m.text for m in fake_discord.messages("games")) == 1,
        what="one refusal",
    )
    refusal = next(m for m in fake_discord.messages("games") if "already running" in m.text)
    assert refusal.ephemeral and "solving game" in refusal.text
    public = [m for m in fake_discord.messages("games") if not m.ephemeral and not m.deleted]
    assert len(public) == 1 and "I'm cracking" in (await handles[0].settled()).text + (
        public[0].text
    )
    assert query(db_path, "SELECT count(*) FROM games") == [(1,)]

    await (await fake_discord.slash("general", "carol", "mastermind", "play")).settled()
    during_play = await (
        await fake_discord.slash("general", "dave", "mastermind", "solve")
    ).response()
    assert during_play.ephemeral and "guessing game is already running" in during_play.text


async def test_long_input_is_bounded_and_quoted_short(fake_discord: FakeDiscord, bot) -> None:
    (command,) = fake_discord.synced_commands()
    guess = next(o for o in command["options"] if o["name"] == "guess")
    (code_option,) = guess["options"]
    assert code_option["max_length"] == 100

    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    wall = "x" * 60 + "y" * 40
    reply = await (
        await fake_discord.slash("general", "bob", "mastermind", "guess", options={"code": wall})
    ).response()
    assert reply.ephemeral and len(reply.text) < 600
    assert wall not in reply.text and "x" * 30 not in reply.text


async def test_only_possible_answers_are_offered(fake_discord: FakeDiscord, bot) -> None:
    board = await (
        await fake_discord.slash(
            "games",
            "alice",
            "mastermind",
            "solve",
            options={"pegs": 4, "colours": 4, "duplicates": False},
        )
    ).settled()
    labels = [b["label"] for b in board.buttons]
    # Every code is a reordering of the four colours: all four pegs always score.
    assert labels == ["⚪⚪⚪⚪", "⚫⚪⚪⚪", "⚫⚫⚪⚪", "⚫⚫⚫⚫", "Give up"]


async def test_no_secret_in_the_log_at_debug(fake_discord: FakeDiscord, db_path: Path) -> None:
    env = {
        "DATABASE_PATH": str(db_path),
        "LOG_LEVEL": "DEBUG",
        "DEV_GUILD_ID": "",
        "SOLVER_WORKERS": "1",
    }
    process = await fake_discord.spawn_bot(env=env)
    try:
        await process.wait_ready(timeout=30.0, commands=True)
        await (
            await fake_discord.slash(
                "general", "alice", "mastermind", "play", options={"pegs": 6, "colours": 8}
            )
        ).settled()
        digits = secret_text(db_path)
        wrong = "".join("1" if d != "1" else "2" for d in digits)
        for player in ("alice", "bob"):
            await (
                await fake_discord.slash(
                    "general", player, "mastermind", "guess", options={"code": wrong}
                )
            ).response()
        await (await fake_discord.slash("general", "bob", "mastermind", "board")).settled()
    finally:
        await process.stop()
    log = process.output
    assert "DEBUG" in log and "discord.http" in log  # the debug log really was on
    space = CodeSpace(6, 8)
    secret = space.parse(digits)
    for form in (json.dumps(list(secret), separators=(",", ":")), space.letters(secret)):
        assert form not in log, f"the secret leaked into the log as {form}"
    assert space.emoji(secret) not in log


@pytest.mark.parametrize("named", ["the same path", "a symlink"])
async def test_a_second_bot_process_on_the_same_database_refuses_to_start(
    fake_discord: FakeDiscord, db_path: Path, named: str
) -> None:
    """However the second names the file (tests/store/test_sqlite_file.py: hard links,
    relative paths, bind mounts), it meets the first one's lock and exits 1 with one line."""
    env = {"DATABASE_PATH": str(db_path), "LOG_LEVEL": "INFO", "DEV_GUILD_ID": ""}
    first = await fake_discord.spawn_bot(env=env)
    try:
        await first.wait_ready(timeout=30.0, commands=True)
        second_path = db_path
        if named == "a symlink":
            second_path = db_path.parent / "elsewhere" / "link.db"
            second_path.parent.mkdir()
            second_path.symlink_to(db_path)
        second = await fake_discord.spawn_bot(env={**env, "DATABASE_PATH": str(second_path)})
        assert await second.wait(30.0) == 1
        refusals = [s for s in second.output_lines if s.startswith("mastermind-bot:")]
        assert len(refusals) == 1 and "Traceback" not in second.output
        assert f"pid {first.pid}" in refusals[0] and str(second_path) in refusals[0]
        # The first keeps playing, and nothing was answered twice.
        board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
        line = await (
            await fake_discord.slash(
                "general", "bob", "mastermind", "guess", options={"code": "1234"}
            )
        ).response()
        assert not line.ephemeral and board.embed is not None
        assert move_count(db_path) == 1
    finally:
        await first.stop()


async def test_a_forged_modal_with_an_id_the_store_cannot_hold_is_refused_like_a_missing_game(
    fake_discord: FakeDiscord, bot, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A row id is at most 2**63 - 1 (19 digits): a custom_id number beyond it names no game,
    and gets the very refusal a missing game gets, privately, with nothing above INFO logged."""
    caplog.set_level(logging.INFO)
    missing = await fake_discord.forge_interaction(
        "general", "bob", type=5, custom_id="mm:code:424242", fields={"code": "1234"}
    )
    expected = (await missing.response()).text
    assert "another channel" in expected
    beyond, twenty = str(2**63), "9" * 20
    for custom_id in (
        f"mm:code:{twenty}",
        f"mm:code:{beyond}",
        f"mm:code:{beyond}:{twenty}",
        f"mm:dcode:{beyond}:1",
        f"mm:dcode:{twenty}:1",
        f"mm:rcode:{beyond}:0",
        f"mm:rcode:{twenty}:0",
    ):
        forged = await fake_discord.forge_interaction(
            "general", "bob", type=5, custom_id=custom_id, fields={"code": "1234"}
        )
        reply = await forged.response()
        assert reply.ephemeral and reply.text == expected, custom_id
    loud = [r for r in caplog.records if r.levelno > logging.INFO]
    assert loud == [], [r.getMessage() for r in loud]
    assert move_count(db_path) == 0
