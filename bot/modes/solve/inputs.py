"""Every input of a solve game: /mastermind solve, the answer buttons and selects, Undo and
Give up. The solver works before anything is stored (`bot.modes.solve`); the board is drawn
through the interaction that changed it, never over a newer one."""

from __future__ import annotations

from discord import app_commands

from bot.engine.errors import BadChoice
from bot.engine.game import Variant, require
from bot.engine.strategies import DEFAULT_STRATEGY
from bot.interactions import boards, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Host, Interaction, ModeSpec
from bot.interactions.items import Input, on_click
from bot.interactions.options import shared_options
from bot.interactions.replies import actor, guarded
from bot.modes.common import actions as common
from bot.modes.solve import actions as solve
from bot.modes.solve import board, web
from bot.modes.solve.record import SolveRecord
from bot.modes.solve.rules import KIND, SolveGame
from bot.ui import i18n
from bot.ui.boards import Field
from bot.ui.i18n import Messages, slash


@guarded
async def start(interaction: Interaction, variant: Variant, strategy: str) -> None:
    """`/mastermind solve`: refuse before any work, post the placeholder, ask the solver for
    the opening, then store the game and its board's place together."""
    bot = interaction.client
    who = actor(interaction)
    await solve.check_start(bot.store, who, variant, strategy)
    message_id = await replies.public_placeholder(interaction)
    move = await solve.opening(bot.solver, variant, strategy, interaction.id & 0xFFFF)
    game = await solve.start(bot.store, who, variant, strategy, tuple(move.guess), message_id)
    replies.answered_publicly(interaction)
    async with replies.committed(interaction, "game"):
        await _show(interaction, solve.SolveStep(game, move.remaining, exact=move.exact))


def parse_answer(value: str) -> tuple[int, int]:
    """An answer select's value, `black:white`, refused unless it is two small numbers."""
    black, _, white = value.partition(":")
    if not (black.isdecimal() and white.isdecimal() and len(black) == len(white) == 1):
        raise BadChoice()
    return int(black), int(white)


@guarded
async def answer(
    interaction: Interaction, game_id: int, version: int, black: int, white: int
) -> None:
    """The player's pegs for the bot's guess (an answer button)."""
    await _answer(interaction, game_id, version, black, white)


@guarded
async def answer_from_select(
    interaction: Interaction, game_id: int, version: int, values: list[str]
) -> None:
    """An answer picked from a select (variants with too many answers for buttons)."""
    if len(values) != 1:
        raise BadChoice()
    black, white = parse_answer(values[0])
    await _answer(interaction, game_id, version, black, white)


async def _answer(
    interaction: Interaction, game_id: int, version: int, black: int, white: int
) -> None:
    bot = interaction.client
    who = actor(interaction)
    game = await solve.owned(bot.store, game_id, version, who)
    solve.check_answer(game, who, black, white)
    if black != game.variant.pegs:
        await interaction.response.defer()  # the solver may take a moment
    step = await solve.answer(bot.store, bot.solver, game, who, black, white)
    async with replies.committed(interaction, "answer"):
        await _show(interaction, step)


@guarded
async def undo(interaction: Interaction, game_id: int, version: int) -> None:
    """Undo: takes back the last answer."""
    bot = interaction.client
    who = actor(interaction)
    game = await solve.owned(bot.store, game_id, version, who)
    solve.check_undo(game, who)  # "nothing to undo" before any work
    await interaction.response.defer()
    step = await solve.undo(bot.store, bot.solver, game, who)
    async with replies.committed(interaction, "undo"):
        await _show(interaction, step)


@guarded
async def stop(interaction: Interaction, game_id: int) -> None:
    """Stop: ends a solve game (the starter or a moderator)."""
    bot = interaction.client
    applied = await common.give_up(bot.store, game_id, actor(interaction))
    game = require(applied.game, SolveGame, solve.not_a_solve_game)
    async with replies.committed(interaction, "end"):
        await _show(interaction, solve.SolveStep(game, None, board=applied.board))


async def _show(interaction: Interaction, step: solve.SolveStep) -> None:
    """Draw a solve board through the interaction that changed it (never over a newer one)."""
    t = i18n.channel(interaction)
    note = board.solve_note(step.game, step.no_code_left is not None, step.undone, t)
    if not step.exact:
        note = "\n".join(filter(None, [note, board.approximate_note(t)]))
    drawn = board.draw(step.game, step.remaining, note, t)
    boards.offer_activity(interaction.client, step.game, drawn.view, t)

    async def draw() -> None:
        if interaction.response.is_done():
            await interaction.edit_original_response(
                content=drawn.content, embed=drawn.embed, view=drawn.view
            )
        else:
            await interaction.response.edit_message(
                content=drawn.content, embed=drawn.embed, view=drawn.view
            )

    assert step.game.id is not None
    message_id = interaction.message.id if interaction.message is not None else None
    drew = await interaction.client.boards.show(
        step.game.id, step.game.version, draw, message_id, board=step.board
    )
    if step.board is not None:  # after this interaction's own move: nothing older is left
        boards.in_step(interaction)
    if not drew and not interaction.response.is_done():
        await interaction.response.defer()


async def record(bot: Host, guild_id: int | None, user_id: int, t: Messages) -> list[Field]:
    """The solve part of `/mastermind stats`: the codes the player held for the bot."""
    return [board.record_field(await bot.store.player_stats(guild_id, user_id, KIND), t=t)]


# --- the inputs discord.py routes here by custom_id --------------------------------------------


class AnswerSelect(Input, route=board.ANSWER_SELECT):
    """For many pegs: the possible answers split over two selects; choosing one answers."""

    async def act(self, interaction: Interaction, values: list[str]) -> None:
        await answer_from_select(interaction, self.fields["game"], self.fields["version"], values)


DYNAMIC_ITEMS = (
    on_click(board.ANSWER, answer),
    AnswerSelect,
    on_click(board.UNDO, undo),
    on_click(board.STOP_SOLVE, stop),
)


class SolveInputs(ModeInputs):
    """Every input of a solve game: the answer buttons and selects, Undo and Stop."""

    items = DYNAMIC_ITEMS

    @app_commands.command(
        name=slash.pgettext("command", "solve"),
        description=slash.gettext("Think of a code and I will crack it."),
    )
    @shared_options(
        "pegs",
        "colours",
        "duplicates",
        "strategy",
        pegs=slash.gettext("Pegs in your code (2-8, default 4)"),
        colours=slash.gettext("Colours you may use (2-10, default 6)"),
        strategy=slash.gettext("How I pick my guesses (default Knuth minimax)"),
    )
    async def solve_command(
        self,
        interaction: Interaction,
        rules: Variant,
        strategy: str = DEFAULT_STRATEGY,
    ) -> None:
        await start(interaction, rules, strategy)


MODE = ModeSpec.of(
    SolveRecord(), SolveInputs, board, count=solve.remaining, record=record, web=web.WEB
)
"""The solve mode, as the registry lists it."""
