"""The solve mode's board: the bot's guesses with the player's answers, how many codes still
fit, and the answer buttons (or a select per colour of peg on large variants)."""

from __future__ import annotations

from typing import Any

import discord

from bot.charts.style import OKABE_ITO
from bot.engine.answers import possible_answers
from bot.engine.game import Game, MoveKind, Status
from bot.modes.common.board import counts
from bot.modes.solve.rules import (
    NoGuessToAnswer,
    NotASolveGame,
    NothingToUndo,
    SolveGame,
)
from bot.store import PlayerStats
from bot.ui import components, text, words
from bot.ui.boards import Drawn, Field
from bot.ui.charts import ChartLook
from bot.ui.components import BUTTONS_PER_ROW, MAX_ROWS
from bot.ui.embeds import (
    STATUS_COLOUR,
    edition,
    how_pegs_score,
    variant_line,
)
from bot.ui.errors import ErrorWords
from bot.ui.i18n import ENGLISH, Messages, later
from bot.ui.ids import ID, Route
from bot.ui.text import mention

RULES = later.gettext(
    "The bot cracks yours\n"
    "`/mastermind solve` and think of a code. Press the button with the pegs each guess "
    "earns. Made a mistake? **Undo last answer**. With the default Knuth strategy, 4 pegs "
    "and 6 colours never take more than 5 guesses."
)
"""The solve mode's section of `/mastermind rules`: its heading, a new line, its text."""


STOP_SOLVE = Route("stop", (("game", ID),))
ANSWER = Route("ans", (("game", ID), ("version", 6), ("black", 1), ("white", 1)))
ANSWER_SELECT = Route("anss", (("game", ID), ("version", 6), ("part", 1)))
UNDO = Route("undo", (("game", ID), ("version", 6)))


def solve_board(
    game: SolveGame, remaining: int | None, note: str | None = None, *, t: Messages
) -> discord.Embed:
    """The board of a game where the bot breaks the player's code."""
    variant = game.variant
    space = variant.space
    cracking = t.gettext("I'm cracking {player}'s code", player=mention(game.starter_id))
    embed = discord.Embed(
        title=f"{cracking} · {variant_line(game.variant, t)}",
        colour=STATUS_COLOUR[game.status],
    )
    rows = [
        text.guess_row(n, space, guess, black, white)
        for n, (guess, (black, white)) in enumerate(
            zip(game.guesses, game.answers, strict=False), start=1
        )
    ]
    lines = list(rows)
    current = game.current_guess
    if game.status is Status.SOLVED:
        lines.append("\n" + solved(len(game.guesses), t=t, bold=True))
    elif game.status is Status.ABANDONED:
        lines.append("\n" + t.gettext("🏳️ Given up. Thanks for playing!"))
    elif game.is_stuck:
        lines.append("\n" + t.gettext("⚠️ **No code fits all your answers.**"))
    elif current is not None:
        lines.append(
            "\n"
            + t.gettext(
                "**Guess {number}:** {code}",
                number=len(game.guesses),
                code=text.code_all_formats(space, current),
            )
        )
        if remaining is not None:
            lines.append(t.gettext("Codes still possible: **{count}**", count=t.number(remaining)))
    if note:
        lines.append(note)
    embed.description = "\n".join(lines)
    embed.add_field(name=t.gettext("Colours"), value=text.legend(space, t=t), inline=False)
    strategy = t.gettext(
        "Strategy: {strategy}. Answer with the pegs my guess earns:",
        strategy=words.strategy_title(t, game.strategy),
    )
    embed.set_footer(text=f"{strategy} {how_pegs_score(t)}. · {edition(game, t)}")
    return embed


def solved(guesses: int, *, t: Messages, bold: bool = False) -> str:
    """'🎯 Solved in 4 guesses!', the end of a solve game."""
    if bold:
        return t.ngettext(
            "🎯 **Solved in {count} guess!**", "🎯 **Solved in {count} guesses!**", guesses
        )
    return t.ngettext("🎯 Solved in {count} guess!", "🎯 Solved in {count} guesses!", guesses)


def answer_button(
    game_id: int, version: int, black: int, white: int, pegs: int, *, t: Messages
) -> Any:
    """One possible answer to the bot's guess. The version refuses a click on an older guess."""
    return components.button(
        ANSWER.id(game_id, version, black, white),
        text.answer_label(black, white, t=t),
        style=discord.ButtonStyle.success if black == pegs else discord.ButtonStyle.secondary,
    )


def answer_select(
    game_id: int, version: int, part: int, answers: list[tuple[int, int]], *, t: Messages
) -> discord.ui.Select[Any]:
    """For many pegs: the possible answers split over two selects; choosing one answers."""
    options = [
        discord.SelectOption(
            label=f"{text.answer_label(b, w, t=t)} ({text.peg_words(b, w, t=t)})",
            value=f"{b}:{w}",
        )
        for b, w in answers
    ]
    return discord.ui.Select(
        placeholder=t.gettext(
            "Answers {first} to {last} black", first=answers[0][0], last=answers[-1][0]
        ),
        options=options,
        custom_id=ANSWER_SELECT.id(game_id, version, part),
    )


def solve_view(game: SolveGame, *, t: Messages = ENGLISH) -> discord.ui.View | None:
    """The answers the bot's guess can earn (buttons, or two selects when they would not
    fit), Undo and Give up."""
    if game.is_over or game.id is None:
        return None
    view = components.RenderedView()
    space = game.variant.space
    version = game.version
    current = game.current_guess
    if current is not None:
        answers = list(possible_answers(space, current))
        if len(answers) + 2 <= BUTTONS_PER_ROW * MAX_ROWS:
            for black, white in answers:
                view.add_item(answer_button(game.id, version, black, white, space.pegs, t=t))
        else:
            half = (len(answers) + 1) // 2
            for part, chunk in enumerate((answers[:half], answers[half:])):
                view.add_item(answer_select(game.id, version, part, chunk, t=t))
    if game.answers:
        view.add_item(
            components.button(
                UNDO.id(game.id, version),
                t.gettext("Undo last answer"),
                emoji="↩️",
                style=discord.ButtonStyle.primary,
            )
        )
    view.add_item(
        components.button(
            STOP_SOLVE.id(game.id),
            t.gettext("Give up"),
            emoji="🏳️",
            style=discord.ButtonStyle.danger,
        )
    )
    return view


def draw(game: SolveGame, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """A solve game's board: the bot's guess, how many codes still fit, the answer buttons."""
    content = None
    if game.status is Status.SOLVED:
        content = solved(len(game.guesses), t=t)
    return Drawn(content, solve_board(game, remaining, note, t=t), solve_view(game, t=t))


CHART = ChartLook(later.pgettext("chart", "solve"), OKABE_ITO["orange"])
"""The solve mode's games in a chart: their name and their colour."""


CONFIRM = later.gettext("End this game and stop my guessing?")
"""The private question before a solve game ends."""


def ended(game: Game, by: int, t: Messages) -> str:
    """The public line when a solve game is given up."""
    return t.gettext("🏳️ {player} ended the solving game.", player=text.mention(by))


def solve_note(
    game: SolveGame, no_code_left: bool, undone: tuple[int, int] | None, t: Messages
) -> str | None:
    """What the last action changed, under a solve board: the answer that left no code (always
    the last one: an earlier one would have stopped the game there), or the answer taken back."""
    if no_code_left and game.answers and game.guesses:
        black, white = game.answers[-1]
        guess = game.guesses[len(game.answers) - 1]
        return "⚠️ " + t.gettext(
            "No code fits every answer: after answer {number} ({words} to {guess}) nothing is "
            "left. One of the answers must be wrong; undo it to go on.",
            number=len(game.answers),
            words=text.peg_words(black, white, t=t),
            guess=game.variant.space.digits(guess),
        )
    if undone is not None:
        black, white = undone
        return "↩️ " + t.gettext(
            "Took back {pegs} ({words}).",
            pegs=text.pegs(black, white),
            words=text.peg_words(black, white, t=t),
        )
    return None


def approximate_note(t: Messages) -> str:
    """Under a guess the approximate search found: the strategy's exact search would have
    overrun the move budget on this variant, so this guess is a close estimate of its choice."""
    return "≈ " + t.gettext(
        "An approximate guess: the exact search would take too long at this point of so large "
        "a game."
    )


def _solve_record(record: PlayerStats, t: Messages) -> str:
    if not record.played:
        return t.gettext("None yet: `/mastermind solve` and I crack yours.")
    line = t.gettext("Games **{played}** · I cracked **{won}**", **counts(record, t))
    if record.best:
        line += " · " + t.gettext("my best: {guesses}", guesses=words.guesses(t, record.best))
    return line


def record_field(record: PlayerStats, *, t: Messages) -> Field:
    """The codes a player held for the bot, in their record."""
    return Field(t.gettext("Codes you held (solve)"), _solve_record(record, t), inline=False)


ERRORS: ErrorWords = {
    NoGuessToAnswer: lambda _, t: t.gettext(
        "Your answers contradict each other, so I have no guess to ask about: "
        "undo your last answer and check it."
    ),
    NothingToUndo: lambda _, t: t.gettext("There is no answer to take back yet."),
    NotASolveGame: lambda error, t: (
        t.gettext("In this game you guess my code: there is nothing to undo.")
        if error.tried is MoveKind.UNDO
        else t.gettext("In this game you guess my code: there is nothing to answer.")
    ),
}
"""The solve mode's refusals in words."""
