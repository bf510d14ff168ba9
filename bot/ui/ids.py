"""Every custom_id the bot puts on a component: `mm:<what>:<numbers>`, ids only, never state.

The UI writes them (`Route.id`), the cogs read them back (`Route.template`, a regex for
discord.py's dynamic items), so a click after a restart still finds everything in the store.
A custom_id can be forged: its numbers are matched at any length and read with `numbers`, which
refuses one wider than its field or beyond what the store holds, as it refuses a missing game.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine.errors import NotHere

LARGEST = 2**63 - 1
"""The largest number the store holds: a row id is a signed 64-bit integer (a snowflake fits)."""
ID = len(str(LARGEST))
"""The widest number a custom_id field holds: a row id or a snowflake, 19 digits."""
NUMBER = "[0-9]+"
"""A custom_id number as matched: any length, so an out-of-range one is answered, not dropped."""


@dataclass(frozen=True)
class Route:
    """One kind of custom_id: a prefix and named numeric fields with their widest width."""

    prefix: str
    fields: tuple[tuple[str, int], ...]

    def __post_init__(self) -> None:
        _ROUTES[self.prefix] = self

    def id(self, *values: int) -> str:
        if len(values) != len(self.fields):
            raise TypeError(f"{self.prefix} takes {len(self.fields)} numbers")
        return ":".join(["mm", self.prefix, *(str(v) for v in values)])

    @property
    def template(self) -> str:
        parts = [rf"(?P<{name}>{NUMBER})" for name, _ in self.fields]
        return ":".join(["mm", re.escape(self.prefix), *parts])

    def numbers(self, match: re.Match[str]) -> dict[str, int]:
        """The fields of a custom_id this route matched (see `numbers`)."""
        return numbers(match, dict(self.fields))

    def parse(self, custom_id: str) -> dict[str, int] | None:
        """The fields of `custom_id` if it is one of this route's (None if not); NotHere for
        a forged number (see `numbers`)."""
        match = re.fullmatch(self.template, custom_id)
        return None if match is None else self.numbers(match)


_ROUTES: dict[str, Route] = {}
"""Every route declared, by prefix (each is declared once, where its mode draws it)."""


def game_of(custom_id: str) -> int | None:
    """The game a custom_id of a declared route names (its `game` field); None for one no
    route takes, one with no game, or a forged number no game can have."""
    parts = custom_id.split(":", 2)
    route = _ROUTES.get(parts[1]) if len(parts) > 1 and parts[0] == "mm" else None
    if route is None:
        return None
    try:
        fields = route.parse(custom_id)
    except NotHere:
        return None
    return None if fields is None else fields.get("game")


def numbers(match: re.Match[str], widths: Mapping[str, int] | None = None) -> dict[str, int]:
    """The named numbers of a matched custom_id (a group left out is left out); NotHere, the
    refusal of a game that does not exist, for one wider than its field (`widths`, else an id)
    or beyond LARGEST: no game has it, and the store could not even look it up."""
    found: dict[str, int] = {}
    for name, text in match.groupdict().items():
        if text is None:
            continue
        if len(text) > (widths or {}).get(name, ID) or int(text) > LARGEST:
            raise NotHere()
        found[name] = int(text)
    return found


CODE_FIELD = "code"
