"""The play mode's actions: where a game is, who may guess, one guess per input."""

from __future__ import annotations

import pytest

from bot.engine.actor import Actor
from bot.engine.errors import GameAlreadyActive, NotHere, NotYourGame, OwnerReason
from bot.engine.game import Variant
from bot.modes.common import actions as common
from bot.modes.play import actions as play
from bot.store import AlreadyApplied, Store

GUILD, CHANNEL = 10, 20
ALICE = Actor(user_id=1, guild_id=GUILD, channel_id=CHANNEL, source="i:1")


def at(user_id: int, source: str, *, guild: int | None = GUILD, channel: int = CHANNEL) -> Actor:
    return Actor(user_id=user_id, guild_id=guild, channel_id=channel, source=source)


async def test_a_game_is_only_reachable_from_its_own_channel(store: Store) -> None:
    game = await play.start(store, ALICE, Variant(), solo=False, board_message_id=99)
    assert game.id is not None
    for stranger in (
        at(2, "i:2", channel=CHANNEL + 1),
        at(2, "i:3", guild=None),
        at(2, "i:4", guild=GUILD + 1),
    ):
        with pytest.raises(NotHere):
            await play.may_guess(store, game.id, stranger)
    with pytest.raises(NotHere):
        await play.may_guess(store, game.id + 1000, at(2, "i:5"))
    assert (await play.may_guess(store, game.id, at(2, "i:6"))).id == game.id


async def test_one_input_makes_one_guess(store: Store) -> None:
    game = await play.start(store, ALICE, Variant(), solo=False, board_message_id=99)
    assert game.id is not None
    bob = at(2, "picker:500")
    applied = await play.guess(store, game.id, bob, "1122")
    stored, outcome = applied.game, applied.outcome
    assert outcome.number == 1 and stored.version == 1
    with pytest.raises(AlreadyApplied):
        await play.guess(store, game.id, bob, "3344")
    assert (await store.game(game.id)).version == 1  # type: ignore[union-attr]


async def test_solo_games_refuse_other_players_by_reason(store: Store) -> None:
    game = await play.start(store, ALICE, Variant(), solo=True, board_message_id=99)
    assert game.id is not None
    with pytest.raises(NotYourGame) as refused:
        await play.may_guess(store, game.id, at(2, "i:9"))
    assert refused.value.reason is OwnerReason.SOLO and refused.value.owner_id == 1
    assert "<@" not in str(refused.value)


async def test_a_taken_channel_is_refused_naming_the_running_kind(store: Store) -> None:
    await play.start(store, ALICE, Variant(), solo=False, board_message_id=99)
    with pytest.raises(GameAlreadyActive) as refused:
        await play.check_start(store, at(2, "i:7"))
    assert refused.value.kind == "play"


async def test_only_the_starter_or_a_moderator_ends_a_game(store: Store) -> None:
    game = await play.start(store, ALICE, Variant(), solo=False, board_message_id=99)
    assert game.id is not None
    with pytest.raises(NotYourGame) as refused:
        await common.give_up(store, game.id, at(2, "i:8"))
    assert refused.value.reason is OwnerReason.END
    moderator = Actor(user_id=3, guild_id=GUILD, channel_id=CHANNEL, moderator=True, source="i:9")
    ended = (await common.give_up(store, game.id, moderator)).game
    assert ended.is_over and ended.ended_by == 3


async def test_a_daily_game_is_ended_by_its_player_only_not_by_a_moderator(store: Store) -> None:
    from bot.modes.daily.rules import new_daily_game

    game = await store.start(
        new_daily_game(
            guild_id=GUILD, channel_id=CHANNEL, player_id=1, puzzle=5, secret=(0, 1, 2, 3)
        )
    )
    assert game.id is not None
    moderator = Actor(user_id=3, guild_id=GUILD, channel_id=CHANNEL, moderator=True, source="i:9")
    with pytest.raises(NotYourGame) as refused:
        await common.give_up(store, game.id, moderator)
    assert refused.value.reason is OwnerReason.OWNER
    assert not (await store.game(game.id) or game).is_over  # nothing stored
    ended = (await common.give_up(store, game.id, ALICE)).game
    assert ended.is_over and ended.ended_by == 1
