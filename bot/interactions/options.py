"""The slash options the modes' commands share: ranges Discord checks before the bot sees a
value, the strategy choices, and the rules a command's options make.

Every name, description and choice is marked with `slash` so `pybabel extract` finds it, and the
tree's translator (`bot.ui.i18n.translator`) adds its translations when commands sync.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar, cast

from discord import app_commands
from discord.utils import resolve_annotation

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


DEFAULT = Variant()
VARIANT_OPTIONS = {
    "pegs": (Pegs, DEFAULT.pegs),
    "colours": (Colours, DEFAULT.colours),
    "guesses": (Guesses, DEFAULT.max_guesses),
    "duplicates": (bool, DEFAULT.duplicates),
}
"""The options that choose a game's rules, in the order a command offers them: each one's
range and default."""


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

CHOICES = {"strategy": STRATEGY_CHOICES}
"""The options whose values are chosen from a list, with their choices."""

Decorated = TypeVar("Decorated")


def shared_options(
    *names: str, **help: app_commands.locale_str
) -> Callable[[Decorated], Decorated]:
    """Name and describe the shared options `names` (and give `strategy` its choices): with
    `help` where a command words one its own way, else as the games where players guess word
    it. The options that choose a
    game's rules (`VARIANT_OPTIONS`, offered first and in that order) reach the command as
    one `Variant`, its parameter after the interaction (`with_variant`)."""
    renames = {name: NAMES[name] for name in names}
    descriptions = {name: help.get(name) or GAME_HELP[name] for name in names}
    rules = [name for name in VARIANT_OPTIONS if name in names]
    choices = {name: CHOICES[name] for name in names if name in CHOICES}

    def decorate(command: Decorated) -> Decorated:
        if rules:
            command = cast(Decorated, with_variant(cast(Callback, command), rules))
        if choices:
            command = app_commands.choices(**choices)(command)
        named = app_commands.rename(**renames)(command)
        return app_commands.describe(**descriptions)(named)

    return decorate


Callback = Callable[..., Coroutine[Any, Any, None]]


def with_variant(callback: Callback, offered: list[str]) -> Callback:
    """The command `callback` with the options `offered` (of `VARIANT_OPTIONS`) in place of its
    `Variant` parameter, which gets the rules they choose; a rule not offered is the default's.
    discord.py reads a command's options from its signature, so this one's signature is the
    callback's with those options instead of the `Variant`. An impossible mix raises
    InvalidVariant, which the tree's error handler turns into a friendly ephemeral reply."""
    parameters = list(inspect.signature(callback).parameters.values())
    if len(parameters) < 3 or parameters[2].annotation not in (Variant, "Variant"):
        raise TypeError(f"{callback.__qualname__} offers {offered}: its third parameter takes them")
    head, own = parameters[:2], parameters[3:]  # (self, interaction), then after the Variant
    rules = [
        inspect.Parameter(
            name, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=default, annotation=range_
        )
        for name, (range_, default) in VARIANT_OPTIONS.items()
        if name in offered
    ]
    rest = [  # as discord.py would read them from the callback's own module
        p.replace(annotation=resolve_annotation(p.annotation, callback.__globals__, None, {}))
        for p in own
    ]

    @functools.wraps(callback)
    async def command(cog: object, interaction: object, **options: Any) -> None:
        chosen = {name: options.pop(name) for name in offered}
        await callback(cog, interaction, _variant(**chosen), **options)

    command.__signature__ = inspect.Signature([*head, *rules, *rest])  # type: ignore[attr-defined]
    return command


def _variant(
    pegs: int = DEFAULT.pegs,
    colours: int = DEFAULT.colours,
    guesses: int = DEFAULT.max_guesses,
    duplicates: bool = DEFAULT.duplicates,
) -> Variant:
    return Variant(pegs=pegs, colours=colours, duplicates=duplicates, max_guesses=guesses)
