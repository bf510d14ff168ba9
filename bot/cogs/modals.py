"""Code modals, routed by custom_id to the mode that opened them.

discord.py dispatches a modal submission only to a modal object it still holds, so after a
restart every submission would be dropped. This one listener reads the submission's custom_id
(`bot.ui.ids`) and calls its mode's handler, which checks it against the stored game like any
other input.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from bot.cogs import daily, play, race
from bot.cogs.context import Interaction
from bot.ui import ids

ModalHandler = Callable[[Interaction, re.Match[str]], Awaitable[None]]

ROUTES: tuple[tuple[re.Pattern[str], ModalHandler], ...] = (
    (ids.CODE_MODAL_PATTERN, play.on_modal),
    (re.compile(ids.DAILY_MODAL.template), daily.on_modal),
    (re.compile(ids.RACE_MODAL.template), race.on_modal),
)


class CodeModals(commands.Cog):
    """Every code modal the bot opens, whichever mode and however long ago."""

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        for pattern, handler in ROUTES:
            if (match := pattern.fullmatch(custom_id)) is not None:
                await handler(interaction, match)
                return
