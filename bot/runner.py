"""Run the bot process: open the database, connect, and stop cleanly on SIGTERM or SIGINT.

Every way a start can fail ends as one line on stderr and exit code 1 (EXIT_TOKEN_REFUSED for
a token Discord refuses, which no restart fixes), because the person reading it is setting the
bot up, not debugging it; LOG_LEVEL=DEBUG adds the traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, cast

import aiohttp
import discord
from discord.ext import commands

from bot import heap, signals, sync
from bot.about import version
from bot.cluster import Cluster, ShardTaken
from bot.config import Settings
from bot.failures import ServiceUnavailable
from bot.prometheus import MetricsUnavailable
from bot.store import Store, StoreUnavailable
from bot.store import open_store as open_database

log = logging.getLogger(__name__)

CLOSE_TIMEOUT_SECONDS = 1.0
"""How long the connection may take to end once the bot has closed; longer only while
discord.py sleeps between reconnects to an unreachable Discord, which nothing is waiting for."""
EXIT_FAILED = 1
EXIT_TOKEN_REFUSED = 3
"""Its own code, so a service manager can stop restarting (systemd: RestartPreventExitStatus)."""


class StartFailure(Exception):
    """The bot cannot start; `str(error)` is the one line to show."""


def run(settings: Settings, health_file: Path | None = None) -> int:
    """Run the bot until SIGTERM or SIGINT; returns the process exit code. With `health_file`,
    the bot touches it while connected (see bot/health.py)."""
    return _guarded(settings, _serve(settings, health_file))


def run_sync(settings: Settings, guild_id: int | None, *, remove: bool) -> int:
    """Log in over HTTP only, sync (or remove) the commands in one scope, and exit."""
    return _guarded(settings, _sync_once(settings, guild_id, remove=remove))


def _guarded(settings: Settings, main: Coroutine[Any, Any, int]) -> int:
    """Run `main`; a failure is one line on stderr (with the traceback only at DEBUG)."""
    try:
        return asyncio.run(main)
    except KeyboardInterrupt:  # Ctrl-C during a one-shot command
        return 130
    except Exception as error:
        log.debug("the bot stopped on an error", exc_info=error)
        message = explain(error)
        if message is None:
            message = f"the bot stopped on an unexpected error: {type(error).__name__}: {error}"
            if settings.log_level != "DEBUG":
                message += "\n(run with LOG_LEVEL=DEBUG to see the full traceback)"
        print(f"mastermind-bot: {message}", file=sys.stderr)
        return EXIT_TOKEN_REFUSED if isinstance(error, discord.LoginFailure) else EXIT_FAILED


def explain(error: BaseException) -> str | None:
    """The one line a server owner can act on, or None for an error nobody expected."""
    if isinstance(error, StartFailure | MetricsUnavailable | ServiceUnavailable):
        return str(error)
    if isinstance(error, discord.LoginFailure):
        return (
            "Discord refused the token: copy a fresh one from the Developer Portal (your "
            "application → Bot → Reset Token) into DISCORD_TOKEN in .env."
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "this bot needs no privileged intents; turn them off in the Developer Portal."
    if isinstance(error, aiohttp.ClientConnectorError):
        reason = _os_reason(error.os_error)
        return (
            f"cannot reach Discord at {error.host}:{error.port}: {reason}. "
            "Check the network connection, DNS, proxy or firewall."
        )
    if isinstance(error, aiohttp.ClientError | TimeoutError):
        detail = str(error) or type(error).__name__
        return f"cannot reach Discord: {detail}. Check the network connection, proxy or firewall."
    if isinstance(error, discord.GatewayNotFound):
        return "Discord's gateway could not be found; Discord may be down, try again later."
    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered {error.status} {error.text}; it may be down, try again later."
    if isinstance(error, discord.HTTPException):
        return f"Discord refused a request: {error.status} {error.text or error}."
    return None


def _os_reason(error: OSError) -> str:
    """`Connection refused`, `Name or service not known`…: the operating system's own words."""
    if isinstance(error, socket.gaierror) or not error.errno or error.errno < 0:
        return error.strerror or str(error) or type(error).__name__
    return os.strerror(error.errno)


async def open_store(path: Path | str, *, exclusive: bool) -> Store:
    """Open the database before anything touches the network, so its problems come first."""
    try:
        return await open_database(path, exclusive=exclusive)
    except StoreUnavailable as error:  # the store's one error for a database it cannot use
        raise StartFailure(str(error)) from error


async def _settle_heap() -> None:
    heap.settle()


async def _serve(settings: Settings, health_file: Path | None) -> int:
    from bot.app import MastermindBot

    log.info(
        "mastermind-bot %s starting: database %s, %d solver worker(s) and 1 simulation worker%s",
        version(),
        settings.database_label if settings.database_url else settings.database_path.resolve(),
        settings.solver_workers,
        f", {settings.shards_label}" if settings.shards_label else "",
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):  # first: a stop at any moment is a clean one
        loop.add_signal_handler(sig, _request_stop, stop, sig)
    early = signals.held()  # one that came while Python was still importing the bot
    if early is not None:
        _request_stop(stop, early)
    store = await open_store(settings.database, exclusive=True)
    try:
        cluster = await Cluster.join(
            store, settings.shard_ids, settings.shard_count, ttl=settings.lease_seconds
        )
    except ShardTaken as error:
        await store.close()
        raise StartFailure(str(error)) from error
    bot = MastermindBot(settings, store=store, health_file=health_file, cluster=cluster)
    bot.add_listener(_settle_heap, "on_ready")  # the real process only: tests share theirs
    running = asyncio.create_task(bot.start(settings.token), name="discord")
    stopping = asyncio.create_task(stop.wait(), name="wait-for-signal")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopping.cancel()
        await bot.close()
        if not running.done():  # wait_for cancels it after the timeout
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(running, CLOSE_TIMEOUT_SECONDS)

    if stop.is_set():
        if running.done() and not running.cancelled() and running.exception() is not None:
            # Stopped while logging in: the closing session ends the login; that is no error.
            log.debug("the connection ended while closing: %r", running.exception())
        log.info("closed cleanly")
        return 0
    running.result()  # raises what ended the connection; `_guarded` explains it
    return 0


def _request_stop(stop: asyncio.Event, sig: signal.Signals) -> None:
    if not stop.is_set():
        log.info("%s received: finishing running interactions, then closing", sig.name)
    stop.set()


async def _sync_once(settings: Settings, guild_id: int | None, *, remove: bool) -> int:
    from bot.interactions.context import Host
    from bot.modes import registry
    from bot.ui.i18n.translator import CatalogueTranslator

    store = await open_store(settings.database, exclusive=False)
    client = commands.Bot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents(guilds=True),  # unused (HTTP only); without it a WARNING
        help_command=None,
    )
    try:
        # The cog only keeps the client; no handler runs here, only the command tree is read.
        await registry.install(cast(Host, client))
        await client.tree.set_translator(CatalogueTranslator())  # the same payload as at start
        await client.login(settings.token)  # HTTP only: fetches the application id
        tree = cast("sync.Tree", client.tree)
        if remove:
            count = await sync.remove(tree, store, guild_id)
            print(f"removed {count} command(s) {_where(guild_id)}")
        else:
            count = await sync.force(tree, store, guild_id, settings.dev_guild_id)
            print(f"synced {count} command(s) {sync.describe(guild_id)}")
    except discord.Forbidden as error:
        raise StartFailure(sync.refused(guild_id, error, at_start=False)) from error
    finally:
        await client.close()
        await store.close()
    return 0


def _where(guild_id: int | None) -> str:
    return "globally" if guild_id is None else f"from server {guild_id}"
