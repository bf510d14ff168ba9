"""Plain-text pieces of the board: pegs, guess rows, bar charts. Pure, so easy to test."""

from __future__ import annotations

from collections.abc import Mapping

from bot.engine.codes import Code, CodeSpace
from bot.engine.game import GuessOutcome, Status

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


def mention(user_id: int | None) -> str:
    """A user as Discord renders them; messages are sent with pings disabled."""
    return f"<@{user_id}>" if user_id is not None else "nobody"


def guess_line(space: CodeSpace, outcome: GuessOutcome, player_id: int) -> str:
    """The public line a guess earns: who, what, the pegs, and what is left or how it ended."""
    move = outcome.move
    assert move.code is not None and move.black is not None and move.white is not None
    line = (
        f"{mention(player_id)} guessed {code_line(space, move.code)} → "
        f"{pegs(move.black, move.white)} ({peg_words(move.black, move.white)})"
    )
    if outcome.status is Status.WON:
        return f"🎉 {line}\n**{mention(player_id)} cracked the code in {outcome.number} guesses!**"
    if outcome.status is Status.LOST:
        secret = code_line(space, outcome.secret) if outcome.secret else "hidden"
        return f"{line}\n💥 **Out of guesses!** The secret was {secret}."
    return f"{line} · {guesses(outcome.guesses_left)} left"


def knuth_note(needed: int) -> str:
    """Added to a winning line: how Knuth's algorithm would have done on the same secret."""
    return f"\n🧠 Knuth's algorithm would have needed {guesses(needed)}."
