"""The world the fuzz runs in: a game of every kind in every state, played as players play.

Every game is started by its owner through the fake Discord, and the fuzzing players (`ACTORS`)
own nothing that a fuzzed input could move: their own daily is already given up, and the only
games they may move in (the open play games) are fuzzed with codes that are not codes. Whatever
the fuzz sends, a correct bot therefore stores nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from tests.bot.helpers import query
from tests.discord_fake import FakeDiscord, FakeMessage

CHANNELS = ("general", "games", "solving", "racing", "done", "empty")
"""`general`: an open 4x6 play game (the picker); `games`: an open 6x8 play game (the code
modal); `solving`: a solve game; `racing`: a race under way; `done`: a finished play game;
`empty`: no game."""
MEMBERS = ("alice", "bob", "carol", "dave")
OWNER = "alice"
"""Starts every shared game."""
RACER = "carol"
"""Runs in the race beside alice and has today's daily open: the modal fuzz plays as her."""
ACTORS = ("bob", "dave")
"""The players who fuzz: they own nothing a fuzzed input could move."""


@dataclass
class Scene:
    """Game ids by role, and the messages that carry each custom_id the bot drew."""

    games: dict[str, int] = field(default_factory=dict)
    """'play', 'long', 'solve', 'race', 'finished', 'daily:<user>'."""
    hosts: dict[str, list[FakeMessage]] = field(default_factory=dict)
    """Route prefix -> messages on which the bot drew a component of that route."""

    def game_ids(self) -> list[int]:
        return sorted(set(self.games.values()))


async def build(fake: FakeDiscord, db_path: Path) -> Scene:
    """Play the scene's games into being, then index every component the bot drew."""
    scene = Scene()
    slash = fake.slash
    await (await slash("general", OWNER, "mastermind", "play")).settled()
    await (
        await slash("games", OWNER, "mastermind", "play", options={"pegs": 6, "colours": 8})
    ).settled()
    await (await slash("solving", OWNER, "mastermind", "solve")).settled()
    finished = await (await slash("done", OWNER, "mastermind", "play")).settled()
    confirm = await (await fake.click(finished, "Give up", user=OWNER)).response()
    await (await fake.click(confirm, confirm.buttons[0]["custom_id"], user=OWNER)).response()
    await _race(fake)
    for user in (*ACTORS, RACER):
        daily = await (await slash("general", user, "mastermind", "daily")).response()
        if user in ACTORS:  # cracked: nothing of theirs is left to move
            await _crack_daily(fake, daily, user, db_path)
    for user in (*ACTORS, RACER):  # each fuzzing player's private pickers and boards
        await (await fake.click(_board(fake, "general", "Guess"), "Guess", user=user)).response()
        await (
            await fake.click(_board(fake, "racing", "My board"), "My board", user=user)
        ).response()
    rows = query(db_path, "SELECT id, kind, status, channel_id, starter_id FROM games")
    scene.games = _roles(fake, rows)
    scene.hosts = _hosts(fake)
    return scene


async def _race(fake: FakeDiscord) -> None:
    lobby = await (
        await fake.slash(
            "racing", OWNER, "mastermind", "race", options={"join_seconds": 300, "minutes": 60}
        )
    ).settled()
    await (await fake.click(lobby, "Join", user=RACER)).answer()
    await fake.wait_for(lambda: RACER in lobby.text or "2" in lobby.text, what="carol joined")
    await (await fake.click(lobby, "Start", user=OWNER)).answer()


async def _crack_daily(fake: FakeDiscord, board: FakeMessage, user: str, db_path: Path) -> None:
    """Play the winning code on a daily board, read from the database as a cheat would."""
    (secret,) = query(
        db_path,
        "SELECT secret FROM games WHERE kind = 'daily' AND starter_id = ?",
        fake.user(user).id,
    )[0]
    for peg, colour in enumerate(json.loads(secret)):
        select = board.selects[peg]["custom_id"]
        await (await fake.select(board, select, [str(colour)], user=user)).response()
    await (await fake.click(board, "Submit guess", user=user)).answer()
    await fake.wait_for(lambda: "Share" in str(board.buttons) or not board.selects, what="won")


def _board(fake: FakeDiscord, channel: str, label: str) -> FakeMessage:
    """The public message in `channel` with a button labelled `label`: its board."""
    return next(
        m
        for m in fake.messages(channel)
        if not m.ephemeral and any(b.get("label") == label for b in m.buttons)
    )


def _roles(fake: FakeDiscord, rows: list[tuple]) -> dict[str, int]:
    by_channel = {fake.channel(name).id: name for name in CHANNELS}
    names = {fake.user(name).id: name for name in MEMBERS}
    roles: dict[str, int] = {}
    for game_id, kind, status, channel_id, starter_id in rows:
        if kind == "daily":
            roles[f"daily:{names[starter_id]}"] = game_id
            continue
        where = by_channel.get(channel_id)
        role = {"general": "play", "games": "long", "solving": "solve", "racing": "race"}
        roles["finished" if status != "active" else role.get(where or "", kind)] = game_id
    return roles


def _hosts(fake: FakeDiscord) -> dict[str, list[FakeMessage]]:
    hosts: dict[str, list[FakeMessage]] = {}
    for message in fake.all_messages():
        if message.deleted:
            continue
        for component in [*message.buttons, *message.selects]:
            custom_id = str(component.get("custom_id") or "")
            if custom_id.startswith("mm:"):
                hosts.setdefault(custom_id.split(":")[1], []).append(message)
    return hosts
