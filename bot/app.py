"""The Discord client. Expanded by the bot issue; for now it logs in and stays connected."""

from __future__ import annotations

import logging

import discord

from bot.config import Settings

log = logging.getLogger(__name__)


def run(settings: Settings) -> int:
    """Run the bot until it is stopped; returns the process exit code."""
    discord.utils.setup_logging(level=getattr(logging, settings.log_level))
    client = discord.Client(intents=discord.Intents.default())
    try:
        client.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN in your .env.")
        return 1
    return 0
