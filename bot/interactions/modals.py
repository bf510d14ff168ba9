"""Code modals, routed by custom_id to the mode that opened them.

discord.py dispatches a modal submission only to a modal object it still holds, so after a
restart every submission would be dropped. Each mode's cog listens for submissions and takes the
ones whose custom_id matches its route (`ModalRoute`); the handler then checks the submission
against the stored game like any other input.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.interactions.context import Interaction

ModalHandler = Callable[[Interaction, dict[str, int]], Awaitable[None]]
"""What a submitted modal calls: the interaction and its custom_id's numbers by name."""


@dataclass(frozen=True)
class ModalRoute:
    """A mode's code modal: the custom_ids it takes, and what a submission calls."""

    pattern: re.Pattern[str]
    handler: ModalHandler


def submitted_to(interaction: Interaction, pattern: re.Pattern[str]) -> re.Match[str] | None:
    """The route's match when `interaction` submits a modal whose custom_id is on it."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: dict[str, Any] = dict(interaction.data or {})
    return pattern.fullmatch(str(data.get("custom_id", "")))
