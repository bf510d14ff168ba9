"""The review on the Activity: the same review as the Review button (`actions.review`, for
whoever may see it: anyone in the game's channel, a private game's own player, nobody while it
runs), its words for the player who asked and its chart as a PNG."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.actor import Actor
from bot.engine.game import Game
from bot.interactions.activity import Acted, Services
from bot.modes.review import actions, board
from bot.ui.i18n import Messages


async def review(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`review {}` on a finished game: stores nothing."""
    checked = await actions.reviewable(bot.store, game.id or 0, actor)
    reviewed = await actions.review(bot.solver, checked, actor)
    space = checked.variant.space
    lines = [board.summary_text(reviewed.summary, t=t)]
    lines += [board.row_text(space, row, t=t) for row in reviewed.rows]
    picture = board.review_picture(game.id or 0, reviewed, t)
    png = None if picture is None else await bot.charts.render(picture.chart)
    return Acted(checked, "\n".join(lines), png)


def may_review(game: Game) -> bool:
    """Whether the page offers Review: once the game is over (the action checks who)."""
    return game.is_over
