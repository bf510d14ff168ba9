"""Charts on answers: a `Picture` (a chart in words, `bot.ui.charts`) drawn by the chart
workers and added to an answer already sent, by an edit that attaches it and shows it in the
answer's embed (`attachment://`). The words go first, as fast as before charts; when there is
no chart to show (charts off, busy, slow), the answer simply stays as it was."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.interactions.context import Host
from bot.ui.charts import Picture

Edit = Callable[..., Awaitable[Any]]
"""An answer's edit (`interaction.edit_original_response`, `WebhookMessage.edit`)."""


async def add(bot: Host, picture: Picture | None, embed: discord.Embed, edit: Edit) -> bool:
    """Draw `picture` and edit it into the sent answer whose embed is `embed`; whether it was."""
    if picture is None:
        return False
    png = await bot.charts.render(picture.chart)
    if png is None:
        return False
    embed.set_image(url=f"attachment://{picture.filename}")
    try:
        await edit(embed=embed, attachments=[picture.file(png)])
    except discord.HTTPException:  # the answer was deleted meanwhile: nothing to add it to
        return False
    return True
