"""The solve game on the Activity's board: the bot's guesses with the player's answers, the
guess it asks about now, undo and a contradiction named; answering, undoing and stopping
through solve's own actions (its starter only, on the board's version)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.actor import Actor
from bot.engine.game import Game
from bot.interactions import activity
from bot.interactions.activity import Acted, Services, Viewer
from bot.modes.common.web import give_up, may_give_up
from bot.modes.solve import actions
from bot.modes.solve.rules import KIND, SolveGame
from bot.ui.i18n import Messages


def view(game: SolveGame, viewer: Viewer, t: Messages) -> activity.View:
    """Every guess the bot made and the answer it had; the guess awaiting an answer."""
    rows = [
        {"code": activity.plain_code(guess), "black": black, "white": white, "by": None}
        for guess, (black, white) in zip(game.guesses, game.answers, strict=False)
    ]
    starter = viewer.user_id == game.starter_id
    offered: list[str] = []
    if starter and not game.is_over:
        if game.awaiting_answer:
            offered.append("answer")
        if game.answers:
            offered.append("undo")
    if may_give_up(game, viewer):
        offered.append("giveup")
    contradiction = (
        t.gettext("no code fits every answer you gave; undo the last one and check it")
        if game.is_stuck
        else None
    )
    return activity.base_view(
        game,
        KIND,
        rows=rows,
        remaining=None,
        actions=offered,
        secret=None,  # the player's own code: the bot never knew it
        extra={
            "guess": activity.plain_code(game.current_guess) if game.awaiting_answer else None,
            "can_undo": starter and bool(game.answers) and not game.is_over,
            "contradiction": contradiction,
            "strategy": game.strategy,
        },
    )


async def answer(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`answer {black, white}`: the same action as an answer button."""
    pegs = game.variant.pegs
    black = activity.whole_argument(args, "black", 0, pegs)
    white = activity.whole_argument(args, "white", 0, pegs)
    owned = await actions.owned(bot.store, game.id or 0, actor.version or 0, actor)
    actions.check_answer(owned, actor, black, white)
    step = await actions.answer(bot.store, bot.solver, owned, actor, black, white)
    return Acted(step.game)


async def undo(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`undo {}`: the same action as the Undo button."""
    owned = await actions.owned(bot.store, game.id or 0, actor.version or 0, actor)
    actions.check_undo(owned, actor)
    step = await actions.undo(bot.store, bot.solver, owned, actor)
    return Acted(step.game)


WEB = activity.WebMode(
    view=view,
    audience=activity.starter_or_not,
    actions={"answer": answer, "undo": undo, "giveup": give_up},
)
"""The solve mode's Activity."""
