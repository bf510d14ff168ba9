"""Boards converge to the store: whatever failed or crashed, a board ends up showing its game.

The store keeps, for every game, where its board is and which version it last showed. Every
redraw happens under the game's lock and renders what is stored *now*, then records the version
it drew; a redraw that finds the board already up to date does nothing. So a late edit never
replaces a newer one, and a board that fell behind (an edit refused, a crash between a move and
its edit) is redrawn by the next interaction with its game and by the pass at start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.engine.game import Game, PlayGame, SolveGame, Status
from bot.ui import components, embeds, text

if TYPE_CHECKING:
    from bot.app import MastermindBot

log = logging.getLogger(__name__)

_locks: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, dict[int, tuple[asyncio.Lock, int]]
] = weakref.WeakKeyDictionary()
_background: set[asyncio.Task[None]] = set()


@contextlib.asynccontextmanager
async def lock(game_id: int) -> AsyncIterator[None]:
    """One lock per game for every edit of its board, in this process (and this event loop);
    forgotten once nobody holds or awaits it, so finished games cost nothing."""
    locks = _locks.setdefault(asyncio.get_running_loop(), {})
    found, users = locks.get(game_id, (asyncio.Lock(), 0))
    locks[game_id] = (found, users + 1)
    try:
        async with found:
            yield
    finally:
        found, users = locks[game_id]
        if users == 1:
            del locks[game_id]
        else:
            locks[game_id] = (found, users - 1)


async def render(
    bot: MastermindBot, game: Game
) -> tuple[str | None, discord.Embed, discord.ui.View | None]:
    """The board of `game` as stored: its content line, its embed (which names the version)
    and its buttons. Every path that draws a board draws these same parts."""
    if isinstance(game, PlayGame):
        return None, embeds.play_board(game, game.revealed_secret), components.play_view(game)
    remaining = await _remaining(bot, game)
    return solve_content(game), embeds.solve_board(game, remaining), components.solve_view(game)


def solve_content(game: SolveGame) -> str | None:
    """The line above a solve board: the result, once there is one."""
    if game.status is Status.SOLVED:
        return f"🎯 Solved in {text.guesses(len(game.guesses))}!"
    return None


async def _remaining(bot: MastermindBot, game: SolveGame) -> int | None:
    if not game.awaiting_answer:
        return None
    try:
        return await bot.solver.remaining(
            game.variant.pegs, game.variant.colours, game.variant.duplicates, plain_history(game)
        )
    except Exception:  # the count is a nicety; the board must still be drawn
        log.warning("could not count the codes left for game %s", game.id, exc_info=True)
        return None


def plain_history(game: SolveGame) -> list[tuple[list[int], int, int]]:
    """A solve game's answered guesses as plain data for the solver's workers."""
    return [
        (list(guess), black, white)
        for guess, (black, white) in zip(game.guesses, game.answers, strict=False)
    ]


async def show(
    bot: MastermindBot, game_id: int, version: int, draw: Callable[[], Awaitable[Any]]
) -> bool:
    """Draw `version` with `draw` (e.g. an interaction's edit) unless the board already shows
    that version or a newer one; record it once drawn. Returns whether it drew."""
    async with lock(game_id):
        board = await bot.store.board(game_id)
        if board is not None and board.rendered_version >= version:
            return False
        await draw()
        await bot.store.mark_rendered(game_id, version)
        return True


async def refresh(bot: MastermindBot, game_id: int) -> None:
    """Redraw a game's board if it is behind the store. Never raises: a board that cannot be
    edited now stays marked as behind and is retried by the next pass."""
    try:
        async with lock(game_id):
            board = await bot.store.board(game_id)
            game = await bot.store.game(game_id)
            if board is None or game is None or board.rendered_version >= game.version:
                return
            content, embed, view = await render(bot, game)
            message = bot.get_partial_messageable(board.channel_id).get_partial_message(
                board.message_id
            )
            try:
                await message.edit(content=content, embed=embed, view=view)
            except discord.NotFound:
                log.info(
                    "the board of game %s was deleted; /mastermind board posts it again", game_id
                )
            await bot.store.mark_rendered(game_id, game.version)
    except discord.HTTPException as error:
        log.warning(
            "the board of game %s could not be redrawn (%s %s); will retry",
            game_id,
            error.status,
            error.text or "",
        )
    except Exception:
        log.exception("the board of game %s could not be redrawn; will retry", game_id)


def refresh_soon(bot: MastermindBot, game_id: int) -> None:
    """Redraw in the background (the caller has already answered its interaction)."""
    task = asyncio.get_running_loop().create_task(refresh(bot, game_id), name=f"board-{game_id}")
    _background.add(task)
    task.add_done_callback(_background.discard)


async def reconcile(bot: MastermindBot) -> int:
    """Redraw every board that is behind its game (at start, and after failed edits)."""
    redrawn = 0
    for game_id in await bot.store.boards_behind(limit=500):
        await refresh(bot, game_id)
        redrawn += 1
    if redrawn:
        log.info("checked %d board(s) that were behind their games", redrawn)
    return redrawn
