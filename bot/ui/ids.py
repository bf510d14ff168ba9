"""Every custom_id the bot puts on a component: `mm:<what>:<numbers>`, ids only, never state.

The UI writes them (`Route.id`), the cogs read them back (`Route.template`, a regex for
discord.py's dynamic items), so a click after a restart still finds everything in the store.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """One kind of custom_id: a prefix and named numeric fields with their widest width."""

    prefix: str
    fields: tuple[tuple[str, int], ...]

    def id(self, *values: int) -> str:
        if len(values) != len(self.fields):
            raise TypeError(f"{self.prefix} takes {len(self.fields)} numbers")
        return ":".join(["mm", self.prefix, *(str(v) for v in values)])

    @property
    def template(self) -> str:
        parts = [rf"(?P<{name}>[0-9]{{1,{width}}})" for name, width in self.fields]
        return ":".join(["mm", re.escape(self.prefix), *parts])


ID = 20
"""The widest number a custom_id field holds: a snowflake or a row id."""
CODE_FIELD = "code"
