"""The synced command tree, and the commands around the games: rules, simulate, errors."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.app import MastermindBot
from bot.config import Settings
from bot.engine.codes import CodeSpace
from bot.engine.simulate import simulate
from tests.discord_fake import FakeDiscord

SUBCOMMANDS = {
    "play": ["pegs", "colours", "guesses", "duplicates", "solo", "hard"],
    "guess": ["code"],
    "giveup": [],
    "solve": ["pegs", "colours", "duplicates", "strategy"],
    "board": [],
    "rules": [],
    "simulate": ["pegs", "colours", "strategy"],
    "stats": ["player"],
    "leaderboard": ["games"],
    "daily": ["hard"],
    "race": ["pegs", "colours", "guesses", "duplicates", "hard", "join_seconds", "minutes"],
    "duel": ["pegs", "colours", "guesses", "duplicates", "opponent", "hard"],
}


def _options(command: dict) -> dict[str, dict]:
    return {o["name"]: o for o in command.get("options", [])}


async def test_the_synced_command_tree(fake_discord: FakeDiscord, bot) -> None:
    synced = fake_discord.synced_commands()
    assert [c["name"] for c in synced] == ["mastermind"]
    group = synced[0]
    # installed to servers and users; servers, the bot's DM and private channels (issue #10)
    assert (group.get("integration_types"), group.get("contexts")) == ([0, 1], [0, 1, 2])
    subcommands = _options(group)
    assert {name: list(_options(sub)) for name, sub in subcommands.items()} == SUBCOMMANDS
    play = _options(subcommands["play"])
    assert (play["pegs"]["min_value"], play["pegs"]["max_value"]) == (2, 8)
    assert (play["colours"]["min_value"], play["colours"]["max_value"]) == (2, 10)
    assert (play["guesses"]["min_value"], play["guesses"]["max_value"]) == (1, 20)
    assert not any(o.get("required") for o in play.values())
    assert _options(subcommands["guess"])["code"]["required"] is True
    boards = _options(subcommands["leaderboard"])["games"]["choices"]
    assert [c["value"] for c in boards] == [  # in the modes' order; the duel's per opponent
        "play",
        "daily",
        "race",
        "duel-knuth",
        "duel-random-consistent",
        "duel-optimal",
        "duel-expected-size",
        "duel-entropy",
        "duel-most-parts",
        "duel-two-colour-random",
    ]
    opponents = [c["value"] for c in _options(subcommands["duel"])["opponent"]["choices"]]
    assert opponents[0] == "random-consistent"  # `easy`, then every other strategy
    assert sorted(opponents) == sorted(
        c["value"] for c in _options(subcommands["solve"])["strategy"]["choices"]
    )
    strategies = [c["value"] for c in _options(subcommands["solve"])["strategy"]["choices"]]
    assert strategies == [
        "knuth",
        "expected-size",
        "entropy",
        "most-parts",
        "random-consistent",
        "two-colour-random",
        "optimal",
    ]


async def test_dev_guild_gets_the_commands_once_and_only_there(
    fake_discord: FakeDiscord, db_path: Path
) -> None:
    settings = Settings(
        token=fake_discord.token, database_path=db_path, dev_guild_id=fake_discord.guild_id
    )
    for _ in range(2):  # the second start finds the same application, scope and tree
        async with fake_discord.run_in_process(lambda: MastermindBot(settings), timeout=30.0):
            pass
    guild_syncs = [s for s in fake_discord.command_syncs if s[0] == fake_discord.guild_id]
    global_syncs = [s for s in fake_discord.command_syncs if s[0] is None]
    assert len(guild_syncs) == 1 and len(global_syncs) == 0
    names = [c["name"] for c in fake_discord.synced_commands(fake_discord.guild_id)]
    assert names == ["mastermind"] and fake_discord.synced_commands() == []


async def test_rules_are_private(fake_discord: FakeDiscord, bot) -> None:
    rules = await (await fake_discord.slash("general", "dave", "mastermind", "rules")).response()
    assert rules.ephemeral and "How to play Mastermind" in rules.text
    assert "/mastermind solve" in rules.text


async def test_simulate_charts_every_secret_and_has_a_cooldown(
    fake_discord: FakeDiscord, bot
) -> None:
    handle = await fake_discord.slash(
        "general", "alice", "mastermind", "simulate", options={"pegs": 3, "colours": 4}
    )
    chart = await handle.settled()
    expected = simulate(CodeSpace(3, 4), "knuth")
    assert "every secret" in chart.text and f"Total **{expected.total:,}**" in chart.text
    assert f"worst **{expected.worst}**" in chart.text and "█" in chart.text
    again = await (await fake_discord.slash("general", "bob", "mastermind", "simulate")).response()
    assert again.ephemeral and "Try again in" in again.text
    elsewhere = await fake_discord.slash(
        "games",
        "bob",
        "mastermind",
        "simulate",
        options={"pegs": 8, "colours": 10, "strategy": "entropy"},
    )
    refused = await elsewhere.response()
    assert refused.ephemeral and "1,000,000" in refused.text


async def test_a_gateway_drop_is_resumed_and_commands_still_work(
    fake_discord: FakeDiscord, bot
) -> None:
    resumes = fake_discord.resume_count
    await fake_discord.drop_gateway()
    assert fake_discord.resume_count == resumes + 1
    rules = await (await fake_discord.slash("general", "bob", "mastermind", "rules")).response()
    assert rules.ephemeral


async def test_stale_games_time_out_and_reveal_the_secret(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    assert await bot.expire_stale_games(timedelta(hours=1)) == 0  # it was just started
    assert await bot.expire_stale_games(timedelta(0)) == 1
    await fake_discord.wait_for(lambda: "Timed out" in board.text, what="board timed out")
    assert "Secret" in board.text
    assert [b["custom_id"].split(":")[1] for b in board.buttons] == ["review"]  # review only
    again = await (await fake_discord.slash("general", "bob", "mastermind", "play")).settled()
    assert not again.ephemeral  # the channel is free for a new game
