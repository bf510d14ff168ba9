"""Game expiry through the timer service: a running game nobody moved for GAME_TIMEOUT_HOURS
ends as timed out (its board shows the secret, as at any timeout).

Each deadline is derivable from the store (the game's last move + the timeout), so one timer
per scope waits, for the earliest deadline among the games this process looks after: the
servers it serves (set at ready) or, in the lease holder's pass, every server (a process that
died owes its deadlines). A move pushes its game's deadline later and leaves the timer alone:
it wakes early, finds nothing due and waits again for the earliest deadline then. With no game
running, it waits one timeout, the soonest any game started meanwhile can fall due. Two
processes that reach the same game end it once: the store ends a game in one transaction, and
the one that comes second finds it over.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.interactions.context import Host
from bot.store import Held, StoreBusy

log = logging.getLogger(__name__)


RETRY_SECONDS = 30
"""After a failed pass (the database unreachable, say), the timer is set this much later."""


def _key(served_only: bool) -> str:
    return "expiry:served" if served_only else "expiry:all"


async def expiry_pass(bot: Host, *, served_only: bool, while_held: Held) -> int:
    """End the games whose deadline has passed (`served_only`: of the servers this process
    serves), redraw their boards, and set the timer for the next deadline; how many ended.
    `while_held` is asked before each write (the jobs lease of the cluster's pass)."""
    timeout = timedelta(hours=bot.settings.game_timeout_hours)
    guilds = bot.serves if served_only else None
    expired = await bot.store.expire_stale(timeout, while_held=while_held, guilds=guilds)
    for game in expired:
        if game.id is not None and while_held():
            await bot.boards.refresh(game.id)
    if expired:
        log.info("ended %d game(s) nobody played for %s", len(expired), timeout)
    if while_held():
        await arm(bot, served_only=served_only, while_held=while_held)
    return len(expired)


async def arm(bot: Host, *, served_only: bool, while_held: Held) -> None:
    """Set the timer (unless set) for the earliest deadline of the games in scope."""
    timeout = timedelta(hours=bot.settings.game_timeout_hours)
    soonest = bot.clock() + timeout
    for guild_id, last_move in await bot.store.last_moves():
        if not served_only or bot.serves(guild_id):
            soonest = min(soonest, last_move + timeout)

    async def fire() -> None:
        try:
            await expiry_pass(bot, served_only=served_only, while_held=while_held)
        except Exception as error:  # the database, say: try again soon, or no timer is left
            if isinstance(error, StoreBusy):  # the store has said so, once per outage
                log.debug("the expiry pass waits for the database (%d s)", RETRY_SECONDS)
            else:
                log.exception("the expiry pass failed; it tries again in %d s", RETRY_SECONDS)
            again = bot.clock().timestamp() + RETRY_SECONDS
            bot.timers.at(_key(served_only), again, fire)

    bot.timers.at(_key(served_only), soonest.timestamp(), fire)
