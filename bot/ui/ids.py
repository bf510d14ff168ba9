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


_ID = 20  # a snowflake or a row id
GUESS = Route("guess", (("game", _ID),))
GIVE_UP = Route("quit", (("game", _ID),))
CONFIRM_GIVE_UP = Route("quit-yes", (("game", _ID),))
SUBMIT_PICK = Route("send", (("game", _ID),))
STOP_SOLVE = Route("stop", (("game", _ID),))
PICK_PEG = Route("pick", (("game", _ID), ("peg", 1)))
ANSWER = Route("ans", (("game", _ID), ("version", 6), ("black", 1), ("white", 1)))
ANSWER_SELECT = Route("anss", (("game", _ID), ("version", 6), ("part", 1)))
UNDO = Route("undo", (("game", _ID), ("version", 6)))
HINT = Route("hint", (("game", _ID),))
REVIEW = Route("review", (("game", _ID),))
"""The post-game review of a finished play, daily or race game, for whoever clicks it."""
DAILY_PICK = Route("dpick", (("game", _ID), ("peg", 1)))
"""A peg's colour on a daily board: the board itself is redrawn with the choice."""
DAILY_SEND = Route("dsend", (("game", _ID), ("version", 6)))
"""Submit the picked code as a guess on a daily board that showed `version`."""
DAILY_TYPE = Route("dtype", (("game", _ID), ("version", 6)))
"""Open the code modal of a daily board; the modal keeps the version (DAILY_MODAL)."""
DAILY_MODAL = Route("dcode", (("game", _ID), ("version", 6)))
DAILY_SHARE = Route("dshare", (("game", _ID),))
"""The spoiler-free result of a daily game (the clicker's own one of that day), privately."""
RACE_JOIN = Route("rjoin", (("game", _ID),))
RACE_START = Route("rstart", (("game", _ID),))
RACE_BOARD = Route("rboard", (("game", _ID),))
"""A race's My board: the clicker's own private board of that race."""
RACE_PICK = Route("rpick", (("game", _ID), ("peg", 1)))
RACE_SEND = Route("rsend", (("game", _ID), ("made", 2)))
"""Submit the picked code from a private race board that showed `made` of the player's guesses."""
RACE_TYPE = Route("rtype", (("game", _ID), ("made", 2)))
RACE_MODAL = Route("rcode", (("game", _ID), ("made", 2)))
CODE_MODAL = Route("code", (("game", _ID), ("nonce", _ID)))
CODE_MODAL_PATTERN = re.compile(r"mm:code:(?P<game>[0-9]{1,20})(?::(?P<nonce>[0-9]{1,20}))?")
"""The code modal: `mm:code:<game>:<id of the click that opened it>` (older: no nonce)."""
CODE_FIELD = "code"
