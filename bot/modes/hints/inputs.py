"""The Hint button of a play board: privately, the codes still possible, then a code to guess.

Each press is stored once (a HINT move with this interaction as its source), so the game
counts its hints; the hint is worked out before that (`bot.modes.hints`), so a failure stores
nothing. The board then notes the hints used.
"""

from __future__ import annotations

from bot.engine.actor import Actor
from bot.interactions import boards, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Feature, Interaction
from bot.interactions.items import on_click
from bot.interactions.replies import guarded
from bot.modes.common.actions import running_here
from bot.modes.common.rules import SecretGame
from bot.modes.hints import actions as hints
from bot.modes.hints import board
from bot.store import Store
from bot.ui import i18n


@guarded
async def give_hint(interaction: Interaction, game_id: int) -> None:
    """Refuse privately before any work; else think privately while the solver works."""
    bot = interaction.client

    async def offered(store: Store, game_id: int, who: Actor) -> SecretGame:
        game = await running_here(store, game_id, who)
        return hints.check(game, who, bot.kind_of(game).hint)

    game, who = await replies.checked_privately(interaction, offered, game_id)
    rule = bot.kind_of(game).hint
    assert rule is not None  # `offered` refused a game without hints
    given = await hints.hint(bot.store, bot.solver, game, who, rule)
    t = i18n.person(interaction)
    space = given.game.variant.space
    said = board.hint_text(given.hint, given.level, given.hints, space, given.game.hard, t=t)
    async with replies.committed(interaction, "hint"):
        await interaction.followup.send(said, ephemeral=True)
        boards.in_step(interaction, given.applied)


DYNAMIC_ITEMS = (on_click(board.HINT, give_hint),)


class HintInputs(ModeInputs):
    """The Hint button, for every mode that declares its hint rule (`ModeSpec.hint`)."""

    items = DYNAMIC_ITEMS


FEATURE = Feature(HintInputs, board.ERRORS)
"""Hints, as the registry lists them."""
