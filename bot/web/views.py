"""Which game a viewer sees and how: the channel's running game, else a game of the viewer's
own a mode offers, drawn by its mode's `web.py` for that one viewer, with the
names and avatars of who made each row filled in. No mode is named here."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any

import discord

from bot.engine.game import Game
from bot.interactions.activity import View, Viewer, base_view
from bot.interactions.context import Host
from bot.ui.i18n import Messages

log = logging.getLogger(__name__)

MOST_LOOKS = 10_000
"""Names and avatars remembered (the oldest forgotten first)."""


async def current(bot: Host, viewer: Viewer) -> Game | None:
    """The game `viewer` sees: their channel's running game, else the first game of their own
    a mode offers them there (`WebMode.mine`)."""
    game = await bot.store.active_game(viewer.channel_id)
    if game is not None and game.guild_id == viewer.guild_id:
        return game
    for spec in bot.modes():
        if spec.web is not None and spec.web.mine is not None:
            mine = await spec.web.mine(bot, viewer)
            if mine is not None:
                return mine
    return None


def private_to_others(bot: Host, game: Game, viewer: Viewer) -> bool:
    """Whether `game` is someone else's own game (of a mode whose games are each one
    player's): a viewer who watches a game of their own is not switched to it."""
    spec = bot.kind_of(game)
    return spec.web is not None and spec.web.mine is not None and game.starter_id != viewer.user_id


def visible(bot: Host, game: Game, viewer: Viewer) -> bool:
    """Whether `viewer` may see and act on `game`: it is in their channel, or it is a game of
    their own a mode offers anywhere (`WebMode.mine`)."""
    if game.channel_id == viewer.channel_id and game.guild_id == viewer.guild_id:
        return True
    spec = bot.kind_of(game)
    return spec.web is not None and spec.web.mine is not None and game.starter_id == viewer.user_id


class Looks:
    """Who made each row, as the page shows them: the names and avatars of those who signed
    in here, else of the users discord.py has seen, else asked of Discord once."""

    def __init__(self, bot: Host) -> None:
        self._bot = bot
        self._known: OrderedDict[int, dict[str, Any]] = OrderedDict()
        self._asking: set[int] = set()

    def learn(self, user_id: int, name: str, avatar_url: str | None) -> None:
        self._known[user_id] = {"id": str(user_id), "name": name, "avatar_url": avatar_url}
        self._known.move_to_end(user_id)
        while len(self._known) > MOST_LOOKS:
            self._known.popitem(last=False)

    def of(self, user_id: int) -> dict[str, Any]:
        known = self._known.get(user_id)
        if known is not None:
            return known
        user = self._bot.get_user(user_id)
        if user is not None:
            self.learn(user_id, user.display_name, user.display_avatar.url)
            return self._known[user_id]
        self._ask(user_id)
        return {"id": str(user_id), "name": f"#{str(user_id)[-4:]}", "avatar_url": None}

    def _ask(self, user_id: int) -> None:
        """Ask Discord for a user nobody here has seen (once at a time), for the next view."""
        if user_id in self._asking or len(self._asking) > 20 or self._bot.is_closed():
            return
        self._asking.add(user_id)

        async def ask() -> None:
            try:
                user = await self._bot.fetch_user(user_id)
                self.learn(user_id, user.display_name, user.display_avatar.url)
            except (discord.HTTPException, ValueError):
                log.debug("no look for user %s", user_id)
            finally:
                self._asking.discard(user_id)

        asyncio.get_running_loop().create_task(ask(), name=f"look-{user_id}")

    def fill(self, view: View) -> View:
        """The view with every `by` (and each entry of lists in `extra` with an `id` and a
        `by`) given its name and avatar."""
        for row in view.get("rows") or ():
            by = row.get("by")
            if isinstance(by, dict) and "id" in by:
                row["by"] = self.of(int(by["id"]))
        for value in (view.get("extra") or {}).values():
            if isinstance(value, list):
                for entry in value:
                    by = entry.get("by") if isinstance(entry, dict) else None
                    if isinstance(by, dict) and "id" in by:
                        entry["by"] = self.of(int(by["id"]))
        return view


def audience_of(bot: Host, game: Game, viewer: Viewer, t: Messages) -> Hashable:
    """Who sees the same view of `game` as `viewer` (in the same language): their mode says
    (`WebMode.audience`); else each viewer their own."""
    spec = bot.kind_of(game)
    if spec.web is None or spec.web.audience is None:
        return (t.language, "viewer", viewer.user_id)
    return (t.language, "audience", spec.web.audience(game, viewer))


def view_of(bot: Host, looks: Looks, game: Game, viewer: Viewer, t: Messages) -> View:
    """`game` as `viewer` sees it: its mode's view, or (a mode without an Activity) its header
    only, nothing to do there."""
    spec = bot.kind_of(game)
    if spec.web is None:
        return base_view(game, spec.kind, extra={"not_on_activity": True})
    return looks.fill(spec.web.view(game, viewer, t))
