"""The Hint of the Activity: the same press as the Hint button (`actions.hint`), for a mode
that declares its hint rule; what it says goes to the player who asked, in their language."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.actor import Actor
from bot.engine.game import Game
from bot.interactions.activity import Acted, Services, WebAction
from bot.modes.hints import actions, board
from bot.modes.hints.actions import HintRule
from bot.ui.i18n import Messages


def hint_action(rule: HintRule) -> WebAction:
    """`hint {}` for a mode whose hint transition is `rule`."""

    async def hint(
        bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
    ) -> Acted:
        checked = actions.check(game, actor, rule)
        given = await actions.hint(bot.store, bot.solver, checked, actor, rule)
        space = given.game.variant.space
        said = board.hint_text(given.hint, given.level, given.hints, space, given.game.hard, t=t)
        return Acted(given.game, said)

    return hint
