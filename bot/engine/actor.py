"""Who acts, and where: the plain value every action takes, read from an input by the floor
that received it."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.game import Reach


@dataclass(frozen=True)
class Actor:
    """Who acts, and where: read from the interaction by the layer that received it."""

    user_id: int
    guild_id: int | None
    channel_id: int
    moderator: bool = False  # may manage messages here, so may end anybody's game
    source: str = ""
    """The input this action comes from (an interaction, a picker, a modal): a move from the
    same source is stored once."""
    reach: Reach = Reach.CHANNEL
    """How the bot can reach a board started here (a game started by this actor keeps it)."""
    version: int | None = None
    """The game's version the input was made on, where the input says (the Activity's page
    does): a move on another version is refused (StaleGame) where the action checks that the
    game is where the actor is (`bot.modes.common.actions.here`)."""
