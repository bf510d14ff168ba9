"""Leases as the store keeps them: one named lease, claimed for one holder, in the database
several bot processes share (a row of table `leases`; its SQL is the PostgreSQL dialect's own).

A lease's time is the database server's clock, never the processes' own, so clocks of several
machines need not agree. On SQLite there is nothing to share: one bot process per file
(`filelock.py`) makes that process the holder of every lease, always (`LocalLease`). Keeping a
lease, and what a cluster does with its leases, is `bot.cluster`'s.
"""

from __future__ import annotations

import math
from typing import Protocol


class Lease(Protocol):
    """One named lease, claimed for one holder."""

    name: str
    holder: str
    ttl: float
    """Seconds a claim holds for; math.inf when nobody else can ever take it."""

    async def claim(self) -> bool:
        """Take the lease (free or expired), or renew it if this holder has it. True: it is
        ours for `ttl` seconds from the call."""
        ...

    async def release(self) -> None:
        """Give it up now, so another process takes over without waiting for the expiry."""
        ...

    async def current_holder(self) -> str | None:
        """Who holds it now (None: nobody, or it expired)."""
        ...

    async def drop_holder(self, holder: str) -> None:
        """Free the lease if `holder` still has it (a process known to be dead)."""
        ...

    async def others(self, prefix: str) -> dict[str, str]:
        """Every live lease whose name starts with `prefix` that another holder has: name to
        holder."""
        ...


class LocalLease:
    """A database only this process uses (SQLite): it always holds every lease."""

    ttl = math.inf

    def __init__(self, name: str, holder: str) -> None:
        self.name, self.holder = name, holder

    async def claim(self) -> bool:
        return True

    async def release(self) -> None:
        return None

    async def current_holder(self) -> str | None:
        return self.holder

    async def drop_holder(self, holder: str) -> None:
        return None

    async def others(self, prefix: str) -> dict[str, str]:
        return {}
