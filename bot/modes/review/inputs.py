"""The Review button of a finished game: its review, privately, for whoever clicks it.

The board it sits on may be any guessing mode's (`bot.modes.review.board.review_button`); the
click names only the game, and `bot.modes.review` decides who may see what: anyone in the
game's channel, a private game's own player, and nobody while the game runs.
"""

from __future__ import annotations

from bot.interactions import pictures, replies
from bot.interactions.cogs import ModeInputs
from bot.interactions.context import Feature, Interaction
from bot.interactions.items import on_click
from bot.interactions.replies import guarded
from bot.modes.review import actions as review
from bot.modes.review import board
from bot.modes.review.board import review_embed
from bot.ui import i18n


@guarded
async def open_review(interaction: Interaction, game_id: int) -> None:
    """Refuse privately before any work; else think privately while the workers review."""
    game, who = await replies.checked_privately(interaction, review.reviewable, game_id)
    bot = interaction.client
    reviewed = await review.review(bot.solver, game, who)
    t = i18n.person(interaction)
    embed = review_embed(game_id, game.variant.space, reviewed.rows, reviewed.summary, t=t)
    sent = await interaction.followup.send(embed=embed, ephemeral=True, wait=True)
    if bot.charts.enabled:  # its chart follows, once drawn
        await pictures.add(bot, board.review_picture(game_id, reviewed, t), embed, sent.edit)


DYNAMIC_ITEMS = (on_click(board.REVIEW, open_review),)


class ReviewInputs(ModeInputs):
    """The Review button, for every finished game where players guessed."""

    items = DYNAMIC_ITEMS


FEATURE = Feature(ReviewInputs, board.ERRORS)
"""The review, as the registry lists it."""
