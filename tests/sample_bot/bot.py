"""The sample bot: one `/sample` group covering replies, components, defers and modals."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

Script = Callable[[discord.Interaction], Awaitable[None]]


def slow_sum(n: int) -> int:
    """CPU work that must not block the event loop: the bot runs it in an executor."""
    return sum(i * i for i in range(n))


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"sample:count:(\d+)"):
    """A persistent button: the count lives in its custom_id, so it survives a restart."""

    def __init__(self, count: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {count}",
                style=discord.ButtonStyle.primary,
                custom_id=f"sample:count:{count}",
            )
        )
        self.count = count

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CounterButton:
        """Rebuild the button from a click on any message, even one sent before a restart."""
        return cls(int(match[1]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Edit the clicked message in place (response type 7)."""
        count = self.count + 1
        await interaction.response.edit_message(
            content=f"Count: {count}", view=PlayView(count), embeds=[]
        )


class ColourSelect(discord.ui.Select[Any]):
    """An ordinary (non-persistent) select; its answer edits the message."""

    def __init__(self) -> None:
        super().__init__(
            custom_id="sample:colour",
            placeholder="Pick a colour",
            options=[
                discord.SelectOption(label="Red", value="red"),
                discord.SelectOption(label="Green", value="green"),
                discord.SelectOption(label="Blue", value="blue"),
            ],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        """Say which colour was picked, keeping the components."""
        await interaction.response.edit_message(content=f"You picked {self.values[0]}")


class PlayView(discord.ui.View):
    """The reply to `/sample play`: a counter button and a colour select."""

    def __init__(self, count: int = 0) -> None:
        super().__init__(timeout=None)
        self.add_item(CounterButton(count))
        self.add_item(ColourSelect())


class RevealView(discord.ui.View):
    """An ephemeral reply's button; clicking it edits that ephemeral message."""

    @discord.ui.button(label="Reveal", custom_id="sample:reveal")
    async def reveal(
        self, interaction: discord.Interaction, button: discord.ui.Button[Any]
    ) -> None:
        """Replace the content and drop the button."""
        await interaction.response.edit_message(content="The secret is 42", view=None)


class GuessModal(discord.ui.Modal, title="Your guess"):
    """A modal with a classic text input row and a 2.7-style label-wrapped input."""

    guess: discord.ui.TextInput[Any] = discord.ui.TextInput(
        label="Guess", custom_id="sample:guess", min_length=4, max_length=4
    )
    note: discord.ui.Label[Any] = discord.ui.Label(
        text="Note",
        component=discord.ui.TextInput(custom_id="sample:note", required=False),
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Answer the submit with an ephemeral message quoting both fields."""
        note = self.note.component
        assert isinstance(note, discord.ui.TextInput)
        await interaction.response.send_message(
            f"Guess {self.guess.value} noted ({note.value or 'no note'})", ephemeral=True
        )


class SampleGroup(app_commands.Group):
    """`/sample ...`."""

    def __init__(self, bot: SampleBot) -> None:
        super().__init__(name="sample", description="Sample commands for the fake Discord")
        self.bot = bot

    @app_commands.command(description="Reply with a button and a select")
    async def play(
        self, interaction: discord.Interaction, pegs: app_commands.Range[int, 2, 8] = 4
    ) -> None:
        """A plain reply (type 4) with an embed and components."""
        embed = discord.Embed(title="Sample game", description=f"{pegs} pegs")
        await interaction.response.send_message(embed=embed, view=PlayView())

    @app_commands.command(description="Think in an executor, then follow up")
    async def think(self, interaction: discord.Interaction, n: int = 10_000) -> None:
        """Defer (type 5), work off the loop, then send a followup."""
        await interaction.response.defer(thinking=True)
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, slow_sum, n)
        await interaction.followup.send(f"sum of squares below {n} is {result}")

    @app_commands.command(description="Open a modal")
    async def ask(self, interaction: discord.Interaction) -> None:
        """Answer with a modal (type 9)."""
        await interaction.response.send_modal(GuessModal())

    @app_commands.command(description="An ephemeral reply with a button")
    async def secret(self, interaction: discord.Interaction) -> None:
        """Only the caller sees the reply."""
        await interaction.response.send_message("Shh.", view=RevealView(), ephemeral=True)

    @app_commands.command(description="Post to a channel, then edit and delete")
    async def post(self, interaction: discord.Interaction, text: str) -> None:
        """Channel message REST routes: send, edit, fetch, delete."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        channel = interaction.channel
        assert isinstance(channel, discord.TextChannel)
        message = await channel.send(text)
        await message.edit(content=text.upper())
        fetched = await channel.fetch_message(message.id)
        extra = await channel.send("temporary")
        await extra.delete()
        await interaction.edit_original_response(content=f"posted {fetched.content}")

    @app_commands.command(description="Pick a colour, with autocomplete")
    async def pick(self, interaction: discord.Interaction, colour: str) -> None:
        """Echo the choice; the interesting part is the autocomplete below (type 8)."""
        await interaction.response.send_message(f"You chose {colour}")

    @pick.autocomplete("colour")
    async def pick_colour(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Colours starting with what the user typed so far."""
        colours = ["red", "green", "blue", "yellow"]
        return [app_commands.Choice(name=c, value=c) for c in colours if c.startswith(current)]

    @app_commands.command(description="Run the test's script")
    async def script(self, interaction: discord.Interaction) -> None:
        """Whatever `bot.script` does: lets in-process tests make the bot break rules."""
        if self.bot.script is None:
            await interaction.response.send_message("no script")
            return
        await self.bot.script(interaction)


class SampleBot(commands.Bot):
    """Syncs its commands in setup_hook, so it is synced before it identifies."""

    def __init__(self) -> None:
        super().__init__(command_prefix=commands.when_mentioned, intents=discord.Intents.default())
        self.script: Script | None = None

    async def setup_hook(self) -> None:
        """Register the persistent button and the command group, then sync globally."""
        self.add_dynamic_items(CounterButton)
        self.tree.add_command(SampleGroup(self))
        await self.tree.sync()
