"""Buttons, selects and the code modal as the player sees them: look and custom_id, nothing more.

What a click does lives with the inputs in `bot.cogs` (discord.py dynamic items matching the same
`bot.ui.ids` routes), so this module never calls up into the layers above. The views built here
are only rendered: discord.py need not keep them, and a click after a restart is found by its
custom_id alone.

Labels are in the language `t` of whoever sees the component: the server's on a board, the
player's on a private picker or modal.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.engine.codes import CodeSpace
from bot.ui import ids, words
from bot.ui.i18n import Messages

BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25
PICKER_MAX_PEGS = MAX_ROWS - 1  # one select per peg plus the Submit row


class RenderedView(discord.ui.View):
    """A view sent for its look only: the cogs' dynamic items answer its clicks, so discord.py
    keeps no copy of it (a board a day would otherwise pile up in memory for ever)."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def is_dispatchable(self) -> bool:
        return False

    def is_finished(self) -> bool:
        """Always: discord.py stores any unfinished view sent in an ephemeral answer, dispatchable
        or not, with a 15-minute timeout task holding it (every private picker, board and
        confirmation, kept alive for a quarter of an hour, and walked by every collection)."""
        return True


def view_of(*items: discord.ui.Item[Any]) -> RenderedView:
    """A rendered view holding `items`, in order."""
    view = RenderedView()
    for item in items:
        view.add_item(item)
    return view


def button(
    route_id: str,
    label: str,
    *,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, emoji=emoji, style=style, custom_id=route_id)


# --- play -------------------------------------------------------------------------------------


def peg_select(
    custom_id: str, peg: int, space: CodeSpace, chosen: int | None, *, t: Messages
) -> discord.ui.Select[Any]:
    """One peg's colour (`custom_id`: its mode's route for this game and peg). The choice is
    kept as the option's default in the message itself."""
    options = [
        discord.SelectOption(
            label=f"{c.letter} {words.colour_name(t, n)}",
            value=str(n),
            emoji=_emoji(c.emoji),
            default=n == chosen,
        )
        for n, c in enumerate(space.palette)
    ]
    return discord.ui.Select(
        placeholder=t.gettext("Peg {number}", number=peg + 1),
        options=options,
        custom_id=custom_id,
    )


@functools.lru_cache(maxsize=64)
def _emoji(text: str) -> discord.PartialEmoji:
    """A colour's emoji, parsed once: discord.py parses an emoji given as text on every option,
    and a picker has one option per colour and peg, rebuilt on every pick."""
    return discord.PartialEmoji.from_str(text)


PickerKey = int | Sequence[int]
"""What a picker's peg menus carry before their peg: the route's fields other than `peg`, in
order (a game id, or a game and the version it was opened on, or anything else a mode picks
with); one number alone may be given bare."""


def _keys(key: PickerKey) -> tuple[int, ...]:
    return (key,) if isinstance(key, int) else tuple(key)


def add_picker(
    view: discord.ui.View,
    pick: ids.Route,
    key: PickerKey,
    space: CodeSpace,
    chosen: list[int | None],
    send_id: str,
    *,
    t: Messages,
    submit: str | None = None,
) -> None:
    """A select per peg (`pick`: the route of the peg menus, `key` its fields before the peg)
    and the Submit button (`send_id`; `submit`: its label, "Submit guess" unless given)."""
    keys = _keys(key)
    for peg in range(space.pegs):
        view.add_item(peg_select(pick.id(*keys, peg), peg, space, chosen[peg], t=t))
    label = submit or t.gettext("Submit guess")
    view.add_item(button(send_id, label, emoji="✅", style=discord.ButtonStyle.success))


def type_code_button(custom_id: str, *, t: Messages) -> discord.ui.Button[Any]:
    """Type a code: the code modal, for long codes and for those who would rather type."""
    return button(custom_id, t.gettext("Type a code"), emoji="⌨️")


def picker_text(space: CodeSpace, chosen: list[int | None], *, t: Messages) -> str:
    """The line above a picker: the guess picked so far (or, for codes too long for menus,
    the way to type one)."""
    if space.pegs > PICKER_MAX_PEGS:
        return t.gettext("Press **Type a code** to guess.")
    shown = "".join("❔" if c is None else space.palette[c].emoji for c in chosen)
    return t.gettext("Pick a colour for each peg, then submit. Your guess: {shown}", shown=shown)


def picked_colours(
    message: discord.Message | None,
    key: PickerKey,
    space: CodeSpace,
    *,
    route: ids.Route,
) -> list[int | None]:
    """Read a picker's current choices back from the message's peg menus (`route`, `key` as
    `add_picker` drew them): their defaults. A menu with another key, or anything that is
    not a colour of this game, counts as not chosen."""
    chosen: list[int | None] = [None] * space.pegs
    if message is None:
        return chosen
    keys = _keys(key)
    named = [name for name, _ in route.fields if name != "peg"]
    pattern = re.compile(route.template)
    for row in message.components:
        for child in getattr(row, "children", []):
            match = pattern.fullmatch(getattr(child, "custom_id", "") or "")
            if match is None or int(match["peg"]) >= space.pegs:
                continue
            if tuple(int(match[name]) for name in named) != keys:
                continue
            defaults = [o.value for o in getattr(child, "options", []) if o.default]
            if len(defaults) == 1 and defaults[0].isdecimal():
                colour = int(defaults[0])
                chosen[int(match["peg"])] = colour if colour < space.colours else None
    return chosen


class CodeModal(discord.ui.Modal):
    """A text box for codes too long for the picker. Its id carries the click that opened it,
    so one modal makes one guess however often it is sent."""

    def __init__(
        self,
        custom_id: str,
        space: CodeSpace,
        *,
        t: Messages,
        title: str | None = None,
        label: str | None = None,
    ) -> None:
        super().__init__(title=title or t.gettext("Guess the code"), custom_id=custom_id)
        self.code: discord.ui.TextInput[Any] = discord.ui.TextInput(
            label=label or t.gettext("Your guess"),
            custom_id=ids.CODE_FIELD,
            max_length=100,
            min_length=1,
            placeholder=t.gettext(
                "e.g. {letters} or {digits}",
                letters=space.example(),
                digits=space.digits(space.code_at(0)),
            ),
        )
        self.add_item(self.code)


def modal_value(data: Any, custom_id: str) -> str | None:
    """Find a text input's value in a modal submission, whatever rows or labels wrap it."""
    if isinstance(data, dict):
        if data.get("custom_id") == custom_id and "value" in data:
            return str(data["value"])
        children = [*data.get("components", []), data.get("component")]
        for child in children:
            if child is not None and (found := modal_value(child, custom_id)) is not None:
                return found
    elif isinstance(data, list):
        for child in data:
            if (found := modal_value(child, custom_id)) is not None:
                return found
    return None


# --- solve ------------------------------------------------------------------------------------
