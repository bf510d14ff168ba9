"""The slash options the modes' commands share: ranges Discord checks before the bot sees a
value, the strategy choices, and the rules a command's options make.

Every name, description and choice is marked with `slash` so `pybabel extract` finds it, and the
tree's translator (`bot.ui.i18n.translator`) adds its translations when commands sync.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

from bot.engine.codes import MAX_COLOURS, MAX_PEGS, MIN_COLOURS, MIN_PEGS, CodeSpace
from bot.engine.game import MAX_GUESSES, MIN_GUESSES, Variant
from bot.engine.strategies import STRATEGIES
from bot.ui.i18n import slash

Pegs = app_commands.Range[int, MIN_PEGS, MAX_PEGS]
Colours = app_commands.Range[int, MIN_COLOURS, MAX_COLOURS]
Guesses = app_commands.Range[int, MIN_GUESSES, MAX_GUESSES]
CodeText = app_commands.Range[str, 1, CodeSpace.MAX_INPUT]
STRATEGY_CHOICES = [
    app_commands.Choice(name=slash.pgettext("strategy", s.title), value=s.name)
    for s in STRATEGIES.values()
]


def variant(pegs: int, colours: int, duplicates: bool, guesses: int = 10) -> Variant:
    """The rules chosen; an impossible mix raises InvalidVariant, which the tree's error
    handler turns into a friendly ephemeral reply."""
    return Variant(pegs=pegs, colours=colours, duplicates=duplicates, max_guesses=guesses)


NAMES = {
    # TRANSLATORS: names of commands and options: 1-32 lower-case letters, digits, - or _
    # (no spaces); Discord shows them instead of the English ones.
    "pegs": slash.pgettext("option", "pegs"),
    "colours": slash.pgettext("option", "colours"),
    "guesses": slash.pgettext("option", "guesses"),
    "duplicates": slash.pgettext("option", "duplicates"),
    "hard": slash.pgettext("option", "hard"),
    "strategy": slash.pgettext("option", "strategy"),
}
"""The options several commands take, by parameter name, with their shown names."""

GAME_HELP = {
    "pegs": slash.gettext("Pegs in the code (2-8, default 4)"),
    "colours": slash.gettext("Colours to choose from (2-10, default 6)"),
    "guesses": slash.gettext("Guesses allowed (1-20, default 10)"),
    "duplicates": slash.gettext("May a colour appear more than once? (default yes)"),
    "hard": slash.gettext("Hard mode: every guess must fit all the pegs so far (default no)"),
}
"""How the games where players guess describe those options."""

Decorated = TypeVar("Decorated")


def shared_options(
    *names: str, **help: app_commands.locale_str
) -> Callable[[Decorated], Decorated]:
    """Name and describe the shared options `names`: with `help` where a command words one
    its own way, else as the games where players guess word it."""
    renames = {name: NAMES[name] for name in names}
    descriptions = {name: help.get(name) or GAME_HELP[name] for name in names}

    def decorate(command: Decorated) -> Decorated:
        named = app_commands.rename(**renames)(command)
        return app_commands.describe(**descriptions)(named)

    return decorate
