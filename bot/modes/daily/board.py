"""The daily code as the player and the channel see it: the private board with its picker, and
the spoiler-free result (the share text, and the public line with its Share button).

The board is private, so it is drawn in the player's language and may show colours; everything
public is pegs only: black, white and empty, never a colour, so nobody learns the day's code
from someone else's result.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import discord

from bot.charts.style import OKABE_ITO
from bot.engine.errors import AlreadyPlayed
from bot.engine.game import Status
from bot.modes.common.board import badge, guesses_left, marks, peg_row
from bot.modes.daily.rules import DailyGame, Streak
from bot.modes.review import board as review
from bot.store import PlayerStats, Result
from bot.ui import components, embeds, text, words
from bot.ui.boards import Drawn, Field
from bot.ui.charts import ChartLook
from bot.ui.embeds import ACTIVE
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages, later
from bot.ui.ids import ID, Route
from bot.ui.text import mention

RULES = later.gettext(
    "Every day\n"
    "`/mastermind daily`: one code a day for everybody, played privately, with a spoiler-"
    "free result to share and a streak to keep."
)
"""The daily mode's section of `/mastermind rules`: its heading, a new line, its text."""


DAILY_PICK = Route("dpick", (("game", ID), ("peg", 1)))
"""A peg's colour on a daily board: the board itself is redrawn with the choice."""
DAILY_SEND = Route("dsend", (("game", ID), ("version", 6)))
"""Submit the picked code as a guess on a daily board that showed `version`."""
DAILY_TYPE = Route("dtype", (("game", ID), ("version", 6)))
"""Open the code modal of a daily board; the modal keeps the version (DAILY_MODAL)."""
DAILY_MODAL = Route("dcode", (("game", ID), ("version", 6)))
DAILY_SHARE = Route("dshare", (("game", ID),))
"""The spoiler-free result of a daily game (the clicker's own one of that day), privately."""

"""A peg that earned nothing, in a result row (no colour: rows show only what pegs earned)."""


# --- the private board -------------------------------------------------------------------------


def board(
    game: DailyGame,
    next_in: timedelta | None,
    chosen: list[int | None] | None = None,
    note: str | None = None,
    *,
    t: Messages,
) -> Drawn:
    """The player's board: their guesses, the picker while it runs, their result once over."""
    space = game.variant.space
    picked: list[int | None] = list(chosen) if chosen is not None else [None] * space.pegs
    content = None if game.is_over else components.picker_text(space, picked, t=t)
    if note:
        content = f"{note}\n{content}" if content else note
    return Drawn(content, _embed(game, next_in, t), view(game, picked, t=t))


def draw(game: DailyGame, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """The board as the shared machinery draws it (no clock there: without the next puzzle)."""
    return board(game, None, note=note, t=t)


CHART = ChartLook(later.pgettext("chart", "daily"), OKABE_ITO["bluish green"])
"""The daily mode's games in a chart: their name and their colour."""


CONFIRM = later.gettext("End your daily game? It counts as not solved.")
"""The private question before a daily game ends."""


def ended(game: DailyGame, by: int, t: Messages) -> str:
    """The public line of a daily game given up: its result, still without colours."""
    return public_line(game, t=t)


def title(game: DailyGame, *, t: Messages) -> str:
    if game.hard:
        return t.gettext("Mastermind daily #{number} · hard mode", number=game.puzzle)
    return t.gettext("Mastermind daily #{number}", number=game.puzzle)


def _embed(game: DailyGame, next_in: timedelta | None, t: Messages) -> discord.Embed:
    variant = game.variant
    space = variant.space
    embed = discord.Embed(title=title(game, t=t), colour=embeds.STATUS_COLOUR[game.status])
    embed.description = embeds.guess_grid(space, game.moves, t=t)
    embed.add_field(name=t.gettext("Colours"), value=text.legend(space, t=t), inline=False)
    if game.status is Status.ACTIVE:
        embed.add_field(name=t.gettext("Guesses left"), value=guesses_left(game, t=t))
    else:
        embed.add_field(name=t.gettext("Result"), value=_result(game, t), inline=False)
        secret = game.revealed_secret
        if secret is not None:
            embed.add_field(
                name=t.gettext("Secret"), value=text.code_line(space, secret), inline=False
            )
    if next_in is not None:
        embed.add_field(
            name=t.gettext("Next puzzle"), value=t.gettext("in {time}", time=wait(next_in, t=t))
        )
    private = t.gettext("Only you see this board; everyone gets the same code today (UTC).")
    edition = t.gettext("Game {game} · move {move}", game=game.id, move=game.version)
    embed.set_footer(text=f"{private} · {edition}")
    return embed


def _result(game: DailyGame, t: Messages) -> str:
    used = len(game.moves)
    if game.status is Status.WON:
        return t.ngettext("🎉 Cracked in {count} guess.", "🎉 Cracked in {count} guesses.", used)
    if game.status is Status.LOST:
        return t.gettext("💥 Out of guesses after {count}.", count=t.number(used))
    return t.gettext("⌛ Not finished in time.")


def closed(game: DailyGame, *, t: Messages) -> str:
    """The note on a board whose puzzle closed before the player finished it."""
    return t.gettext(
        "Daily #{number} closed at midnight UTC, before you finished it; here is its answer. "
        "Today's code is waiting: `/mastermind daily`.",
        number=game.puzzle,
    )


def wait(left: timedelta, *, t: Messages) -> str:
    """Time until the next puzzle, to the minute: '5 h 12 min', '12 min'."""
    minutes = max(1, int(left.total_seconds() + 59) // 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t.gettext("{hours} h {minutes} min", hours=hours, minutes=minutes)
    return t.gettext("{minutes} min", minutes=minutes)


def view(game: DailyGame, chosen: list[int | None], *, t: Messages) -> discord.ui.View | None:
    """While it runs: a select per peg, Submit and Type a code; once over: Share and Review."""
    if game.id is None:
        return None
    board_view = components.RenderedView()
    if game.is_over:
        board_view.add_item(share_button(game.id, t=t))
        board_view.add_item(review.review_button(game.id, t=t))
        return board_view
    send = DAILY_SEND.id(game.id, game.version)
    components.add_picker(board_view, DAILY_PICK, game.id, game.variant.space, chosen, send, t=t)
    board_view.add_item(components.type_code_button(DAILY_TYPE.id(game.id, game.version), t=t))
    return board_view


def code_modal(game: DailyGame, *, t: Messages) -> discord.ui.Modal:
    """The text box for a typed code; its id carries the version the board showed."""
    assert game.id is not None
    return components.CodeModal(DAILY_MODAL.id(game.id, game.version), game.variant.space, t=t)


# --- the result, without colours ---------------------------------------------------------------


def share_text(game: DailyGame, *, t: Messages) -> str:
    """`Mastermind daily #412 · 4/10` and a row of pegs per guess: no colour anywhere."""
    moves = game.moves
    limit = game.variant.max_guesses
    score = f"{len(moves)}/{limit}" if game.status is Status.WON else f"X/{limit}"
    if game.hard:
        heading = t.gettext(
            "Mastermind daily #{number} · {score} · hard mode", number=game.puzzle, score=score
        )
    else:
        heading = t.gettext("Mastermind daily #{number} · {score}", number=game.puzzle, score=score)
    rows = [
        peg_row(m.black, m.white, game.variant.pegs)
        for m in moves
        if m.black is not None and m.white is not None
    ]
    return "\n".join([heading, *rows])


def public_line(game: DailyGame, *, t: Messages) -> str:
    """What the channel sees when a player finishes: their result and who it is."""
    invite = t.gettext(
        "{player} · play today's code with /mastermind daily",
        player=text.mention(game.starter_id),
    )
    return f"{share_text(game, t=t)}\n{invite}"


def share_button(game_id: int, *, t: Messages) -> discord.ui.Button[Any]:
    share = t.gettext("Share")
    return components.button(
        DAILY_SHARE.id(game_id), share, emoji="📋", style=discord.ButtonStyle.primary
    )


def share_view(game_id: int, *, t: Messages) -> discord.ui.View:
    """The public line's one button."""
    return components.view_of(share_button(game_id, t=t))


def not_finished(puzzle: int, *, t: Messages) -> str:
    """A Share click by someone with no finished game of that day."""
    return t.gettext(
        "You have no result for daily #{number} yet. Play it with /mastermind daily.",
        number=puzzle,
    )


def _daily_record(streak: Streak, record: PlayerStats | None, t: Messages) -> str:
    if not streak.played:
        return t.gettext("Not played yet: `/mastermind daily` is the same code for everyone.")
    rate = streak.solved / streak.played
    lines = [
        t.gettext(
            "Days played **{played}** · solved **{solved}** ({rate})",
            played=t.number(streak.played),
            solved=t.number(streak.solved),
            rate=t.percent(rate),
        ),
        t.gettext(
            "🔥 Streak **{current}** · best streak **{best}**",
            current=t.number(streak.current),
            best=t.number(streak.best),
        ),
    ]
    if record is not None and record.best:
        lines.append(t.gettext("Best day: {guesses}", guesses=words.guesses(t, record.best)))
    if record is not None and (shown := marks(record, t)):
        lines.append(shown)
    return "\n".join(lines)


def daily_leaderboard(
    puzzle: int, rows: Sequence[Result], *, t: Messages, limit: int = 10
) -> discord.Embed:
    """Today's daily results in a server: solved first, fewer guesses, then less time. Pegs
    and counts only, so it spoils nothing."""
    embed = discord.Embed(
        title=t.gettext("Daily #{number} · today's leaderboard", number=puzzle), colour=ACTIVE
    )
    if not rows:
        embed.description = t.gettext(
            "Nobody here has finished today's code yet. Be the first: `/mastermind daily`."
        )
        return embed
    lines = []
    for place, row in enumerate(rows):
        score = f"{row.guesses}/{limit}" if row.won else f"X/{limit}"
        line = t.gettext(
            "{player}: {score} in {time}",
            player=mention(row.user_id),
            score=score,
            time=embeds.duration(row.seconds, t=t),
        )
        lines.append(f"{badge(place)} {line} {'💪' if row.hard else ''}".rstrip())
    embed.description = "\n".join(lines)
    return embed


def record_field(streak: Streak, record: PlayerStats | None, *, t: Messages) -> Field:
    """A player's daily codes (everywhere: a streak follows the player), in their record."""
    return Field(t.gettext("Daily code"), _daily_record(streak, record, t), inline=False)


ERRORS: ErrorWords = {
    AlreadyPlayed: lambda _, t: t.gettext(
        "You have already played today's code; a new one comes at midnight UTC."
    ),
}
"""The daily mode's refusals in words (the store raises `AlreadyPlayed`)."""
