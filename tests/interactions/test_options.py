"""The options that choose a game's rules, said once (`bot.interactions.options`): a command
that offers them gets one `Variant`, and Discord sees each option, in order, with its range."""

from __future__ import annotations

import pytest
from discord import app_commands

from bot.engine.errors import InvalidVariant
from bot.engine.game import Variant
from bot.interactions.options import shared_options


class Commands:
    """A cog's methods, as the modes write them (the options after the `Variant` are theirs)."""

    def __init__(self) -> None:
        self.got: list[tuple[Variant, bool]] = []

    @app_commands.command(name="try", description="a command that offers three rules")
    @shared_options("pegs", "colours", "duplicates", "hard")
    async def offers_three(self, interaction: object, rules: Variant, hard: bool = False) -> None:
        self.got.append((rules, hard))


def test_discord_sees_each_rule_as_an_option_in_order_with_its_range_and_default() -> None:
    command = Commands.offers_three
    options = [(p.name, p.min_value, p.max_value, p.default) for p in command.parameters]
    assert options == [
        ("pegs", 2, 8, 4),
        ("colours", 2, 10, 6),
        ("duplicates", None, None, True),
        ("hard", None, None, False),
    ]
    assert command.parameters[0].description.startswith("Pegs in the code (2-8, default 4)")


async def test_the_command_gets_one_variant_and_a_rule_it_does_not_offer_is_the_default() -> None:
    cog = Commands()
    await Commands.offers_three.callback(cog, None, pegs=5, colours=8, duplicates=False, hard=True)
    assert cog.got[-1] == (Variant(pegs=5, colours=8, duplicates=False, max_guesses=10), True)


async def test_an_impossible_mix_is_refused_as_the_variant_refuses_it() -> None:
    with pytest.raises(InvalidVariant):  # the tree's error handler words it for the player
        await Commands.offers_three.callback(
            Commands(), None, pegs=8, colours=2, duplicates=False, hard=False
        )


def test_a_command_offering_rules_must_take_them_as_a_variant() -> None:
    with pytest.raises(TypeError, match="third parameter"):

        @shared_options("pegs", "hard")
        async def takes_pegs(self: object, interaction: object, pegs: int = 4) -> None: ...
