"""The slash options the modes' commands share: ranges Discord checks before the bot sees a
value, the strategy choices, and the rules a command's options make.

Every name, description and choice is marked with `slash` so `pybabel extract` finds it, and the
tree's translator (`bot.ui.i18n.translator`) adds its translations when commands sync.
"""

from __future__ import annotations

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
