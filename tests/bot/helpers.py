"""Test-side peeks: read the database file directly, and parse what the bot shows."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from bot.engine.codes import CodeSpace
from tests.discord_fake import FakeDiscord, FakeMessage


def query(db_path: Path, sql: str, *args: object) -> list[tuple]:
    """Another program reading the file (a plain sqlite3 connection, on purpose): what is on
    disk, not what the bot's store says."""
    with sqlite3.connect(db_path) as connection:
        return connection.execute(sql, args).fetchall()


def active_game(db_path: Path) -> tuple[int, list[int] | None]:
    """(id, secret) of the newest active game; the test peeks like a cheating player would."""
    game_id, secret = query(
        db_path, "SELECT id, secret FROM games WHERE status = 'active' ORDER BY id DESC LIMIT 1"
    )[0]
    return game_id, json.loads(secret) if secret else None


def secret_text(db_path: Path) -> str:
    """The active play game's secret as digits, e.g. '1234'."""
    _, secret = active_game(db_path)
    assert secret is not None
    return "".join(str(c + 1) for c in secret)


def move_count(db_path: Path) -> int:
    return query(db_path, "SELECT count(*) FROM moves")[0][0]


def guesses(db_path: Path, game_id: int) -> list[tuple[int, str]]:
    return query(
        db_path,
        "SELECT player_id, code FROM moves WHERE game_id = ? AND kind = 'guess' ORDER BY move_no",
        game_id,
    )


GUESS_ON_BOARD = re.compile(r"\*\*Guess (\d+):\*\* .*?`(\d+)`")


def bot_guess(board: FakeMessage) -> tuple[int, str]:
    """The solve board's current guess: (number, digits)."""
    match = GUESS_ON_BOARD.search(board.text)
    assert match, board.text
    return int(match[1]), match[2]


def answer_label(space: CodeSpace, guess: str, secret: str) -> str:
    """The button a truthful player presses."""
    from bot.engine.scoring import score
    from bot.ui.text import answer_label as label

    return label(*score(space.parse(guess), space.parse(secret)))


async def board_shows(fake: FakeDiscord, board: FakeMessage, fragment: str) -> None:
    """Wait until a board (edited in place) shows `fragment`."""
    await fake.wait_for(lambda: fragment in board.text, what=f"board shows {fragment!r}")


async def press(fake: FakeDiscord, board: FakeMessage, target: str, user: str) -> FakeMessage:
    """Click a board component and wait until the bot has dealt with it: the board edited in
    place (returned), or a reply of its own (an ephemeral error, returned instead)."""
    edits = board.edits
    handle = await fake.click(board, target, user=user)
    kind = await handle.answer()
    if kind in (6, 7):  # deferred or immediate update of the board itself
        await fake.wait_for(lambda: board.edits > edits, what=f"board edited after {target!r}")
        return board
    return await handle.settled()


async def choose(
    fake: FakeDiscord, board: FakeMessage, select: str, value: str, user: str
) -> FakeMessage:
    """Like `press`, for a select."""
    edits = board.edits
    handle = await fake.select(board, select, [value], user=user)
    if await handle.answer() in (6, 7):
        await fake.wait_for(lambda: board.edits > edits, what=f"board edited after {value!r}")
        return board
    return await handle.settled()


def assert_never_went_back(board: FakeMessage, newest: str, since: int) -> None:
    """From version `since` of the message on (when the test saw it show `newest`, its footer's
    "move N"), every version shows `newest`: no late edit took it back."""
    footers = [
        str(((version.get("embeds") or [{}])[0].get("footer") or {}).get("text"))
        for version in board.history
    ]
    assert all(newest in footer for footer in footers[since:]), footers
