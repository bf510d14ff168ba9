"""The race on the Activity's board: each racer's own board (their guesses alone), and for
everyone the lobby, the clock and the standings without a colour of anyone's. Joining,
starting, guessing and giving up through the race's own actions."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from bot.engine.actor import Actor
from bot.engine.game import Game
from bot.interactions import activity
from bot.interactions.activity import Acted, Services, Viewer
from bot.modes.common.web import give_up, may_give_up
from bot.modes.race import actions
from bot.modes.race.board import can_guess
from bot.modes.race.rules import KIND, RaceGame
from bot.modes.review.web import may_review, review
from bot.ui.i18n import Messages


def _phase(game: RaceGame) -> str:
    if game.is_over:
        return "ended"
    return "running" if game.started else "lobby"


def _iso(unix: int) -> str:
    return datetime.fromtimestamp(unix, UTC).isoformat()


def view(game: RaceGame, viewer: Viewer, t: Messages) -> activity.View:
    """The viewer's own guesses (if they race), and everyone's standing: guesses made,
    cracked or not, place; never a colour."""
    me = viewer.user_id
    phase = _phase(game)
    offered: list[str] = []
    if phase == "lobby" and me not in game.players:
        offered.append("join")
    if phase == "lobby" and me == game.starter_id:
        offered.append("start")
    if me in game.players and can_guess(game, me):
        offered.extend(("guess",))
    if may_give_up(game, viewer):
        offered.append("giveup")
    if may_review(game) and me in game.players:
        offered.append("review")
    standings = [
        {
            "by": activity.person(placing.player_id),
            "guesses": placing.guesses,
            "cracked": placing.cracked,
            "place": placing.place,
            "done": game.finished(placing.player_id) or game.is_over,
        }
        for placing in game.ranking
    ]
    ends_at = None if game.is_over else _iso(game.race_until if game.started else game.lobby_until)
    return activity.base_view(
        game,
        KIND,
        rows=activity.guess_rows(game.log, me),
        remaining=game.guesses_left_for(me) if me in game.players else None,
        actions=offered,
        extra={
            "phase": phase,
            "ends_at": ends_at,
            "racing": me in game.players,
            "standings": standings,
        },
    )


def audience(game: RaceGame, viewer: Viewer) -> Hashable:
    """A racer (or the starter) sees their own view; everyone else the same watcher's view."""
    me = viewer.user_id
    return me if me in game.players or me == game.starter_id else "watcher"


def _now(bot: Services) -> float:
    return bot.clock().timestamp()


async def join(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`join {}`: the lobby's Join button."""
    applied = await actions.join(bot.store, game.id or 0, _own_board(actor), _now(bot))
    return Acted(applied.game)


async def start(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`start {}`: the starter opens guessing before the lobby's time is up."""
    applied = await actions.start_now(bot.store, game.id or 0, _own_board(actor))
    return Acted(applied.game)


async def guess(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`guess {code}`: the private board's Submit: the racer's next guess, once (its number
    is the move's source, as a button's)."""
    code = activity.code_argument(args)
    racing = await actions.racer(bot.store, game.id or 0, _own_board(actor))
    made = len(racing.guesses_of(actor.user_id))
    applied = await actions.guess(
        bot.store, game.id or 0, _own_board(actor), code, after=made, now=_now(bot)
    )
    return Acted(applied.game)


async def end(
    bot: Services, game: Game, actor: Actor, args: Mapping[str, Any], t: Messages
) -> Acted:
    """`giveup {}`: the starter ends the race (whatever the racers did meanwhile)."""
    return await give_up(bot, game, _own_board(actor), args, t)


def _own_board(actor: Actor) -> Actor:
    """A racer moves on their own board: the race's version moves with every racer's
    guesses, so it is no racer's to check (each guess is keyed by its number instead)."""
    return replace(actor, version=None)


WEB = activity.WebMode(
    view=view,
    audience=audience,
    actions={"join": join, "start": start, "guess": guess, "giveup": end, "review": review},
)
"""The race mode's Activity."""
