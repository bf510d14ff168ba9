"""The pure game state machines: rules, typed errors, and a secret nothing prints.

The record codec has its own tests in tests/store/test_codec.py; `roundtrip` here only checks
that every game the rules can reach survives it."""

from __future__ import annotations

import functools
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.errors import (
    GameError,
    GameOver,
    ImpossibleAnswer,
    InvalidGuess,
    InvalidVariant,
    NotYourGame,
    OwnerReason,
    WrongGameKind,
)
from bot.engine.game import EndOutcome, Game, MoveKind, Secret, Status, Variant, expire, give_up
from bot.modes.common.rules import NotAPlayGame
from bot.modes.play.rules import PlayGame, guess, new_play_game
from bot.modes.solve.rules import (
    AnswerOutcome,
    NoGuessToAnswer,
    NotASolveGame,
    NothingToUndo,
    SolveGame,
    answer,
    new_solve_game,
    undo,
)
from bot.store.codec import game_from_record, game_to_record, move_to_record
from bot.ui.errors import friendly

# Ids use only the digits 7, 8, 9 and 0, so no 1-6 secret can hide inside them in a repr.
GUILD, CHANNEL, ALICE, BOB = 70, 80, 90, 97
SECRET = (0, 1, 2, 3)  # "1234", RGBY


def play(**options: object) -> PlayGame:
    options.setdefault("secret", SECRET)
    return new_play_game(guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, **options)


def solve(first_guess: tuple[int, ...] = (0, 0, 1, 1), **options: object) -> SolveGame:
    return new_solve_game(
        guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, first_guess=first_guess, **options
    )


def roundtrip(game: Game) -> Game:
    return game_from_record(game_to_record(game), [move_to_record(move) for move in game.log])


# --- variants ----------------------------------------------------------------------------------


def test_default_variant_is_the_classic_game() -> None:
    variant = Variant()
    assert (variant.pegs, variant.colours, variant.duplicates, variant.max_guesses) == (
        4,
        6,
        True,
        10,
    )
    assert variant.space.size == 6**4
    assert variant == Variant() and hash(variant) == hash(Variant())


@pytest.mark.parametrize(
    ("options", "fragment"),
    [
        ({"pegs": 9}, "pegs"),
        ({"colours": 11}, "colours"),
        ({"pegs": 5, "colours": 4, "duplicates": False}, "repeated"),
        ({"max_guesses": 0}, "guesses"),
        ({"max_guesses": 21}, "guesses"),
    ],
)
def test_invalid_variants_are_explained(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(InvalidVariant) as caught:
        Variant(**options)  # type: ignore[arg-type]
    assert isinstance(caught.value, GameError)
    assert fragment in friendly(caught.value)  # the rules carry the data, the UI the words


# --- play games --------------------------------------------------------------------------------


def test_secrets_are_drawn_from_the_variant() -> None:
    no_repeats = Variant(pegs=4, colours=6, duplicates=False)
    drawn = {play(secret=None, variant=no_repeats).secret.reveal() for _ in range(200)}
    assert len(drawn) > 100  # random, not a constant
    assert all(len(set(code)) == 4 and all(0 <= c < 6 for c in code) for code in drawn)
    wide = {
        play(secret=None, variant=Variant(pegs=3, colours=10)).secret.reveal() for _ in range(50)
    }
    assert all(len(code) == 3 for code in wide)


def test_guesses_are_scored_and_counted() -> None:
    game, outcome = guess(play(), BOB, "1243")
    assert (outcome.move.black, outcome.move.white) == (2, 2)
    assert (outcome.number, outcome.guesses_left, outcome.status) == (1, 9, Status.ACTIVE)
    assert outcome.secret is None  # never revealed while the game is on
    game, outcome = guess(game, ALICE, (5, 5, 5, 5))
    assert (outcome.move.black, outcome.move.white, outcome.number) == (0, 0, 2)
    assert [m.player_id for m in game.moves] == [BOB, ALICE]
    assert game.version == 2 and game.status is Status.ACTIVE and game.winner_id is None


def test_winning_guess_ends_the_game_and_reveals_the_secret() -> None:
    game, _ = guess(play(), BOB, "1111")
    game, outcome = guess(game, ALICE, "RGBY")
    assert outcome.status is Status.WON and outcome.secret == SECRET
    assert game.winner_id == ALICE and game.is_over and game.guesses_left == 0
    assert game.revealed_secret == SECRET
    with pytest.raises(GameOver):
        guess(game, BOB, "1234")


def test_running_out_of_guesses_loses() -> None:
    game = play(variant=Variant(max_guesses=3))
    for _ in range(2):
        game, outcome = guess(game, BOB, "6666")
        assert outcome.status is Status.ACTIVE
    game, outcome = guess(game, BOB, "6666")
    assert outcome.status is Status.LOST and outcome.secret == SECRET
    assert game.status is Status.LOST and game.winner_id is None
    with pytest.raises(GameOver):
        guess(game, BOB, "1234")


def test_a_last_guess_that_wins_is_a_win() -> None:
    game, _ = guess(play(variant=Variant(max_guesses=2)), BOB, "6666")
    game, outcome = guess(game, BOB, "1234")
    assert outcome.status is Status.WON and game.winner_id == BOB


@pytest.mark.parametrize(
    ("code", "fragment"),
    [
        ("123", "4 pegs"),
        ("12345", "4 pegs"),
        ("1237", "not a colour"),
        ("", "Write a code"),
        ((0, 1, 2, 9), "not in this game"),
        ((0, 1, 2), "4 pegs"),
        (("x", 1, 2, 3), "Write a code"),
    ],
)
def test_invalid_guesses_are_refused_with_the_reason(code: object, fragment: str) -> None:
    game = play()
    with pytest.raises(InvalidGuess) as caught:
        guess(game, BOB, code)  # type: ignore[arg-type]
    assert fragment in friendly(caught.value)


def test_repeats_are_refused_when_the_variant_forbids_them() -> None:
    game = play(variant=Variant(duplicates=False))
    for code in ("1123", (0, 0, 1, 2)):
        with pytest.raises(InvalidGuess) as caught:
            guess(game, BOB, code)
        assert "may not repeat" in friendly(caught.value)


def test_solo_games_belong_to_their_starter() -> None:
    game = play(solo=True)
    with pytest.raises(NotYourGame) as caught:
        guess(game, BOB, "1111")
    assert caught.value.owner_id == ALICE and caught.value.reason is OwnerReason.SOLO
    game, _ = guess(game, ALICE, "1111")
    assert game.version == 1


@pytest.mark.parametrize("make", [play, solve])
def test_give_up_and_expire_end_either_kind(make: object) -> None:
    game = make()  # type: ignore[operator]
    given_up, outcome = give_up(game, BOB)
    assert given_up.status is Status.ABANDONED and given_up.ended_by == BOB
    assert outcome == EndOutcome(
        MoveKind.GIVE_UP, BOB, SECRET if isinstance(game, PlayGame) else None
    )
    timed_out, outcome = expire(game)
    assert timed_out.status is Status.ABANDONED and timed_out.ended_by is None
    assert outcome.reason is MoveKind.TIMEOUT
    for ended in (given_up, timed_out):
        with pytest.raises(GameOver):
            give_up(ended, ALICE)
        with pytest.raises(GameOver):
            expire(ended)


def test_moves_of_the_other_kind_are_refused() -> None:
    with pytest.raises(NotAPlayGame) as guessed:
        guess(solve(), ALICE, "1234")
    with pytest.raises(NotASolveGame) as answered:
        answer(play(), ALICE, 1, 1, None)
    with pytest.raises(NotASolveGame) as undone:
        undo(play(), ALICE)
    tried = (guessed.value.tried, answered.value.tried, undone.value.tried)
    assert tried == (MoveKind.GUESS, MoveKind.ANSWER, MoveKind.UNDO)
    assert isinstance(undone.value, WrongGameKind)


# --- solve games -------------------------------------------------------------------------------


def test_answers_record_the_next_guess_until_solved() -> None:
    game = solve()
    assert game.awaiting_answer and game.current_guess == (0, 0, 1, 1) and game.version == 1
    game, outcome = answer(game, ALICE, 1, 1, (0, 1, 2, 2))
    assert outcome == AnswerOutcome((1, 1), 1, Status.ACTIVE, (0, 1, 2, 2))
    assert not outcome.stuck
    game, outcome = answer(game, ALICE, 4, 0, (5, 5, 5, 5))  # a next guess after 4 black: ignored
    assert outcome.status is Status.SOLVED and outcome.next_guess is None and not outcome.stuck
    assert game.status is Status.SOLVED and game.guesses == ((0, 0, 1, 1), (0, 1, 2, 2))
    assert game.answers == ((1, 1), (4, 0))
    with pytest.raises(GameOver):
        answer(game, ALICE, 0, 0, None)
    with pytest.raises(GameOver):
        undo(game, ALICE)


@pytest.mark.parametrize(("black", "white"), [(3, 1), (4, 1), (2, 3), (-1, 0)])
def test_impossible_answers_are_refused(black: int, white: int) -> None:
    with pytest.raises(ImpossibleAnswer):
        answer(solve(), ALICE, black, white, (1, 1, 1, 1))


def test_only_the_starter_answers_and_undoes() -> None:
    game = solve()
    with pytest.raises(NotYourGame) as caught:
        answer(game, BOB, 0, 0, (2, 2, 3, 3))
    assert caught.value.owner_id == ALICE and caught.value.reason is OwnerReason.THEIR_CODE
    game, _ = answer(game, ALICE, 0, 0, (2, 2, 3, 3))
    with pytest.raises(NotYourGame):
        undo(game, BOB)


@pytest.mark.parametrize("reason", list(OwnerReason))
def test_not_your_game_names_no_one(reason: OwnerReason) -> None:
    """The engine writes no chat markup: the UI names the owner from `owner_id` and `reason`."""
    error = NotYourGame(ALICE, reason=reason)
    assert (error.owner_id, error.reason) == (ALICE, reason)
    assert str(error).startswith("not-your-game(") and "<@" not in str(error)
    assert NotYourGame(ALICE).reason is OwnerReason.OWNER


def test_stuck_game_waits_for_an_undo() -> None:
    game, _ = answer(solve(), ALICE, 1, 0, (0, 2, 2, 2))
    game, outcome = answer(game, ALICE, 0, 0, None)  # the solver found nothing: stuck
    assert outcome.stuck and game.is_stuck and not game.awaiting_answer
    assert game.current_guess is None and game.status is Status.ACTIVE
    with pytest.raises(NoGuessToAnswer):
        answer(game, ALICE, 1, 0, (3, 3, 3, 3))
    game, outcome = undo(game, ALICE)  # stuck: only the answer goes, the guess waits again
    assert outcome.undone == (0, 0) and outcome.dropped_guess is None
    assert outcome.awaiting == (0, 2, 2, 2) == game.current_guess
    assert game.answers == ((1, 0),)


def test_undo_takes_back_an_answer_and_the_guess_made_from_it() -> None:
    game, _ = answer(solve(), ALICE, 1, 0, (0, 2, 2, 2))
    game, outcome = undo(game, ALICE)
    assert (outcome.undone, outcome.dropped_guess, outcome.awaiting) == (
        (1, 0),
        (0, 2, 2, 2),
        (0, 0, 1, 1),
    )
    assert game.guesses == ((0, 0, 1, 1),) and game.answers == ()
    with pytest.raises(NothingToUndo):
        undo(game, ALICE)
    game, outcome = answer(game, ALICE, 2, 0, (0, 0, 2, 2))  # play on after the undo
    assert game.guesses == ((0, 0, 1, 1), (0, 0, 2, 2)) and game.answers == ((2, 0),)
    assert [m.kind for m in game.log] == ["guess", "answer", "guess", "undo", "answer", "guess"]


def test_bad_bot_guesses_are_refused() -> None:
    with pytest.raises(InvalidGuess):
        solve(first_guess=(0, 1, 2))
    with pytest.raises(InvalidGuess):
        answer(solve(), ALICE, 0, 0, (9, 9, 9, 9))


guesses_st = st.lists(
    st.tuples(st.sampled_from([ALICE, BOB]), st.tuples(*[st.integers(0, 3)] * 4)), max_size=12
)


@settings(max_examples=60, deadline=None)
@given(guesses_st, st.integers(1, 8))
def test_play_games_keep_their_rules_and_round_trip(
    moves: list[tuple[int, tuple[int, ...]]], max_guesses: int
) -> None:
    game = play(variant=Variant(colours=4, max_guesses=max_guesses), secret=(0, 1, 2, 3))
    for player, code in moves:
        if game.is_over:
            with pytest.raises(GameOver):
                guess(game, player, code)
            continue
        game, outcome = guess(game, player, code)
        assert outcome.number == len(game.moves) <= max_guesses
        assert (outcome.secret is not None) == game.is_over
    assert roundtrip(game) == game
    assert sum(m.black == 4 for m in game.moves) == (game.status is Status.WON)


solve_steps = st.lists(
    st.one_of(
        st.just(("undo",)),
        st.tuples(
            st.just("answer"), st.sampled_from([(0, 0), (1, 2), (2, 0), (4, 0)]), st.booleans()
        ),
    ),
    max_size=15,
)


@settings(max_examples=60, deadline=None)
@given(solve_steps)
def test_solve_games_replay_from_their_log(steps: list[tuple[object, ...]]) -> None:
    game = solve()
    rng = random.Random(0)
    for step in steps:
        refusal: type[GameError] | None = GameOver if game.is_over else None
        if step[0] == "undo":
            refusal = refusal or (None if game.answers else NothingToUndo)
            act = functools.partial(undo, game, ALICE)
        else:
            (black, white), has_next = step[1], step[2]  # type: ignore[misc]
            nxt = tuple(rng.randrange(6) for _ in range(4)) if has_next else None
            refusal = refusal or (None if game.awaiting_answer else NoGuessToAnswer)
            act = functools.partial(answer, game, ALICE, black, white, nxt)
        if refusal is not None:  # refused for the reason the state gives, and nothing else
            with pytest.raises(refusal):
                act()
            continue
        game, _ = act()
        assert len(game.guesses) - len(game.answers) in ((1, 0) if not game.is_over else (0,))
    assert roundtrip(game) == game


# --- the secret never shows --------------------------------------------------------------------


def renderings(code: tuple[int, ...], variant: Variant) -> list[str]:
    space = variant.space
    return [
        space.digits(code),
        space.letters(code),
        space.names(code),
        space.emoji(code),
        repr(code),
        repr(list(code)),
        json.dumps(list(code), separators=(",", ":")),
    ]


@pytest.mark.parametrize("seed", range(20))
def test_no_repr_or_str_shows_the_secret(seed: int) -> None:
    rng = random.Random(seed)
    variant = Variant(pegs=rng.randint(3, 6), colours=6)
    game = play(secret=None, variant=variant, solo=bool(seed % 2))
    secret = game.secret.reveal()
    for _ in range(rng.randrange(5)):
        code = tuple(rng.randrange(6) for _ in range(variant.pegs))
        if code != secret:
            game, _ = guess(game, ALICE, code)
    texts = [repr(game), str(game), f"{game}", f"{game!r}", repr(game.secret), str(game.secret)]
    texts += [f"{game.secret}", repr(roundtrip(game)), repr(game.variant)]
    for text in texts:
        for rendering in renderings(secret, variant):
            assert rendering not in text, (rendering, text)
    assert "<hidden>" in repr(game) and repr(game.secret) == "Secret(<hidden>)"


def test_secret_compares_without_showing_itself() -> None:
    assert Secret((0, 1)) == Secret((0, 1)) != Secret((1, 0))
    assert Secret.withheld() != Secret((0, 1))
    assert not hasattr(Secret((0, 1)), "__dict__")
