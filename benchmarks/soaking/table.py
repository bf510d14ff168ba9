"""What every soak player shares: the fake, the ledger, and one careful way to act.

`Table.act` sends one interaction, notes it in the ledger and waits for its first answer. An
interaction that cannot be sent (no bot connected: it was killed) or is not answered in time
is counted and the player carries on: a soak with restarts must not stop on either.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from benchmarks.soaking.ledger import Ledger, Sent
from tests.discord_fake import FakeDiscord, FakeDiscordError, FakeMessage, InteractionHandle

ANSWER_TIMEOUT = 5.0
"""Seconds a player waits for a first answer (Discord gives up after 3)."""
MOVED_TIMEOUT = 5.0
"""Seconds a player waits for a board to move before acting again anyway."""
RETRY_PAUSE = 0.25
"""Seconds a player waits after an interaction could not be sent (no bot up)."""
ROUTE = re.compile(r"mm:(?P<name>[a-z-]+)((?::\d+)*)$")


@dataclass
class Table:
    """The soak as its players see it."""

    fake: FakeDiscord
    ledger: Ledger
    rng: random.Random
    playing: bool = True
    think: float = 0.0
    """Seconds a player pauses before each interaction (0.5 to 1.5 times this, at random): a
    paced load, so that more channels offer more work instead of the same machine's limit."""

    async def act(
        self,
        kind: str,
        send: Callable[[], Awaitable[InteractionHandle]],
        source: Callable[[InteractionHandle], str] | None = None,
    ) -> tuple[Sent, int] | None:
        """Send one interaction (`send()`), note it, and return it with its callback type.

        None: it could not be sent, its target went away, or it was not answered in time
        (the ledger still has it, and counts it unanswered unless a bot was down).
        """
        if self.think:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        try:
            handle = await send()
        except FakeDiscordError as error:
            if "no bot is connected" not in str(error):
                raise
            self.ledger.could_not_send(kind)
            await asyncio.sleep(RETRY_PAUSE)
            return None
        except (ValueError, KeyError):  # the button went away or was disabled meanwhile
            return None
        entry = self.ledger.send(kind, handle, source(handle) if source else None)
        try:
            return entry, await handle.answer(ANSWER_TIMEOUT)
        except FakeDiscordError:
            return None

    async def moved(self, message: FakeMessage, edits: int, timeout: float = MOVED_TIMEOUT) -> bool:
        """Wait until `message` was edited past `edits`; False if it was not in time."""
        try:
            await self.fake.wait_for(lambda: message.edits > edits, timeout, "the board to move")
        except FakeDiscordError:
            return False
        return True

    async def seen(self, entry: Sent, condition: Callable[[], bool], timeout: float) -> bool:
        """Watch for what acknowledges `entry`'s move and acknowledge it once it shows.

        Unlike `until`, this keeps waiting when the soak stops: a move the bot already took
        is acknowledged later (the board moves once the next guess is drawn), and a player who
        stopped watching at the stop would leave it stored but never acknowledged. The
        condition stays on the entry for the verdict, which asks it again after the run.
        """
        entry.shows = condition
        try:
            await self.fake.wait_for(condition, timeout, "the move to show")
        except FakeDiscordError:
            return False
        self.ledger.acknowledge(entry)
        return True

    async def until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Wait for `condition` while the soak plays; False if it timed out or the soak ended."""
        try:
            await self.fake.wait_for(lambda: condition() or not self.playing, timeout, "state")
        except FakeDiscordError:
            return False
        return condition()


def route_of(custom_id: str) -> tuple[str, list[int]]:
    """('guess', [game id]) for 'mm:guess:12'; ('', []) for anything else."""
    match = ROUTE.match(custom_id)
    if match is None:
        return "", []
    return match["name"], [int(n) for n in match[2].split(":") if n]


def button(message: FakeMessage, route: str) -> dict[str, object] | None:
    """The enabled button of `route` ('guess', 'ans'...) on the message, if any."""
    for component in message.buttons:
        if not component.get("disabled") and route_of(str(component.get("custom_id")))[0] == route:
            return component
    return None


def newest_board(fake: FakeDiscord, channel: str, route: str) -> FakeMessage | None:
    """The channel's newest public message with a `route` button: a board already running."""
    for message in reversed(fake.messages(channel)):
        if not message.ephemeral and button(message, route) is not None:
            return message
    return None


def guess_rows(message: FakeMessage) -> int:
    """How many guess rows a daily or race board shows (lines starting with a code)."""
    description = str((message.embed or {}).get("description") or "")
    return sum(1 for line in description.splitlines() if line.startswith("`"))
