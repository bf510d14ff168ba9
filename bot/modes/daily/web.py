"""The daily code on the Activity's board: the player's own board, private; anyone else on the
channel's Activity sees only how far they are (guesses made, done or not), never a colour of
theirs nor the day's code. Guessing through the daily's own action, on the board's version."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine.actor import Actor
from bot.engine.errors import StaleGame
from bot.engine.game import Game, Status
from bot.interactions import activity
from bot.interactions.activity import Acted, Services, Viewer
from bot.modes.daily import actions
from bot.modes.daily.rules import KIND, DailyGame
from bot.modes.review.web import may_review, review
from bot.ui.i18n import Messages


def view(game: DailyGame, viewer: Viewer, t: Messages) -> activity.View:
    """Its player's own board; for anyone else, its progress alone."""
    progress = [
        {
            "by": activity.person(game.starter_id),
            "guesses": len(game.moves),
            "done": game.is_over,
            "won": game.status is Status.WON,
        }
    ]
    if viewer.user_id != game.starter_id:
        return activity.base_view(
            game, KIND, rows=[], remaining=None, secret=None, extra={"progress": progress}
        )
    return activity.base_view(
        game,
        KIND,
        rows=activity.guess_rows(game.moves),
        remaining=game.guesses_left,
        actions=["review"] if may_review(game) else ["guess"],
        extra={"puzzle": game.puzzle, "progress": progress},
    )


async def mine(bot: Services, viewer: Viewer) -> Game | None:
    """The viewer's game of today, if they opened it (with /mastermind daily), wherever."""
    today = actions.Day.at(bot.clock()).puzzle
    rows = await bot.store.kind_rows(KIND, "played", {"player": viewer.user_id, "puzzle": today})
    return await bot.store.game(int(rows[0]["id"])) if rows else None


async def guess(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`guess {code}`: the same action as the daily board's Submit, once per version."""
    code = activity.code_argument(args)
    mine_now = await actions.may_guess(bot.store, game.id or 0, actor)
    if mine_now.version != actor.version:  # its version makes the move's source: never a guess
        raise StaleGame()
    new, _ = await actions.guess(
        bot.store, mine_now.id or 0, actor.version or 0, actor, code, bot.clock()
    )
    return Acted(new)


WEB = activity.WebMode(
    view=view,
    audience=activity.starter_or_not,
    actions={"guess": guess, "review": review},
    mine=mine,
)
"""The daily mode's Activity."""
