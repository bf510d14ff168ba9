"""What every mode shares: who acts where, whether a game is here, who may end it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.charts.data import Distribution, distribution
from bot.engine import game as core
from bot.engine.actor import Actor
from bot.engine.errors import (
    GameAlreadyActive,
    GameOver,
    NoActiveGame,
    NotHere,
    NotYourGame,
    OwnerReason,
    StaleGame,
)
from bot.engine.game import G
from bot.modes.common.rules import Header
from bot.store import Applied, Store


def started_by(actor: Actor) -> Header:
    """The header of a game `actor` starts: their server and channel, and them."""
    return {"guild_id": actor.guild_id, "channel_id": actor.channel_id, "starter_id": actor.user_id}


async def start_with_board(store: Store, actor: Actor, fresh: G, board_message_id: int) -> G:
    """Store a game `actor` starts, with its board (already posted in the actor's channel) and
    the input that started it."""
    return await store.start(fresh, board=(actor.channel_id, board_message_id), source=actor.source)


def here(game: G, actor: Actor) -> G:
    """`game` if it belongs to the actor's guild and channel (a DM counts as a channel), else
    NotHere, and (where the input said which version it was made on) if it is still at that
    version, else StaleGame: checked again inside a move's own transaction, on the game as it
    is stored."""
    if game.channel_id != actor.channel_id or game.guild_id != actor.guild_id:
        raise NotHere()
    if actor.version is not None and game.version != actor.version:
        raise StaleGame()
    return game


async def game_here(store: Store, game_id: int, actor: Actor) -> core.Game:
    """The game `game_id` if it belongs to the actor's guild and channel (a DM counts as a
    channel); anything else, a game that does not exist included, is NotHere."""
    game = await store.game(game_id)
    if game is None:
        raise NotHere()
    return here(game, actor)


async def running_here(store: Store, game_id: int, actor: Actor) -> core.Game:
    """Like `game_here`, and the game must still be running."""
    game = await game_here(store, game_id, actor)
    if game.is_over:
        raise GameOver()
    return game


async def active(store: Store, channel_id: int) -> core.Game:
    """The channel's running game, or NoActiveGame."""
    game = await store.active_game(channel_id)
    if game is None:
        raise NoActiveGame()
    return game


async def refuse_if_taken(store: Store, channel_id: int) -> None:
    """Refuse before anything is shown when the channel already has a game."""
    current = await store.active_game(channel_id)
    if current is not None:
        raise GameAlreadyActive(current.id, current.kind)


def may_end(game: G, actor: Actor) -> G:
    """`game`, if the actor may end it: its starter or a member who can manage messages,
    unless it is one player's own (`owner_ends_only`)."""
    if actor.user_id == game.starter_id:
        return game
    if game.owner_ends_only:
        raise NotYourGame(game.starter_id, reason=OwnerReason.OWNER)
    if not actor.moderator:
        raise NotYourGame(game.starter_id, reason=OwnerReason.END)
    return game


async def give_up(store: Store, game_id: int, actor: Actor) -> Applied[core.EndOutcome]:
    """End a game of any kind at its starter's (or a moderator's) request, in one write
    transaction that checks where it is and who may end it on the game as stored."""
    return await store.act(
        lambda g: core.give_up(may_end(here(g, actor), actor), actor.user_id),
        game_id=game_id,
        source=actor.source,
    )


async def wins(
    store: Store, guild_id: int | None, player_id: int, now: datetime, order: Sequence[str]
) -> Distribution | None:
    """A player's wins by guesses (in a server, or everywhere) of the kinds in `order`, today's
    marked; None: no win."""
    return distribution(await store.wins(guild_id, player_id), now.date(), order)
