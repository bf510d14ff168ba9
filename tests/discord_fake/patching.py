"""Point an unmodified discord.py at the fake by patching its class attributes from the test side.

Four patches, all undone on exit:

- `discord.http.Route.BASE` -> the fake's REST base (every REST call and webhook call uses it);
- `discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY` -> the fake's websocket (2.7 connects there
  without asking `/gateway/bot`, except AutoShardedClient, which the fake also answers);
- `ConnectionState.__init__` lowers `guild_ready_timeout` (2 s by default: on_ready would come
  2 s after the last GUILD_CREATE) unless the client passed one itself;
- `ConnectionState.call_handlers` reports the `ready` event to the fake (`POST /__fake__/ready`,
  made right before discord.py dispatches `on_ready`), so tests wait for readiness instead of
  sleeping. This is instrumentation, not behaviour: the bot's own `on_ready` runs as usual.
  (Patching `Client.dispatch` would miss clients built before the patch: their state keeps the
  bound method.)
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import discord
import discord.gateway
import discord.http
import discord.state
import yarl

_TASKS: set[asyncio.Task[None]] = set()


async def _report_ready(client: discord.Client) -> None:
    user_id = str(client.user.id) if client.user else None
    with contextlib.suppress(Exception):
        await client.http.request(
            discord.http.Route("POST", "/__fake__/ready"), json={"user_id": user_id}
        )


def apply_patches(
    rest_base: str, gateway_url: str, *, guild_ready_timeout: float = 0.1
) -> Callable[[], None]:
    """Patch discord.py to talk to the fake; returns a function that undoes the patches."""
    route_cls = discord.http.Route
    ws_cls = discord.gateway.DiscordWebSocket
    state_cls = discord.state.ConnectionState
    old_base = route_cls.BASE
    old_gateway = ws_cls.DEFAULT_GATEWAY
    old_init = state_cls.__init__
    old_call_handlers = state_cls.call_handlers

    def state_init(self: Any, *args: Any, **options: Any) -> None:
        old_init(self, *args, **options)
        if "guild_ready_timeout" not in options:
            self.guild_ready_timeout = guild_ready_timeout

    def call_handlers(self: Any, key: str, *args: Any, **kwargs: Any) -> None:
        old_call_handlers(self, key, *args, **kwargs)
        if key == "ready":
            task = asyncio.get_running_loop().create_task(_report_ready(self._get_client()))
            _TASKS.add(task)
            task.add_done_callback(_TASKS.discard)

    route_cls.BASE = rest_base  # type: ignore[misc]
    ws_cls.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    state_cls.__init__ = state_init  # type: ignore[method-assign]
    state_cls.call_handlers = call_handlers  # type: ignore[method-assign]

    def undo() -> None:
        route_cls.BASE = old_base  # type: ignore[misc]
        ws_cls.DEFAULT_GATEWAY = old_gateway
        state_cls.__init__ = old_init  # type: ignore[method-assign]
        state_cls.call_handlers = old_call_handlers  # type: ignore[method-assign]

    return undo


@contextlib.contextmanager
def patch_discord(
    rest_base: str, gateway_url: str, *, guild_ready_timeout: float = 0.1
) -> Iterator[None]:
    """`apply_patches` for the duration of a `with` block (nested blocks undo in order)."""
    undo = apply_patches(rest_base, gateway_url, guild_ready_timeout=guild_ready_timeout)
    try:
        yield
    finally:
        undo()
