"""What every mode shows alike: statistics, leaderboards, simulations and the rules."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.game import GameKind
from bot.engine.job_types import SimulationResult
from bot.modes.daily.rules import Streak
from bot.store import DailyResult, PlayerStats
from bot.ui import components, embeds, text, words
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


def stats(
    user_id: int,
    record: PlayerStats,
    *,
    t: Messages,
    daily: PlayerStats | None = None,
    streak: Streak | None = None,
    race: PlayerStats | None = None,
    solve: PlayerStats | None = None,
) -> discord.Embed:
    """A player's record: play games first (this server), then the codes they held for the
    bot (solve), the daily code (everywhere: a streak follows the player) and races, each kept
    apart."""
    embed = discord.Embed(title=t.gettext("Mastermind record"), colour=ACTIVE)
    embed.description = mention(user_id)
    embed.add_field(name=t.gettext("Games"), value=t.number(record.played))
    embed.add_field(
        name=t.gettext("Won"),
        value=f"{t.number(record.won)} ({t.percent(record.win_rate)})",
    )
    embed.add_field(name=t.gettext("Guesses made"), value=t.number(record.guesses))
    best = words.guesses(t, record.best) if record.best else "—"
    embed.add_field(name=t.gettext("Best win"), value=best)
    if marks := _marks(record, t):
        embed.add_field(name=t.gettext("Hard mode and hints"), value=marks)
    if solve is not None:
        embed.add_field(
            name=t.gettext("Codes you held (solve)"), value=_solve_record(solve, t), inline=False
        )
    if streak is not None:
        embed.add_field(
            name=t.gettext("Daily code"), value=_daily_record(streak, daily, t), inline=False
        )
    if race is not None:
        embed.add_field(name=t.gettext("Races"), value=_race_record(race, t), inline=False)
    return embed


def _marks(record: PlayerStats, t: Messages) -> str:
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
    if record is not None and (marks := _marks(record, t)):
        lines.append(marks)
    return "\n".join(lines)


def _solve_record(record: PlayerStats, t: Messages) -> str:
    if not record.played:
        return t.gettext("None yet: `/mastermind solve` and I crack yours.")
    line = t.gettext(
        "Games **{played}** · I cracked **{won}**",
        played=t.number(record.played),
        won=t.number(record.won),
    )
    if record.best:
        line += " · " + t.gettext("my best: {guesses}", guesses=words.guesses(t, record.best))
    return line


def _race_record(record: PlayerStats, t: Messages) -> str:
    if not record.played:
        return t.gettext("No races yet.")
    line = t.gettext(
        "Races **{played}** · won **{won}** ({rate})",
        played=t.number(record.played),
        won=t.number(record.won),
        rate=t.percent(record.win_rate),
    )
    line += " · " + _average(record, t)
    if record.best:
        line += " · " + t.gettext("best {guesses}", guesses=words.guesses(t, record.best))
    marks = _marks(record, t)
    return f"{line}\n{marks}" if marks else line


_MEDALS = ("🥇", "🥈", "🥉")


def _badge(place: int) -> str:
    return _MEDALS[place] if place < len(_MEDALS) else f"`{place + 1}.`"


def leaderboard(
    rows: Sequence[PlayerStats], *, t: Messages, kind: GameKind = GameKind.PLAY
) -> discord.Embed:
    """The server's best in play games or races: most wins, then the best game."""
    if kind is GameKind.RACE:
        title = t.gettext("Race leaderboard")
        empty = t.gettext("No finished races yet.")
    else:
        title = t.gettext("Mastermind leaderboard")
        empty = t.gettext("No finished games yet. Start one with `/mastermind play`!")
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
        if kind is GameKind.RACE and row.played:
            line += " · " + _average(row, t)
        if row.hard_won:
            line += " 💪"
        if row.hinted:
            line += " 💡"
        lines.append(f"{_badge(place)} {line}")
    embed.description = "\n".join(lines)
    if any(row.hard_won or row.hinted for row in rows):
        embed.set_footer(text=t.gettext("💪 won in hard mode · 💡 played with hints"))
    return embed


def _average(record: PlayerStats, t: Messages) -> str:
    """'4.3 guesses on average' over every game the player guessed in."""
    return t.gettext(
        "{average} guesses on average", average=t.decimal(record.guesses / record.played, 1)
    )


def daily_leaderboard(
    puzzle: int, rows: Sequence[DailyResult], *, t: Messages, limit: int = 10
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
        marks = ("💪" if row.hard else "") + ("💡" if row.hinted else "")
        lines.append(f"{_badge(place)} {line} {marks}".rstrip())
    embed.description = "\n".join(lines)
    return embed


def rules(*, t: Messages) -> discord.Embed:
    embed = discord.Embed(title=t.gettext("How to play Mastermind"), colour=ACTIVE)
    embed.description = t.gettext(
        "One side hides a **code** of coloured pegs; the other cracks it by guessing. Every "
        "guess earns pegs:\n"
        "⚫ **black**: a peg of the right colour in the right place\n"
        "⚪ **white**: a right colour in the wrong place\n"
        "Repeated colours count exactly: a colour earns at most as many pegs as the code has."
    )
    embed.add_field(
        name=t.gettext("You crack the bot's code"),
        value=t.gettext(
            "`/mastermind play` starts a game in this channel (options: pegs, colours, "
            "guesses, duplicates, solo). Guess with `/mastermind guess code:RGBY`, or press "
            "**Guess** on the board. Codes may be written `1122`, `RRGG`, "
            "`red red green green` or with emoji."
        ),
        inline=False,
    )
    embed.add_field(
        name=t.gettext("The bot cracks yours"),
        value=t.gettext(
            "`/mastermind solve` and think of a code. Press the button with the pegs each "
            "guess earns. Made a mistake? **Undo last answer**. With the default Knuth "
            "strategy, 4 pegs and 6 colours never take more than 5 guesses."
        ),
        inline=False,
    )
    embed.add_field(
        name=t.gettext("Every day, together, harder"),
        value=t.gettext(
            "`/mastermind daily`: one code a day for everybody, played privately, with a "
            "spoiler-free result to share and a streak to keep. `/mastermind race`: everyone "
            "who joins cracks the same code on their own board; first to crack it wins. "
            "`hard:true` (play, daily, race): every guess must fit every answer so far. "
            "**Hint** on a board tells how many codes are left, then a code worth guessing; "
            "**Review** after a game compares each guess with Knuth's."
        ),
        inline=False,
    )
    embed.add_field(
        name=t.gettext("More"),
        value=t.gettext(
            "`/mastermind board` shows the board again · `/mastermind giveup` ends the game · "
            "`/mastermind simulate` charts a strategy over every secret · `/mastermind stats` "
            "and `/mastermind leaderboard` keep score."
        ),
        inline=False,
    )
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
