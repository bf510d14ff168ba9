"""The race mode: a lobby in the channel, then every player cracks the same secret privately.

The actions check who may do what on data the interaction carries (guild, channel, player),
apply one engine transition in one store transaction, and name each move's source so a
repeated input is stored once: the click for joining and starting, the player's own guess
number for a guess (one board, one guess per number, whichever copy of it is clicked), and
`clock:<game>:<what>` for what the clock does, so two timers (a restart, a second process)
never move a race twice.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.engine import game as core
from bot.engine.actor import Actor
from bot.engine.codes import Code
from bot.engine.errors import GameError, GameOver
from bot.engine.game import MoveKind, Variant
from bot.modes.common.actions import (
    game_here,
    here,
    refuse_if_taken,
    running_here,
    start_with_board,
    started_by,
)
from bot.modes.race import rules
from bot.modes.race.rules import KIND, NotARace, NotInRace, RaceGame, RaceStarted
from bot.store import AlreadyApplied, Applied, Store

JOIN_SECONDS = (10, 300, 60)
"""The lobby's join window in seconds: least, most, default."""
RACE_MINUTES = (1, 60, 10)
"""The race's time limit in minutes: least, most, default."""


class RaceNeedsServer(GameError, code="race-needs-server"):
    """A race's board must be kept up to date by the bot (its clock, everyone's progress)."""


async def check_start(store: Store, actor: Actor, *, bot_may_post: bool) -> None:
    """Refuse a race now (before its lobby is shown) where the bot cannot keep its board, or
    if the channel already has a game."""
    if actor.guild_id is None or not bot_may_post:
        raise RaceNeedsServer()
    await refuse_if_taken(store, actor.channel_id)


async def start(
    store: Store,
    actor: Actor,
    variant: Variant,
    *,
    hard: bool,
    join_seconds: int,
    minutes: int,
    now: float,
    board_message_id: int,
) -> RaceGame:
    """Open a lobby with a fresh secret and the starter in it; its board is already posted."""
    fresh = rules.new_race_game(
        **started_by(actor),
        opened_at=int(now),
        join_seconds=join_seconds,
        time_limit=minutes * 60,
        variant=variant,
        hard=hard,
    )
    return await start_with_board(store, actor, fresh, board_message_id)


async def race_here(store: Store, game_id: int, actor: Actor) -> RaceGame:
    """The running race `game_id` of the actor's channel."""
    return core.require(await running_here(store, game_id, actor), RaceGame, NotARace)


async def join(store: Store, game_id: int, actor: Actor, now: float) -> Applied[object]:
    """The actor enters the lobby, if it is still open at `now` (unix seconds)."""
    return await _lobby_move(
        store, game_id, actor, lambda game, player: rules.join(game, player, now)
    )


async def start_now(store: Store, game_id: int, actor: Actor) -> Applied[object]:
    """The starter opens guessing before the join window closes."""
    return await _lobby_move(store, game_id, actor, rules.start_race)


async def _lobby_move(
    store: Store,
    game_id: int,
    actor: Actor,
    transition: Callable[[core.Game, int], tuple[RaceGame, object]],
) -> Applied[object]:
    """A click on the race board of this channel, stored once, in one write transaction."""
    return await store.act(
        lambda g: transition(here(g, actor), actor.user_id), game_id=game_id, source=actor.source
    )


def race_of(applied: Applied[object] | Applied[core.GuessOutcome]) -> RaceGame:
    """The race an action left, as a race."""
    return core.require(applied.game, RaceGame, NotARace)


async def racer(store: Store, game_id: int, actor: Actor) -> RaceGame:
    """The race `game_id` of this channel, which the actor is in (over or not: a finished
    race's board still shows its result)."""
    game = core.require(await game_here(store, game_id, actor), RaceGame, NotARace)
    if actor.user_id not in game.players:
        raise NotInRace()
    return game


def guess_source(game_id: int, player_id: int, made: int) -> str:
    """The one input a player's next guess may come from: their guess number `made` + 1."""
    return f"race:{game_id}:{player_id}:{made + 1}"


async def guess(
    store: Store, game_id: int, actor: Actor, code: str | Code, *, after: int | None, now: float
) -> Applied[core.GuessOutcome]:
    """Score a player's guess made at `now` (unix seconds) in one write transaction. `after`:
    the guesses their board showed (None: typed with /mastermind guess, the interaction is the
    source)."""
    source = actor.source if after is None else guess_source(game_id, actor.user_id, after)
    return await store.act(
        lambda g: rules.race_guess(here(g, actor), actor.user_id, code, after=after, now=now),
        game_id=game_id,
        source=source,
    )


async def tick(store: Store, game_id: int, now: float) -> tuple[RaceGame, MoveKind] | None:
    """Do what the clock owes a race at `now`: start its lobby or end it. None when nothing
    was due or it was done already (by another timer, a player, or a second process)."""
    game = await store.game(game_id)
    if game is None:
        return None
    due = rules.clock_move(game, now)
    if due is None:
        return None
    source = f"clock:{game_id}:{due.value}"
    try:
        if due is MoveKind.START:
            new, _ = await store.apply(
                lambda g: rules.start_race(g, None), game_id=game_id, source=source
            )
        else:
            new, _ = await store.apply(core.expire, game_id=game_id, source=source)
    except (RaceStarted, GameOver, AlreadyApplied):
        return None  # done meanwhile: by the starter, the last guess or another timer
    return core.require(new, RaceGame, NotARace), due


async def running(store: Store) -> list[RaceGame]:
    """Every race the clock still has to start or end."""
    return [game for game in await store.running(KIND) if isinstance(game, RaceGame)]
