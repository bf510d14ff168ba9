"""Every refusal of the Activity's API as the page reads it: a stable snake_case code, an HTTP
status, and a message in the player's language. The rules' and the store's refusals keep the
codes they have (`stale-game` -> `stale_game`, `store.already_applied` -> `already_applied`) and
the words every Discord reply uses (`bot.ui.errors.friendly`); the web's own are here."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.engine.codes import CodeError
from bot.engine.errors import GameError, NotHere, NotYourGame
from bot.engine.search import TooLarge
from bot.interactions.activity import BadArguments
from bot.solver_pool import SolverUnavailable
from bot.store import StoreBusy, StoreError
from bot.ui.errors import ModeWords, friendly
from bot.ui.i18n import Messages, later
from bot.ui.i18n.later import Said

log = logging.getLogger(__name__)


class Refused(Exception):
    """The web's own refusal: `code` (one of `WORDS`) and the HTTP status it goes with."""

    def __init__(self, code: str, status: int = 400) -> None:
        super().__init__(code)
        self.code, self.status = code, status


WORDS: dict[str, Said] = {
    "bad_request": later.gettext(
        "That request is not one this board makes. Close the Activity and open it again."
    ),
    "bad_arguments": later.gettext("That move is not complete: pick every peg, then try again."),
    "bad_session": later.gettext("Your sign-in has expired. Close the Activity and open it again."),
    "bad_code": later.gettext(
        "Discord did not accept the sign-in. Close the Activity and open it again."
    ),
    "not_in_instance": later.gettext(
        "Discord does not list you in this Activity. Open it again from the channel."
    ),
    "discord_unavailable": later.gettext(
        "Discord could not be reached to sign you in. Please try again in a moment."
    ),
    "unknown_game": later.gettext("That game is not on this channel's board. Reload the board."),
    "unknown_action": later.gettext("That is not something you can do in this game here."),
    "not_on_activity": later.gettext("This game is played on its board in the channel, not here."),
    "too_many": later.gettext("Slow down a little: too many requests. Try again in a moment."),
    "unexpected": later.gettext(
        "Something went wrong on my side. Your game is safe; please try again."
    ),
}
"""The web's own refusals in words (the page shows the message; the code is for its logic)."""


def refusal(code: str, status: int, t: Messages) -> tuple[int, dict[str, str]]:
    """A refusal of the web's own, as the response's status and body."""
    return status, {"error": code, "message": WORDS[code](t)}


def explained(
    error: BaseException, t: Messages, modes: Callable[[], ModeWords]
) -> tuple[int, dict[str, str]]:
    """`error` (raised by a mode's action or the web) as a status and a body; an error nobody
    expected is logged, once, and said as `unexpected`."""
    if isinstance(error, Refused):
        return refusal(error.code, error.status, t)
    if isinstance(error, BadArguments):
        return refusal(error.code, 400, t)
    if isinstance(error, (GameError, StoreError, SolverUnavailable, CodeError, TooLarge)):
        status = _status(error)
        return status, {"error": _code(error), "message": friendly(error, t, modes())}
    log.error("unexpected error in the Activity", exc_info=error)
    return refusal("unexpected", 500, t)


def _status(error: BaseException) -> int:
    if isinstance(error, (NotHere, NotYourGame)):
        return 403
    if isinstance(error, (StoreBusy, SolverUnavailable)):
        return 503
    if isinstance(error, (CodeError, TooLarge)):
        return 400
    return 409


def _code(error: BaseException) -> str:
    """The error's own code as a snake_case name (`stale-game` -> `stale_game`)."""
    if isinstance(error, CodeError):
        return "invalid_guess"
    if isinstance(error, TooLarge):
        return "too_large"
    code = str(getattr(error, "code", "not_allowed"))
    return code.rpartition(".")[2].replace("-", "_")
