"""The bot: opens the store, starts the solver workers, loads the cog, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from datetime import timedelta

import discord
from discord.ext import commands

from bot import flows
from bot.config import Settings
from bot.solver_pool import SolverPool
from bot.store import Store
from bot.ui import components
from bot.ui.errors import on_app_command_error

log = logging.getLogger(__name__)

COMMANDS_HASH_KEY = "commands_hash"
EXPIRY_CHECK_SECONDS = 600


class MastermindBot(commands.AutoShardedBot):
    """A slash-command-only bot: no privileged intents, no message content."""

    store: Store
    solver: SolverPool

    def __init__(self, settings: Settings) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.settings = settings
        self._expiry: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.store = await Store.open(self.settings.database_path)
        self.solver = SolverPool(self.settings.solver_workers, self.settings.solver_time_budget)
        await self.solver.warm_up()
        from bot.cogs.mastermind import Mastermind

        await self.add_cog(Mastermind(self))
        self.add_dynamic_items(*components.DYNAMIC_ITEMS)
        self.tree.on_error = on_app_command_error
        await self.sync_commands()
        self._expiry = asyncio.create_task(self._expire_forever(), name="expire-stale-games")

    async def sync_commands(self) -> None:
        """Sync globally only when the command tree changed; the dev guild always syncs."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands()]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        if await self.store.get_meta(COMMANDS_HASH_KEY) != digest:
            synced = await self.tree.sync()
            await self.store.set_meta(COMMANDS_HASH_KEY, digest)
            log.info("synced %d global commands", len(synced))
        else:
            log.info("command tree unchanged; global sync skipped")
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to the development guild", len(synced))

    async def on_ready(self) -> None:
        log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Code modals are handled here by custom_id, so a submission survives a restart."""
        if interaction.type is not discord.InteractionType.modal_submit:
            return
        custom_id = (interaction.data or {}).get("custom_id", "")
        match = components.CODE_MODAL_PATTERN.fullmatch(str(custom_id))
        if match is not None:
            await flows.on_modal_submit(interaction, int(match["game"]))

    async def expire_stale_games(self, older_than: timedelta) -> int:
        """End the games nobody touched for `older_than`; their boards show the secret."""
        expired = await self.store.expire_stale(older_than)
        for game in expired:
            await flows.refresh_board(self, game)
        if expired:
            log.info("ended %d game(s) nobody played for %s", len(expired), older_than)
        return len(expired)

    async def _expire_forever(self) -> None:
        timeout = timedelta(hours=self.settings.game_timeout_hours)
        while not self.is_closed():
            try:
                await self.expire_stale_games(timeout)
            except Exception:
                log.exception("expiring stale games failed; will retry")
            await asyncio.sleep(EXPIRY_CHECK_SECONDS)

    async def close(self) -> None:
        if self._expiry is not None:
            self._expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._expiry
        await super().close()
        if hasattr(self, "store"):
            await self.store.close()
        if hasattr(self, "solver"):
            self.solver.shutdown()


def run(settings: Settings) -> int:
    """Run the bot until it is stopped; returns the process exit code."""
    discord.utils.setup_logging(level=getattr(logging, settings.log_level), root=True)
    bot = MastermindBot(settings)
    try:
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        log.error("Discord refused the token: check DISCORD_TOKEN in your .env.")
        return 1
    except discord.PrivilegedIntentsRequired:
        log.error("This bot needs no privileged intents; turn them off in the portal.")
        return 1
    return 0
