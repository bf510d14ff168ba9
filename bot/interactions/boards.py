"""Boards converge to the store: whatever failed or crashed, a board ends up showing its game.

The store keeps, for every game, where its board is and which version it last showed. Every
redraw happens under the game's lock and renders what is stored *now*, then records the version
it drew; a redraw that finds the board already up to date does nothing. So a late edit never
replaces a newer one, and a board that fell behind (an edit refused, a crash between a move and
its edit) is redrawn by the next interaction with its game and by the pass at start-up.

Every board is drawn in its server's language, whichever path draws it: the interaction's
`guild_locale`, or with no interaction the server's `preferred_locale` (the same setting) from
the gateway's cache or, for a server this process does not cache, over REST.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import sys
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import discord

from bot.engine.errors import NotHere
from bot.engine.game import Game, Reach
from bot.interactions.context import Host, Interaction
from bot.store import Applied, Board, Held, always
from bot.ui import i18n, ids
from bot.ui.boards import Drawn

_GAME_OF_CUSTOM_ID = re.compile(rf"mm:[a-z-]+:(?P<game>{ids.NUMBER})(?::[0-9:]*)?")
"""The game a custom_id of ours names: its first number (see bot.ui.ids)."""

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


async def render(bot: Host, game: Game, t: i18n.Messages) -> Drawn:
    """The board of `game` as stored (its embed names the version), whatever its kind, in the
    language `t` (the server's)."""
    kind = bot.kind_of(game)
    try:
        remaining = await kind.codes_left(bot.solver, game)
    except Exception:  # the count is a nicety; the board must still be drawn
        log.warning("could not count the codes left for game %s", game.id, exc_info=True)
        remaining = None
    return kind.draw(game, remaining, None, t)


async def server_language(bot: Host, guild_id: int | None) -> i18n.Messages:
    """The language of a board drawn with no interaction: its server's, from the gateway's
    cache, else over REST (before the gateway is ready, or a server of another shard)."""
    server: discord.Guild | None = None
    if guild_id is not None:
        server = bot.get_guild(guild_id)
        if server is None:
            try:
                server = await bot.fetch_guild(guild_id)
            except discord.HTTPException as error:
                log.info("server %s's language unknown (%s); English", guild_id, error.status)
    return i18n.guild(server)


async def show(
    bot: Host,
    game_id: int,
    version: int,
    draw: Callable[[], Awaitable[Any]],
    message_id: int | None = None,
    board: Board | None = None,
) -> bool:
    """Draw `version` with `draw` (an interaction's edit of `message_id`) unless that message is
    the game's board and already shows this version or a newer one; record what the board shows.
    Returns whether it drew.

    A click on an older copy of a board (one `/mastermind board` replaced) redraws that copy
    too, and the board of record catches up separately.
    """
    async with lock(game_id):
        if board is None:
            board = await bot.store.board(game_id)
        of_record = board is None or message_id is None or board.message_id == message_id
        if of_record and board is not None and _shown(bot, game_id, board) >= version:
            return False
        await draw()
        if of_record:
            bot.marks.drew(game_id, version)
    if not of_record:
        refresh_soon(bot, game_id)
    return True


async def refresh(bot: Host, game_id: int, *, served_only: bool = False) -> None:
    """Redraw a game's board if it is behind the store (`served_only`: and its server is one
    this process answers). Never raises: a board that cannot be edited now stays marked as
    behind and is retried by the next pass.

    The lock is this process's own: for a board of another process's server (the lease
    holder's pass), that process may draw a newer move meanwhile and this edit land after
    its, so the stored version is read again after the edit, and a newer one drawn too."""
    try:
        async with lock(game_id):
            drawn: int | None = None
            for _ in range(CROSS_PROCESS_ROUNDS):
                board = await bot.store.board(game_id)
                game = await bot.store.game(game_id)
                if board is None or game is None or (served_only and not bot.serves(game.guild_id)):
                    return
                if drawn is None:
                    drawn = await _redraw(bot, game, board)
                elif game.version > drawn:
                    drawn = await _draw(bot, game, board)  # over an older one that landed late
                if drawn is None or bot.serves(game.guild_id):
                    return  # nothing drawn, or only this process draws this board
                if (versions := await bot.store.board_versions(game_id)) and versions[0] == drawn:
                    return
    except Exception:
        _failed(game_id)


CROSS_PROCESS_ROUNDS = 3
"""Reads of a board of another process's server, while its moves keep landing (see refresh)."""


GATHER_SECONDS = 0.05
"""How long a move's redraw waits for the moves made at the same moment on the same board, so
that a burst draws the board once, for its newest version (the player's own answer is already
out; only the board waits)."""

IN_STEP = "board_in_step"
"""Set on an interaction that leaves no board behind: it drew its own move (every older state
is drawn over), or its game has no board the bot keeps (a private one). No catch-up read."""


async def redraw(interaction: Interaction, applied: Applied[Any]) -> None:
    """After a move: redraw its board from what the move's own transaction returned (its game
    and where its board is), with no read of the store. A newer move redraws it again, and a
    version this process already drew is never drawn over. Never raises."""
    bot = interaction.client
    interaction.extras[IN_STEP] = True
    game, board = applied.game, applied.board
    if game.id is None or board is None:
        return
    bot.marks.redrawing()
    try:
        await asyncio.sleep(GATHER_SECONDS)  # moves made at the same moment land meanwhile
        async with lock(game.id):
            if not bot.marks.newer_coming(game.id, game.version):
                await _redraw(bot, game, board)  # else a burst's last move draws it once
    except Exception:
        _failed(game.id)
    finally:
        bot.marks.arrived(game.id, game.version)


async def _redraw(bot: Host, game: Game, board: Board) -> int | None:
    """Draw `game` on its channel board unless that board shows it (or a newer version).
    The version drawn, or None."""
    assert game.id is not None
    if _shown(bot, game.id, board) >= game.version or game.reach is not Reach.CHANNEL:
        return None  # up to date, or only its player's next click can redraw it
    return await _draw(bot, game, board)


async def _draw(bot: Host, game: Game, board: Board) -> int:
    """Draw `game` on its channel board and note the version drawn (returned)."""
    assert game.id is not None
    drawn = await render(bot, game, await server_language(bot, game.guild_id))
    message = bot.get_partial_messageable(board.channel_id).get_partial_message(board.message_id)
    try:
        await message.edit(content=drawn.content, embed=drawn.embed, view=drawn.view)
    except discord.NotFound:
        log.info("the board of game %s was deleted; /mastermind board posts it again", game.id)
    bot.marks.drew(game.id, game.version)
    return game.version


def _failed(game_id: int) -> None:
    """Log a board that could not be redrawn (it stays behind; the next pass retries it)."""
    error = sys.exc_info()[1]
    if isinstance(error, discord.HTTPException):
        log.warning(
            "the board of game %s could not be redrawn (%s %s); will retry",
            game_id,
            error.status,
            error.text or "",
        )
    else:
        log.exception("the board of game %s could not be redrawn; will retry", game_id)


def _shown(bot: Host, game_id: int, board: Board) -> int:
    """The newest version the board shows: as the store has it, or as this process drew it
    (its mark may not be written yet)."""
    return max(board.rendered_version, bot.marks.shown(game_id))


def refresh_soon(bot: Host, game_id: int) -> None:
    """Redraw in the background (the caller has already answered its interaction)."""
    task = asyncio.get_running_loop().create_task(refresh(bot, game_id), name=f"board-{game_id}")
    _background.add(task)
    task.add_done_callback(_background.discard)


async def reconcile(bot: Host, *, while_held: Held = always, served_only: bool = False) -> int:
    """Redraw every board that is behind its game (at start, and after failed edits), each
    only while `while_held()` says the chore is still this process's. `served_only`: only the
    boards of this process's servers (every process at its start, lease or not: a board a
    kill left behind must not wait for the lease holder's pass, minutes away)."""
    await bot.marks.settled()  # the redraws of moves just made go first
    await bot.marks.flush()  # the store's marks are then as new as this process knows
    redrawn = 0
    for game_id in await bot.store.boards_behind(limit=500):
        if not while_held():
            break
        await refresh(bot, game_id, served_only=served_only)
        redrawn += 1
    if redrawn:
        log.info("checked %d board(s) that were behind their games", redrawn)
    return redrawn


async def catch_up(interaction: Interaction, game_id: int) -> None:
    """Any use of a game redraws its board if that board fell behind the store (one read;
    none after a move this interaction made and drew, which left no board behind). Never
    raises."""
    if interaction.extras.get(IN_STEP):
        return
    bot = interaction.client
    try:
        versions = await bot.store.board_versions(game_id)
    except Exception:
        log.warning("could not check the board of game %s", game_id, exc_info=True)
        return
    if versions is not None and max(versions[1], bot.marks.shown(game_id)) < versions[0]:
        refresh_soon(bot, game_id)


# --- boards only interactions reach (bot.cogs.reach) -------------------------------------------


def by_interaction(game: Game) -> bool:
    """The bot is not a member where this game is played: only interactions draw its board."""
    return game.reach is Reach.INTERACTION


async def moved(bot: Host, game_id: int, channel_id: int, message_id: int, version: int) -> None:
    """A new message now shows the game at `version`: it becomes the board of record unless
    the board already shows a newer version (two moves posted their boards out of order)."""
    async with lock(game_id):
        board = await bot.store.board(game_id)
        if board is None or board.rendered_version <= version:
            await bot.store.move_board(game_id, channel_id, message_id, version)


async def answer_with_board(interaction: Interaction, game: Game, line: str) -> int:
    """Answer with `line` above the game's board, as a new message that becomes the board of
    record: how a move is shown where the bot may not edit any message later. Answers with
    the interaction's response if it is still open, else with a followup. Its message id."""
    bot = interaction.client
    assert game.id is not None
    drawn = await render(bot, game, i18n.channel(interaction))
    content = f"{line}\n{drawn.content}" if drawn.content else line
    view = drawn.view or discord.utils.MISSING
    if interaction.response.is_done():
        sent = await interaction.followup.send(content, embed=drawn.embed, view=view, wait=True)
        message_id = sent.id
    else:
        callback = await interaction.response.send_message(content, embed=drawn.embed, view=view)
        found = getattr(callback, "message_id", None)
        message_id = found if found is not None else (await interaction.original_response()).id
    await moved(bot, game.id, interaction.channel_id or game.channel_id, message_id, game.version)
    return int(message_id)


def _clicked_game(interaction: discord.Interaction) -> int | None:
    """The game named by the clicked component's custom_id, if it is one of ours."""
    data: Any = interaction.data or {}
    match = _GAME_OF_CUSTOM_ID.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    with contextlib.suppress(NotHere):  # a forged number no game can have
        return ids.numbers(match)["game"]
    return None


async def redraw_clicked(interaction: Interaction, game: Game | None = None) -> bool:
    """Answer a click on a board that only interactions reach by redrawing that board as it is
    stored now (an edit of the clicked message, the interaction's own response): the way such a
    board catches up, shows a move made elsewhere, or reveals the secret of a game that ended
    or expired. Whatever else the click says then goes out as followups.

    Does nothing (False) for a board the bot edits itself, a private message, an answered
    interaction, or a game of another channel; never raises.
    """
    message = interaction.message
    if (
        interaction.type is not discord.InteractionType.component
        or message is None
        or message.flags.ephemeral
        or interaction.response.is_done()
    ):
        return False
    bot = interaction.client
    if game is not None and not by_interaction(game):
        return False  # a board the bot edits itself (a game's reach never changes)
    try:
        game_id = game.id if game is not None else _clicked_game(interaction)
        if game_id is None:
            return False
        if game is None:  # read outside the lock: a board the bot edits itself is not ours,
            game = await bot.store.game(game_id)  # and its lock may wait on a rate-limited edit
            if game is None or not by_interaction(game):
                return False
        async with lock(game_id):
            latest = await bot.store.game(game_id)
            if (
                latest is None
                or not by_interaction(latest)
                or latest.channel_id != interaction.channel_id
                or latest.guild_id != interaction.guild_id
            ):
                return False
            drawn = await render(bot, latest, i18n.channel(interaction))
            await interaction.response.edit_message(
                content=drawn.content, embed=drawn.embed, view=drawn.view
            )
            board = await bot.store.board(game_id)
            if board is not None and board.message_id == message.id:
                bot.marks.drew(game_id, latest.version)
        return True
    except Exception:
        log.warning("could not redraw the clicked board of interaction %s", interaction.id)
        return interaction.response.is_done()
