"""A mode's leaderboards as `/mastermind leaderboard games:` offers them (`ModeSpec.boards`)."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.interactions.context import LeaderboardSpec
from bot.modes.registry import BY_KIND, LEADERBOARD_CHOICES
from bot.ui.i18n import slash


async def _show(*_: object) -> discord.Embed:
    return discord.Embed()


def test_one_unnamed_board_is_chosen_by_the_kind_and_named_ones_by_kind_and_name() -> None:
    play = BY_KIND["play"]
    one = LeaderboardSpec(slash.gettext("all"), _show)
    assert replace(play, leaderboards=(one,)).boards() == {"play": one}
    first, second = (LeaderboardSpec(slash.gettext(n), _show, name=n) for n in ("a", "b"))
    several = replace(play, leaderboards=(first, second))
    assert several.boards() == {"play-a": first, "play-b": second}  # in the mode's order
    assert replace(play, leaderboards=()).boards() == {}


def test_the_choices_fit_discord_and_each_names_one_board() -> None:
    values = [choice.value for choice in LEADERBOARD_CHOICES]
    assert 1 <= len(values) <= 25  # Discord refuses more choices for one option
    assert len(set(values)) == len(values)
    assert values == [v for spec in BY_KIND.values() for v in spec.boards()]
