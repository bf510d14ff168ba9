"""Issue #22's fuzz, small: every input field family fuzzed through the fake Discord (the full
10^4 per family is `benchmarks/fuzz.py`), and the defects it found, each with its own test."""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pytest

import bot.modes.common.board
import bot.modes.daily.board
import bot.modes.hints.board
import bot.modes.play.board
import bot.modes.race.board
import bot.modes.review.board
import bot.modes.solve.board
from benchmarks.fuzz import main
from bot.ui.ids import Route
from tests.bot.helpers import query
from tests.discord_fake import FakeDiscord
from tests.fuzz import fields, probe, scene

COUNT = 60
"""Inputs per family: a few seconds in all."""
BOARDS = (
    bot.modes.common.board,
    bot.modes.daily.board,
    bot.modes.hints.board,
    bot.modes.play.board,
    bot.modes.race.board,
    bot.modes.review.board,
    bot.modes.solve.board,
)


async def test_every_field_family_is_answered_privately_and_stores_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = argparse.Namespace(count=COUNT, seed=22, families=None, batch=8, check=True)
    assert await main(args) == 0, capsys.readouterr().out
    out = capsys.readouterr().out
    for family in ("slash options", "custom_ids", "select values", "modal text"):
        line = next(s for s in out.splitlines() if s.startswith(family))
        assert f"n={COUNT} " in line and "failures 0" in line, line
    assert "seed 22" in out and "fuzz: PASS" in out


async def test_the_fuzz_reads_every_route_and_option_from_the_bot(bot) -> None:
    """Every Route a mode's board declares is fuzzed, and every synced command's options."""
    fuzzed = {r.prefix for r in fields.routes(bot, scene.Scene())}
    declared = {
        value.prefix
        for module in BOARDS
        for value in vars(module).values()
        if isinstance(value, Route)
    }
    assert declared <= fuzzed, declared - fuzzed
    options = {(c.path[-1], o["name"]) for c in fields.commands(bot) for o in c.options}
    assert {
        ("play", "pegs"),
        ("guess", "code"),
        ("race", "minutes"),
        ("stats", "player"),
    } <= options


async def test_a_modal_no_route_takes_is_refused_privately(
    fake_discord: FakeDiscord, bot, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by the fuzz: a form whose custom_id matches no mode's route (here a play game's,
    with its separators doubled) got no answer at all ("This interaction failed")."""
    caplog.set_level(logging.INFO)
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    (game_id,) = query(db_path, "SELECT id FROM games")[0]
    before = probe.snapshot(db_path)
    for custom_id in (f"mm::code::{game_id}", f"mm:nope:{game_id}", "x", ""):
        forged = await fake_discord.forge_interaction(
            "general", "bob", type=5, custom_id=custom_id, fields={"code": "1234"}
        )
        reply = await forged.response()
        assert reply.ephemeral and "another channel" in reply.text, custom_id
    assert probe.snapshot(db_path) == before
    # The bot's own log: discord.py's heartbeat thread may warn of a loaded host meanwhile.
    loud = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("bot")]
    assert loud == [], [r.getMessage() for r in loud]


async def test_a_button_or_select_no_route_takes_is_refused_privately(
    fake_discord: FakeDiscord, bot, db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Found by the fuzz: a component whose custom_id matches no route (a message of a bot
    version with other routes, or forged onto one) was dropped by discord.py unanswered."""
    caplog.set_level(logging.INFO)
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    (game_id,) = query(db_path, "SELECT id FROM games")[0]
    before = probe.snapshot(db_path)
    for component_type, custom_id in ((2, f"mm:guess::{game_id}"), (3, "mm:pick:x"), (2, "old")):
        forged = await fake_discord.forge_interaction(
            "general",
            "bob",
            type=3,
            custom_id=custom_id,
            component_type=component_type,
            values=["0"] if component_type == 3 else None,
            message=board,
            settle=False,
        )
        reply = await forged.response()
        assert reply.ephemeral and "another channel" in reply.text, custom_id
    assert probe.snapshot(db_path) == before
    loud = [r for r in caplog.records if r.levelno > logging.INFO and r.name.startswith("bot")]
    assert loud == [], [r.getMessage() for r in loud]
