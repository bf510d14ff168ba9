"""Embeds: the play board, the solve board, charts, stats and the rules, in the language `t`."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.codes import CodeSpace
from bot.engine.game import BaseGame, Move, Status, Variant
from bot.ui import text
from bot.ui.i18n import Messages
from bot.ui.text import mention

ACTIVE = discord.Colour.blurple()
WON = discord.Colour.green()
LOST = discord.Colour.red()
ENDED = discord.Colour.dark_grey()
DRAWN = discord.Colour.gold()

STATUS_COLOUR = {
    Status.ACTIVE: ACTIVE,
    Status.WON: WON,
    Status.SOLVED: WON,
    Status.LOST: LOST,
    Status.DRAW: DRAWN,
    Status.ABANDONED: ENDED,
}


def pegs_count(t: Messages, pegs: int) -> str:
    return t.ngettext("{count} peg", "{count} pegs", pegs)


def colours_count(t: Messages, colours: int) -> str:
    return t.ngettext("{count} colour", "{count} colours", colours)


def variant_title(pegs: int, colours: int, duplicates: bool, *, t: Messages) -> str:
    title = f"{pegs_count(t, pegs)} · {colours_count(t, colours)}"
    if duplicates:
        return title
    no_repeats = t.gettext("no repeats")
    return f"{title} · {no_repeats}"


def variant_line(variant: Variant, t: Messages) -> str:
    return variant_title(variant.pegs, variant.colours, variant.duplicates, t=t)


def who(user_id: int | None, t: Messages) -> str:
    return mention(user_id) if user_id is not None else t.gettext("nobody")


def how_pegs_score(t: Messages) -> str:
    return t.gettext("⚫ right colour, right place · ⚪ right colour, wrong place")


def guess_grid(space: CodeSpace, moves: Sequence[Move], *, t: Messages, named: bool = False) -> str:
    """A board's rows: each scored guess with its pegs (and who made it, on a shared board),
    or the empty board."""
    rows = [
        text.guess_row(n, space, m.code, m.black, m.white, who(m.player_id, t) if named else None)
        for n, m in enumerate(moves, start=1)
        if m.code is not None and m.black is not None and m.white is not None
    ]
    empty = t.gettext("*No guesses yet. Crack the code!*")
    return "\n".join(rows) if rows else f"{'❔' * space.pegs}  {empty}"


def edition(game: BaseGame, t: Messages) -> str:
    """Which game and which of its versions a board shows: boards are redrawn until they
    show the stored version, and this says which one a player is looking at."""
    return t.gettext("Game {game} · move {move}", game=game.id, move=game.version)


def duration(seconds: float, *, t: Messages) -> str:
    """'45 s', '3 min 5 s', '2 h 10 min': how long a game took."""
    whole = max(0, round(seconds))
    minutes, secs = divmod(whole, 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t.gettext("{hours} h {minutes} min", hours=hours, minutes=minutes)
    if minutes:
        return t.gettext("{minutes} min {seconds} s", minutes=minutes, seconds=secs)
    return t.gettext("{seconds} s", seconds=secs)
