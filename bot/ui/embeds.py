"""Embeds: the play board, the solve board, charts, stats and the rules."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.engine.codes import Code
from bot.engine.game import MoveKind, PlayGame, SolveGame, Status
from bot.engine.job_types import SimulationResult
from bot.engine.strategies import get_strategy
from bot.store import PlayerStats
from bot.ui import text
from bot.ui.text import mention

ACTIVE = discord.Colour.blurple()
WON = discord.Colour.green()
LOST = discord.Colour.red()
ENDED = discord.Colour.dark_grey()

_STATUS_COLOUR = {
    Status.ACTIVE: ACTIVE,
    Status.WON: WON,
    Status.SOLVED: WON,
    Status.LOST: LOST,
    Status.ABANDONED: ENDED,
}


def variant_title(pegs: int, colours: int, duplicates: bool) -> str:
    repeats = "" if duplicates else " · no repeats"
    return f"{pegs} pegs · {colours} colours{repeats}"


def play_board(game: PlayGame, secret: Code | None = None) -> discord.Embed:
    """The code-breaking board: every guess with its pegs and who made it."""
    variant = game.variant
    space = variant.space
    embed = discord.Embed(
        title=f"Mastermind · {variant_title(variant.pegs, variant.colours, variant.duplicates)}",
        colour=_STATUS_COLOUR[game.status],
    )
    guesses = [m for m in game.moves if m.kind is MoveKind.GUESS]
    rows = [
        text.guess_row(n, space, m.code, m.black, m.white, mention(m.player_id))
        for n, m in enumerate(guesses, start=1)
        if m.code is not None and m.black is not None and m.white is not None
    ]
    hidden = "❔" * variant.pegs
    embed.description = "\n".join(rows) if rows else f"{hidden}  *No guesses yet. Crack the code!*"
    embed.add_field(name="Colours", value=text.legend(space), inline=False)
    mode = f"solo: only {mention(game.starter_id)} guesses" if game.solo else "everyone may guess"
    if game.status is Status.ACTIVE:
        embed.add_field(
            name="Guesses left", value=f"**{game.guesses_left}** of {variant.max_guesses}"
        )
        embed.add_field(name="Players", value=mode)
        embed.set_footer(
            text=f"Guess with /mastermind guess code:{space.example()} or the Guess button. "
            "⚫ right colour, right place · ⚪ right colour, wrong place · "
            f"{_edition(game)}"
        )
    else:
        embed.add_field(name="Result", value=_play_result(game), inline=False)
        if secret is not None:
            embed.add_field(name="Secret", value=text.code_line(space, secret), inline=False)
        embed.set_footer(text=_edition(game))
    return embed


def _edition(game: PlayGame | SolveGame) -> str:
    """Which game and which of its versions a board shows: boards are redrawn until they
    show the stored version, and this says which one a player is looking at."""
    return f"Game {game.id} · move {game.version}"


def _play_result(game: PlayGame) -> str:
    used = sum(1 for m in game.moves if m.kind is MoveKind.GUESS)
    if game.status is Status.WON:
        return f"🎉 Cracked by {mention(game.winner_id)} in {text.guesses(used)}."
    if game.status is Status.LOST:
        return f"💥 Out of guesses after {used}. The code stays unbroken."
    if game.ended_by is None:
        return "⌛ Timed out: nobody played for too long."
    return f"🏳️ Given up by {mention(game.ended_by)} after {text.guesses(used)}."


def solve_board(game: SolveGame, remaining: int | None, note: str | None = None) -> discord.Embed:
    """The board of a game where the bot breaks the player's code."""
    variant = game.variant
    space = variant.space
    strategy = get_strategy(game.strategy)
    embed = discord.Embed(
        title=f"I'm cracking {_possessive(game.starter_id)} code · "
        f"{variant_title(variant.pegs, variant.colours, variant.duplicates)}",
        colour=_STATUS_COLOUR[game.status],
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
        lines.append(f"\n🎯 **Solved in {text.guesses(len(game.guesses))}!**")
    elif game.status is Status.ABANDONED:
        lines.append("\n🏳️ Given up. Thanks for playing!")
    elif game.is_stuck:
        lines.append("\n⚠️ **No code fits all your answers.**")
    elif current is not None:
        number = len(game.guesses)
        lines.append(f"\n**Guess {number}:** {text.code_all_formats(space, current)}")
        if remaining is not None:
            lines.append(f"Codes still possible: **{remaining:,}**")
    if note:
        lines.append(note)
    embed.description = "\n".join(lines)
    embed.add_field(name="Colours", value=text.legend(space), inline=False)
    embed.set_footer(
        text=f"Strategy: {strategy.title}. Answer with the pegs my guess earns: "
        "⚫ right colour, right place · ⚪ right colour, wrong place. · "
        f"{_edition(game)}"
    )
    return embed


def _possessive(user_id: int) -> str:
    return f"{mention(user_id)}'s"


def simulation(result: SimulationResult, pegs: int, colours: int, strategy: str) -> str:
    """A simulate run as a message: a bar chart in a code block and the summary line."""
    kind = "every secret" if result.all_secrets else f"{result.games:,} random secrets"
    if result.cut_short:
        kind += f" (of {result.planned:,} planned: the time limit was reached)"
    return (
        f"**{get_strategy(strategy).title}** on {pegs} pegs × {colours} colours, {kind}, "
        f"first guess `{result.first_guess}`\n"
        f"```\nguesses | secrets\n{text.bar_chart(result.chart())}\n```"
        f"Total **{result.total:,}** guesses · average **{result.average:.3f}** · "
        f"worst **{result.worst}** · {result.seconds:.2f} s"
    )


def stats(user_id: int, record: PlayerStats) -> discord.Embed:
    embed = discord.Embed(title="Mastermind record", colour=ACTIVE)
    embed.description = mention(user_id)
    embed.add_field(name="Games", value=str(record.played))
    embed.add_field(name="Won", value=f"{record.won} ({record.win_rate:.0%})")
    embed.add_field(name="Guesses made", value=str(record.guesses))
    embed.add_field(name="Best win", value=text.guesses(record.best) if record.best else "—")
    return embed


def leaderboard(rows: Sequence[PlayerStats]) -> discord.Embed:
    embed = discord.Embed(title="Mastermind leaderboard", colour=ACTIVE)
    if not rows:
        embed.description = "No finished games yet. Start one with `/mastermind play`!"
        return embed
    medals = ["🥇", "🥈", "🥉"]
    lines = []
    for place, row in enumerate(rows):
        badge = medals[place] if place < len(medals) else f"`{place + 1}.`"
        best = f", best {row.best}" if row.best else ""
        lines.append(f"{badge} {mention(row.user_id)}: {row.won} won of {row.played}{best}")
    embed.description = "\n".join(lines)
    return embed


def rules() -> discord.Embed:
    embed = discord.Embed(title="How to play Mastermind", colour=ACTIVE)
    embed.description = (
        "One side hides a **code** of coloured pegs; the other cracks it by guessing. Every "
        "guess earns pegs:\n"
        "⚫ **black**: a peg of the right colour in the right place\n"
        "⚪ **white**: a right colour in the wrong place\n"
        "Repeated colours count exactly: a colour earns at most as many pegs as the code has."
    )
    embed.add_field(
        name="You crack the bot's code",
        value="`/mastermind play` starts a game in this channel (options: pegs, colours, "
        "guesses, duplicates, solo). Guess with `/mastermind guess code:RGBY`, or press **Guess** "
        "on the board. Codes may be written `1122`, `RRGG`, `red red green green` or with emoji.",
        inline=False,
    )
    embed.add_field(
        name="The bot cracks yours",
        value="`/mastermind solve` and think of a code. Press the button with the pegs each "
        "guess earns. Made a mistake? **Undo last answer**. With the default Knuth strategy, "
        "4 pegs and 6 colours never take more than 5 guesses.",
        inline=False,
    )
    embed.add_field(
        name="More",
        value="`/mastermind board` shows the board again · `/mastermind giveup` ends the game · "
        "`/mastermind simulate` charts a strategy over every secret · `/mastermind stats` and "
        "`/mastermind leaderboard` keep score.",
        inline=False,
    )
    return embed
