"""Which channels play what: the soak's mix of modes, and the users each needs.

Of N channels (per shard), about a tenth run races and a tenth dailies (at least one each),
a quarter Knuth solve games, and the rest cooperative play games of `players` players. Users
are named after their channel, so no player is in two channels' games at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ChannelPlan:
    """One channel: its mode, its name in the fake, and its users."""

    mode: str  # play, solve, daily or race
    channel: str
    users: tuple[str, ...]


@dataclass(frozen=True)
class Plan:
    channels: list[ChannelPlan] = field(default_factory=list)

    @property
    def members(self) -> tuple[str, ...]:
        return tuple(u for c in self.channels for u in c.users)

    @property
    def base_names(self) -> tuple[str, ...]:
        """The channel names of the first guild (the fake names guild k's `<name>-k`)."""
        return tuple(c.channel for c in self.channels if "-" not in c.channel)

    def count(self, mode: str) -> int:
        return sum(1 for c in self.channels if c.mode == mode)


def mix(channels: int) -> list[str]:
    """The modes of `channels` channels, in order."""
    races = max(1, channels // 10) if channels >= 4 else 0
    dailies = max(1, channels // 10) if channels >= 3 else 0
    solves = max(1, channels // 4) if channels >= 2 else 0
    plays = max(1, channels - races - dailies - solves)
    return ["play"] * plays + ["solve"] * solves + ["daily"] * dailies + ["race"] * races


def plan(channels: int, guilds: int, players: int, dailies_each: int) -> Plan:
    """`channels` channels in each of `guilds` guilds (a guild per shard)."""
    result: list[ChannelPlan] = []
    for guild in range(1, guilds + 1):
        suffix = "" if guild == 1 else f"-{guild}"
        for index, mode in enumerate(mix(channels)):
            name = f"{mode}{index}"
            users = {
                "play": players,
                "solve": 1,
                "daily": dailies_each,
                "race": 3,
            }[mode]
            who = tuple(f"{name}g{guild}u{n}" for n in range(users))
            result.append(ChannelPlan(mode, name + suffix, who))
    return Plan(result)
