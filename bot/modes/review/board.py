"""The post-game review as its player sees it, and the Review button that opens it.

`review_button` goes on the finished board of any game players crack (every guessing mode):
its custom_id carries the game id only, so the review is worked out when clicked, also after a
restart. The review itself is an embed sent privately: a field per guess (the codes possible
before and after it, whether it could have been the secret, the most codes it could have left,
and Knuth's guess from the same position with the most that one could have left), under a
summary line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.charts import data
from bot.engine.codes import CodeSpace
from bot.engine.job_types import ReviewedGuess
from bot.engine.review import ReviewSummary
from bot.modes.review.actions import GameReview, ReviewNeedsPlay, ReviewNotYet
from bot.ui import charts, components, text
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages
from bot.ui.ids import ID, Route

REVIEW = Route("review", (("game", ID),))
"""The post-game review of a finished game players guessed in, for whoever clicks it."""

COLOUR = discord.Colour.teal()


def review_button(game_id: int, *, t: Messages) -> discord.ui.Button[Any]:
    """The button that opens a finished game's review, privately, for whoever clicks it."""
    return components.button(REVIEW.id(game_id), t.pgettext("button", "Review"), emoji="🔍")


def finished_view(game_id: int, *, t: Messages) -> discord.ui.View:
    """A finished board's buttons: its Review."""
    return components.view_of(review_button(game_id, t=t))


def review_embed(
    game_id: int,
    space: CodeSpace,
    rows: Sequence[ReviewedGuess],
    summary: ReviewSummary,
    *,
    t: Messages,
) -> discord.Embed:
    """The review: the summary, then one field per guess (at most 20, under Discord's 25)."""
    embed = discord.Embed(title=t.gettext("Review of game {game}", game=game_id), colour=COLOUR)
    embed.description = summary_text(summary, t=t)
    for row in rows:
        embed.add_field(
            name=_row_title(space, row, t), value=row_text(space, row, t=t), inline=False
        )
    return embed


def review_picture(game_id: int, reviewed: GameReview, t: Messages) -> charts.Picture | None:
    """The review as a chart: codes still possible after each guess, yours and Knuth's."""
    narrowed = data.narrowing(reviewed.rows, reviewed.hinted)
    return None if narrowed is None else charts.review(narrowed, game_id, t)


def summary_text(summary: ReviewSummary, *, t: Messages) -> str:
    """The line above a review: how many guesses were as good as Knuth's, and the one furthest
    behind. Guesses are judged by the most codes they could have left, as Knuth judges his."""
    if summary.guesses == 0:
        return t.gettext("No guesses to review: none was made in this game.")
    good = t.ngettext(
        "**{good} of {count}** guess as good as Knuth's, judged by the most codes each "
        "could have left.",
        "**{good} of {count}** guesses as good as Knuth's, judged by the most codes each "
        "could have left.",
        summary.guesses,
        good=t.number(summary.as_good),
    )
    behind = summary.furthest_behind
    if behind is None or behind.knuth_leaves is None:
        return f"🧠 {good}"
    furthest = t.ngettext(
        "Furthest behind: guess {number} could have left up to {count} code, where Knuth's "
        "could have left at most {knuth}.",
        "Furthest behind: guess {number} could have left up to {count} codes, where Knuth's "
        "could have left at most {knuth}.",
        behind.leaves.worst,
        number=behind.number,
        knuth=t.number(behind.knuth_leaves.worst),
    )
    return f"🧠 {good}\n{furthest}"


def _row_title(space: CodeSpace, row: ReviewedGuess, t: Messages) -> str:
    return t.gettext(
        "Guess {number}: {code} → {pegs}",
        number=row.number,
        code=f"{space.emoji(row.guess)} {space.letters(row.guess)}",
        pegs=text.pegs(*row.answer),
    )


def row_text(space: CodeSpace, row: ReviewedGuess, *, t: Messages) -> str:
    """One guess reviewed, in three lines."""
    possible = t.gettext(
        "Codes possible: **{before}** → **{after}**",
        before=t.number(row.before),
        after=t.number(row.after),
    )
    if row.could_be_secret:
        secret = "✅ " + t.gettext("it could have been the secret")
    else:
        secret = "❌ " + t.gettext("it could not have been the secret")
    left = t.ngettext(
        "This guess could have left up to **{count}** code.",
        "This guess could have left up to **{count}** codes.",
        row.leaves.worst,
    )
    if row.knuth_guess is None or row.knuth_leaves is None:
        knuth = t.gettext("🧠 Knuth: the same, it was the only code left.")
    else:
        verdict = "✅" if row.as_good_as_knuth else "⚠️"
        knuth = t.ngettext(
            "🧠 Knuth would have guessed {code}: up to **{count}** code. {verdict}",
            "🧠 Knuth would have guessed {code}: up to **{count}** codes. {verdict}",
            row.knuth_leaves.worst,
            code=text.code_line(space, row.knuth_guess),
            verdict=verdict,
        )
        if not row.knuth_exact:  # the exact search would have overrun the move budget
            knuth += "\n≈ " + t.gettext(
                "An estimate: Knuth's exact search would take too long at this point of so "
                "large a game."
            )
    return f"{possible} · {secret}\n{left}\n{knuth}"


ERRORS: ErrorWords = {
    ReviewNotYet: lambda _, t: t.gettext(
        "The review opens when the game is over, so it can't give the secret away."
    ),
    ReviewNeedsPlay: lambda _, t: t.gettext("Reviews are for games where you crack my code."),
}
"""The review's refusals in words."""
