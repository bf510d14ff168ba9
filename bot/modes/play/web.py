"""The play game on the Activity's board: the channel's shared board, the same for every
viewer; guessing, hints and giving up through play's own actions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.actor import Actor
from bot.engine.game import Game
from bot.interactions import activity
from bot.interactions.activity import Acted, Services, Viewer
from bot.modes.common.web import give_up, may_give_up
from bot.modes.hints.web import hint_action
from bot.modes.play import actions, rules
from bot.modes.play.rules import KIND, PlayGame
from bot.modes.review.web import may_review, review
from bot.ui.i18n import Messages


def view(game: PlayGame, viewer: Viewer, t: Messages) -> activity.View:
    """Every guess with who made it; what this viewer may do (a solo game: its starter only)."""
    may_play = not game.is_over and (not game.solo or viewer.user_id == game.starter_id)
    offered = ["guess", "hint"] if may_play else []
    if may_give_up(game, viewer):
        offered.append("giveup")
    if may_review(game):
        offered.append("review")
    return activity.base_view(
        game,
        KIND,
        rows=activity.guess_rows(game.moves),
        remaining=game.guesses_left,
        actions=offered,
        extra={"solo": game.solo, "hints": game.hints},
    )


async def guess(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`guess {code}`: the same action as the picker's Submit and /mastermind guess."""
    applied = await actions.guess(bot.store, game.id or 0, actor, activity.code_argument(args))
    return Acted(applied.game)


WEB = activity.WebMode(
    view=view,
    audience=activity.starter_or_not,
    actions={
        "guess": guess,
        "hint": hint_action(rules.hint),
        "giveup": give_up,
        "review": review,
    },
)
"""The play mode's Activity."""
