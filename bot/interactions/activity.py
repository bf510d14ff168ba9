"""What a mode declares for the Activity (#33), the game's board inside Discord: how one viewer
sees its game (plain data, `View`), what the page may ask of it (its actions, each the mode's own
action, the one a button or a slash command calls), and which of its games a viewer sees when the
channel has none running (a game of their own, played anywhere).

A mode's `web.py` builds its `WebMode`; its `ModeSpec` carries it; `bot.web` iterates the
registry and never names a mode. Nothing here imports `bot.web`: the Activity is opt-in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Generic, Protocol

from bot.charts.pool import ChartPool
from bot.config import Settings
from bot.engine.actor import Actor
from bot.engine.codes import MAX_COLOURS, MAX_PEGS, Code
from bot.engine.game import G, Game, Move, MoveKind, Status
from bot.solver_pool import SolverPool
from bot.store import Store
from bot.ui.i18n import Messages
from bot.ui.i18n.later import Said

View = dict[str, Any]
"""A game as one viewer sees it: JSON-ready plain data (see /work's ACTIVITY.md contract and
docs/activity.md): kind, game_id, version, status, variant, rows, remaining, actions, secret,
extra."""


class Services(Protocol):
    """What an Activity action uses of the bot (`bot.interactions.context.Host` has it all)."""

    store: Store
    solver: SolverPool
    charts: ChartPool
    settings: Settings
    clock: Callable[[], datetime]


class BadArguments(Exception):
    """The page's arguments to an action are not what the action takes (`bad_arguments`)."""

    code = "bad_arguments"


@dataclass(frozen=True)
class Viewer:
    """Who looks, and where, as the server verified it with Discord (never as the page says)."""

    user_id: int
    guild_id: int | None
    channel_id: int


@dataclass(frozen=True)
class Acted:
    """What an action did: the game as its move stored it, and what only the player who
    acted reads (a hint, a review), in their language."""

    game: Game
    note: str | None = None
    picture: bytes | None = None
    """A PNG for the player who acted (a review's chart)."""


WebAction = Callable[[Services, Game, Actor, Mapping[str, Any], Messages], Awaitable[Acted]]
"""One thing a player may do from the page: (bot, the game as loaded, the actor built from the
verified session, the page's arguments, the player's language) -> what it did. It calls the
mode's own action, so every check of a button click holds (the actor's `version`, where the
mode's action checks it, is the version the page showed)."""
Mine = Callable[[Services, Viewer], Awaitable[Game | None]]
"""A viewer's own game of the mode when their channel has no game running (a mode whose games
are each one player's, played anywhere)."""


@dataclass(frozen=True)
class WebMode(Generic[G]):
    """A mode's Activity: its view for one viewer, its actions by name, where a viewer finds
    a game of their own (`mine`), its own labels for the page (`words`, by key), and who sees
    the same view (`audience`)."""

    view: Callable[[G, Viewer, Messages], View]
    actions: Mapping[str, WebAction] = field(default_factory=dict)
    mine: Mine | None = None
    words: Mapping[str, Said] = field(default_factory=dict)
    audience: Callable[[G, Viewer], Hashable] | None = None
    """Which viewers see the same view of a game (the starter, or everyone else): a push
    draws and encodes it once for each; None: each viewer their own."""


# --- building blocks every mode's view uses ---------------------------------------------------


def person(user_id: int | None) -> dict[str, str] | None:
    """Who made a move, as the page reads it: the id as a string (JSON has no 64-bit
    integers); the web server adds the name and avatar it knows (`by` of a row)."""
    return None if user_id is None else {"id": str(user_id)}


def row(move: Move) -> dict[str, Any]:
    """A scored guess as a row of the board: its code (colours numbered 1..colours), its
    black and white pegs, and who made it."""
    return {
        "code": [int(peg) + 1 for peg in move.code or ()],
        "black": move.black,
        "white": move.white,
        "by": person(move.player_id),
    }


def guess_rows(moves: tuple[Move, ...], player_id: int | None = None) -> list[dict[str, Any]]:
    """The scored guesses of `moves` (only `player_id`'s, if given), in order."""
    return [
        row(move)
        for move in moves
        if move.kind is MoveKind.GUESS
        and move.black is not None
        and (player_id is None or move.player_id == player_id)
    ]


def plain_code(code: Code | None) -> list[int] | None:
    """A code as the page numbers its colours (1..colours)."""
    return None if code is None else [int(peg) + 1 for peg in code]


def status_of(game: Game) -> str:
    """`running`; `won` (the code was cracked: by a player, or by the bot in solve), `lost`
    (out of guesses or time), or `ended` (given up, drawn)."""
    status = game.status
    if status is Status.ACTIVE:
        return "running"
    if status in (Status.WON, Status.SOLVED):
        return "won"
    return "lost" if status is Status.LOST else "ended"


def base_view(game: Game, kind: str, **rest: Any) -> View:
    """The fields every view has, from the game; `rest` fills or overrides the others."""
    variant = game.variant
    view: View = {
        "kind": kind,
        "game_id": game.id,
        "version": game.version,
        "status": status_of(game),
        "pegs": variant.pegs,
        "colours": variant.colours,
        "max_guesses": variant.max_guesses,
        "hard": bool(getattr(game, "hard", False)),
        "rows": [],
        "remaining": None,
        "actions": [],
        "secret": plain_code(game.revealed_secret) if game.is_over else None,
        "extra": {},
    }
    view.update(rest)
    return view


def code_argument(args: Mapping[str, Any]) -> Code:
    """The page's `code` argument (colours numbered 1..colours) as the engine's code (from 0),
    or BadArguments when it is no list of numbers at all; its length and colours are the
    rules' to check, so the player hears the same words as for a typed guess."""
    raw = args.get("code")
    if (
        not isinstance(raw, list)
        or not 1 <= len(raw) <= MAX_PEGS
        or not all(type(peg) is int and 1 <= peg <= MAX_COLOURS for peg in raw)
    ):
        raise BadArguments()
    return tuple(peg - 1 for peg in raw)


def whole_argument(args: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """A whole-number argument within [low, high], or BadArguments."""
    value = args.get(name)
    if type(value) is not int or not low <= value <= high:
        raise BadArguments()
    return value


def starter_or_not(game: Game, viewer: Viewer) -> Hashable:
    """An audience for a view that differs only for the game's starter."""
    return viewer.user_id == game.starter_id
