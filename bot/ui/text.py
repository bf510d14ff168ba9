"""Plain-text pieces of the board: pegs, guess rows, bar charts. Pure, so easy to test.

Whatever has words takes the messages `t` of the language it is drawn in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from bot.engine.codes import Code, CodeSpace
from bot.engine.game import GuessOutcome, Status
from bot.ui import words
from bot.ui.i18n import ENGLISH, Messages

BLACK_PEG = "⚫"
WHITE_PEG = "⚪"
NO_PEG = "▫️"
BAR = "█"

Recorded = Literal["game", "guess", "answer", "undo", "end", "hint"]
"""What a commit stored, for `recorded`."""


def pegs(black: int, white: int) -> str:
    """The answer drawn as pegs, e.g. ⚫⚫⚪; no pegs at all is a single hollow square."""
    return BLACK_PEG * black + WHITE_PEG * white or NO_PEG


def peg_words(black: int, white: int, *, t: Messages) -> str:
    """The same answer in words, for screen readers and colour-blind players."""
    return t.join((words.black(t, black), words.white(t, white)))


def answer_label(black: int, white: int, *, t: Messages = ENGLISH) -> str:
    """A short button label for an answer."""
    return pegs(black, white) if black or white else t.pgettext("answer", "none")


def code_line(space: CodeSpace, code: Code) -> str:
    """A code as emoji with its letters: colour-blind safe, e.g. 🔴🔴🟢🟢 `RRGG`."""
    return f"{space.emoji(code)} `{space.letters(code)}`"


def code_all_formats(space: CodeSpace, code: Code) -> str:
    """Emoji, digits and letters together: how the solver shows its guess."""
    return f"{space.emoji(code)}  ·  `{space.digits(code)}`  ·  `{space.letters(code)}`"


def guess_row(
    number: int, space: CodeSpace, code: Code, black: int, white: int, who: str | None = None
) -> str:
    """One board row: number, guess, pegs and (in play games) who guessed."""
    row = f"`{number:>2}` {code_line(space, code)}  {pegs(black, white)}"
    return f"{row}  {who}" if who else row


def legend(space: CodeSpace, *, t: Messages) -> str:
    """The colour key, one colour per entry, emoji and letter side by side."""
    return "  ".join(
        f"{c.emoji} **{c.letter}** {words.colour_name(t, n)}" for n, c in enumerate(space.palette)
    )


def plain_legend(space: CodeSpace, *, t: Messages) -> str:
    """The colour key in one line without markup, for error messages: 🔴 R red, 🟢 G green."""
    return t.join(
        f"{c.emoji} {c.letter} {words.colour_name(t, n)}" for n, c in enumerate(space.palette)
    )


def bar_chart(distribution: Mapping[int, int], *, t: Messages, width: int = 20) -> str:
    """A text histogram of guess counts, fit for a code block."""
    if not distribution:
        return t.gettext("(no games)")
    peak = max(distribution.values())
    lines = []
    for guesses in range(1, max(distribution) + 1):
        count = distribution.get(guesses, 0)
        bar = BAR * (round(width * count / peak) if count else 0)
        if count and not bar:
            bar = "▏"
        lines.append(f"{guesses:>2} | {bar:<{width}} {count}")
    return "\n".join(lines)


def mention(user_id: int) -> str:
    """A user as Discord renders them; messages are sent with pings disabled."""
    return f"<@{user_id}>"


def guess_line(space: CodeSpace, outcome: GuessOutcome, player_id: int, *, t: Messages) -> str:
    """The public line a guess earns: who, what, the pegs, and what is left or how it ended."""
    move = outcome.move
    assert move.code is not None and move.black is not None and move.white is not None
    line = t.gettext(
        "{player} guessed {code} → {pegs} ({words})",
        player=mention(player_id),
        code=code_line(space, move.code),
        pegs=pegs(move.black, move.white),
        words=peg_words(move.black, move.white, t=t),
    )
    if outcome.status is Status.WON:
        cracked = t.ngettext(
            "**{player} cracked the code in {count} guess!**",
            "**{player} cracked the code in {count} guesses!**",
            outcome.number,
            player=mention(player_id),
        )
        return f"🎉 {line}\n{cracked}"
    if outcome.status is Status.LOST:
        secret = code_line(space, outcome.secret) if outcome.secret else t.gettext("hidden")
        lost = t.gettext("💥 **Out of guesses!** The secret was {secret}.", secret=secret)
        return f"{line}\n{lost}"
    left = t.ngettext("{count} guess left", "{count} guesses left", outcome.guesses_left)
    return f"{line} · {left}"


def knuth_note(needed: int, *, t: Messages) -> str:
    """Added to a winning line: how Knuth's algorithm would have done on the same secret."""
    return "\n" + t.ngettext(
        "🧠 Knuth's algorithm would have needed {count} guess.",
        "🧠 Knuth's algorithm would have needed {count} guesses.",
        needed,
    )


def recorded(what: Recorded, *, t: Messages) -> str:
    """After a commit, when what follows failed: the move counted, so the player must not try
    again."""
    sentences = {
        "game": t.gettext("✅ The game was recorded. The board will catch up."),
        "guess": t.gettext("✅ Your guess was recorded. The board will catch up."),
        "answer": t.gettext("✅ Your answer was recorded. The board will catch up."),
        "undo": t.gettext("✅ Your undo was recorded. The board will catch up."),
        "end": t.gettext("✅ Ending the game was recorded. The board will catch up."),
        "hint": t.gettext("✅ Your hint was counted but could not be shown; press Hint again."),
    }
    return sentences[what]
