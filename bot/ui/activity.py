"""The Open board button: it opens the channel's game on the bot's Activity (docs/activity.md),
the graphical board inside Discord, where the same game is played.

Only its look and custom_id live here; the click is answered by the shared inputs (it launches
the Activity), and the boards of the modes that have an Activity view carry it only when the
Activity is configured (`bot.interactions.boards.offer_activity`).
"""

from __future__ import annotations

from typing import Any

import discord

from bot.ui import components
from bot.ui.i18n import Messages
from bot.ui.ids import ID, Route

OPEN_BOARD = Route("open", (("game", ID),))


def open_board_button(game_id: int, *, t: Messages) -> discord.ui.Button[Any]:
    """The button that launches the Activity for the game of this board's channel."""
    return components.button(
        OPEN_BOARD.id(game_id),
        t.pgettext("button", "Open board"),
        emoji="🖥️",
        style=discord.ButtonStyle.primary,
    )


def offer(view: discord.ui.View, game_id: int, *, t: Messages) -> None:
    """Add the button at the end of a board's view: in its last row if that row holds buttons
    with room for one more, else in a row of its own. Discord allows five rows of five; a board
    whose rows are all taken keeps them and goes without it."""
    rows = view.to_components()
    button = open_board_button(game_id, t=t)
    last = rows[-1]["components"] if rows else []
    if rows and len(last) < components.BUTTONS_PER_ROW and all(c["type"] == 2 for c in last):
        button.row = len(rows) - 1
    elif len(rows) < components.MAX_ROWS:
        button.row = len(rows)
    else:
        return
    view.add_item(button)
