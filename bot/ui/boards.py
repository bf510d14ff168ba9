"""A whole board as one value: the line above it, its embed and its buttons, per game kind.

Boards are public, so `t` is the server's language; the lines and notes around them too.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.engine.game import Game, PlayGame, SolveGame, Status
from bot.ui import clues, components, embeds, text
from bot.ui.i18n import Messages


@dataclass(frozen=True)
class Drawn:
    """Everything a board message shows; every path that draws a board draws all of it."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None


def play(game: Game, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """A play game's board (the secret shows once the game is over), with hard mode and the
    hints used noted."""
    assert isinstance(game, PlayGame)
    return Drawn(
        None,
        clues.mark_board(embeds.play_board(game, game.revealed_secret, t=t), game, t=t),
        components.play_view(game, t=t),
    )


def solve(game: Game, remaining: int | None, note: str | None, t: Messages) -> Drawn:
    """A solve game's board: the bot's guess, how many codes still fit, the answer buttons."""
    assert isinstance(game, SolveGame)
    content = None
    if game.status is Status.SOLVED:
        content = embeds.solved(len(game.guesses), t=t)
    return Drawn(
        content, embeds.solve_board(game, remaining, note, t=t), components.solve_view(game, t=t)
    )


def play_confirm(t: Messages) -> str:
    """The private question before a play game ends."""
    return t.gettext("End this game and reveal the secret?")


def solve_confirm(t: Messages) -> str:
    """The private question before a solve game ends."""
    return t.gettext("End this game and stop my guessing?")


def play_ended(game: Game, by: int, t: Messages) -> str:
    """The public line when a player gives a play game up: the secret, revealed."""
    assert isinstance(game, PlayGame)
    secret = game.revealed_secret
    shown = text.code_line(game.variant.space, secret) if secret else t.gettext("hidden")
    return t.gettext(
        "🏳️ {player} ended the game. The secret was {secret}.",
        player=text.mention(by),
        secret=shown,
    )


def solve_ended(game: Game, by: int, t: Messages) -> str:
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
