"""Screenshots of the Activity for docs/activity.md, taken with the browser tests' harness: the
real bot with its Activity on, the fake Discord, Debian's chromium, the real SDK in a parent
page playing the Discord client. Each mode at desktop (1280x800) and phone (412x915) size.

    python -m tests.browser.screenshots        # writes docs/activity/<mode>-<size>.png

The review's words hold emoji: with Debian's fonts-noto-color-emoji installed they are drawn
as a Discord client draws them (without it, as empty boxes).
"""

from __future__ import annotations

import asyncio
import json
import socket
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from bot.app import MastermindBot
from bot.config import Settings
from tests.bot.helpers import query
from tests.browser.harness import DESKTOP, FLAGS, PHONE, DiscordClients, Player, chromium_path
from tests.discord_fake import FakeDiscord
from tests.discord_fake.activities import FakeActivityInstance

OUT = Path(__file__).resolve().parents[2] / "docs" / "activity"
SIZES = {"desktop": (DESKTOP, "desktop"), "phone": (PHONE, "mobile")}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def secret(db: Path, kind: str) -> str:
    ((value,), *_) = query(db, "SELECT secret FROM games WHERE kind = ? ORDER BY id DESC", kind)
    return "".join(str(c + 1) for c in json.loads(value))


def near(code: str, peg: int) -> str:
    return code[:peg] + ("2" if code[peg] == "1" else "1") + code[peg + 1 :]


@dataclass
class Stage:
    """Where a scene is played: the fake, the windows, the database, a channel, a size."""

    fake: FakeDiscord
    clients: DiscordClients
    db: Path
    channel: str
    viewport: dict[str, int]
    platform: str

    def open(self, user: str, instance: FakeActivityInstance, *, shown: bool = True) -> Any:
        """`user`'s window: at the screenshot's size if it is the one `shown`."""
        if not shown:
            return self.clients.open(user, instance)
        return self.clients.open(user, instance, viewport=self.viewport, platform=self.platform)


Scene = Callable[[Stage], Awaitable[Player]]


async def play(stage: Stage) -> Player:
    """Two players on the channel's game, three guesses in, a code half entered."""
    await (await stage.fake.slash(stage.channel, "alice", "mastermind", "play")).settled()
    instance = stage.fake.start_activity(stage.channel, users=("alice", "bob"))
    bob = await stage.open("bob", instance, shown=False)
    alice = await stage.open("alice", instance)
    code = secret(stage.db, "play")
    await alice.guess(near(near(code, 0), 1))
    await bob.guess(near(code, 2))
    await alice.wait_rows(2)
    await alice.pick(code[:2])
    return alice


async def solve(stage: Stage) -> Player:
    """The bot's third guess awaiting its answer, black pegs chosen."""
    await (await stage.fake.slash(stage.channel, "alice", "mastermind", "solve")).settled()
    instance = stage.fake.start_activity(stage.channel, users=("alice",))
    alice = await stage.open("alice", instance)
    for black, white in ((1, 1), (0, 2)):
        before = await alice.rows().count()
        await alice.app.locator(f"button[data-count='black'][data-value='{black}']").click()
        await alice.app.locator(f"button[data-count='white'][data-value='{white}']").click()
        await alice.app.locator("button[data-submit='answer']").click()
        await alice.wait_rows(before + 1)
    await alice.app.locator("button[data-count='black'][data-value='1']").click()
    return alice


async def daily(stage: Stage) -> Player:
    """The day's code on its player's private board, two guesses in."""
    await (await stage.fake.slash(stage.channel, "alice", "mastermind", "daily")).response()
    instance = stage.fake.start_activity(stage.channel, users=("alice",))
    alice = await stage.open("alice", instance)
    code = secret(stage.db, "daily")
    await alice.guess(near(near(code, 1), 3))
    await alice.guess(near(code, 0))
    return alice


async def race(stage: Stage) -> Player:
    """A race of two under way: bob's own board, the clock, the standings."""
    await (await stage.fake.slash(stage.channel, "alice", "mastermind", "race")).settled()
    instance = stage.fake.start_activity(stage.channel, users=("alice", "bob"))
    alice = await stage.open("alice", instance, shown=False)
    bob = await stage.open("bob", instance)
    await bob.app.locator("button[data-action='join']").click()
    await alice.app.locator("#game .side li", has_text="Bob").wait_for()
    await alice.app.locator("button[data-action='start']").click()
    await bob.app.locator("button[data-submit='guess']").wait_for()
    code = secret(stage.db, "race")
    await alice.guess(near(code, 0))
    await alice.guess(near(code, 3))
    await bob.guess(near(near(code, 1), 2))
    await bob.app.locator("#game .side li", has_text="Alice — guesses: 2").wait_for()
    return bob


async def review(stage: Stage) -> Player:
    """A game cracked in three guesses, then its review with Knuth's beside each guess."""
    await (await stage.fake.slash(stage.channel, "alice", "mastermind", "play")).settled()
    instance = stage.fake.start_activity(stage.channel, users=("alice",))
    alice = await stage.open("alice", instance)
    code = secret(stage.db, "play")
    await alice.guess(near(near(code, 0), 2))
    await alice.guess(near(code, 1))
    await alice.guess(code)
    await alice.press("button[data-action='review']")
    await alice.app.locator("#game .review").wait_for(timeout=30_000)
    await alice.app.locator("#game .review").scroll_into_view_if_needed()
    return alice


SCENES: dict[str, Scene] = {
    "play": play,
    "solve": solve,
    "daily": daily,
    "race": race,
    "review": review,
}


async def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "mastermind.db"
        port = free_port()
        channels = tuple(f"{mode}-{size}" for mode in SCENES for size in SIZES)
        async with FakeDiscord(channels=channels) as fake:
            settings = Settings(
                token=fake.token,
                database_path=db,
                activity_port=port,
                client_secret=fake.client_secret,
            )
            async with (
                fake.run_in_process(lambda: MastermindBot(settings), timeout=30, commands=True),
                async_playwright() as playwright,
            ):
                fake.enable_activities()
                browser = await playwright.chromium.launch(
                    executable_path=chromium_path(), args=FLAGS
                )
                clients = DiscordClients(fake, browser, f"http://127.0.0.1:{port}")
                for mode, scene in SCENES.items():
                    for size, (viewport, platform) in SIZES.items():
                        channel = f"{mode}-{size}"
                        stage = Stage(fake, clients, db, channel, viewport, platform)
                        player = await scene(stage)
                        await asyncio.sleep(0.3)
                        path = OUT / f"{mode}-{size}.png"
                        await player.page.screenshot(path=path)
                        print(f"wrote {path.relative_to(OUT.parents[1])}")
                problems = await clients.close()
                problems += [p for player in clients.players for p in player.problems]
                await browser.close()
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
