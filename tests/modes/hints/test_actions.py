"""Hints are declared by the modes that offer them (`ModeSpec.hint`): the shared Hint asks the
game's own rule, works the hint out from the clues that player has had, and refuses a game
whose mode offers none, with the real store and solver."""

from __future__ import annotations

import pytest

from bot.engine.actor import Actor
from bot.engine.errors import NotYourGame
from bot.engine.game import ask_hint
from bot.engine.scoring import score
from bot.modes.daily.rules import new_daily_game
from bot.modes.hints import actions as hints
from bot.modes.hints.actions import NoHints
from bot.modes.play import rules as play
from bot.modes.registry import BY_KIND
from bot.modes.solve.rules import new_solve_game
from bot.solver_pool import SolverPool
from bot.store import Store

GUILD, CHANNEL, ALICE, BOB = 10, 20, 1, 2


def who(user: int, source: str = "i:1") -> Actor:
    return Actor(user_id=user, guild_id=GUILD, channel_id=CHANNEL, source=source)


def test_a_press_is_level_one_then_two_until_the_next_guess() -> None:
    game = play.new_play_game(guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE)
    game, first = ask_hint(game, BOB)
    game, second = ask_hint(game, ALICE)
    assert (first.level, second.level, second.hints) == (1, 2, 2)
    game, _ = play.guess(game, BOB, "1122")
    _, third = ask_hint(game, BOB)
    assert third.level == 1 and third.hints == 3


def test_only_modes_that_declare_a_rule_offer_hints() -> None:
    offered = {kind for kind, spec in BY_KIND.items() if spec.hint is not None}
    assert "play" in offered and "solve" not in offered and "daily" not in offered
    solve = new_solve_game(
        guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, first_guess=(0, 0, 1, 1)
    )
    with pytest.raises(NoHints) as refused:
        hints.check(solve, who(ALICE), BY_KIND["solve"].hint)
    assert not refused.value.guessing  # the bot guesses there
    daily = new_daily_game(
        guild_id=GUILD, channel_id=CHANNEL, player_id=ALICE, puzzle=1, secret=(0, 1, 2, 3)
    )
    with pytest.raises(NoHints) as refused:
        hints.check(daily, who(ALICE), BY_KIND["daily"].hint)
    assert refused.value.guessing  # players guess there, each on their own clues
    solo = play.new_play_game(guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, solo=True)
    with pytest.raises(NotYourGame):  # the mode's own rule: a solo game is its starter's
        hints.check(solo, who(BOB), play.hint)


async def test_a_hint_is_worked_out_from_the_players_clues_then_stored(
    store: Store, solver: SolverPool
) -> None:
    game = await store.start(
        play.new_play_game(
            guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, secret=(0, 1, 2, 3)
        )
    )
    game, _ = await store.apply(lambda g: play.guess(g, BOB, "1122"), game_id=game.id)
    checked = hints.check(game, who(ALICE), play.hint)
    given = await hints.hint(store, solver, checked, who(ALICE, "i:2"), play.hint)
    assert given.level == 1 and given.hints == 1 and given.game.hints == 1
    space = game.variant.space
    fitting = [c for c in map(space.code_at, range(space.size)) if score((0, 0, 1, 1), c) == (1, 1)]
    assert given.hint.remaining == len(fitting)  # the codes 1122 gives one black and one white
