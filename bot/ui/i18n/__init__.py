"""Speaking the player's language: which language each message is in, and the messages.

Where the language comes from:

- a reply only one player reads (errors, the picker, the rules, confirmations, modals): that
  player's Discord language, `interaction.locale` (`person`);
- what several people read (boards, guess lines, charts, records): the server's language,
  `interaction.guild_locale` (`channel`; in a DM, the player's);
- a board redrawn with no interaction (after a crash, at expiry): the server's
  `preferred_locale` (`guild`), the same setting, from the gateway's cache or over REST
  (`bot.cogs.boards.server_language`), so a board keeps its language; nothing new is stored.

A language we do not ship falls back to English. Slash commands are translated when they are
synced (`translator.CatalogueTranslator`).
"""

from __future__ import annotations

import discord

from bot.ui.i18n.catalogue import ENGLISH, LANGUAGES, N_, Messages, messages

__all__ = ["ENGLISH", "LANGUAGES", "N_", "Messages", "channel", "guild", "messages", "person"]


def person(interaction: discord.Interaction) -> Messages:
    """For a reply only this player reads: their Discord client's language."""
    return messages(interaction.locale)


def channel(interaction: discord.Interaction) -> Messages:
    """For what everyone in the channel reads: the server's language (in a DM, the player's)."""
    return messages(interaction.guild_locale or interaction.locale)


def guild(server: discord.Guild | None) -> Messages:
    """For a board redrawn without an interaction: the server's preferred language."""
    return messages(server.preferred_locale if server is not None else None)
