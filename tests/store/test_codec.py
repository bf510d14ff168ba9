"""The record codec: every game and move to plain records and back, and refusals of records this
version cannot read."""

from __future__ import annotations

import pytest

from bot.engine.errors import SecretWithheld
from bot.engine.game import Game, Variant
from bot.modes.play.rules import PlayGame, guess, new_play_game
from bot.modes.solve.rules import SolveGame, answer, new_solve_game
from bot.store.codec import (
    RECORD_FORMAT,
    RecordError,
    game_from_record,
    game_to_record,
    move_to_record,
)

GUILD, CHANNEL, ALICE, BOB = 70, 80, 90, 97
SECRET = (0, 1, 2, 3)


def play(**options: object) -> PlayGame:
    options.setdefault("secret", SECRET)
    return new_play_game(guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, **options)


def solve() -> SolveGame:
    return new_solve_game(
        guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, first_guess=(0, 0, 1, 1)
    )


def roundtrip(game: Game) -> Game:
    return game_from_record(game_to_record(game), [move_to_record(move) for move in game.log])


def test_records_are_explicit_and_round_trip() -> None:
    variant = Variant(pegs=5, colours=8, duplicates=False)
    game, _ = guess(play(variant=variant, secret=(4, 3, 2, 1, 0)), BOB, "12345")
    record = game_to_record(game)
    assert record["format"] == RECORD_FORMAT and record["kind"] == "play"
    assert (record["pegs"], record["colours"], record["duplicates"]) == (5, 8, False)
    assert record["secret"] == "[4,3,2,1,0]" and record["status"] == "active"
    assert roundtrip(game) == game
    move = move_to_record(game.log[0])
    assert move == {
        "kind": "guess",
        "player_id": BOB,
        "code": "[0,1,2,3,4]",
        "black": 1,
        "white": 4,
    }
    solved, _ = answer(solve(), ALICE, 4, 0, None)
    assert roundtrip(solved) == solved and game_to_record(solved)["secret"] is None


def test_a_record_without_its_secret_loads_for_display_only() -> None:
    game, _ = guess(play(), BOB, "1111")
    record = {**game_to_record(game), "secret": None}
    shown = game_from_record(record, [move_to_record(move) for move in game.log])
    assert not shown.secret.known and shown.moves == game.moves
    assert repr(shown.secret) == "Secret(<withheld>)"
    with pytest.raises(SecretWithheld):
        guess(shown, BOB, "1234")
    assert shown.revealed_secret is None


def test_unreadable_records_are_refused() -> None:
    game = play()
    moves = [move_to_record(move) for move in game.log]
    with pytest.raises(RecordError, match="newer"):
        game_from_record({**game_to_record(game), "format": RECORD_FORMAT + 1}, moves)
    with pytest.raises(RecordError, match="format"):
        game_from_record({**game_to_record(game), "format": None}, moves)
    with pytest.raises(RecordError, match="kind"):
        game_from_record({**game_to_record(game), "kind": "chess"}, moves)
    with pytest.raises(RecordError, match="do not match"):
        game_from_record({**game_to_record(game), "status": "won"}, moves)
    with pytest.raises(RecordError, match="variant"):
        game_from_record({**game_to_record(game), "pegs": 12}, moves)
    with pytest.raises(RecordError, match="code"):
        game_from_record({**game_to_record(game), "secret": "1234"}, moves)
