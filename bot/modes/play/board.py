"""The play mode's board: the shared guess grid, who guessed, the secret once it is over,
and the Guess, Hint, Give up and Review buttons."""

from __future__ import annotations

import re

import discord

from bot.charts.style import OKABE_ITO
from bot.engine.codes import Code, CodeSpace
from bot.engine.game import MoveKind, Status
from bot.modes.common import board as common_board
from bot.modes.common.rules import NotAPlayGame
from bot.modes.hints import board as hints_board
from bot.modes.play.rules import NotOwnRoute, PlayGame
from bot.modes.review.board import finished_view
from bot.store import PlayerStats
from bot.ui import components, embeds, text, words
from bot.ui.boards import Drawn, Field
from bot.ui.charts import ChartLook
from bot.ui.errors import ErrorWords
from bot.ui.i18n import Messages, later
from bot.ui.ids import ID, NUMBER, Route
from bot.ui.text import mention

RULES = later.gettext(
    "You crack the bot's code\n"
    "`/mastermind play` starts a game in this channel (options: pegs, colours, guesses, "
    "duplicates, solo). Guess with `/mastermind guess code:RGBY`, or press **Guess** on the"
    " board. Codes may be written `1122`, `RRGG`, `red red green green` or with emoji."
)
"""The play mode's section of `/mastermind rules`: its heading, a new line, its text."""


GUESS = Route("guess", (("game", ID),))
SUBMIT_PICK = Route("send", (("game", ID),))
PICK_PEG = Route("pick", (("game", ID), ("peg", 1)))
CODE_MODAL = Route("code", (("game", ID), ("nonce", ID)))
CODE_MODAL_PATTERN = re.compile(rf"mm:code:(?P<game>{NUMBER})(?::(?P<nonce>{NUMBER}))?")
"""The code modal: `mm:code:<game>:<id of the click that opened it>` (older: no nonce)."""


def play_board(game: PlayGame, secret: Code | None = None, *, t: Messages) -> discord.Embed:
    """The code-breaking board: every guess with its pegs and who made it."""
    variant = game.variant
    space = variant.space
    embed = discord.Embed(
        title=f"Mastermind · {embeds.variant_line(game.variant, t)}",
        colour=embeds.STATUS_COLOUR[game.status],
    )
    embed.description = embeds.guess_grid(space, game.moves, t=t, named=True)
    embed.add_field(name=t.gettext("Colours"), value=text.legend(space, t=t), inline=False)
    if game.solo:
        mode = t.gettext("solo: only {player} guesses", player=mention(game.starter_id))
    else:
        mode = t.gettext("everyone may guess")
    if game.status is Status.ACTIVE:
        embed.add_field(name=t.gettext("Guesses left"), value=common_board.guesses_left(game, t=t))
        embed.add_field(name=t.gettext("Players"), value=mode)
        embed.set_footer(text=common_board.how_to_guess(game, t=t))
    else:
        embed.add_field(name=t.gettext("Result"), value=_play_result(game, t), inline=False)
        if secret is not None:
            embed.add_field(
                name=t.gettext("Secret"), value=text.code_line(space, secret), inline=False
            )
        embed.set_footer(text=embeds.edition(game, t))
    return embed


def _play_result(game: PlayGame, t: Messages) -> str:
    used = len(game.moves)
    if game.status is Status.WON:
        winner = embeds.who(game.winner_id, t)
        return t.ngettext(
            "🎉 Cracked by {player} in {count} guess.",
            "🎉 Cracked by {player} in {count} guesses.",
            used,
            player=winner,
        )
    if game.status is Status.LOST:
        return t.gettext(
            "💥 Out of guesses after {count}. The code stays unbroken.", count=t.number(used)
        )
    if game.ended_by is None:
        return t.gettext("⌛ Timed out: nobody played for too long.")
    return t.ngettext(
        "🏳️ Given up by {player} after {count} guess.",
        "🏳️ Given up by {player} after {count} guesses.",
        used,
        player=mention(game.ended_by),
    )


def play_view(game: PlayGame, *, t: Messages) -> discord.ui.View | None:
    """The board's buttons while the game runs (Guess, Hint, Give up); once it is over, the
    Review."""
    if game.id is None:
        return None
    if game.is_over:
        return finished_view(game.id, t=t)
    view = components.RenderedView()
    guess = t.pgettext("button", "Guess")
    view.add_item(
        components.button(GUESS.id(game.id), guess, emoji="🎯", style=discord.ButtonStyle.primary)
    )
    view.add_item(hints_board.hint_button(game.id, t=t))
    view.add_item(common_board.give_up_button(game.id, t=t))
    return view


def draw(game: PlayGame, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """A play game's board (the secret shows once the game is over), with hard mode and the
    hints used noted."""
    return Drawn(
        None,
        mark_board(play_board(game, game.revealed_secret, t=t), game, t=t),
        play_view(game, t=t),
    )


CHART = ChartLook(later.pgettext("chart", "play"), OKABE_ITO["blue"])
"""The play mode's games in a chart: their name and their colour."""


CONFIRM = later.gettext("End this game and reveal the secret?")
"""The private question before a play game ends."""


def ended(game: PlayGame, by: int, t: Messages) -> str:
    """The public line when a player gives a play game up: the secret, revealed."""
    secret = game.revealed_secret
    shown = text.code_line(game.variant.space, secret) if secret else t.gettext("hidden")
    return t.gettext(
        "🏳️ {player} ended the game. The secret was {secret}.",
        player=text.mention(by),
        secret=shown,
    )


def mark_board(embed: discord.Embed, game: PlayGame, *, t: Messages) -> discord.Embed:
    """A play board's notes on how it is played: hard mode, and the hints asked for."""
    return common_board.how_played(embed, game, t=t)


def picker_view(
    game_id: int, space: CodeSpace, chosen: list[int | None], *, t: Messages
) -> discord.ui.View:
    """The private picker: a select per peg and Submit."""
    view = components.RenderedView()
    components.add_picker(view, PICK_PEG, game_id, space, chosen, SUBMIT_PICK.id(game_id), t=t)
    return view


def record_fields(record: PlayerStats, *, t: Messages) -> list[Field]:
    """A player's play games in this server: the first fields of their record."""
    best = words.guesses(t, record.best) if record.best else "—"
    fields = [
        Field(t.gettext("Games"), t.number(record.played)),
        Field(t.gettext("Won"), f"{t.number(record.won)} ({t.percent(record.win_rate)})"),
        Field(t.gettext("Guesses made"), t.number(record.guesses)),
        Field(t.gettext("Best win"), best),
    ]
    if marks := common_board.marks(record, t):
        fields.append(Field(t.gettext("Hard mode and hints"), marks))
    return fields


leaderboard = common_board.Leaderboard(
    lambda t: t.gettext("Mastermind leaderboard"),
    lambda t: t.gettext("No finished games yet. Start one with `/mastermind play`!"),
)
"""The server's best in play games."""


def _not_a_play_game(error: NotAPlayGame, t: Messages) -> str:
    if error.tried is MoveKind.HINT:
        return t.gettext("Hints are for games where you guess my code.")
    return t.gettext("In this game I guess your code: answer my guesses instead.")


ERRORS: ErrorWords = {
    NotAPlayGame: _not_a_play_game,
    NotOwnRoute: lambda _, t: t.gettext(
        "That belongs to a play game; this game is played on its own board."
    ),
}
"""The play mode's refusals in words."""
