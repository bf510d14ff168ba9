"""The engine's values in words of the player's language: colour names, strategy titles, pegs.

The engine names things in English for its logs and tests; what a player reads is looked up
here, one catalogue message per value, so the parser's letters and numbers stay the same in
every language.
"""

from __future__ import annotations

from bot.engine.strategies import STRATEGIES
from bot.ui.i18n import Messages


def colour_name(t: Messages, colour: int) -> str:
    """The name of colour number `colour` (0 is red), as the legend and the picker show it."""
    names = (
        t.pgettext("colour", "red"),
        t.pgettext("colour", "green"),
        t.pgettext("colour", "blue"),
        t.pgettext("colour", "yellow"),
        t.pgettext("colour", "orange"),
        t.pgettext("colour", "brown"),
        t.pgettext("colour", "purple"),
        t.pgettext("colour", "pink"),
        t.pgettext("colour", "teal"),
        t.pgettext("colour", "olive"),
    )
    return names[colour]


def strategy_title(t: Messages, name: str) -> str:
    """A strategy's title; the same message the `strategy` choices of the commands carry."""
    titles = {
        "knuth": t.pgettext("strategy", "Knuth minimax"),
        "expected-size": t.pgettext("strategy", "Irving expected size"),
        "entropy": t.pgettext("strategy", "Neuwirth entropy"),
        "most-parts": t.pgettext("strategy", "Kooi most parts"),
        "random-consistent": t.pgettext("strategy", "Random consistent"),
        "two-colour-random": t.pgettext("strategy", "Two-colour minimax"),
        "optimal": t.pgettext("strategy", "Optimal average"),
    }
    strategy = STRATEGIES.get(name)
    return titles.get(name) or (strategy.title if strategy else name)


def black(t: Messages, count: int) -> str:
    """'1 black', '3 black'."""
    return t.npgettext("pegs", "{count} black", "{count} black", count)


def white(t: Messages, count: int) -> str:
    """'1 white', '3 white'."""
    return t.npgettext("pegs", "{count} white", "{count} white", count)


def guesses(t: Messages, count: int) -> str:
    """'1 guess', '5 guesses'."""
    return t.ngettext("{count} guess", "{count} guesses", count)
