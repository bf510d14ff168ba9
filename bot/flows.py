"""What happens when a player acts, shared by slash commands and buttons.

Each flow loads from the store, applies one pure transition through `Store.apply` (solver work
runs in the worker pool *before*, never inside the transaction), then renders. Failures of any
kind become an ephemeral reply through `guarded`; nothing is half-applied, because the store's
transaction is the only write.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ParamSpec

import discord

from bot.engine import game as rules
from bot.engine.codes import Code, CodeError, CodeSpace
from bot.engine.game import (
    GameOver,
    NoActiveGame,
    NotYourGame,
    PlayGame,
    SolveGame,
    Status,
    Variant,
    WrongGameKind,
)
from bot.engine.search import check_size
from bot.engine.strategies import get_strategy
from bot.ui import components, embeds, text
from bot.ui.errors import reply_error

if TYPE_CHECKING:
    from bot.app import MastermindBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction["MastermindBot"]
P = ParamSpec("P")


def guarded(flow: Callable[P, Awaitable[None]]) -> Callable[P, Awaitable[None]]:
    """Any failure in a flow becomes a friendly ephemeral reply to its interaction."""

    @functools.wraps(flow)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            await flow(*args, **kwargs)
        except Exception as error:
            interaction = args[0]
            assert isinstance(interaction, discord.Interaction)
            await reply_error(interaction, error)

    return wrapper


# --- boards ------------------------------------------------------------------------------------


def _board_key(game_id: int) -> str:
    return f"board:{game_id}"


async def remember_board(
    bot: MastermindBot, game_id: int, channel_id: int, message_id: int
) -> None:
    """The board message of a game, so later moves (even after a restart) can edit it."""
    await bot.store.set_meta(_board_key(game_id), f"{channel_id}:{message_id}")


async def refresh_board(bot: MastermindBot, game: rules.Game) -> None:
    """Edit a game's board message in place (after moves made elsewhere, or when it ends).

    A deleted board is not an error: `/mastermind board` posts a new one.
    """
    if game.id is None:
        return
    where = await bot.store.get_meta(_board_key(game.id))
    if where is None:
        return
    channel_id, message_id = (int(part) for part in where.split(":"))
    message = bot.get_partial_messageable(channel_id).get_partial_message(message_id)
    if isinstance(game, PlayGame):
        embed = embeds.play_board(game, game.revealed_secret)
        view = components.play_view(game)
    else:
        embed, view = embeds.solve_board(game, None), components.solve_view(game)
    try:
        await message.edit(embed=embed, view=view)
    except discord.NotFound:
        log.info("board of game %s was deleted", game.id)


async def _load(bot: MastermindBot, game_id: int) -> rules.Game:
    game = await bot.store.game(game_id)
    if game is None:
        raise NoActiveGame()
    if game.is_over:
        raise GameOver()
    return game


async def _active(bot: MastermindBot, channel_id: int | None) -> rules.Game:
    game = await bot.store.active_game(channel_id or 0)
    if game is None:
        raise NoActiveGame()
    return game


def _may_end(interaction: Interaction, game: rules.Game) -> None:
    """The starter or a member who can manage messages may end a game."""
    allowed = interaction.user.id == game.starter_id or interaction.permissions.manage_messages
    if not allowed:
        raise NotYourGame(
            game.starter_id,
            f"Only {embeds.mention(game.starter_id)} or a moderator (Manage Messages) can end "
            "this game.",
        )


# --- play --------------------------------------------------------------------------------------


@guarded
async def start_play(interaction: Interaction, variant: Variant, solo: bool) -> None:
    bot = interaction.client
    fresh = rules.new_play_game(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        starter_id=interaction.user.id,
        variant=variant,
        solo=solo,
    )
    game = await bot.store.start(fresh)
    assert isinstance(game, PlayGame) and game.id is not None
    response = await interaction.response.send_message(
        embed=embeds.play_board(game), view=components.play_view(game)
    )
    if response.message_id is not None:
        await remember_board(bot, game.id, game.channel_id, response.message_id)
    log.info("play game %s started in channel %s", game.id, game.channel_id)


def _guess_line(game: PlayGame, outcome: rules.GuessOutcome, player_id: int) -> str:
    space = game.variant.space
    move = outcome.move
    assert move.code is not None and move.black is not None and move.white is not None
    line = (
        f"{embeds.mention(player_id)} guessed {text.code_line(space, move.code)} → "
        f"{text.pegs(move.black, move.white)} ({text.peg_words(move.black, move.white)})"
    )
    if outcome.status is Status.WON:
        return (
            f"🎉 {line}\n**{embeds.mention(player_id)} cracked the code in {outcome.number} "
            "guesses!**"
        )
    if outcome.status is Status.LOST:
        secret = text.code_line(space, outcome.secret) if outcome.secret else "hidden"
        return f"{line}\n💥 **Out of guesses!** The secret was {secret}."
    left = outcome.guesses_left
    return f"{line} · {text.guesses(left)} left"


async def _knuth_note(bot: MastermindBot, game: PlayGame, outcome: rules.GuessOutcome) -> str:
    """How Knuth's algorithm would have done on the same secret (computed in a worker)."""
    if outcome.secret is None:
        return ""
    variant = game.variant
    needed = await bot.solver.knuth_guesses(
        variant.pegs, variant.colours, variant.duplicates, list(outcome.secret)
    )
    if needed is None:
        return ""
    return f"\n🧠 Knuth's algorithm would have needed {text.guesses(needed)}."


async def _apply_guess(
    interaction: Interaction, code: str | Code, game_id: int | None
) -> tuple[PlayGame, rules.GuessOutcome]:
    bot = interaction.client
    if game_id is None:
        game_id = (await _active(bot, interaction.channel_id)).id
    player = interaction.user.id
    game, outcome = await bot.store.apply(lambda g: rules.guess(g, player, code), game_id=game_id)
    assert isinstance(game, PlayGame)
    return game, outcome


@guarded
async def guess_command(interaction: Interaction, code: str) -> None:
    """`/mastermind guess`: a visible line, then the board edited in place."""
    await _guess_and_report(interaction, None, code, edit_picker=False)


@guarded
async def open_picker(interaction: Interaction, game_id: int) -> None:
    """The Guess button: a private picker (a select per peg), or a modal for long codes."""
    game = await _load(interaction.client, game_id)
    if not isinstance(game, PlayGame):
        raise WrongGameKind("In this game I guess your code: answer my guesses instead.")
    if game.solo and interaction.user.id != game.starter_id:
        raise NotYourGame(
            game.starter_id, f"This is {embeds.mention(game.starter_id)}'s solo game."
        )
    space = game.variant.space
    if space.pegs > components.PICKER_MAX_PEGS:
        await interaction.response.send_modal(components.CodeModal(game_id, space))
        return
    chosen: list[int | None] = [None] * space.pegs
    await interaction.response.send_message(
        _picker_text(space, chosen),
        view=components.picker_view(game_id, space, chosen),
        ephemeral=True,
    )


def _picker_text(space: CodeSpace, chosen: list[int | None]) -> str:
    shown = "".join("❔" if c is None else space.palette[c].emoji for c in chosen)
    return f"Pick a colour for each peg, then submit. Your guess: {shown}"


@guarded
async def pick_peg(interaction: Interaction, game_id: int, peg: int, colour: int) -> None:
    game = await _load(interaction.client, game_id)
    space = game.variant.space
    chosen = components.picked_colours(interaction.message, game_id, space.pegs)
    if peg < space.pegs:
        chosen[peg] = colour
    await interaction.response.edit_message(
        content=_picker_text(space, chosen), view=components.picker_view(game_id, space, chosen)
    )


@guarded
async def submit_pick(interaction: Interaction, game_id: int) -> None:
    game = await _load(interaction.client, game_id)
    space = game.variant.space
    chosen = components.picked_colours(interaction.message, game_id, space.pegs)
    missing = [str(i + 1) for i, c in enumerate(chosen) if c is None]
    if missing:
        raise CodeError(f"Pick a colour for peg {', '.join(missing)} first.")
    code = tuple(c for c in chosen if c is not None)
    await _guess_and_report(interaction, game_id, code, edit_picker=True)


async def _guess_and_report(
    interaction: Interaction, game_id: int | None, code: str | Code, edit_picker: bool
) -> None:
    """Apply a guess, post its public line (closing the picker it came from, if any), edit the
    board, and add Knuth's count to the line on a win."""
    bot = interaction.client
    game, outcome = await _apply_guess(interaction, code, game_id)
    line = _guess_line(game, outcome, interaction.user.id)
    if edit_picker:
        await interaction.response.edit_message(content="Guess sent. ✅", view=None)
        message = await interaction.followup.send(line, wait=True)
    else:
        await interaction.response.send_message(line)
        message = None
    await refresh_board(bot, game)
    if outcome.status is Status.WON:
        note = await _knuth_note(bot, game, outcome)
        if note and message is not None:
            await message.edit(content=line + note)
        elif note:
            await interaction.edit_original_response(content=line + note)


@guarded
async def on_modal_submit(interaction: Interaction, game_id: int) -> None:
    code = _modal_value(interaction.data or {}, components.CODE_FIELD_ID)
    await _guess_and_report(interaction, game_id, code or "", edit_picker=False)


def _modal_value(data: Any, custom_id: str) -> str | None:
    """Find a text input's value in a modal submission, whatever rows or labels wrap it."""
    if isinstance(data, dict):
        if data.get("custom_id") == custom_id and "value" in data:
            return str(data["value"])
        children = [*data.get("components", []), data.get("component")]
        for child in children:
            if child is not None and (found := _modal_value(child, custom_id)) is not None:
                return found
    elif isinstance(data, list):
        for child in data:
            if (found := _modal_value(child, custom_id)) is not None:
                return found
    return None


# --- ending a game -----------------------------------------------------------------------------


@guarded
async def ask_give_up(interaction: Interaction, game_id: int | None) -> None:
    """`/mastermind giveup` and the Give up button: ask before ending anything."""
    bot = interaction.client
    game = await (_active(bot, interaction.channel_id) if game_id is None else _load(bot, game_id))
    _may_end(interaction, game)
    what = "reveal the secret" if isinstance(game, PlayGame) else "stop my guessing"
    await interaction.response.send_message(
        f"End this game and {what}?", view=components.confirm_view(game.id or 0), ephemeral=True
    )


@guarded
async def confirm_give_up(interaction: Interaction, game_id: int) -> None:
    bot = interaction.client
    _may_end(interaction, await _load(bot, game_id))
    player = interaction.user.id
    game, _ = await bot.store.apply(lambda g: rules.give_up(g, player), game_id=game_id)
    await interaction.response.edit_message(content="The game has ended.", view=None)
    if isinstance(game, PlayGame):
        secret = game.revealed_secret
        shown = text.code_line(game.variant.space, secret) if secret else "hidden"
        await interaction.followup.send(
            f"🏳️ {embeds.mention(player)} ended the game. The secret was {shown}."
        )
    else:
        await interaction.followup.send(f"🏳️ {embeds.mention(player)} ended the solving game.")
    await refresh_board(bot, game)


# --- solve -------------------------------------------------------------------------------------


def _plain_history(game: SolveGame) -> list[tuple[list[int], int, int]]:
    return [
        (list(guess), black, white)
        for guess, (black, white) in zip(game.guesses, game.answers, strict=False)
    ]


@guarded
async def start_solve(interaction: Interaction, variant: Variant, strategy: str) -> None:
    bot = interaction.client
    get_strategy(strategy)
    check_size(variant.space)  # refuse before any work starts
    if await bot.store.active_game(interaction.channel_id or 0) is not None:
        raise rules.GameAlreadyActive(kind=rules.GameKind.SOLVE)
    await interaction.response.defer(thinking=True)
    move = await bot.solver.next_move(
        variant.pegs, variant.colours, variant.duplicates, strategy, [], interaction.id & 0xFFFF
    )
    fresh = rules.new_solve_game(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        starter_id=interaction.user.id,
        first_guess=tuple(move["guess"]),
        variant=variant,
        strategy=strategy,
    )
    game = await bot.store.start(fresh)
    assert isinstance(game, SolveGame) and game.id is not None
    message = await interaction.followup.send(
        embed=embeds.solve_board(game, move["remaining"]),
        view=components.solve_view(game),
        wait=True,
    )
    await remember_board(bot, game.id, game.channel_id, message.id)


async def _owned_solve_game(interaction: Interaction, game_id: int, version: int) -> SolveGame:
    game = await _load(interaction.client, game_id)
    if not isinstance(game, SolveGame):
        raise WrongGameKind()
    if interaction.user.id != game.starter_id:
        raise NotYourGame(game.starter_id, f"This is {embeds.mention(game.starter_id)}'s game.")
    if game.version != version:
        raise rules.StaleGame()
    return game


@guarded
async def answer_guess(
    interaction: Interaction, game_id: int, version: int, black: int, white: int
) -> None:
    """The player's pegs for the bot's guess; the next guess comes from a worker."""
    bot = interaction.client
    game = await _owned_solve_game(interaction, game_id, version)
    player = interaction.user.id
    rules.answer(game, player, black, white, None)  # dry run: refuses impossible answers now
    variant = game.variant
    note = None
    if black == variant.pegs:
        next_guess, remaining = None, None
    else:
        await interaction.response.defer()
        history = [*_plain_history(game), (list(game.current_guess or ()), black, white)]
        move = await bot.solver.next_move(
            variant.pegs,
            variant.colours,
            variant.duplicates,
            game.strategy,
            history,
            game_id,
        )
        if "contradiction" in move:
            next_guess, remaining, note = None, None, f"⚠️ {move['message']}"
        else:
            next_guess, remaining = tuple(move["guess"]), move["remaining"]
    new, _ = await bot.store.apply(
        lambda g: rules.answer(g, player, black, white, next_guess),
        game_id=game_id,
        expected_version=version,
    )
    assert isinstance(new, SolveGame)
    await _show_solve(interaction, new, remaining, note)


async def _show_solve(
    interaction: Interaction, game: SolveGame, remaining: int | None, note: str | None
) -> None:
    content = (
        f"🎯 Solved in {text.guesses(len(game.guesses))}!" if game.status is Status.SOLVED else None
    )
    embed = embeds.solve_board(game, remaining, note)
    view = components.solve_view(game)
    if interaction.response.is_done():
        await interaction.edit_original_response(content=content, embed=embed, view=view)
    else:
        await interaction.response.edit_message(content=content, embed=embed, view=view)


@guarded
async def undo_answer(interaction: Interaction, game_id: int, version: int) -> None:
    bot = interaction.client
    game = await _owned_solve_game(interaction, game_id, version)
    player = interaction.user.id
    rules.undo(game, player)  # dry run: "nothing to undo" before any work
    await interaction.response.defer()
    new, outcome = await bot.store.apply(
        lambda g: rules.undo(g, player), game_id=game_id, expected_version=version
    )
    assert isinstance(new, SolveGame)
    variant = new.variant
    remaining = await bot.solver.remaining(
        variant.pegs, variant.colours, variant.duplicates, _plain_history(new)
    )
    black, white = outcome.undone
    note = f"↩️ Took back {text.pegs(black, white)} ({text.peg_words(black, white)})."
    await _show_solve(interaction, new, remaining, note)


@guarded
async def stop_solve(interaction: Interaction, game_id: int) -> None:
    bot = interaction.client
    game = await _load(bot, game_id)
    _may_end(interaction, game)
    player = interaction.user.id
    new, _ = await bot.store.apply(lambda g: rules.give_up(g, player), game_id=game_id)
    assert isinstance(new, SolveGame)
    await _show_solve(interaction, new, None, None)


# --- board, simulate, stats --------------------------------------------------------------------


@guarded
async def show_board(interaction: Interaction) -> None:
    """Post the channel's board again; later moves edit this new copy."""
    bot = interaction.client
    game = await _active(bot, interaction.channel_id)
    assert game.id is not None
    if isinstance(game, PlayGame):
        response = await interaction.response.send_message(
            embed=embeds.play_board(game), view=components.play_view(game)
        )
        message_id = response.message_id
    else:
        await interaction.response.defer(thinking=True)
        variant = game.variant
        remaining = await bot.solver.remaining(
            variant.pegs, variant.colours, variant.duplicates, _plain_history(game)
        )
        message = await interaction.followup.send(
            embed=embeds.solve_board(game, remaining), view=components.solve_view(game), wait=True
        )
        message_id = message.id
    if message_id is not None:
        await remember_board(bot, game.id, game.channel_id, message_id)


@guarded
async def simulate(interaction: Interaction, variant: Variant, strategy: str) -> None:
    bot = interaction.client
    get_strategy(strategy)
    check_size(variant.space)
    await interaction.response.defer(thinking=True)
    result = await bot.solver.simulation(
        variant.pegs, variant.colours, variant.duplicates, strategy
    )
    await interaction.followup.send(
        embeds.simulation(result, variant.pegs, variant.colours, strategy)
    )
