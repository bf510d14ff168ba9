"""What happens when a player acts, shared by slash commands, buttons, selects and modals.

Every flow follows one order:

1. **Where**: a flow that names a game by id first checks that the game belongs to the
   interaction's guild and channel (`game_here`); nothing a client sends is trusted.
2. **Before the commit**: everything that can fail (parsing, the rules' dry run, the solver)
   runs first; a failure is a private, friendly reply and nothing is stored.
3. **The commit**: one store transaction that also records which input made the move, so a
   double click, a resubmitted modal or a redelivered interaction never counts twice.
4. **After the commit**: the move counted, whatever happens next. Failures there (a board edit
   refused, Discord down, the solver gone) are logged and the player is told the move counted;
   never "try again". Boards that could not be edited catch up later (`bot.boards`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, ParamSpec

import discord

from bot import boards
from bot.engine import game as rules
from bot.engine.answers import possible_answers
from bot.engine.codes import Code, CodeError, CodeSpace
from bot.engine.game import (
    GameError,
    GameOver,
    NoActiveGame,
    NotYourGame,
    PlayGame,
    SolveGame,
    Status,
    Variant,
    WrongGameKind,
)
from bot.engine.job_types import NoCodeLeft
from bot.engine.search import check_size
from bot.engine.strategies import get_strategy
from bot.store import AlreadyApplied
from bot.ui import components, embeds, text
from bot.ui.errors import reply_error

if TYPE_CHECKING:
    from bot.app import MastermindBot

log = logging.getLogger(__name__)

Interaction = discord.Interaction["MastermindBot"]
P = ParamSpec("P")


class NotHere(GameError):
    """The interaction names a game of another channel, server or DM (or none at all)."""

    default_message = "That belongs to a game in another channel, so I can't use it here."


class BadChoice(GameError):
    """A select value or custom_id field that no menu of ours offers."""

    default_message = "That choice isn't on the menu. Open a fresh one and pick again."


def guarded(flow: Callable[P, Awaitable[None]]) -> Callable[P, Awaitable[None]]:
    """Any failure in a flow becomes a friendly private reply; the running flow is tracked so a
    shutdown lets it finish before the store closes."""

    @functools.wraps(flow)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        interaction = args[0]
        assert isinstance(interaction, discord.Interaction)
        in_flight: set[asyncio.Task[object]] | None = getattr(interaction.client, "in_flight", None)
        task = asyncio.current_task()
        if in_flight is not None and task is not None:
            in_flight.add(task)
        try:
            await flow(*args, **kwargs)
        except Exception as error:
            await reply_error(interaction, error)
        finally:
            if in_flight is not None and task is not None:
                in_flight.discard(task)

    return wrapper


# --- where a game is, and the moment a move counts ---------------------------------------------


async def game_here(interaction: Interaction, game_id: int) -> rules.Game:
    """The game `game_id` if it belongs to this interaction's guild and channel (a DM counts
    as a channel); anything else, including a game that does not exist, is NotHere."""
    bot = interaction.client
    game = await bot.store.game(game_id)
    if (
        game is None
        or game.channel_id != (interaction.channel_id or 0)
        or game.guild_id != interaction.guild_id
    ):
        log.info(
            "refused interaction %s: game %s is not in channel %s",
            interaction.id,
            game_id,
            interaction.channel_id,
        )
        raise NotHere()
    board = await bot.store.board(game_id)
    if board is not None and board.rendered_version < game.version:
        boards.refresh_soon(bot, game_id)  # a board left behind catches up on any use of it
    return game


async def _load(interaction: Interaction, game_id: int) -> rules.Game:
    game = await game_here(interaction, game_id)
    if game.is_over:
        raise GameOver()
    return game


async def _active(bot: MastermindBot, channel_id: int | None) -> rules.Game:
    game = await bot.store.active_game(channel_id or 0)
    if game is None:
        raise NoActiveGame()
    return game


def _source(interaction: Interaction) -> str:
    """The input a move comes from: this interaction."""
    return f"i:{interaction.id}"


@contextlib.asynccontextmanager
async def _committed(interaction: Interaction, what: str) -> AsyncIterator[None]:
    """Wrap everything after a commit: whatever fails, the player is told `what` counted."""
    try:
        yield
    except Exception:
        log.warning("after a stored move (interaction %s)", interaction.id, exc_info=True)
        await _tell_privately(interaction, f"✅ {what} was recorded. The board will catch up.")


async def _tell_privately(interaction: Interaction, message: str) -> None:
    with contextlib.suppress(discord.HTTPException):
        if interaction.response.is_done():
            await interaction.followup.send(message, ephemeral=True)
        else:
            await interaction.response.send_message(message, ephemeral=True)


async def _already_counted(interaction: Interaction, error: AlreadyApplied) -> None:
    log.info(
        "interaction %s repeats move %s of game %s", interaction.id, error.move_no, error.game_id
    )
    await _tell_privately(interaction, str(error))
    boards.refresh_soon(interaction.client, error.game_id)


def _may_end(interaction: Interaction, game: rules.Game) -> None:
    """The starter or a member who can manage messages may end a game."""
    allowed = interaction.user.id == game.starter_id or interaction.permissions.manage_messages
    if not allowed:
        raise NotYourGame(
            game.starter_id,
            f"Only {embeds.mention(game.starter_id)} or a moderator (Manage Messages) can end "
            "this game.",
        )


# --- starting a game: the board's message exists before the game, so both are one write --------


async def _refuse_if_taken(bot: MastermindBot, channel_id: int | None) -> None:
    """Refuse at once, privately, when the channel already has a game."""
    current = await bot.store.active_game(channel_id or 0)
    if current is not None:
        raise rules.GameAlreadyActive(current.id, current.kind)


async def _public_placeholder(interaction: Interaction) -> int:
    """Answer with a public "thinking" message that will become the board; its id."""
    interaction.extras["public_defer"] = True
    callback = await interaction.response.defer(thinking=True)
    message_id = getattr(callback, "message_id", None)
    if message_id is None:
        message_id = (await interaction.original_response()).id
    return int(message_id)


async def _start(interaction: Interaction, fresh: rules.Game, board_message_id: int) -> rules.Game:
    game = await interaction.client.store.start(
        fresh, board=(fresh.channel_id, board_message_id), source=_source(interaction)
    )
    assert game.id is not None
    interaction.extras["public_answer"] = True
    log.info("%s game %s started in channel %s", game.kind, game.id, game.channel_id)
    return game


@guarded
async def start_play(interaction: Interaction, variant: Variant, solo: bool) -> None:
    bot = interaction.client
    await _refuse_if_taken(bot, interaction.channel_id)
    fresh = rules.new_play_game(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        starter_id=interaction.user.id,
        variant=variant,
        solo=solo,
    )
    message_id = await _public_placeholder(interaction)
    game = await _start(interaction, fresh, message_id)
    assert isinstance(game, PlayGame) and game.id is not None
    async with _committed(interaction, "The game"):
        await boards.show(
            bot,
            game.id,
            game.version,
            lambda: interaction.edit_original_response(
                embed=embeds.play_board(game), view=components.play_view(game)
            ),
        )


@guarded
async def start_solve(interaction: Interaction, variant: Variant, strategy: str) -> None:
    bot = interaction.client
    get_strategy(strategy)
    check_size(variant.space)  # refuse before any work starts
    await _refuse_if_taken(bot, interaction.channel_id)
    message_id = await _public_placeholder(interaction)
    move = await bot.solver.opening(
        variant.pegs, variant.colours, variant.duplicates, strategy, interaction.id & 0xFFFF
    )
    fresh = rules.new_solve_game(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        starter_id=interaction.user.id,
        first_guess=tuple(move.guess),
        variant=variant,
        strategy=strategy,
    )
    game = await _start(interaction, fresh, message_id)
    assert isinstance(game, SolveGame) and game.id is not None
    async with _committed(interaction, "The game"):
        await boards.show(
            bot,
            game.id,
            game.version,
            lambda: interaction.edit_original_response(
                embed=embeds.solve_board(game, move.remaining), view=components.solve_view(game)
            ),
        )


# --- play: guesses -----------------------------------------------------------------------------


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


@guarded
async def guess_command(interaction: Interaction, code: str) -> None:
    """`/mastermind guess`: a visible line, then the board edited in place."""
    game = await _active(interaction.client, interaction.channel_id)
    assert game.id is not None
    await _guess_and_report(interaction, game.id, code, _source(interaction), edit_picker=False)


@guarded
async def open_picker(interaction: Interaction, game_id: int) -> None:
    """The Guess button: a private picker (a select per peg), or a modal for long codes."""
    game = await _load(interaction, game_id)
    if not isinstance(game, PlayGame):
        raise WrongGameKind("In this game I guess your code: answer my guesses instead.")
    if game.solo and interaction.user.id != game.starter_id:
        raise NotYourGame(
            game.starter_id, f"This is {embeds.mention(game.starter_id)}'s solo game."
        )
    space = game.variant.space
    if space.pegs > components.PICKER_MAX_PEGS:
        # The modal's id carries this click's id: submitting it twice is one guess.
        await interaction.response.send_modal(
            components.CodeModal(game_id, space, nonce=interaction.id)
        )
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


def _colour_choice(space: CodeSpace, values: list[str]) -> int:
    """The one colour a peg select sent, refused unless our menu offers it."""
    if len(values) != 1 or not values[0].isdecimal() or len(values[0]) > 2:
        raise BadChoice()
    colour = int(values[0])
    if colour >= space.colours:
        raise BadChoice()
    return colour


@guarded
async def pick_peg(interaction: Interaction, game_id: int, peg: int, values: list[str]) -> None:
    game = await _load(interaction, game_id)
    space = game.variant.space
    if peg >= space.pegs:
        raise BadChoice()
    colour = _colour_choice(space, values)
    chosen = components.picked_colours(interaction.message, game_id, space)
    chosen[peg] = colour
    await interaction.response.edit_message(
        content=_picker_text(space, chosen), view=components.picker_view(game_id, space, chosen)
    )


@guarded
async def submit_pick(interaction: Interaction, game_id: int) -> None:
    game = await _load(interaction, game_id)
    space = game.variant.space
    chosen = components.picked_colours(interaction.message, game_id, space)
    missing = [str(i + 1) for i, c in enumerate(chosen) if c is None]
    if missing:
        raise CodeError(f"Pick a colour for peg {', '.join(missing)} first.")
    code = tuple(c for c in chosen if c is not None)
    # One picker message makes one guess, however often its Submit is clicked.
    message = interaction.message
    source = f"picker:{message.id}" if message is not None else _source(interaction)
    await _guess_and_report(interaction, game_id, code, source, edit_picker=True)


@guarded
async def on_modal_submit(interaction: Interaction, game_id: int, nonce: int | None) -> None:
    await _load(interaction, game_id)
    code = components.modal_value(interaction.data or {}, components.CODE_FIELD_ID)
    source = f"modal:{nonce}" if nonce is not None else _source(interaction)
    await _guess_and_report(interaction, game_id, code or "", source, edit_picker=False)


async def _guess_and_report(
    interaction: Interaction, game_id: int, code: str | Code, source: str, edit_picker: bool
) -> None:
    """Apply a guess, post its public line (closing the picker it came from, if any), edit the
    board, and add Knuth's count to the line on a win."""
    bot = interaction.client
    player = interaction.user.id
    try:
        game, outcome = await bot.store.apply(
            lambda g: rules.guess(g, player, code), game_id=game_id, source=source
        )
    except AlreadyApplied as error:
        await _already_counted(interaction, error)
        return
    assert isinstance(game, PlayGame)
    line = _guess_line(game, outcome, player)
    async with _committed(interaction, "Your guess"):
        if edit_picker:
            await interaction.response.edit_message(content="Guess sent. ✅", view=None)
            message: discord.Message | None = await interaction.followup.send(line, wait=True)
        else:
            await interaction.response.send_message(line)
            message = None
        await boards.refresh(bot, game_id)
        if outcome.status is Status.WON:
            note = await _knuth_note(bot, game, outcome)
            if note and message is not None:
                await message.edit(content=line + note)
            elif note:
                await interaction.edit_original_response(content=line + note)


# --- ending a game -----------------------------------------------------------------------------


@guarded
async def ask_give_up(interaction: Interaction, game_id: int | None) -> None:
    """`/mastermind giveup` and the Give up button: ask before ending anything."""
    bot = interaction.client
    game = await (
        _active(bot, interaction.channel_id) if game_id is None else _load(interaction, game_id)
    )
    _may_end(interaction, game)
    what = "reveal the secret" if isinstance(game, PlayGame) else "stop my guessing"
    await interaction.response.send_message(
        f"End this game and {what}?", view=components.confirm_view(game.id or 0), ephemeral=True
    )


@guarded
async def confirm_give_up(interaction: Interaction, game_id: int) -> None:
    bot = interaction.client
    _may_end(interaction, await _load(interaction, game_id))
    player = interaction.user.id
    try:
        game, _ = await bot.store.apply(
            lambda g: rules.give_up(g, player), game_id=game_id, source=_source(interaction)
        )
    except AlreadyApplied as error:
        await _already_counted(interaction, error)
        return
    async with _committed(interaction, "Ending the game"):
        await interaction.response.edit_message(content="The game has ended.", view=None)
        if isinstance(game, PlayGame):
            secret = game.revealed_secret
            shown = text.code_line(game.variant.space, secret) if secret else "hidden"
            await interaction.followup.send(
                f"🏳️ {embeds.mention(player)} ended the game. The secret was {shown}."
            )
        else:
            await interaction.followup.send(f"🏳️ {embeds.mention(player)} ended the solving game.")
        await boards.refresh(bot, game_id)


# --- solve -------------------------------------------------------------------------------------


async def _owned_solve_game(interaction: Interaction, game_id: int, version: int) -> SolveGame:
    game = await _load(interaction, game_id)
    if not isinstance(game, SolveGame):
        raise WrongGameKind("In this game you guess my code: there is nothing to answer.")
    if interaction.user.id != game.starter_id:
        raise NotYourGame(game.starter_id, f"This is {embeds.mention(game.starter_id)}'s game.")
    if game.version != version:
        raise rules.StaleGame()
    return game


def parse_answer(value: str) -> tuple[int, int]:
    """An answer select's value, `black:white`, refused unless it is two small numbers."""
    black, _, white = value.partition(":")
    if not (black.isdecimal() and white.isdecimal() and len(black) == len(white) == 1):
        raise BadChoice()
    return int(black), int(white)


@guarded
async def answer_from_select(
    interaction: Interaction, game_id: int, version: int, values: list[str]
) -> None:
    """An answer picked from a select (variants with too many answers for buttons)."""
    if len(values) != 1:
        raise BadChoice()
    black, white = parse_answer(values[0])
    await _answer(interaction, game_id, version, black, white)


@guarded
async def answer_guess(
    interaction: Interaction, game_id: int, version: int, black: int, white: int
) -> None:
    """The player's pegs for the bot's guess (an answer button)."""
    await _answer(interaction, game_id, version, black, white)


async def _answer(
    interaction: Interaction, game_id: int, version: int, black: int, white: int
) -> None:
    """The next guess comes from a worker before the answer is stored, so a solver failure
    stores nothing."""
    bot = interaction.client
    game = await _owned_solve_game(interaction, game_id, version)
    player = interaction.user.id
    rules.answer(game, player, black, white, None)  # dry run: refuses impossible answers now
    current = game.current_guess
    if current is not None and (black, white) not in possible_answers(game.variant.space, current):
        raise rules.ImpossibleAnswer(
            f"No code can earn {text.peg_words(black, white)} against that guess."
        )
    variant = game.variant
    note = None
    next_guess: Code | None = None
    remaining: int | None = None
    if black != variant.pegs:
        await interaction.response.defer()
        history = [*boards.plain_history(game), (list(current or ()), black, white)]
        move = await bot.solver.next_move(
            variant.pegs, variant.colours, variant.duplicates, game.strategy, history, game_id
        )
        if isinstance(move, NoCodeLeft):
            note = f"⚠️ {move.message}"
        else:
            next_guess, remaining = tuple(move.guess), move.remaining
    try:
        new, _ = await bot.store.apply(
            lambda g: rules.answer(g, player, black, white, next_guess),
            game_id=game_id,
            expected_version=version,
            source=_source(interaction),
        )
    except AlreadyApplied as error:
        await _already_counted(interaction, error)
        return
    assert isinstance(new, SolveGame)
    async with _committed(interaction, "Your answer"):
        await _show_solve(interaction, new, remaining, note)


async def _show_solve(
    interaction: Interaction, game: SolveGame, remaining: int | None, note: str | None
) -> None:
    """Draw a solve board through the interaction that changed it (never over a newer one)."""
    content = boards.solve_content(game)
    embed = embeds.solve_board(game, remaining, note)
    view = components.solve_view(game)

    async def draw() -> None:
        if interaction.response.is_done():
            await interaction.edit_original_response(content=content, embed=embed, view=view)
        else:
            await interaction.response.edit_message(content=content, embed=embed, view=view)

    assert game.id is not None
    drew = await boards.show(interaction.client, game.id, game.version, draw)
    if not drew and not interaction.response.is_done():
        await interaction.response.defer()


@guarded
async def undo_answer(interaction: Interaction, game_id: int, version: int) -> None:
    """Take back the last answer. The count of codes left is worked out before the commit."""
    bot = interaction.client
    game = await _owned_solve_game(interaction, game_id, version)
    player = interaction.user.id
    undone, _ = rules.undo(game, player)  # dry run: "nothing to undo" before any work
    await interaction.response.defer()
    variant = undone.variant
    remaining = await bot.solver.remaining(
        variant.pegs, variant.colours, variant.duplicates, boards.plain_history(undone)
    )
    try:
        new, outcome = await bot.store.apply(
            lambda g: rules.undo(g, player),
            game_id=game_id,
            expected_version=version,
            source=_source(interaction),
        )
    except AlreadyApplied as error:
        await _already_counted(interaction, error)
        return
    assert isinstance(new, SolveGame)
    black, white = outcome.undone
    note = f"↩️ Took back {text.pegs(black, white)} ({text.peg_words(black, white)})."
    async with _committed(interaction, "Your undo"):
        await _show_solve(interaction, new, remaining, note)


@guarded
async def stop_solve(interaction: Interaction, game_id: int) -> None:
    bot = interaction.client
    game = await _load(interaction, game_id)
    _may_end(interaction, game)
    player = interaction.user.id
    try:
        new, _ = await bot.store.apply(
            lambda g: rules.give_up(g, player), game_id=game_id, source=_source(interaction)
        )
    except AlreadyApplied as error:
        await _already_counted(interaction, error)
        return
    assert isinstance(new, SolveGame)
    async with _committed(interaction, "Ending the game"):
        await _show_solve(interaction, new, None, None)


# --- board, simulate ---------------------------------------------------------------------------


@guarded
async def show_board(interaction: Interaction) -> None:
    """Post the channel's board again; later moves edit this new copy."""
    bot = interaction.client
    game = await _active(bot, interaction.channel_id)
    assert game.id is not None
    interaction.extras["public_defer"] = True
    await interaction.response.defer(thinking=True)
    async with boards.lock(game.id):
        latest = await bot.store.game(game.id) or game
        content, embed, view = await boards.render(bot, latest)
        message = await interaction.followup.send(
            content or discord.utils.MISSING, embed=embed, view=view, wait=True
        )
        interaction.extras["public_answer"] = True
        await bot.store.move_board(game.id, message.channel.id, message.id, latest.version)
    boards.refresh_soon(bot, game.id)  # in case a move landed while this one was drawn


@guarded
async def simulate(interaction: Interaction, variant: Variant, strategy: str) -> None:
    bot = interaction.client
    get_strategy(strategy)
    check_size(variant.space)
    bot.solver.check_simulation(interaction.user.id)  # refuse privately, before any answer
    interaction.extras["public_defer"] = True
    await interaction.response.defer(thinking=True)
    result = await bot.solver.simulation(
        variant.pegs, variant.colours, variant.duplicates, strategy, interaction.user.id
    )
    interaction.extras["public_answer"] = True
    await interaction.followup.send(
        embeds.simulation(result, variant.pegs, variant.colours, strategy)
    )
