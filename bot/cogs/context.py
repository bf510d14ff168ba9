"""The interaction type every handler receives: discord.py's, with this bot as its client."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

import discord

if TYPE_CHECKING:
    from bot.app import MastermindBot

    Interaction: TypeAlias = discord.Interaction[MastermindBot]
else:
    Interaction = discord.Interaction
