"""Every input of a race: /mastermind race, the race board's Join, Start and My board, each
racer's private board (a select per peg, Submit, Type a code and its modal), a race guess typed
with /mastermind guess, and the clock that starts lobbies and ends races.

The race board is the channel's board of record, kept up to date by `boards` like any other.
A racer's board is an ephemeral message only an interaction on it can change: each click
redraws that very message from the store (`edit_message`), never with the bot's token, and My
board opens a fresh copy whenever the player dismissed theirs. Whatever a racer does, nothing of
their colours reaches the channel before the race is over.

The clock is a timer per race in the bot's timer service (set when the lobby opens and when
the race starts); `clock_pass`, the mode's declared `timers`, does what is overdue and sets the
timers of the rest at ready and, for another process's races after a take-over, in the
cluster's pass.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.engine.codes import Code
from bot.engine.game import GuessOutcome, MoveKind, Reach, Variant
from bot.interactions import boards, private, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Host, Interaction, ModeSpec
from bot.interactions.items import on_click
from bot.interactions.options import shared_options
from bot.interactions.private import Picked
from bot.interactions.reach import reach_of
from bot.interactions.replies import actor, guarded
from bot.modes.common.inputs import counted_record, ranked
from bot.modes.race import actions as race
from bot.modes.race import board as drawn
from bot.modes.race import web
from bot.modes.race.actions import JOIN_SECONDS, RACE_MINUTES
from bot.modes.race.record import RaceRecord
from bot.modes.race.rules import KIND, RaceGame, RaceNotStarted, clock_move
from bot.store import Applied, Board, Held, always
from bot.ui import i18n
from bot.ui.boards import Drawn
from bot.ui.i18n import slash

log = logging.getLogger(__name__)


# --- the lobby ---------------------------------------------------------------------------------


@guarded
async def start(
    interaction: Interaction, variant: Variant, hard: bool, join_seconds: int, minutes: int
) -> None:
    """`/mastermind race`: the lobby's board is posted first (as "thinking"), so the race and
    where its board is are stored in one transaction."""
    bot = interaction.client
    who = actor(interaction)
    await race.check_start(bot.store, who, bot_may_post=reach_of(interaction) is Reach.CHANNEL)
    message_id = await replies.public_placeholder(interaction)
    game = await race.start(
        bot.store,
        who,
        variant,
        hard=hard,
        join_seconds=join_seconds,
        minutes=minutes,
        now=bot.clock().timestamp(),
        board_message_id=message_id,
    )
    schedule(bot, game)
    await replies.show_started(interaction, game)


@guarded
async def join(interaction: Interaction, game_id: int) -> None:
    """Join: the clicker enters the race's lobby."""
    bot = interaction.client
    applied = await race.join(bot.store, game_id, actor(interaction), bot.clock().timestamp())
    async with replies.committed(interaction, "game"):
        await _show_board(interaction, race.race_of(applied), applied.board)


@guarded
async def start_now(interaction: Interaction, game_id: int) -> None:
    """The starter's Start: guessing opens for everyone, and the starter gets their board."""
    bot = interaction.client
    applied = await race.start_now(bot.store, game_id, actor(interaction))
    game = race.race_of(applied)
    schedule(bot, game)
    async with replies.committed(interaction, "game"):
        await _show_board(interaction, game, applied.board)
        await interaction.followup.send(drawn.started_line(game, t=i18n.channel(interaction)))
        await _send_private(interaction, game)


async def _show_board(interaction: Interaction, game: RaceGame, board: Board | None) -> None:
    """Draw the race board through the click on it (never over a newer drawing); `board` is
    where it is, as the move's own transaction read it."""
    t = i18n.channel(interaction)

    async def draw() -> None:
        view = boards.offer_activity(interaction.client, game, drawn.board_view(game, t=t), t)
        await interaction.response.edit_message(embed=drawn.board_embed(game, t=t), view=view)

    assert game.id is not None
    message_id = interaction.message.id if interaction.message is not None else None
    client = interaction.client
    if not await client.boards.show(game.id, game.version, draw, message_id, board=board):
        await interaction.response.defer()
    boards.in_step(interaction)  # nothing older than this move is left


# --- a racer's own board -----------------------------------------------------------------------


@guarded
async def my_board(interaction: Interaction, game_id: int) -> None:
    """My board: the clicker's private board of this race, as a new ephemeral message."""
    game = await race.racer(interaction.client.store, game_id, actor(interaction))
    if not game.started and not game.is_over:
        raise RaceNotStarted()
    await _send_private(interaction, game)


async def _send_private(interaction: Interaction, game: RaceGame, note: str | None = None) -> None:
    t = i18n.person(interaction)
    board = drawn.private(game, interaction.user.id, note=note, t=t)
    view = boards.offer_activity(interaction.client, game, board.view, t) or discord.utils.MISSING
    if interaction.response.is_done():
        await interaction.followup.send(
            board.content or "", embed=board.embed, view=view, ephemeral=True
        )
    else:
        await interaction.response.send_message(
            board.content or "", embed=board.embed, view=view, ephemeral=True
        )


class RaceBoard:
    """A racer's own board of a race, stamped with how many guesses it shows them."""

    pick, send, type_code = drawn.RACE_PICK, drawn.RACE_SEND, drawn.RACE_TYPE
    code = drawn.RACE_MODAL

    async def load(self, interaction: Interaction, game_id: int) -> RaceGame:
        return await race.racer(interaction.client.store, game_id, actor(interaction))

    def playable(self, game: RaceGame, player_id: int) -> bool:
        return drawn.can_guess(game, player_id)

    def stamp(self, game: RaceGame, player_id: int) -> int:
        return len(game.guesses_of(player_id))

    def behind(self, t: i18n.Messages) -> str:
        return drawn.behind(t)

    def modal(self, game: RaceGame, player_id: int, t: i18n.Messages) -> discord.ui.Modal:
        return drawn.code_modal(game, self.stamp(game, player_id), t=t)

    def draw(
        self, interaction: Interaction, game: RaceGame, chosen: Picked | None, note: str | None
    ) -> Drawn:
        t = i18n.person(interaction)
        return drawn.private(game, interaction.user.id, chosen, note=note, t=t)

    async def guess(
        self, interaction: Interaction, game: RaceGame, stamp: int, code: str | Code
    ) -> None:
        """Store the guess, redraw the private board it came from, then the race board."""
        assert game.id is not None
        bot = interaction.client
        now = bot.clock().timestamp()
        applied = await race.guess(
            bot.store, game.id, actor(interaction), code, after=stamp, now=now
        )
        new = race.race_of(applied)
        async with replies.committed(interaction, "guess"):
            await private.redraw(interaction, self, new)
            await _after_guess(interaction, applied)


BOARD = RaceBoard()


async def guess_command(interaction: Interaction, game_id: int, code: str) -> None:
    """`/mastermind guess` in a race's channel: scored on the player's own board, which is the
    private answer; the channel never sees the colours. (Called by the play handler, which
    turns failures into private replies.)"""
    bot = interaction.client
    who = actor(interaction)
    now = bot.clock().timestamp()
    applied = await race.guess(bot.store, game_id, who, code, after=None, now=now)  # the racer
    async with replies.committed(interaction, "guess"):
        await _send_private(interaction, race.race_of(applied))
        await _after_guess(interaction, applied)


async def _after_guess(interaction: Interaction, applied: Applied[GuessOutcome]) -> None:
    """The race board shows the new pegs; the guess that ends the race tells the channel."""
    game = race.race_of(applied)
    boards.in_step(interaction, applied)
    if game.is_over:
        await interaction.followup.send(drawn.end_line(game, t=i18n.channel(interaction)))


# --- the clock ---------------------------------------------------------------------------------


def schedule(bot: Host, game: RaceGame) -> None:
    """Set this race's timer for its next deadline, unless one is set already."""
    deadline, game_id = game.next_deadline, game.id
    if deadline is not None and game_id is not None:
        bot.timers.at(f"race:{game_id}", deadline, lambda: tick(bot, game_id))


async def tick(bot: Host, game_id: int) -> None:
    """Start or end the race if its time has come; announce it; set its next timer. Never
    raises: a failure is logged and the background pass tries again."""
    try:
        done = await race.tick(bot.store, game_id, bot.clock().timestamp())
        if done is not None:
            game, what = done
            await bot.boards.refresh(game_id)
            t = await boards.server_language(bot, game.guild_id)
            if what is MoveKind.START:
                await _announce(bot, game, drawn.started_line(game, t=t))
            else:
                await _announce(bot, game, drawn.end_line(game, t=t))
        latest = await bot.store.game(game_id)
        if isinstance(latest, RaceGame) and not latest.is_over:
            schedule(bot, latest)
    except Exception:
        log.exception("the clock of race %s failed; the next pass tries again", game_id)


async def _announce(bot: Host, game: RaceGame, line: str) -> None:
    """Tell the race's channel what the clock did (the board shows it too)."""
    try:
        await bot.get_partial_messageable(game.channel_id).send(line)
    except discord.HTTPException as error:
        log.info("could not tell channel %s about race %s (%s)", game.channel_id, game.id, error)


async def clock_pass(bot: Host, *, served_only: bool = False, while_held: Held = always) -> int:
    """Do what every race's clock owes now (after a restart: a lobby that should have started,
    a race that should have ended) and set the timers of the others. How many it moved.
    `served_only`: only the races of the servers this process answers (its shards);
    `while_held`: asked before each move (the jobs lease of the background pass)."""
    moved = 0
    now = bot.clock().timestamp()
    for game in await race.running(bot.store):
        if game.id is None or (served_only and not bot.serves(game.guild_id)):
            continue
        if clock_move(game, now) is not None:
            if not while_held():
                break
            await tick(bot, game.id)
            moved += 1
        else:
            schedule(bot, game)
    if moved:
        log.info("the clock moved %d race(s) that were due", moved)
    return moved


JoinSeconds = app_commands.Range[int, JOIN_SECONDS[0], JOIN_SECONDS[1]]
RaceMinutes = app_commands.Range[int, RACE_MINUTES[0], RACE_MINUTES[1]]


record = counted_record(KIND, lambda raced, t: [drawn.record_field(raced, t=t)])
"""The race part of `/mastermind stats`: the player's race games in this server."""
LEADERBOARD = ranked(KIND, slash.pgettext("leaderboard", "race"), drawn.leaderboard)
"""`/mastermind leaderboard games:race`."""


# --- the inputs discord.py routes here by custom_id --------------------------------------------


DYNAMIC_ITEMS = (
    on_click(drawn.RACE_JOIN, join),
    on_click(drawn.RACE_START, start_now),
    on_click(drawn.RACE_BOARD, my_board),
    *private.inputs(BOARD),
)


class RaceInputs(ModeInputs):
    """Every input of a race: Join, Start, My board, each racer's private board and modal."""

    items = DYNAMIC_ITEMS
    modal = private.modal(BOARD)

    @app_commands.command(
        name=slash.pgettext("command", "race"),
        description=slash.gettext("Race each other: everyone cracks the same code privately."),
    )
    @shared_options("pegs", "colours", "guesses", "duplicates", "hard")
    @app_commands.rename(
        join_seconds=slash.pgettext("option", "join_seconds"),
        minutes=slash.pgettext("option", "minutes"),
    )
    @app_commands.describe(
        join_seconds=slash.gettext("Seconds to join before it starts itself (10-300, default 60)"),
        minutes=slash.gettext("Minutes the race lasts once the lobby closes (1-60, default 10)"),
    )
    async def race_command(
        self,
        interaction: Interaction,
        rules: Variant,
        hard: bool = False,
        join_seconds: JoinSeconds = JOIN_SECONDS[2],
        minutes: RaceMinutes = RACE_MINUTES[2],
    ) -> None:
        await start(interaction, rules, hard, join_seconds, minutes)


MODE = ModeSpec.of(
    RaceRecord(),
    RaceInputs,
    drawn,
    guess=guess_command,
    record=record,
    leaderboards=(LEADERBOARD,),
    timers=clock_pass,
    web=web.WEB,
)
"""The race mode, as the registry lists it."""
