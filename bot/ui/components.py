"""Buttons, selects and the code modal. Every custom_id carries ids only (`mm:<what>:<ids>`).

All of them are `DynamicItem`s registered once in `setup_hook`, so a click on a message posted
before a restart still finds its handler; the handler then reads everything from the store.
Callbacks only unpack their ids and hand over to `bot.flows`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord

from bot.engine.answers import possible_answers
from bot.engine.codes import CodeSpace
from bot.engine.game import PlayGame, SolveGame
from bot.ui import text

if TYPE_CHECKING:
    from bot.app import MastermindBot

BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25
PICKER_MAX_PEGS = MAX_ROWS - 1  # one select per peg plus the Submit row
CODE_MODAL_PREFIX = "mm:code:"
CODE_MODAL_PATTERN = re.compile(r"mm:code:(?P<game>[0-9]{1,20})(?::(?P<nonce>[0-9]{1,20}))?")
"""`mm:code:<game>:<id of the click that opened it>`; the older form without it still works."""
CODE_FIELD_ID = "code"


def _flows() -> Any:
    from bot import flows  # imported late: flows imports this module for its views

    return flows


# --- buttons that carry nothing but a game id --------------------------------------------------


class GameButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mm:game:(?P<game>[0-9]+)"):
    """A button whose custom_id is `mm:<prefix>:<game id>`; a subclass names its prefix, its
    look and the flow it starts: `class X(GameButton, prefix="guess"): ...`."""

    label: ClassVar[str]
    emoji: ClassVar[str | None] = None
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary
    flow: ClassVar[str]
    """The name of the `bot.flows` function called with (interaction, game_id)."""

    def __init_subclass__(cls, *, prefix: str) -> None:
        super().__init_subclass__(template=rf"mm:{prefix}:(?P<game>[0-9]+)")
        cls.prefix = prefix

    def __init__(self, game_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=self.label,
                emoji=self.emoji,
                style=self.style,
                custom_id=f"mm:{self.prefix}:{game_id}",
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> Self:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[MastermindBot]) -> None:
        await getattr(_flows(), self.flow)(interaction, self.game_id)


class GuessButton(GameButton, prefix="guess"):
    """Opens the private picker (or the code modal) for a play game."""

    label, emoji, style, flow = "Guess", "🎯", discord.ButtonStyle.primary, "open_picker"


class GiveUpButton(GameButton, prefix="quit"):
    """Asks for confirmation before ending a game (starter or Manage Messages only)."""

    label, emoji, flow = "Give up", "🏳️", "ask_give_up"


class ConfirmGiveUp(GameButton, prefix="quit-yes"):
    """The confirmation: ends the game and reveals the secret."""

    label, style, flow = "Yes, end the game", discord.ButtonStyle.danger, "confirm_give_up"


class SubmitPick(GameButton, prefix="send"):
    """Sends the code picked in the private picker as a guess."""

    label, emoji, style, flow = "Submit guess", "✅", discord.ButtonStyle.success, "submit_pick"


class StopSolveButton(GameButton, prefix="stop"):
    """Ends a solve game (the starter or a moderator)."""

    label, emoji, style, flow = "Give up", "🏳️", discord.ButtonStyle.danger, "stop_solve"


# --- play board -------------------------------------------------------------------------------


def play_view(game: PlayGame) -> discord.ui.View | None:
    """The board's buttons while the game runs; none once it is over."""
    if game.is_over or game.id is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(GuessButton(game.id))
    view.add_item(GiveUpButton(game.id))
    return view


def confirm_view(game_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmGiveUp(game_id))
    return view


# --- the private picker: one select per peg, the choices kept in the message itself ----------


class PegSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"mm:pick:(?P<game>[0-9]+):(?P<peg>[0-9])"
):
    """Chooses one peg's colour. The choice is stored as the option's default in the message."""

    def __init__(
        self, game_id: int, peg: int, space: CodeSpace | None = None, chosen: int | None = None
    ) -> None:
        options = [
            discord.SelectOption(
                label=f"{c.letter} {c.name}", value=str(n), emoji=c.emoji, default=n == chosen
            )
            for n, c in enumerate(space.palette if space else [])
        ] or [discord.SelectOption(label="-", value="0")]
        super().__init__(
            discord.ui.Select(
                placeholder=f"Peg {peg + 1}", options=options, custom_id=f"mm:pick:{game_id}:{peg}"
            )
        )
        self.game_id, self.peg = game_id, peg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> Self:
        return cls(int(match["game"]), int(match["peg"]))

    async def callback(self, interaction: discord.Interaction[MastermindBot]) -> None:
        await _flows().pick_peg(interaction, self.game_id, self.peg, list(self.item.values))


def picker_view(game_id: int, space: CodeSpace, chosen: list[int | None]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for peg in range(space.pegs):
        view.add_item(PegSelect(game_id, peg, space, chosen[peg]))
    view.add_item(SubmitPick(game_id))
    return view


def picked_colours(
    message: discord.Message | None, game_id: int, space: CodeSpace
) -> list[int | None]:
    """Read the picker's current choices back from the message's select defaults; anything
    that is not a colour of this game counts as not chosen."""
    chosen: list[int | None] = [None] * space.pegs
    if message is None:
        return chosen
    for row in message.components:
        for child in getattr(row, "children", []):
            match = re.fullmatch(rf"mm:pick:{game_id}:(\d)", getattr(child, "custom_id", "") or "")
            if match and int(match[1]) < space.pegs:
                defaults = [o.value for o in getattr(child, "options", []) if o.default]
                if len(defaults) == 1 and defaults[0].isdecimal():
                    colour = int(defaults[0])
                    chosen[int(match[1])] = colour if colour < space.colours else None
    return chosen


def modal_value(data: Any, custom_id: str) -> str | None:
    """Find a text input's value in a modal submission, whatever rows or labels wrap it."""
    if isinstance(data, dict):
        if data.get("custom_id") == custom_id and "value" in data:
            return str(data["value"])
        children = [*data.get("components", []), data.get("component")]
        for child in children:
            if child is not None and (found := modal_value(child, custom_id)) is not None:
                return found
    elif isinstance(data, list):
        for child in data:
            if (found := modal_value(child, custom_id)) is not None:
                return found
    return None


class CodeModal(discord.ui.Modal):
    """A text box for codes too long for the picker. Its submission is handled by the bot's
    interaction listener (by custom_id), so it still works after a restart."""

    code: discord.ui.TextInput = discord.ui.TextInput(
        label="Your guess", custom_id=CODE_FIELD_ID, max_length=100, min_length=1
    )

    def __init__(self, game_id: int, space: CodeSpace, nonce: int) -> None:
        super().__init__(title="Guess the code", custom_id=f"{CODE_MODAL_PREFIX}{game_id}:{nonce}")
        self.code.placeholder = f"e.g. {space.example()} or {space.digits(space.code_at(0))}"

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Handled by `flows.on_modal_submit` via the interaction listener."""


# --- solve board ------------------------------------------------------------------------------


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mm:ans:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<black>[0-9]):(?P<white>[0-9])",
):
    """One possible answer to the bot's guess. The version refuses a click on an older guess."""

    def __init__(self, game_id: int, version: int, black: int, white: int, pegs: int = 0) -> None:
        won = pegs and black == pegs
        super().__init__(
            discord.ui.Button(
                label=text.answer_label(black, white),
                style=discord.ButtonStyle.success if won else discord.ButtonStyle.secondary,
                custom_id=f"mm:ans:{game_id}:{version}:{black}:{white}",
            )
        )
        self.game_id, self.version, self.black, self.white = game_id, version, black, white

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> Self:
        return cls(
            int(match["game"]), int(match["version"]), int(match["black"]), int(match["white"])
        )

    async def callback(self, interaction: discord.Interaction[MastermindBot]) -> None:
        await _flows().answer_guess(interaction, self.game_id, self.version, self.black, self.white)


class AnswerSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mm:anss:(?P<game>[0-9]+):(?P<version>[0-9]+):(?P<part>[0-9])",
):
    """For many pegs: the possible answers split over two selects; choosing one answers."""

    def __init__(
        self, game_id: int, version: int, part: int, answers: list[tuple[int, int]] | None = None
    ) -> None:
        options = [
            discord.SelectOption(
                label=f"{text.answer_label(b, w)} ({text.peg_words(b, w)})", value=f"{b}:{w}"
            )
            for b, w in answers or [(0, 0)]
        ]
        first, last = (answers or [(0, 0)])[0], (answers or [(0, 0)])[-1]
        super().__init__(
            discord.ui.Select(
                placeholder=f"Answers {first[0]} to {last[0]} black",
                options=options,
                custom_id=f"mm:anss:{game_id}:{version}:{part}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), int(match["part"]))

    async def callback(self, interaction: discord.Interaction[MastermindBot]) -> None:
        await _flows().answer_from_select(
            interaction, self.game_id, self.version, list(self.item.values)
        )


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mm:undo:(?P<game>[0-9]+):(?P<version>[0-9]+)",
):
    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo last answer",
                emoji="↩️",
                style=discord.ButtonStyle.primary,
                custom_id=f"mm:undo:{game_id}:{version}",
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[MastermindBot]) -> None:
        await _flows().undo_answer(interaction, self.game_id, self.version)


def solve_view(game: SolveGame) -> discord.ui.View | None:
    """Answer buttons (or two selects when they would not fit), Undo and Give up."""
    if game.is_over or game.id is None:
        return None
    view = discord.ui.View(timeout=None)
    space = game.variant.space
    version = game.version
    current = game.current_guess
    if current is not None:
        answers = list(possible_answers(space, current))
        if len(answers) + 2 <= BUTTONS_PER_ROW * MAX_ROWS:
            for black, white in answers:
                view.add_item(AnswerButton(game.id, version, black, white, space.pegs))
        else:
            half = (len(answers) + 1) // 2
            for part, chunk in enumerate((answers[:half], answers[half:])):
                view.add_item(AnswerSelect(game.id, version, part, chunk))
    if game.answers:
        view.add_item(UndoButton(game.id, version))
    view.add_item(StopSolveButton(game.id))
    return view


DYNAMIC_ITEMS = (
    GuessButton,
    GiveUpButton,
    ConfirmGiveUp,
    PegSelect,
    SubmitPick,
    AnswerButton,
    AnswerSelect,
    UndoButton,
    StopSolveButton,
)
