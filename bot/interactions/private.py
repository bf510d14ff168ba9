"""Private boards: a player's own ephemeral board, which only their own clicks redraw.

Discord lets only an interaction on an ephemeral message change it, so every click redraws its
own board from the store (`edit_message`). The colours picked so far live in the message (its
menus' defaults), so a restart forgets nothing; Submit and Type a code carry the `stamp` the
board was drawn at (a game version, or the player's guess count), and a click on a board that fell
behind redraws it instead of guessing. Each mode says how its board is loaded, drawn and played
(`PrivateBoard`); the handlers here, and the inputs that reach them (`inputs`), are the same for
all of them.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, TypeVar

import discord

from bot.engine.codes import Code, CodeSpace
from bot.engine.errors import BadChoice, NotHere
from bot.engine.game import BaseGame, Reach
from bot.interactions import boards
from bot.interactions.context import Interaction
from bot.interactions.items import Input, on_choice, on_click
from bot.interactions.modals import ModalRoute
from bot.interactions.replies import guarded
from bot.ui import components, i18n, ids
from bot.ui.boards import Drawn
from bot.ui.errors import Unpicked
from bot.ui.ids import Route

GameT = TypeVar("GameT", bound=BaseGame)
Picked = list[int | None]
"""The colour picked for each peg so far (None: not yet)."""


class PrivateBoard(Protocol[GameT]):
    """What one mode's private board brings to the shared handlers."""

    pick: Route
    """The route of its peg menus (the mode's board declares its routes)."""
    send: Route
    """The route of its Submit button, which carries the board's stamp."""
    type_code: Route
    """The route of its Type a code button, which carries the board's stamp."""
    code: Route
    """The route of its code modal: the game, then the stamp of the board it was opened from."""

    async def load(self, interaction: Interaction, game_id: int) -> GameT:
        """The game, once the clicker is known to be its player here (else a refusal)."""
        ...

    def playable(self, game: GameT, player_id: int) -> bool:
        """The player may still guess on it."""
        ...

    def stamp(self, game: GameT, player_id: int) -> int:
        """What a board drawn from `game` carries on its Submit and Type a code buttons."""
        ...

    def behind(self, t: i18n.Messages) -> str:
        """The note on a board redrawn because it was behind."""
        ...

    def modal(self, game: GameT, player_id: int, t: i18n.Messages) -> discord.ui.Modal:
        """The code modal, its id carrying the board's stamp."""
        ...

    def draw(
        self, interaction: Interaction, game: GameT, chosen: Picked | None, note: str | None
    ) -> Drawn:
        """The clicker's board of `game`, with the colours picked so far and a note."""
        ...

    async def guess(
        self, interaction: Interaction, game: GameT, stamp: int, code: str | Code
    ) -> None:
        """Store the guess (once), then redraw the board and tell whoever must be told."""
        ...


def inputs(board: PrivateBoard[Any]) -> tuple[type[Input], ...]:
    """A private board's buttons and selects: a menu per peg, Submit and Type a code."""
    return (
        on_choice(board.pick, pick_peg, board),
        on_click(board.send, submit, board),
        on_click(board.type_code, open_modal, board),
    )


def modal(board: PrivateBoard[Any]) -> ModalRoute:
    """A private board's code modal: a typed code, checked like a click on its board."""

    async def submitted(interaction: Interaction, numbers: dict[str, int]) -> None:
        game_id, stamp = (numbers[name] for name, _ in board.code.fields)
        await submit_modal(interaction, board, game_id, stamp)

    return ModalRoute(re.compile(board.code.template), submitted)


async def redraw(
    interaction: Interaction,
    board: PrivateBoard[GameT],
    game: GameT,
    chosen: Picked | None = None,
    note: str | None = None,
) -> None:
    """Draw the clicked board again as the store has its game now."""
    drawn = board.draw(interaction, game, chosen, note)
    boards.offer_activity(interaction.client, game, drawn.view, i18n.person(interaction))
    await interaction.response.edit_message(
        content=drawn.content, embed=drawn.embed, view=drawn.view
    )


def colour_choice(space: CodeSpace, values: list[str]) -> int:
    """The one colour a peg menu sent, refused unless the menu offers it."""
    if len(values) != 1 or not values[0].isdecimal() or len(values[0]) > 2:
        raise BadChoice()
    colour = int(values[0])
    if colour >= space.colours:
        raise BadChoice()
    return colour


def _current(board: PrivateBoard[GameT], game: GameT, player_id: int, stamp: int) -> bool:
    """The board showed the game as it is, and its player may still guess."""
    return board.playable(game, player_id) and board.stamp(game, player_id) == stamp


def _picked(board: PrivateBoard[GameT], interaction: Interaction, game: GameT) -> Picked:
    assert game.id is not None
    return components.picked_colours(
        interaction.message, game.id, game.variant.space, route=board.pick
    )


async def _load(interaction: Interaction, board: PrivateBoard[GameT], game_id: int) -> GameT:
    """The board's game, checked as its mode checks it. A game whose only board is this
    private one leaves nothing for the catch-up to read afterwards."""
    game = await board.load(interaction, game_id)
    if game.reach is not Reach.CHANNEL:
        boards.in_step(interaction)
    return game


@guarded
async def pick_peg(
    interaction: Interaction,
    board: PrivateBoard[GameT],
    game_id: int,
    peg: int,
    values: list[str],
) -> None:
    """A peg's colour: kept in the board message itself (its menu's default)."""
    game = await _load(interaction, board, game_id)
    if not board.playable(game, interaction.user.id):
        await redraw(interaction, board, game)
        return
    space = game.variant.space
    if peg >= space.pegs:
        raise BadChoice()
    chosen = _picked(board, interaction, game)
    chosen[peg] = colour_choice(space, values)
    await redraw(interaction, board, game, chosen)


@guarded
async def submit(
    interaction: Interaction, board: PrivateBoard[GameT], game_id: int, stamp: int
) -> None:
    """Submit: the picked code is the guess of the board as drawn at `stamp`."""
    game = await _load(interaction, board, game_id)
    chosen = _picked(board, interaction, game)
    if not _current(board, game, interaction.user.id, stamp):
        await redraw(interaction, board, game, chosen, board.behind(i18n.person(interaction)))
        return
    missing = [peg + 1 for peg, colour in enumerate(chosen) if colour is None]
    if missing:
        raise Unpicked(missing)
    await board.guess(interaction, game, stamp, tuple(c for c in chosen if c is not None))


@guarded
async def open_modal(
    interaction: Interaction, board: PrivateBoard[GameT], game_id: int, stamp: int
) -> None:
    """Type a code: the code modal, for those who would rather write RGBY (and for long codes)."""
    game = await _load(interaction, board, game_id)
    t = i18n.person(interaction)
    if not _current(board, game, interaction.user.id, stamp):
        await redraw(interaction, board, game, note=board.behind(t))
        return
    await interaction.response.send_modal(board.modal(game, interaction.user.id, t))


@guarded
async def submit_modal(
    interaction: Interaction, board: PrivateBoard[GameT], game_id: int, stamp: int
) -> None:
    """A typed code, checked like a click on the board the modal was opened from."""
    game = await _load(interaction, board, game_id)
    if interaction.message is None:  # a modal always comes from its board's button
        raise NotHere()
    if not _current(board, game, interaction.user.id, stamp):
        await redraw(interaction, board, game, note=board.behind(i18n.person(interaction)))
        return
    code = components.modal_value(interaction.data or {}, ids.CODE_FIELD) or ""
    await board.guess(interaction, game, stamp, code)
