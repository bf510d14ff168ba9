"""A whole board as one value: the line above it, its embed and its buttons, per game kind."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.engine.game import Game, PlayGame, SolveGame, Status
from bot.ui import components, embeds, text


@dataclass(frozen=True)
class Drawn:
    """Everything a board message shows; every path that draws a board draws all of it."""

    content: str | None
    embed: discord.Embed
    view: discord.ui.View | None


def play(game: Game, remaining: int | None = None, note: str | None = None) -> Drawn:
    """A play game's board (the secret shows once the game is over)."""
    assert isinstance(game, PlayGame)
    return Drawn(None, embeds.play_board(game, game.revealed_secret), components.play_view(game))


def solve(game: Game, remaining: int | None = None, note: str | None = None) -> Drawn:
    """A solve game's board: the bot's guess, how many codes still fit, the answer buttons."""
    assert isinstance(game, SolveGame)
    content = None
    if game.status is Status.SOLVED:
        content = f"🎯 Solved in {text.guesses(len(game.guesses))}!"
    return Drawn(content, embeds.solve_board(game, remaining, note), components.solve_view(game))


def play_ended(game: Game, by: int) -> str:
    """The public line when a player gives a play game up: the secret, revealed."""
    assert isinstance(game, PlayGame)
    secret = game.revealed_secret
    shown = text.code_line(game.variant.space, secret) if secret else "hidden"
    return f"🏳️ {text.mention(by)} ended the game. The secret was {shown}."


def solve_ended(game: Game, by: int) -> str:
    """The public line when a solve game is given up."""
    return f"🏳️ {text.mention(by)} ended the solving game."
