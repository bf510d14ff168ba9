"""What one interaction's handling has done so far, typed: read by the steps that come after
(the catch-up read after a click, the error reply after a public "thinking" answer).

It lives on the interaction (discord.py's `extras`, under one key), so it goes with the
interaction and nothing keeps it longer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

_KEY = "mastermind"


@dataclass
class Handling:
    """The answer's progress, as the later steps of the same interaction need it."""

    board_in_step: bool = False
    """It left no board behind: its move's board is redrawn by the board keeper, it drew its
    own board, or its game has no board the bot keeps (a private one). No catch-up read."""
    public_placeholder: bool = False
    """It answered with a public "thinking" message meant to become a board or a result."""
    placeholder_filled: bool = False
    """That message now holds what it was for: an error goes elsewhere from here."""


def of(interaction: discord.Interaction[Any]) -> Handling:
    """This interaction's handling (made on first use)."""
    found = interaction.extras.get(_KEY)
    if not isinstance(found, Handling):
        found = interaction.extras[_KEY] = Handling()
    return found
