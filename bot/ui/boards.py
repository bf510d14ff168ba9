"""A whole board as one value: the line above it, its embed and its buttons.

Each mode draws its own (`bot.modes.<mode>.board`); boards are public, so `t` is the server's
language, and the lines and notes around them too.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Drawn:
    """Everything a board message shows; every path that draws a board draws all of it."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None


@dataclass(frozen=True)
class Field:
    """One field of an embed: what a mode adds to a player's record."""

    name: str
    value: str
    inline: bool = True
