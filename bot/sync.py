"""Slash-command sync: push the command tree to Discord only when Discord may lack it.

Discord keeps an application's commands per scope: global, or one server. A sync is rate
limited, so the bot keeps a fingerprint of the last start-up sync in the database (meta table):
the application id, the scope and the command payload. A restart with the same three makes no
sync call; a new application or token, a changed `DEV_GUILD_ID` or a changed tree syncs again.

With `DEV_GUILD_ID` set, the commands go to that server only and nothing is synced globally, so
each command appears once there. Commands a previous `DEV_GUILD_ID` left in another server are
removed at the next start.

An application with Activities has a global Entry Point command (type 4) that Discord made and
owns; a bulk overwrite of the global commands that leaves it out is refused (error 50240). So
every global overwrite (`sync`, `unsync`, the start-up sync) first reads the global commands and
sends the Entry Point back unchanged with the bot's own.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

from bot.store import Store

log = logging.getLogger(__name__)

HASH_KEY = "commands_hash"
"""Meta key: fingerprint of the last start-up sync (application, scope, commands)."""
GUILD_KEY = "commands_guild"
"""Meta key: `<application id>:<guild id>` of the server the last start-up sync went to."""

Tree = app_commands.CommandTree[discord.Client]

ENTRY_POINT = 4
"""Application command type PRIMARY_ENTRY_POINT (discord.py 2.7 has no enum member for it)."""
_SERVER_FIELDS = ("application_id", "version", "guild_id")
"""Fields of a fetched command that Discord sets itself and a write does not send."""


def describe(scope: int | None) -> str:
    """`globally` or `to server <id>`, for log lines."""
    return "globally" if scope is None else f"to server {scope}"


def _target(tree: Tree, scope: int | None) -> discord.Object | None:
    """The guild to sync to (with the global commands copied into it), or None for global."""
    if scope is None:
        return None
    guild = discord.Object(id=scope)
    tree.copy_global_to(guild=guild)
    return guild


def _application_id(tree: Tree) -> int:
    application_id = tree.client.application_id
    if application_id is None:
        raise app_commands.MissingApplicationID
    return application_id


async def fingerprint(tree: Tree, scope: int | None) -> str:
    """What a sync to `scope` would send (its translations included, so a new language syncs
    again), with the application it goes to, as one hash."""
    guild = _target(tree, scope)
    payload = await _payload(tree, guild)
    identity = {"application": _application_id(tree), "scope": scope, "commands": payload}
    return hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()


async def push(tree: Tree, scope: int | None) -> int:
    """Sync the tree to `scope` now; returns the number of the bot's commands Discord holds
    there (an Entry Point kept beside them is not counted)."""
    guild = _target(tree, scope)
    if guild is not None:
        return len(await tree.sync(guild=guild))
    entry_points = await _entry_points(tree)
    if not entry_points:
        return len(await tree.sync())
    payload = await _payload(tree, None)
    http = tree.client.http
    try:
        synced = await http.bulk_upsert_global_commands(
            _application_id(tree), payload=[*payload, *entry_points]
        )
    except discord.HTTPException as error:
        if error.status == 400 and error.code == 50035:  # as tree.sync says a bad tree
            raise app_commands.CommandSyncFailure(error, tree.get_commands()) from None
        raise
    return sum(1 for command in synced if command.get("type") != ENTRY_POINT)


async def _payload(tree: Tree, guild: discord.Object | None) -> list[dict[str, Any]]:
    """The commands of `guild` (None: the global ones) as a sync sends them, in every
    language the tree's translator knows."""
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is None:
        return [command.to_dict(tree) for command in commands]
    return [await command.get_translated_payload(tree, translator) for command in commands]


async def _entry_points(tree: Tree) -> list[dict[str, Any]]:
    """The application's global Entry Point commands, as a bulk overwrite sends them back."""
    return _kept(await tree.client.http.get_global_commands(_application_id(tree)))


def _kept(existing: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Of the fetched global commands, the Entry Points, without what Discord sets itself."""
    return [
        {key: value for key, value in command.items() if key not in _SERVER_FIELDS}
        for command in existing
        if command.get("type") == ENTRY_POINT
    ]


async def sync_at_start(tree: Tree, store: Store, dev_guild_id: int | None) -> None:
    """The start-up sync. Never stops the bot: a refused sync is one log line saying why."""
    await _forget_previous_guild(tree, store, dev_guild_id)
    digest = await fingerprint(tree, dev_guild_id)
    if await store.get_meta(HASH_KEY) == digest:
        log.info(
            "commands unchanged since the last sync %s; not synced again "
            "(`python -m bot sync` forces it)",
            describe(dev_guild_id),
        )
    else:
        try:
            count = await push(tree, dev_guild_id)
        except discord.Forbidden as error:
            log.error("%s", refused(dev_guild_id, error))
            return
        except discord.HTTPException as error:
            log.error(
                "command sync %s failed: %s %s; the bot keeps running, and the next start or "
                "`python -m bot sync` tries again",
                describe(dev_guild_id),
                error.status,
                error.text or error,
            )
            return
        await store.set_meta(HASH_KEY, digest)
        if dev_guild_id is not None:
            await store.set_meta(GUILD_KEY, f"{_application_id(tree)}:{dev_guild_id}")
        log.info("synced %d command(s) %s", count, describe(dev_guild_id))
        if dev_guild_id is not None:
            # Commands of one server exist only there: user installs (DMs, group DMs, other
            # servers) see them once they are synced globally, without DEV_GUILD_ID.
            log.info(
                "the commands of server %s show only there, not in DMs or to user installs",
                dev_guild_id,
            )
    if dev_guild_id is not None:
        await _warn_about_global_copies(tree, dev_guild_id)


def refused(scope: int | None, error: discord.HTTPException, *, at_start: bool = True) -> str:
    """One line for a 403 on a sync: for a server, the two usual causes and the fix. At start
    the server is DEV_GUILD_ID and the bot goes on; from `sync --guild` it is the argument."""
    if scope is None:
        return f"Discord refused the global command sync ({error.status} {error.text})."
    source, after = (
        ("DEV_GUILD_ID", "; it keeps running without commands there.")
        if at_start
        else ("--guild", ".")
    )
    return (
        f"Discord refused the command sync to server {scope} ({source}) with "
        f"{error.status} {error.text or 'Missing Access'}: either the bot is not in that server, "
        "or it was invited without the applications.commands scope. Check the id, or invite "
        f"the bot again with both scopes{after}"
    )


async def _warn_about_global_copies(tree: Tree, dev_guild_id: int) -> None:
    """Global commands of the same application would show a second time in the dev server."""
    try:
        fetched = await tree.client.http.get_global_commands(_application_id(tree))
    except discord.HTTPException:
        return
    global_commands = [c for c in fetched if c.get("type") != ENTRY_POINT]  # Discord's own
    if global_commands:
        log.warning(
            "this application also has %d global command(s), so server %s shows each command "
            "twice; if no other copy of this bot serves them, remove them with "
            "`python -m bot unsync`",
            len(global_commands),
            dev_guild_id,
        )


async def _forget_previous_guild(tree: Tree, store: Store, dev_guild_id: int | None) -> None:
    """Remove the commands an earlier start synced to a server that is no longer DEV_GUILD_ID."""
    previous = await store.get_meta(GUILD_KEY)
    application_id = _application_id(tree)
    current = "" if dev_guild_id is None else f"{application_id}:{dev_guild_id}"
    if not previous or previous == current:
        return
    previous_app, _, previous_guild = previous.partition(":")
    if previous_app == str(application_id) and previous_guild.isdigit():
        try:
            await tree.client.http.bulk_upsert_guild_commands(
                application_id, int(previous_guild), payload=[]
            )
            log.info(
                "removed the commands an earlier DEV_GUILD_ID left in server %s", previous_guild
            )
        except discord.HTTPException as error:
            log.info(
                "could not remove the commands left in server %s (%s %s); "
                "`python -m bot unsync --guild %s` tries again",
                previous_guild,
                error.status,
                error.text,
                previous_guild,
            )
    await store.set_meta(GUILD_KEY, current)


async def force(tree: Tree, store: Store, scope: int | None, start_scope: int | None) -> int:
    """`python -m bot sync`: sync whatever the fingerprint says. When `scope` is what the bot
    syncs at start, the fingerprint is stored, so the next start does not sync again."""
    count = await push(tree, scope)
    if scope == start_scope:
        await store.set_meta(HASH_KEY, await fingerprint(tree, scope))
        if scope is not None:
            await store.set_meta(GUILD_KEY, f"{_application_id(tree)}:{scope}")
    return count


async def remove(tree: Tree, store: Store, scope: int | None) -> int:
    """`python -m bot unsync`: delete the application's commands in `scope`; returns how many
    there were. The stored fingerprint is dropped, so the next start syncs afresh."""
    application_id = _application_id(tree)
    http = tree.client.http
    if scope is None:
        existing = await http.get_global_commands(application_id)
        kept = _kept(existing)  # Discord's Entry Point, not the bot's: it stays
        await http.bulk_upsert_global_commands(application_id, payload=kept)
        removed = len(existing) - len(kept)
    else:
        removed = len(await http.get_guild_commands(application_id, scope))
        await http.bulk_upsert_guild_commands(application_id, scope, payload=[])
        if await store.get_meta(GUILD_KEY) == f"{application_id}:{scope}":
            await store.set_meta(GUILD_KEY, "")
    await store.set_meta(HASH_KEY, "")
    return removed
