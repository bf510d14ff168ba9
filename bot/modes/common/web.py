"""What every mode's Activity shares: giving up from the page (the same action as the Give up
button, `actions.give_up`), and who may do it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.actor import Actor
from bot.engine.game import Game
from bot.interactions.activity import Acted, Services, Viewer
from bot.modes.common import actions
from bot.ui.i18n import Messages


async def give_up(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`giveup {}`: end the game at its starter's request (the page knows no moderators)."""
    applied = await actions.give_up(bot.store, game.id or 0, actor)
    return Acted(applied.game)


def may_give_up(game: Game, viewer: Viewer) -> bool:
    """Whether the page offers this viewer Give up: the starter of a running game."""
    return not game.is_over and viewer.user_id == game.starter_id
