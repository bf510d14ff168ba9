"""Where the bot may speak: decided once, when a game starts, from the interaction that starts it.

The app is installed to servers and to users. In a server it joined, or in its own DM with the
player, the bot may post and edit messages at any time, so a game's board is a channel message
kept up to date with the bot's token (`Reach.CHANNEL`). Anywhere else (a server that only a
user installed it in, a group DM, a DM between two other people) Discord lets it answer
interactions and nothing more: no channel messages, no edits with its token, nothing once an
interaction's 15-minute token has expired (`Reach.INTERACTION`). Such a board is redrawn only
through the interaction of the click that touches it.
"""

from __future__ import annotations

from bot.engine.game import Reach
from bot.interactions.context import Interaction


def reach_of(interaction: Interaction) -> Reach:
    """CHANNEL where the bot is a member (a cached server, or its own DM), else INTERACTION.

    A server's interactions reach the shard that holds it, so a server this process does not
    cache is one the bot never joined (a user install, or a server install without the `bot`
    scope). A DM is the bot's own only in Discord's BOT_DM context; a DM between two other
    users is a private channel like a group DM.
    """
    if interaction.guild_id is not None:
        joined = interaction.client.get_guild(interaction.guild_id) is not None
        return Reach.CHANNEL if joined else Reach.INTERACTION
    if interaction.context.dm_channel:
        return Reach.CHANNEL
    return Reach.INTERACTION


def in_a_server(interaction: Interaction) -> bool:
    """The interaction comes from a server (the bot's member or not), not a DM or group DM."""
    return interaction.guild_id is not None
