"""The shape shared by every button and select: a discord.py dynamic item for one id route.

discord.py matches a click's custom_id against each registered template, so a click on a
message posted before a restart still arrives; the handler then reads everything from the store.
Most inputs only hand the click to a handler: `on_click(route, handler)` declares one (a select's
chosen values with `on_choice`); a subclass names its route and says what a click does in `act`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Self

import discord

from bot.interactions import boards, replies
from bot.interactions.context import Interaction
from bot.ui.ids import Route


class Input(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"mm:never"):
    """A component input: `class X(Input, route=play_board.GUESS): async def act(...)`."""

    route: ClassVar[Route]

    def __init_subclass__(cls, *, route: Route | None = None, **kwargs: Any) -> None:
        if route is None:  # an abstract intermediate: keep the parent's template
            super().__init_subclass__(template=cls.__discord_ui_compiled_template__)
            return
        super().__init_subclass__(template=route.template)
        cls.route = route

    def __init__(self, item: discord.ui.Item[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.match = match
        self.fields: dict[str, int] = {}
        """The custom_id's numbers, read (and a forged one refused) when the click is answered."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(item, match)

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        fields = await replies.numbers_or_refuse(interaction, self.match, dict(self.route.fields))
        if fields is None:
            return
        self.fields = fields
        values = list(getattr(self.item, "values", []) or [])
        await self.act(interaction, values)
        game_id = self.fields.get("game")
        if game_id is not None:  # whatever the answer was, a board left behind catches up
            await boards.catch_up(interaction, game_id)

    async def act(self, interaction: Interaction, values: list[str]) -> None:
        raise NotImplementedError


Handler = Callable[..., Awaitable[None]]
"""What a click calls: `(interaction, *bound, *the route's fields in order)`, and for a select
its chosen values last."""


def on_click(route: Route, handler: Handler, *bound: object) -> type[Input]:
    """The input of a button on `route`: a click calls `handler(interaction, *bound, *fields)`
    with the custom_id's fields in the route's order."""
    return _handing(route, handler, bound, chosen=False)


def on_choice(route: Route, handler: Handler, *bound: object) -> type[Input]:
    """The input of a select on `route`, like `on_click` with the chosen values last."""
    return _handing(route, handler, bound, chosen=True)


def _handing(
    route: Route, handler: Handler, bound: tuple[object, ...], chosen: bool
) -> type[Input]:
    class Handing(Input, route=route):
        async def act(self, interaction: Interaction, values: list[str]) -> None:
            await handler(interaction, *bound, *self.fields.values(), *([values] if chosen else []))

    Handing.__name__ = Handing.__qualname__ = f"Input[{route.prefix}]"
    Handing.__doc__ = handler.__doc__
    return Handing
