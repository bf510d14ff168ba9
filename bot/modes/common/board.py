"""What every mode shows alike: statistics, leaderboards, simulations and the rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.charts import data
from bot.engine.game import Variant
from bot.engine.job_types import SimulationResult
from bot.modes.common.rules import SecretGame
from bot.store import PlayerStats
from bot.ui import charts, components, embeds, text, words
from bot.ui.boards import Field
from bot.ui.embeds import (
    ACTIVE,
    colours_count,
    pegs_count,
)
from bot.ui.i18n import Messages
from bot.ui.ids import ID, Route
from bot.ui.text import mention

GIVE_UP = Route("quit", (("game", ID),))
CONFIRM_GIVE_UP = Route("quit-yes", (("game", ID),))


def give_up_button(game_id: int, *, t: Messages) -> discord.ui.Button[Any]:
    """The Give up button of a running game's board (which asks its mode's `CONFIRM` privately)."""
    return components.button(GIVE_UP.id(game_id), t.gettext("Give up"), emoji="🏳️")


def simulation(
    result: SimulationResult, pegs: int, colours: int, strategy: str, *, t: Messages
) -> str:
    """A simulate run as a message: a bar chart in a code block and the summary line."""
    if result.all_secrets:
        secrets = t.gettext("every secret")
    else:
        secrets = t.ngettext("{count} random secret", "{count} random secrets", result.games)
    if result.cut_short:
        cut = t.gettext(
            "(of {planned} planned: the time limit was reached)",
            planned=t.number(result.planned),
        )
        secrets = f"{secrets} {cut}"
    heading = t.gettext(
        "**{strategy}** on {pegs} × {colours}, {secrets}, first guess `{first}`",
        strategy=words.strategy_title(t, strategy),
        pegs=pegs_count(t, pegs),
        colours=colours_count(t, colours),
        secrets=secrets,
        first=result.first_guess,
    )
    chart = text.bar_chart(result.chart(), t=t)
    summary = t.ngettext(
        "Total **{count}** guess · average **{average}** · worst **{worst}** · {seconds} s",
        "Total **{count}** guesses · average **{average}** · worst **{worst}** · {seconds} s",
        result.total,
        average=t.decimal(result.average, 3),
        worst=t.number(result.worst),
        seconds=t.decimal(result.seconds, 2),
    )
    columns = t.gettext("guesses | secrets")
    return f"{heading}\n```\n{columns}\n{chart}\n```{summary}"


def simulation_picture(
    result: SimulationResult, strategy: str, *, t: Messages
) -> tuple[charts.Picture, discord.Embed] | None:
    """A simulate run as a histogram, and the embed that shows it under the message."""
    histogram = data.histogram(result)
    if histogram is None:
        return None
    heading = f"{words.strategy_title(t, strategy)}, {result.pegs} × {result.colours}"
    return charts.simulation(histogram, heading, t), discord.Embed(colour=ACTIVE)


def stats(user_id: int, fields: Sequence[Field], *, t: Messages) -> discord.Embed:
    """A player's record: each mode's fields in the registry's order (play games first), each
    kept apart."""
    embed = discord.Embed(title=t.gettext("Mastermind record"), colour=ACTIVE)
    embed.description = mention(user_id)
    for field in fields:
        embed.add_field(name=field.name, value=field.value, inline=field.inline)
    return embed


def counts(record: PlayerStats, t: Messages) -> dict[str, str]:
    """A record's games played and won, written the local way (`{played}`, `{won}`)."""
    return {"played": t.number(record.played), "won": t.number(record.won)}


def marks(record: PlayerStats, t: Messages) -> str:
    """'💪 2 hard-mode wins · 💡 1 game with hints', or '' when there is neither."""
    parts = []
    if record.hard_won:
        parts.append(
            "💪 " + t.ngettext("{count} hard-mode win", "{count} hard-mode wins", record.hard_won)
        )
    if record.hinted:
        parts.append(
            "💡 " + t.ngettext("{count} game with hints", "{count} games with hints", record.hinted)
        )
    return " · ".join(parts)


_MEDALS = ("🥇", "🥈", "🥉")


EMPTY_PEG = "▫️"
"""A peg a guess did not earn, in a row of pegs only."""


def peg_row(black: int, white: int, pegs: int) -> str:
    """What one guess earned, pegs only: ⚫⚪▫️▫️ (no colour: what others may see)."""
    return text.BLACK_PEG * black + text.WHITE_PEG * white + EMPTY_PEG * (pegs - black - white)


def badge(place: int) -> str:
    """A place on a leaderboard: a medal for the first three, then its number."""
    return _MEDALS[place] if place < len(_MEDALS) else f"`{place + 1}.`"


def leaderboard(
    rows: Sequence[PlayerStats], *, t: Messages, title: str, empty: str, averages: bool = False
) -> discord.Embed:
    """A server's best in one kind of game: most wins, then the best game (`averages`: with
    each player's average guesses)."""
    embed = discord.Embed(title=title, colour=ACTIVE)
    if not rows:
        embed.description = empty
        return embed
    lines = []
    for place, row in enumerate(rows):
        values = {"player": mention(row.user_id), "won": row.won, "played": row.played}
        if row.best:
            line = t.gettext(
                "{player}: {won} won of {played}, best {best}", best=row.best, **values
            )
        else:
            line = t.gettext("{player}: {won} won of {played}", **values)
        if averages and row.played:
            line += " · " + average(row, t)
        if row.hard_won:
            line += " 💪"
        if row.hinted:
            line += " 💡"
        lines.append(f"{badge(place)} {line}")
    embed.description = "\n".join(lines)
    if any(row.hard_won or row.hinted for row in rows):
        embed.set_footer(text=t.gettext("💪 won in hard mode · 💡 played with hints"))
    return embed


@dataclass(frozen=True)
class Leaderboard:
    """A kind's leaderboard, declared: its title and what it says while empty, each in the
    language `t` (`averages`: each player's average guesses too). Called like `leaderboard`."""

    title: Callable[[Messages], str]
    empty: Callable[[Messages], str]
    averages: bool = False

    def __call__(self, rows: Sequence[PlayerStats], *, t: Messages) -> discord.Embed:
        title, empty = self.title(t), self.empty(t)
        return leaderboard(rows, t=t, title=title, empty=empty, averages=self.averages)


class Countdown(Protocol):
    """A game with one count of guesses left (a one-board game's, or one player's where only
    one guesses the bot's code)."""

    @property
    def variant(self) -> Variant: ...

    @property
    def guesses_left(self) -> int: ...


def guesses_left(game: Countdown, *, t: Messages) -> str:
    """'**7** of 10'."""
    return t.gettext(
        "**{left}** of {limit}",
        left=t.number(game.guesses_left),
        limit=t.number(game.variant.max_guesses),
    )


def how_to_guess(game: SecretGame, *, t: Messages) -> str:
    """The footer of a running board where players guess the bot's code: how to guess, what
    the pegs mean, and which version the board shows."""
    how = t.gettext(
        "Guess with /mastermind guess code:{example} or the Guess button.",
        example=game.variant.space.example(),
    )
    return f"{how} {embeds.how_pegs_score(t)} · {embeds.edition(game, t)}"


def average(record: PlayerStats, t: Messages) -> str:
    """'4.3 guesses on average' over every game the player guessed in."""
    return t.gettext(
        "{average} guesses on average", average=t.decimal(record.guesses / record.played, 1)
    )


def rules(modes: Sequence[tuple[str, str]], *, t: Messages) -> discord.Embed:
    """`/mastermind rules`: how the game scores, a section per way to play (each mode's own,
    `modes`: heading and text, in the registry's order), then what every mode shares."""
    embed = discord.Embed(title=t.gettext("How to play Mastermind"), colour=ACTIVE)
    embed.description = t.gettext(
        "One side hides a **code** of coloured pegs; the other cracks it by guessing. Every "
        "guess earns pegs:\n"
        "⚫ **black**: a peg of the right colour in the right place\n"
        "⚪ **white**: a right colour in the wrong place\n"
        "Repeated colours count exactly: a colour earns at most as many pegs as the code has."
    )
    shared = (
        (
            t.gettext("Harder, and help"),
            t.gettext(
                "`hard:true`, where you guess: every guess must fit every answer so far. "
                "**Hint** on a board tells how many codes are left, then a code worth guessing; "
                "**Review** after a game compares each guess with Knuth's."
            ),
        ),
        (
            t.gettext("More"),
            t.gettext(
                "`/mastermind board` shows the board again · `/mastermind giveup` ends the game · "
                "`/mastermind simulate` charts a strategy over every secret · `/mastermind stats` "
                "and `/mastermind leaderboard` keep score."
            ),
        ),
    )
    for name, value in (*modes, *shared):
        embed.add_field(name=name, value=value, inline=False)
    return embed


def confirm_view(game_id: int, *, t: Messages) -> discord.ui.View:
    """The private "are you sure?" before a game ends."""
    view = components.RenderedView()
    view.add_item(
        components.button(
            CONFIRM_GIVE_UP.id(game_id),
            t.gettext("Yes, end the game"),
            style=discord.ButtonStyle.danger,
        )
    )
    return view


def how_played(embed: discord.Embed, game: SecretGame, *, t: Messages) -> discord.Embed:
    """A board's notes on how its game is played: hard mode, and the hints asked for."""
    if game.hard:
        embed.add_field(
            name=t.gettext("Hard mode"),
            value=t.gettext("every guess must fit every answer so far"),
        )
    if game.hints:
        embed.add_field(name=t.gettext("Hints used"), value=t.number(game.hints))
    return embed
