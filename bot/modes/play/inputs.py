"""Every input of a play game: /mastermind play and guess, the Guess button, the private
picker (a select per peg and Submit) and the code modal for long codes.

Each handler reads who and where from the interaction, calls one action of `bot.modes.play`,
and draws with `bot.ui`. After a guess is stored, whatever fails, the player is told it
counted (`replies.committed`).
"""

from __future__ import annotations

from discord import app_commands

from bot.engine.codes import Code
from bot.engine.errors import BadChoice
from bot.engine.game import Status, Variant
from bot.interactions import boards, private, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Interaction, ModeSpec
from bot.interactions.items import on_choice, on_click
from bot.interactions.modals import ModalRoute
from bot.interactions.options import shared_options
from bot.interactions.replies import actor, guarded
from bot.modes.common.inputs import counted_record, ranked
from bot.modes.play import actions as play
from bot.modes.play import board, web
from bot.modes.play.record import PlayRecord
from bot.modes.play.rules import KIND, hint
from bot.ui import components, i18n, ids, text
from bot.ui.errors import Unpicked
from bot.ui.i18n import slash


@guarded
async def start(interaction: Interaction, variant: Variant, solo: bool, hard: bool = False) -> None:
    """`/mastermind play`: the board's message is posted first (as "thinking"), so the game and
    where its board is are stored in one transaction."""
    bot = interaction.client
    who = actor(interaction)
    await play.check_start(bot.store, who)
    message_id = await replies.public_placeholder(interaction)
    game = await play.start(bot.store, who, variant, solo, message_id, hard=hard)
    await replies.show_started(interaction, game)


async def guess_typed(interaction: Interaction, game_id: int, code: str) -> None:
    """`/mastermind guess` in a play game's channel: a visible line, then the board edited in
    place. (Called by the shared command, which turns failures into private replies.)"""
    source = actor(interaction).source
    await _guess_and_report(interaction, game_id, code, source, edit_picker=False)


@guarded
async def open_picker(interaction: Interaction, game_id: int) -> None:
    """The Guess button: a private picker (a select per peg), or a modal for long codes."""
    game = await play.may_guess(interaction.client.store, game_id, actor(interaction))
    space = game.variant.space
    t = i18n.person(interaction)
    if space.pegs > components.PICKER_MAX_PEGS:
        # The modal's id carries this click's id: submitting it twice is one guess.
        await interaction.response.send_modal(
            components.CodeModal(board.CODE_MODAL.id(game_id, interaction.id), space, t=t)
        )
        return
    chosen: list[int | None] = [None] * space.pegs
    picker = components.picker_text(space, chosen, t=t)
    view = board.picker_view(game_id, space, chosen, t=t)
    if await boards.redraw_clicked(interaction, game):  # where only clicks redraw the board
        await interaction.followup.send(picker, view=view, ephemeral=True)
        return
    await interaction.response.send_message(picker, view=view, ephemeral=True)


@guarded
async def pick_peg(interaction: Interaction, game_id: int, peg: int, values: list[str]) -> None:
    """Chooses one peg's colour in the private picker."""
    game = await play.may_guess(interaction.client.store, game_id, actor(interaction))
    space = game.variant.space
    if peg >= space.pegs:
        raise BadChoice()
    colour = private.colour_choice(space, values)
    chosen = components.picked_colours(interaction.message, game_id, space, route=board.PICK_PEG)
    chosen[peg] = colour
    t = i18n.person(interaction)
    await interaction.response.edit_message(
        content=components.picker_text(space, chosen, t=t),
        view=board.picker_view(game_id, space, chosen, t=t),
    )


@guarded
async def submit_pick(interaction: Interaction, game_id: int) -> None:
    """Sends the code picked in the private picker as a guess."""
    game = await play.may_guess(interaction.client.store, game_id, actor(interaction))
    space = game.variant.space
    chosen = components.picked_colours(interaction.message, game_id, space, route=board.PICK_PEG)
    missing = [i + 1 for i, c in enumerate(chosen) if c is None]
    if missing:
        raise Unpicked(missing)
    code = tuple(c for c in chosen if c is not None)
    # One picker message makes one guess, however often its Submit is clicked.
    message = interaction.message
    source = f"picker:{message.id}" if message is not None else f"i:{interaction.id}"
    await _guess_and_report(interaction, game_id, code, source, edit_picker=True)


@guarded
async def submit_modal(interaction: Interaction, game_id: int, nonce: int | None) -> None:
    await play.may_guess(interaction.client.store, game_id, actor(interaction))
    code = components.modal_value(interaction.data or {}, ids.CODE_FIELD)
    source = f"modal:{nonce}" if nonce is not None else f"i:{interaction.id}"
    await _guess_and_report(interaction, game_id, code or "", source, edit_picker=False)


async def _guess_and_report(
    interaction: Interaction, game_id: int, code: str | Code, source: str, edit_picker: bool
) -> None:
    """Store a guess, post its public line (closing the picker it came from, if any), edit the
    board, and add Knuth's count to the line on a win."""
    bot = interaction.client
    who = actor(interaction, source)
    applied = await play.guess(bot.store, game_id, who, code)
    game, outcome = applied.game, applied.outcome
    t = i18n.channel(interaction)
    line = text.guess_line(game.variant.space, outcome, who.user_id, t=t)
    async with replies.committed(interaction, "guess"):
        followup: int | None = None  # the line's message when it is a followup
        if edit_picker:
            sent = i18n.person(interaction).gettext("Guess sent. ✅")
            await interaction.response.edit_message(content=sent, view=None)
        if boards.by_interaction(game):  # the line comes with the board: its board of record
            posted = await boards.answer_with_board(interaction, game, line)
            followup = posted if edit_picker else None
        elif edit_picker:
            followup = (await interaction.followup.send(line, wait=True)).id
        else:
            await interaction.response.send_message(line)
        boards.in_step(interaction, applied)
        if outcome.status is Status.WON and outcome.secret is not None:
            needed = await play.knuth_guesses(bot.solver, game.variant, outcome.secret)
            if needed is not None:
                note = text.knuth_note(needed, t=t)
                if followup is not None:
                    await interaction.followup.edit_message(followup, content=line + note)
                else:
                    await interaction.edit_original_response(content=line + note)


record = counted_record(KIND, lambda played, t: board.record_fields(played, t=t))
"""The play part of `/mastermind stats`: the player's play games in this server."""
LEADERBOARD = ranked(KIND, slash.pgettext("leaderboard", "play"), board.leaderboard)
"""`/mastermind leaderboard games:play`."""


# --- the inputs discord.py routes here by custom_id --------------------------------------------


DYNAMIC_ITEMS = (
    on_click(board.GUESS, open_picker),
    on_choice(board.PICK_PEG, pick_peg),
    on_click(board.SUBMIT_PICK, submit_pick),
)


async def on_modal(interaction: Interaction, numbers: dict[str, int]) -> None:
    """A play game's code modal (`board.CODE_MODAL_PATTERN`), whenever it was opened."""
    await submit_modal(interaction, numbers["game"], numbers.get("nonce"))


class PlayInputs(ModeInputs):
    """Every input of a play game: the Guess button, the private picker and the code modal."""

    items = DYNAMIC_ITEMS
    modal = ModalRoute(board.CODE_MODAL_PATTERN, on_modal)

    @app_commands.command(
        # TRANSLATORS: names of commands and options: 1-32 lower-case letters, digits, - or _
        # (no spaces); Discord shows them instead of the English ones.
        name=slash.pgettext("command", "play"),
        description=slash.gettext("Start a game: I hide a code, you crack it."),
    )
    @shared_options("pegs", "colours", "guesses", "duplicates", "hard")
    @app_commands.rename(solo=slash.pgettext("option", "solo"))
    @app_commands.describe(
        solo=slash.gettext("Only you may guess (default: everyone in the channel)")
    )
    async def play_command(
        self,
        interaction: Interaction,
        rules: Variant,
        solo: bool = False,
        hard: bool = False,
    ) -> None:
        await start(interaction, rules, solo, hard)


MODE = ModeSpec.of(
    PlayRecord(),
    PlayInputs,
    board,
    guess=guess_typed,
    hint=hint,
    record=record,
    leaderboards=(LEADERBOARD,),
    web=web.WEB,
)
"""The play mode, as the registry lists it."""
