"""A race as the channel and each racer see it.

The race board is public (the server's language) and never shows a colour while the race
runs: the lobby (who joined, when it starts, Join and Start), then each player's progress as
peg rows (black, white, empty), and at the end the secret and the ranking. Each racer's own
board is private (their language): their guesses in colour, a select per peg with Submit, and
Type a code. Countdowns are Discord timestamps (`<t:...:R>`), which every client counts down
by itself, so the board needs no redraw to show the time left.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.charts.style import OKABE_ITO
from bot.engine.game import Status
from bot.modes.common import board as common_board
from bot.modes.common.board import average, badge, counts, marks, peg_row
from bot.modes.race.actions import RaceNeedsServer
from bot.modes.race.rules import (
    AlreadyJoined,
    LobbyClosed,
    NotARace,
    NotInRace,
    NotTheStarter,
    Placing,
    RaceFinished,
    RaceFull,
    RaceGame,
    RaceNotStarted,
    RaceStarted,
    RaceTiming,
    TimeIsUp,
)
from bot.modes.review.board import finished_view
from bot.store import PlayerStats
from bot.ui import components, embeds, text, words
from bot.ui.boards import Drawn, Field
from bot.ui.charts import ChartLook
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages, later
from bot.ui.ids import ID, Route
from bot.ui.text import mention

RULES = later.gettext(
    "Together\n"
    "`/mastermind race`: everyone who joins cracks the same code on their own board; first "
    "to crack it wins."
)
"""The race mode's section of `/mastermind rules`: its heading, a new line, its text."""


RACE_JOIN = Route("rjoin", (("game", ID),))
RACE_START = Route("rstart", (("game", ID),))
RACE_BOARD = Route("rboard", (("game", ID),))
"""A race's My board: the clicker's own private board of that race."""
RACE_PICK = Route("rpick", (("game", ID), ("peg", 1)))
RACE_SEND = Route("rsend", (("game", ID), ("made", 2)))
"""Submit the picked code from a private race board that showed `made` of the player's guesses."""
RACE_TYPE = Route("rtype", (("game", ID), ("made", 2)))
RACE_MODAL = Route("rcode", (("game", ID), ("made", 2)))


def _title(game: RaceGame, t: Messages) -> str:
    variant = game.variant
    rules = embeds.variant_title(variant.pegs, variant.colours, variant.duplicates, t=t)
    if game.hard:
        return t.gettext("🏁 Mastermind race · {rules} · hard mode", rules=rules)
    return t.gettext("🏁 Mastermind race · {rules}", rules=rules)


def when(moment: int) -> str:
    """A moment every Discord client shows as a live countdown ("in 45 seconds")."""
    return f"<t:{moment}:R>"


def at(moment: int) -> str:
    """A moment every Discord client shows as a time of day in its own time zone."""
    return f"<t:{moment}:T>"


def _edition(game: RaceGame, t: Messages) -> str:
    return t.gettext("Game {game} · move {move}", game=game.id, move=game.version)


# --- the race board (public) -------------------------------------------------------------------


def draw(game: RaceGame, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """The channel's race board, as the shared machinery draws it."""
    return Drawn(note, board_embed(game, t=t), board_view(game, t=t))


def board_embed(game: RaceGame, *, t: Messages) -> discord.Embed:
    embed = discord.Embed(title=_title(game, t), colour=embeds.STATUS_COLOUR[game.status])
    limit = t.ngettext("{count} guess each", "{count} guesses each", game.variant.max_guesses)
    if not game.started and not game.is_over:
        intro = t.gettext(
            "Everyone cracks the same secret on their own private board. First to crack it "
            "wins; the ranking goes by guesses, then time."
        )
        join = t.gettext(
            "Press **Join**! The race starts {start}, or when {starter} presses **Start**.",
            start=when(game.lobby_until),
            starter=text.mention(game.starter_id),
        )
        embed.description = f"{intro}\n\n{join}"
        players = t.ngettext("Player ({count})", "Players ({count})", len(game.players))
        embed.add_field(
            name=players, value=", ".join(text.mention(p) for p in game.players), inline=False
        )
        embed.add_field(
            name=t.gettext("Rules"),
            value=t.gettext(
                "{limit} · the race ends {end}", limit=limit, end=when(game.race_until)
            ),
            inline=False,
        )
    elif not game.is_over:
        on = t.gettext(
            "**The race is on!** Racers: press **My board** to play. It ends {end}.",
            end=when(game.race_until),
        )
        embed.description = f"{on}\n\n{progress(game, t=t)}"
        embed.add_field(name=t.gettext("Rules"), value=limit, inline=False)
    else:
        embed.description = f"{result(game, t=t)}\n\n{progress(game, t=t)}"
        embed.add_field(name=t.gettext("Ranking"), value=ranking(game, t=t), inline=False)
        secret = game.revealed_secret
        if secret is not None:
            embed.add_field(
                name=t.gettext("Secret"),
                value=text.code_line(game.variant.space, secret),
                inline=False,
            )
    embed.set_footer(text=_edition(game, t))
    return embed


def progress(game: RaceGame, *, t: Messages) -> str:
    """Each player: how far they are, and a peg row per guess (no colours)."""
    lines = []
    pegs = game.variant.pegs
    for player in game.players:
        moves = game.guesses_of(player)
        made = len(moves)
        if game.cracked(player):
            state = t.ngettext(
                "🎉 cracked it in {count} guess", "🎉 cracked it in {count} guesses", made
            )
        elif game.finished(player):
            state = t.gettext("💥 out of guesses")
        else:
            state = t.ngettext("{count} guess", "{count} guesses", made)
        lines.append(f"{text.mention(player)} · {state}")
        rows = [
            peg_row(m.black, m.white, pegs)
            for m in moves
            if m.black is not None and m.white is not None
        ]
        if rows:
            lines.append("  ".join(rows))
    return "\n".join(lines)


def result(game: RaceGame, *, t: Messages) -> str:
    """How the race ended: who cracked it first, and why it stopped."""
    if game.winner_id is not None:
        first = t.gettext("🏆 First to crack it: {player}!", player=text.mention(game.winner_id))
    else:
        first = t.gettext("💥 Nobody cracked the code.")
    if game.status is Status.ABANDONED and game.ended_by is not None:
        why = t.gettext("🏳️ Ended by {player}.", player=text.mention(game.ended_by))
    elif game.timed_out:
        why = t.gettext("⌛ Time is up.")
    else:
        why = t.gettext("🏁 Everyone has finished.")
    return f"{why} {first}"


def _placing(place: Placing, t: Messages) -> str:
    who = text.mention(place.player_id)
    if place.place is None:
        return "▪️ " + t.ngettext(
            "{player} did not crack it ({count} guess)",
            "{player} did not crack it ({count} guesses)",
            place.guesses,
            player=who,
        )
    return f"{badge(place.place - 1)} " + t.ngettext(
        "{player} · {count} guess", "{player} · {count} guesses", place.guesses, player=who
    )


def ranking(game: RaceGame, *, t: Messages) -> str:
    """Those who cracked it by guesses, then time; then the others."""
    return "\n".join(_placing(place, t) for place in game.ranking)


def board_view(game: RaceGame, *, t: Messages) -> discord.ui.View | None:
    """The lobby: Join, Start (the starter's), Give up; the race: My board, Give up; once over:
    Review (each racer's own guesses)."""
    if game.id is None:
        return None
    if game.is_over:
        return finished_view(game.id, t=t)
    view = components.RenderedView()
    if not game.started:
        view.add_item(
            _button(RACE_JOIN.id(game.id), t.gettext("Join"), "🙋", discord.ButtonStyle.primary)
        )
        view.add_item(
            _button(RACE_START.id(game.id), t.gettext("Start"), "🏁", discord.ButtonStyle.success)
        )
    else:
        view.add_item(
            _button(
                RACE_BOARD.id(game.id), t.gettext("My board"), "🎯", discord.ButtonStyle.primary
            )
        )
    view.add_item(common_board.give_up_button(game.id, t=t))
    return view


def _button(
    custom_id: str, label: str, emoji: str, style: discord.ButtonStyle
) -> discord.ui.Button[Any]:
    return discord.ui.Button(label=label, emoji=emoji, style=style, custom_id=custom_id)


CHART = ChartLook(later.pgettext("chart", "race"), OKABE_ITO["reddish purple"])
"""The race mode's games in a chart: their name and their colour."""


CONFIRM = later.gettext("End this race for everyone and reveal the secret?")
"""The private question before a race ends."""


def ended(game: RaceGame, by: int, t: Messages) -> str:
    """The public line when the starter or a moderator ends a race."""
    return end_line(game, t=t)


def started_line(game: RaceGame, *, t: Messages) -> str:
    """The public line when guessing opens."""
    racers = " ".join(text.mention(p) for p in game.players)
    return t.gettext(
        "🏁 The race has started! {players}: press **My board** on the race board to play.",
        players=racers,
    )


def end_line(game: RaceGame, *, t: Messages) -> str:
    """The public line when a race is over: how it ended, the secret and the ranking."""
    secret = game.revealed_secret
    shown = text.code_line(game.variant.space, secret) if secret else t.gettext("hidden")
    over = t.gettext("**The race is over.** The secret was {secret}.", secret=shown)
    return f"{over}\n{result(game, t=t)}\n{ranking(game, t=t)}"


# --- a racer's own board (private) -------------------------------------------------------------


def can_guess(game: RaceGame, player_id: int) -> bool:
    return game.started and not game.is_over and not game.finished(player_id)


def private(
    game: RaceGame,
    player_id: int,
    chosen: list[int | None] | None = None,
    note: str | None = None,
    *,
    t: Messages,
) -> Drawn:
    """One racer's board: their guesses in colour, the picker while they play."""
    space = game.variant.space
    picked: list[int | None] = chosen if chosen is not None else [None] * space.pegs
    content = components.picker_text(space, picked, t=t) if can_guess(game, player_id) else None
    if note:
        content = f"{note}\n{content}" if content else note
    return Drawn(
        content, private_embed(game, player_id, t=t), private_view(game, player_id, picked, t=t)
    )


def private_embed(game: RaceGame, player_id: int, *, t: Messages) -> discord.Embed:
    variant = game.variant
    space = variant.space
    mine = game.guesses_of(player_id)
    colour = embeds.ACTIVE
    if game.cracked(player_id):
        colour = embeds.WON
    elif game.finished(player_id):
        colour = embeds.LOST
    embed = discord.Embed(title=t.gettext("Your race board"), colour=colour)
    embed.description = embeds.guess_grid(space, mine, t=t)
    embed.add_field(name=t.gettext("Colours"), value=text.legend(space, t=t), inline=False)
    if game.cracked(player_id):
        state = t.ngettext(
            "🎉 You cracked it in {count} guess!",
            "🎉 You cracked it in {count} guesses!",
            len(mine),
        )
    elif game.finished(player_id):
        state = t.gettext("💥 Out of guesses. The secret shows when the race is over.")
    elif game.is_over:
        state = t.gettext("The race is over.")
    else:
        state = t.gettext(
            "**{left}** of {limit} guesses left · the race ends {end}",
            left=t.number(game.guesses_left_for(player_id)),
            limit=t.number(variant.max_guesses),
            end=when(game.race_until),
        )
    embed.add_field(name=t.gettext("You"), value=state, inline=False)
    if game.is_over:
        placing = next(p for p in game.ranking if p.player_id == player_id)
        embed.add_field(name=t.gettext("Ranking"), value=ranking(game, t=t), inline=False)
        if placing.place is not None:
            embed.add_field(name=t.gettext("Your place"), value=t.number(placing.place))
        secret = game.revealed_secret
        if secret is not None:
            embed.add_field(
                name=t.gettext("Secret"), value=text.code_line(space, secret), inline=False
            )
    private_note = t.gettext("Only you see your colours; the channel sees your pegs.")
    embed.set_footer(text=f"{private_note} · {_edition(game, t)}")
    return embed


def private_view(
    game: RaceGame, player_id: int, chosen: list[int | None], *, t: Messages
) -> discord.ui.View | None:
    """While the player may guess: a select per peg and Submit (up to 4 pegs), Type a code."""
    if game.id is None or not can_guess(game, player_id):
        return None
    space = game.variant.space
    made = len(game.guesses_of(player_id))
    view = components.RenderedView()
    if space.pegs <= components.PICKER_MAX_PEGS:
        send = RACE_SEND.id(game.id, made)
        components.add_picker(view, RACE_PICK, game.id, space, chosen, send, t=t)
    view.add_item(components.type_code_button(RACE_TYPE.id(game.id, made), t=t))
    return view


def code_modal(game: RaceGame, made: int, *, t: Messages) -> discord.ui.Modal:
    """The text box for a typed code; its id carries how many guesses the board showed."""
    assert game.id is not None
    return components.CodeModal(RACE_MODAL.id(game.id, made), game.variant.space, t=t)


def behind(t: Messages) -> str:
    return t.gettext("This board was behind the race; here it is as it stands now.")


def _race_record(record: PlayerStats, t: Messages) -> str:
    if not record.played:
        return t.gettext("No races yet.")
    line = t.gettext(
        "Races **{played}** · won **{won}** ({rate})",
        rate=t.percent(record.win_rate),
        **counts(record, t),
    )
    line += " · " + average(record, t)
    if record.best:
        line += " · " + t.gettext("best {guesses}", guesses=words.guesses(t, record.best))
    shown = marks(record, t)
    return f"{line}\n{shown}" if shown else line


def record_field(record: PlayerStats, *, t: Messages) -> Field:
    """A player's races in this server, in their record."""
    return Field(t.gettext("Races"), _race_record(record, t), inline=False)


leaderboard = common_board.Leaderboard(
    lambda t: t.gettext("Race leaderboard"),
    lambda t: t.gettext("No finished races yet."),
    averages=True,
)
"""The server's best racers, with their average guesses."""


ERRORS: ErrorWords = {
    NotTheStarter: lambda error, t: t.gettext(
        "Only {owner} can start this race.", owner=mention(error.owner_id)
    ),
    NotInRace: lambda _, t: t.gettext(
        "You are not in this race; join the next one while its lobby is open."
    ),
    AlreadyJoined: lambda _, t: t.gettext("You are already in this race."),
    RaceFull: lambda _, t: t.gettext("This race is full."),
    RaceNotStarted: lambda _, t: t.gettext(
        "The race has not started yet: wait for the starter or the clock."
    ),
    RaceStarted: lambda _, t: t.gettext("This race has already started; join the next one."),
    LobbyClosed: lambda error, t: t.gettext(
        "This race's lobby closed at {time}; join the next one.", time=at(error.closed_at)
    ),
    TimeIsUp: lambda error, t: t.gettext(
        "This race's time ran out at {time}; that guess came too late.",
        time=at(error.closed_at),
    ),
    RaceFinished: lambda _, t: t.gettext(
        "You have finished this race: watch its board for the others."
    ),
    NotARace: lambda _, t: t.gettext("That belongs to a race; this game is not one."),
    RaceTiming: lambda _, t: t.gettext(
        "A race needs a join window of 0 s or more and a time limit."
    ),
    RaceNeedsServer: lambda _, t: t.gettext(
        "Races are run in the channels of servers I have joined."
    ),
}
"""The race mode's refusals in words."""
