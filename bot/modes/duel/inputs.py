"""Every input of a duel: /mastermind duel, the private picker (or modal) that sets the player's
secret, the Guess button with its private picker (or modal), and `/mastermind guess`.

Each handler reads who and where from the interaction, checks it against the duel before any
work (`bot.modes.duel.actions.mine`: this server, this channel, its player, the board's turn),
calls one action and draws with the duel's board. Giving up and the review are the shared ones.
"""

from __future__ import annotations

import contextlib

import discord
from discord import app_commands

from bot.engine.codes import Code
from bot.engine.errors import BadChoice
from bot.engine.game import Variant
from bot.engine.strategies import DEFAULT_STRATEGY
from bot.interactions import boards, private, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Host, Interaction, LeaderboardSpec, ModeSpec
from bot.interactions.items import on_choice, on_click
from bot.interactions.modals import ModalRoute
from bot.interactions.options import (
    STRATEGY_CHOICES,
    shared_options,
)
from bot.interactions.replies import actor, guarded
from bot.modes.duel import actions as duel
from bot.modes.duel import board
from bot.modes.duel.actions import Setup
from bot.modes.duel.record import DuelRecord
from bot.modes.duel.rules import check_guess, hint
from bot.ui import components, i18n, ids
from bot.ui.boards import Field
from bot.ui.errors import Unpicked
from bot.ui.i18n import Messages, slash

# --- setting the secret --------------------------------------------------------------------


@guarded
async def start(interaction: Interaction, setup: Setup) -> None:
    """`/mastermind duel`: refuse before anything is shown, then the private picker of the
    player's secret (a modal for long codes). No game exists until the secret is set."""
    await duel.check_start(interaction.client.store, actor(interaction), setup)
    t = i18n.person(interaction)
    if board.uses_modal(setup.variant.space):
        await interaction.response.send_modal(board.secret_modal(setup, interaction.id, t=t))
        return
    content, view = board.secret_picker(setup, [None] * setup.variant.pegs, t=t)
    await interaction.response.send_message(content, view=view, ephemeral=True)


@guarded
async def pick_secret_peg(
    interaction: Interaction, number: int, peg: int, values: list[str]
) -> None:
    """One peg's colour chosen in the secret's private picker."""
    setup = board.setup_of(number)
    space = setup.variant.space
    if peg >= space.pegs:
        raise BadChoice()
    chosen = components.picked_colours(interaction.message, number, space, route=board.SECRET_PEG)
    chosen[peg] = private.colour_choice(space, values)
    content, view = board.secret_picker(setup, chosen, t=i18n.person(interaction))
    await interaction.response.edit_message(content=content, view=view)


@guarded
async def send_secret(interaction: Interaction, number: int) -> None:
    """Set secret: the duel begins on the picked code."""
    setup = board.setup_of(number)
    space = setup.variant.space
    chosen = components.picked_colours(interaction.message, number, space, route=board.SECRET_PEG)
    if missing := [i + 1 for i, c in enumerate(chosen) if c is None]:
        raise Unpicked(missing)
    await _begin(interaction, setup, tuple(c for c in chosen if c is not None), from_picker=True)


@guarded
async def secret_typed(interaction: Interaction, number: int) -> None:
    """The secret's modal: the duel begins on the typed code."""
    code = components.modal_value(interaction.data or {}, ids.CODE_FIELD) or ""
    await _begin(interaction, board.setup_of(number), code, from_picker=False)


async def _begin(
    interaction: Interaction, setup: Setup, secret: Code | str, *, from_picker: bool
) -> None:
    """Check the secret and the channel privately, then post the board's placeholder, store
    the duel with it and draw it there."""
    bot = interaction.client
    who = actor(interaction)
    duel.check_secret(setup, secret)
    await duel.check_start(bot.store, who, setup)
    t = i18n.channel(interaction)
    if from_picker:
        done = i18n.person(interaction).gettext("🔒 Your secret is set. The duel begins!")
        await interaction.response.edit_message(content=done, view=None)
        placeholder = await interaction.followup.send(board.starting(t), wait=True)
        message_id = placeholder.id
    else:
        message_id = await replies.public_placeholder(interaction)
    try:
        game = await duel.start(bot.store, who, setup, secret, message_id)
    except Exception:
        if from_picker:  # the public placeholder must not stay
            with contextlib.suppress(discord.HTTPException):
                await interaction.followup.delete_message(message_id)
        raise
    replies.answered_publicly(interaction)
    drawn = board.draw(game, None, None, t)
    assert game.id is not None

    async def show() -> None:
        await interaction.followup.edit_message(
            message_id, content=drawn.content, embed=drawn.embed, view=drawn.view
        )

    async with replies.committed(interaction, "game"):
        await bot.boards.show(game.id, game.version, show)


# --- guessing ------------------------------------------------------------------------------


@guarded
async def open_picker(interaction: Interaction, game_id: int, version: int) -> None:
    """Guess: the private picker of the player's next guess (a modal for long codes), for the
    turn the board showed."""
    game = await duel.mine(interaction.client.store, game_id, actor(interaction), version)
    check_guess(game, game.starter_id, game.variant.space.code_at(0))  # turn, game over
    t = i18n.person(interaction)
    if board.uses_modal(game.variant.space):
        await interaction.response.send_modal(board.guess_modal(game, interaction.id, t=t))
        return
    content, view = board.guess_picker(game, [None] * game.variant.pegs, t=t)
    if await boards.redraw_clicked(interaction, game):  # where only clicks redraw the board
        await interaction.followup.send(content, view=view, ephemeral=True)
        return
    await interaction.response.send_message(content, view=view, ephemeral=True)


@guarded
async def pick_guess_peg(
    interaction: Interaction, game_id: int, version: int, peg: int, values: list[str]
) -> None:
    """One peg's colour chosen in the guess's private picker."""
    game = await duel.mine(interaction.client.store, game_id, actor(interaction), version)
    space = game.variant.space
    if peg >= space.pegs:
        raise BadChoice()
    chosen = components.picked_colours(
        interaction.message, (game_id, version), space, route=board.GUESS_PEG
    )
    chosen[peg] = private.colour_choice(space, values)
    content, view = board.guess_picker(game, chosen, t=i18n.person(interaction))
    await interaction.response.edit_message(content=content, view=view)


@guarded
async def send_guess(interaction: Interaction, game_id: int, version: int) -> None:
    """Submit guess: the picked code, for the turn the picker was opened on."""
    game = await duel.mine(interaction.client.store, game_id, actor(interaction), version)
    space = game.variant.space
    chosen = components.picked_colours(
        interaction.message, (game_id, version), space, route=board.GUESS_PEG
    )
    if missing := [i + 1 for i, c in enumerate(chosen) if c is None]:
        raise Unpicked(missing)
    code = tuple(c for c in chosen if c is not None)
    message = interaction.message
    source = f"picker:{message.id}" if message is not None else f"i:{interaction.id}"
    await _round(interaction, game_id, code, source, version, from_picker=True)


@guarded
async def guess_typed_in_modal(
    interaction: Interaction, game_id: int, version: int, nonce: int
) -> None:
    code = components.modal_value(interaction.data or {}, ids.CODE_FIELD) or ""
    await _round(interaction, game_id, code, f"modal:{nonce}", version, from_picker=False)


async def guess_typed(interaction: Interaction, game_id: int, code: str) -> None:
    """`/mastermind guess` in a duel's channel. (Called by the shared command, which turns
    failures into private replies.)"""
    await _round(interaction, game_id, code, actor(interaction).source, None, from_picker=False)


async def _round(
    interaction: Interaction,
    game_id: int,
    code: Code | str,
    source: str,
    version: int | None,
    *,
    from_picker: bool,
) -> None:
    """Check the guess privately, answer at once (the solver may take a moment), store the
    player's guess with the bot's reply, then the round's line and the board."""
    bot = interaction.client
    who = actor(interaction, source)
    game = await duel.mine(bot.store, game_id, who, version)
    check_guess(game, who.user_id, code)
    if from_picker:
        sent = i18n.person(interaction).gettext("Guess sent. ✅")
        await interaction.response.edit_message(content=sent, view=None)
    elif not interaction.response.is_done():
        await replies.public_placeholder(interaction)
    played = await duel.guess(bot.store, bot.solver, game_id, who, code, version)
    new = played.game
    t = i18n.channel(interaction)
    line = board.round_line(new, t)
    if not played.exact:
        line = f"{line}\n{board.approximate_note(t)}"
    replies.answered_publicly(interaction)
    async with replies.committed(interaction, "guess"):
        if boards.by_interaction(new):  # the line comes with the board: its board of record
            await boards.answer_with_board(interaction, new, line)
            return
        if from_picker:
            await interaction.followup.send(line)
        else:
            await interaction.edit_original_response(content=line)
        boards.in_step(interaction, played.applied)


async def on_modal(interaction: Interaction, numbers: dict[str, int]) -> None:
    """A duel's modal (`board.MODALS`), whenever it was opened: the secret's or a guess's."""
    if "setup" in numbers:
        await secret_typed(interaction, numbers["setup"])
        return
    await guess_typed_in_modal(interaction, numbers["game"], numbers["version"], numbers["nonce2"])


# --- records -------------------------------------------------------------------------------


async def record(bot: Host, guild_id: int | None, user_id: int, t: Messages) -> list[Field]:
    """The duel part of `/mastermind stats`."""
    return board.record_fields(await duel.record(bot.store, guild_id, user_id), t=t)


BOARD_CHOICES = {
    "knuth": slash.pgettext("leaderboard", "duel: Knuth minimax"),
    duel.EASY: slash.pgettext("leaderboard", "duel: easy"),
    "optimal": slash.pgettext("leaderboard", "duel: Optimal average"),
    "expected-size": slash.pgettext("leaderboard", "duel: Irving expected size"),
    "entropy": slash.pgettext("leaderboard", "duel: Neuwirth entropy"),
    "most-parts": slash.pgettext("leaderboard", "duel: Kooi most parts"),
    "two-colour-random": slash.pgettext("leaderboard", "duel: Two-colour minimax"),
}
"""Each opponent's leaderboard as `/mastermind leaderboard games:` offers it."""


def leaderboard(opponent: str) -> LeaderboardSpec:
    """`/mastermind leaderboard games:duel-<opponent>`: the server's most duel wins against
    that opponent alone."""
    drawn = board.leaderboard(opponent)

    async def show(bot: Host, guild_id: int, t: Messages) -> discord.Embed:
        return drawn(await duel.leaders(bot.store, guild_id, opponent), t=t)

    return LeaderboardSpec(BOARD_CHOICES[opponent], show, name=opponent)


# --- the inputs discord.py routes here by custom_id ----------------------------------------

DYNAMIC_ITEMS = (
    on_choice(board.SECRET_PEG, pick_secret_peg),
    on_click(board.SECRET_SEND, send_secret),
    on_click(board.GUESS, open_picker),
    on_choice(board.GUESS_PEG, pick_guess_peg),
    on_click(board.GUESS_SEND, send_guess),
)

OPPONENT_CHOICES = [
    app_commands.Choice(name=slash.pgettext("opponent", "easy"), value=duel.EASY),
    *(choice for choice in STRATEGY_CHOICES if choice.value != duel.EASY),
]
"""The bot's strategies as opponents: `easy` (a random code still possible) first."""


class DuelInputs(ModeInputs):
    """Every input of a duel: the secret's picker, the Guess button and picker, the modals."""

    items = DYNAMIC_ITEMS
    modal = ModalRoute(board.MODALS, on_modal)

    @app_commands.command(
        name=slash.pgettext("command", "duel"),
        description=slash.gettext("You and the bot each hide a code: crack mine first."),
    )
    @shared_options("pegs", "colours", "guesses", "duplicates", "hard")
    @app_commands.rename(opponent=slash.pgettext("option", "opponent"))
    @app_commands.describe(opponent=slash.gettext("How the bot guesses your code (default Knuth)"))
    @app_commands.choices(opponent=OPPONENT_CHOICES)
    async def duel_command(
        self,
        interaction: Interaction,
        rules: Variant,
        opponent: str = DEFAULT_STRATEGY,
        hard: bool = False,
    ) -> None:
        await start(interaction, Setup(rules, opponent, hard))


MODE = ModeSpec.of(
    DuelRecord(),
    DuelInputs,
    board,
    guess=guess_typed,
    hint=hint,
    record=record,
    leaderboards=tuple(leaderboard(opponent) for opponent in duel.OPPONENTS),
)
"""The duel, as the registry lists it."""
