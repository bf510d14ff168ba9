"""Plain-text pieces of the board: pegs, guess rows, bar charts. Pure, so easy to test."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.codes import Code, CodeSpace

BLACK_PEG = "⚫"
WHITE_PEG = "⚪"
NO_PEG = "▫️"
BAR = "█"


def guesses(count: int) -> str:
    """'1 guess', '5 guesses'."""
    return f"{count} guess" if count == 1 else f"{count} guesses"


def pegs(black: int, white: int) -> str:
    """The answer drawn as pegs, e.g. ⚫⚫⚪; no pegs at all is a single hollow square."""
    return BLACK_PEG * black + WHITE_PEG * white or NO_PEG


def peg_words(black: int, white: int) -> str:
    """The same answer in words, for screen readers and colour-blind players."""
    return f"{black} black, {white} white"


def answer_label(black: int, white: int) -> str:
    """A short button label for an answer."""
    return pegs(black, white) if black or white else "none"


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


def legend(space: CodeSpace) -> str:
    """The colour key, one colour per entry, emoji and letter side by side."""
    return "  ".join(f"{c.emoji} **{c.letter}** {c.name}" for c in space.palette)


def bar_chart(distribution: Mapping[int, int], width: int = 20) -> str:
    """A text histogram of guess counts, fit for a code block."""
    if not distribution:
        return "(no games)"
    peak = max(distribution.values())
    lines = []
    for guesses in range(1, max(distribution) + 1):
        count = distribution.get(guesses, 0)
        bar = BAR * (round(width * count / peak) if count else 0)
        if count and not bar:
            bar = "▏"
        lines.append(f"{guesses:>2} | {bar:<{width}} {count}")
    return "\n".join(lines)
