"""Every input of the daily code: /mastermind daily, and the private board's selects, Submit,
Type a code (its modal) and Share.

The board is an ephemeral message, which only an interaction on it can change: each click
redraws that very message from the store (`edit_message`), so a board left behind by a restart
or by another copy of it is right again at its next click. Its components carry only the game
id (and the version they were drawn at), so they keep working after a restart. When a game
ends, the channel gets the spoiler-free result as a public followup of the finishing click,
which works wherever the interaction came from.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engine import game as core
from bot.engine.codes import Code
from bot.engine.errors import NotHere
from bot.engine.game import EndOutcome, MoveKind
from bot.interactions import boards, private, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Host, Interaction, LeaderboardSpec, ModeSpec
from bot.interactions.items import on_click
from bot.interactions.options import shared_options
from bot.interactions.private import Picked
from bot.interactions.replies import actor, guarded
from bot.modes.daily import actions as daily
from bot.modes.daily import board as drawn
from bot.modes.daily import web
from bot.modes.daily.record import DailyRecord
from bot.modes.daily.rules import KIND, DailyGame
from bot.store import Held
from bot.ui import i18n
from bot.ui.boards import Drawn, Field
from bot.ui.i18n import Messages, slash

log = logging.getLogger(__name__)


@guarded
async def start(interaction: Interaction, hard: bool) -> None:
    """`/mastermind daily`: today's board, privately; a second time, the same game again (its
    result once finished), never a new one."""
    bot = interaction.client
    now = bot.clock()
    key = await daily.key(bot.store, bot.settings.daily_key)
    opened = await daily.open_today(bot.store, actor(interaction), key, now, hard)
    t = i18n.person(interaction)
    note = None
    if not opened.new:
        if opened.game.is_over:
            note = t.gettext(
                "You have already played today's code; here is your result. "
                "The next one comes at midnight UTC."
            )
        else:
            note = t.gettext("You are already playing today's code; here is your board again.")
    board = drawn.board(opened.game, daily.Day.at(now).next_in, note=note, t=t)
    boards.offer_activity(bot, opened.game, board.view, t)
    await interaction.response.send_message(
        board.content or "",
        embed=board.embed,
        view=board.view or discord.utils.MISSING,
        ephemeral=True,
    )


class DailyBoard:
    """A player's daily board: theirs alone, stamped with the game version it shows."""

    pick, send, type_code = drawn.DAILY_PICK, drawn.DAILY_SEND, drawn.DAILY_TYPE
    code = drawn.DAILY_MODAL

    async def load(self, interaction: Interaction, game_id: int) -> DailyGame:
        return await daily.mine(interaction.client.store, game_id, actor(interaction))

    def playable(self, game: DailyGame, player_id: int) -> bool:
        return not game.is_over

    def stamp(self, game: DailyGame, player_id: int) -> int:
        return game.version

    def behind(self, t: i18n.Messages) -> str:
        return t.gettext("This board was behind the game; here it is as it stands now.")

    def modal(self, game: DailyGame, player_id: int, t: i18n.Messages) -> discord.ui.Modal:
        return drawn.code_modal(game, t=t)

    def draw(
        self, interaction: Interaction, game: DailyGame, chosen: Picked | None, note: str | None
    ) -> Drawn:
        next_in = daily.Day.at(interaction.client.clock()).next_in
        t = i18n.person(interaction)
        ending = core.ending(game.log)
        if ending is not None and ending.kind is MoveKind.TIMEOUT:  # its day ended first
            note = drawn.closed(game, t=t)
        return drawn.board(game, next_in, chosen, note=note, t=t)

    async def guess(
        self, interaction: Interaction, game: DailyGame, stamp: int, code: str | Code
    ) -> None:
        """Store the guess, redraw the board it came from, and once the game is over tell the
        channel the result without its colours."""
        bot = interaction.client
        assert game.id is not None
        who = actor(interaction)
        new, outcome = await daily.guess(bot.store, game.id, stamp, who, code, bot.clock())
        if isinstance(outcome, EndOutcome):  # its day is over: the board shows the answer
            note = drawn.closed(new, t=i18n.person(interaction))
            async with replies.committed(interaction, "game"):
                await private.redraw(interaction, self, new, note=note)
            return
        async with replies.committed(interaction, "guess"):
            await private.redraw(interaction, self, new)
            if new.is_over and new.id is not None:
                t = i18n.channel(interaction)
                await interaction.followup.send(
                    drawn.public_line(new, t=t), view=drawn.share_view(new.id, t=t)
                )


BOARD = DailyBoard()


@guarded
async def share(interaction: Interaction, game_id: int) -> None:
    """Share: the clicker's own result of that day, spoiler-free, to copy (only they see it)."""
    store = interaction.client.store
    game = await store.game(game_id)
    if not isinstance(game, DailyGame):
        raise NotHere()
    user_id = interaction.user.id
    t = i18n.person(interaction)
    mine: DailyGame | None = None
    if game.starter_id == user_id and game.is_over:
        mine = game
    else:
        result = await daily.result_of(store, user_id, game.puzzle)
        found = await store.game(result.game_id) if result is not None else None
        mine = found if isinstance(found, DailyGame) else None
    message = drawn.not_finished(game.puzzle, t=t) if mine is None else drawn.share_text(mine, t=t)
    await interaction.response.send_message(message, ephemeral=True)


# --- the inputs discord.py routes here by custom_id --------------------------------------------


DYNAMIC_ITEMS = (*private.inputs(BOARD), on_click(drawn.DAILY_SHARE, share))


class DailyInputs(ModeInputs):
    """Every input of a daily game: its private board, its code modal and Share."""

    items = DYNAMIC_ITEMS
    modal = private.modal(BOARD)

    @app_commands.command(
        name=slash.pgettext("command", "daily"),
        description=slash.gettext("Today's code: the same for everyone, played privately once."),
    )
    @shared_options("hard")
    async def daily_command(self, interaction: Interaction, hard: bool = False) -> None:
        await start(interaction, hard)


async def record(bot: Host, guild_id: int | None, user_id: int, t: Messages) -> list[Field]:
    """The daily part of `/mastermind stats`: everywhere, since a streak follows the player."""
    played = await bot.store.player_stats(None, user_id, KIND)
    streak = await daily.record(bot.store, user_id, bot.clock())
    return [drawn.record_field(streak, played, t=t)]


async def leaderboard(bot: Host, guild_id: int, t: Messages) -> discord.Embed:
    """`/mastermind leaderboard games:daily`: today's results in this server."""
    today, results = await daily.leaderboard(bot.store, guild_id, bot.clock())
    return drawn.daily_leaderboard(today.puzzle, results, t=t)


LEADERBOARD = LeaderboardSpec(slash.pgettext("leaderboard", "daily (today)"), leaderboard)
"""`/mastermind leaderboard games:`, its choice and its board."""


async def day_change(bot: Host, *, served_only: bool, while_held: Held) -> int:
    """The daily's timer (its `ModeSpec.timers`): at 00:00 UTC the games of the day before
    that nobody finished end, as a late move would end them (nothing public: the result line
    is for a finished game); then it waits for the next midnight. At ready and in the
    cluster's pass it also ends what a day change owed while no process waited for it. A
    board is private, so its player's next click shows it closed."""
    now = bot.clock()
    guilds = bot.serves if served_only else None
    closed = await daily.close_past_days(bot.store, now, guilds, while_held)
    if closed:
        log.info("the day changed: %d unfinished game(s) of past days ended", len(closed))
    if while_held():

        async def at_midnight() -> None:
            await day_change(bot, served_only=served_only, while_held=while_held)

        midnight = now + daily.Day.at(now).next_in
        key = f"{KIND}:{'served' if served_only else 'all'}"
        bot.timers.at(key, midnight.timestamp(), at_midnight)
    return len(closed)


MODE = ModeSpec.of(
    DailyRecord(),
    DailyInputs,
    drawn,
    record=record,
    leaderboards=(LEADERBOARD,),
    timers=day_change,
    web=web.WEB,
)
"""The daily mode, as the registry lists it."""
