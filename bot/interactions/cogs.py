"""The cog every mode's inputs are: its buttons and selects registered while it is loaded, and
its code modal (if it has one) routed to it by custom_id."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.engine.errors import NotHere
from bot.interactions import boards, replies
from bot.interactions.context import Host, Interaction
from bot.interactions.items import Input
from bot.interactions.modals import ModalRoute, submitted_to

log = logging.getLogger(__name__)


def adopt_commands(
    tree: app_commands.CommandTree[Any], group: app_commands.Group, cog: commands.Cog
) -> None:
    """Move a loaded cog's slash commands under `group`. discord.py gives a group to one cog;
    the modes share /mastermind, so each mode's cog hands its commands to it once loaded."""
    for command in cog.get_app_commands():
        tree.remove_command(command.name)
        group.add_command(command)


def offer_choices(
    group: app_commands.Group,
    command: str,
    option: str,
    choices: Iterable[app_commands.Choice[str | int | float]],
) -> None:
    """Give `/<group> <command>`'s `option` its choices, known only once the modes are listed
    (the registry's), before the command is added or synced. discord.py reads choices from a
    decorator at class definition; its parameter object is where they live after that."""
    found = group.get_command(command)
    assert isinstance(found, app_commands.Command), command  # the group's own command
    found._params[option].choices = list(choices)


class ModeInputs(commands.Cog):
    """A mode's inputs: `items` are its persistent buttons and selects; `modal` is its code
    modal's route and handler (the game's board catches up after it, here)."""

    items: ClassVar[tuple[type[Input], ...]] = ()
    modal: ClassVar[ModalRoute | None] = None

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*self.items)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*self.items)

    async def answer_modal(self, interaction: Interaction, match: re.Match[str]) -> None:
        """Answer a submit of this mode's code modal (`route_inputs` found it is one)."""
        assert self.modal is not None
        numbers = await replies.numbers_or_refuse(interaction, match)
        if numbers is None:
            return
        await self.modal.handler(interaction, numbers)
        if "game" in numbers:  # as after a click (`Input.callback`): a board left behind
            await boards.catch_up(interaction, numbers["game"])


async def route_inputs(interaction: Interaction, cogs: Iterable[object]) -> None:
    """The bot's one listener of every interaction (discord.py starts a task per listener and
    event, so one listener, not one per mode): a code modal goes to the mode whose route it is
    on; a button, select or modal whose custom_id no mode's route takes (forged, or from a
    message of a bot version with other routes) is refused privately, as a missing game is:
    else nobody answers it, and Discord shows "This interaction failed"."""
    inputs = [cog for cog in cogs if isinstance(cog, ModeInputs)]
    if interaction.type is discord.InteractionType.modal_submit:
        for cog in inputs:
            if cog.modal and (match := submitted_to(interaction, cog.modal.pattern)):
                await cog.answer_modal(interaction, match)
                return
    elif interaction.type is discord.InteractionType.component:
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        items = (item for cog in inputs for item in cog.items)
        if any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items):
            return
    else:
        return
    log.info("interaction %s names an input no route takes", interaction.id)
    await replies.reply_error(interaction, NotHere())
