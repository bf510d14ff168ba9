"""The duel's rules: a secret on each side, turns that alternate, the bot's guesses scored
against the secret the player set, and every way a duel ends, read back from one log."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine.codes import CodeError
from bot.engine.errors import (
    BadChoice,
    BreaksAClue,
    GameOver,
    InvalidGuess,
    InvalidVariant,
    NotYourGame,
    OwnerReason,
    WrongGameKind,
)
from bot.engine.game import MoveKind, Status, Variant, expire, give_up
from bot.engine.scoring import score
from bot.modes.duel.actions import OPPONENTS, Setup
from bot.modes.duel.board import SETUP, setup_number, setup_of
from bot.modes.duel.rules import (
    BadSecret,
    DuelGame,
    NotADuel,
    NotYourTurn,
    Turn,
    as_duel,
    bot_guess,
    check_guess,
    check_secret,
    guess,
    new_duel_game,
    play_round,
)
from bot.modes.play.rules import new_play_game

# Ids use only the digits 7, 8, 9 and 0, so no 1-6 code can hide inside them in a repr.
GUILD, CHANNEL, ALICE, BOB = 70, 80, 90, 97
BOTS = (0, 1, 2, 3)  # the bot's secret: 1234
THEIRS = (5, 5, 4, 4)  # the player's secret: 6655
MISS = (0, 0, 0, 0)  # 1111: never cracks either secret here


def duel(
    *, guesses: int = 10, hard: bool = False, theirs: tuple[int, ...] | str = THEIRS, **kw: object
) -> DuelGame:
    return new_duel_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter_id=ALICE,
        theirs=theirs,
        secret=BOTS,
        variant=Variant(max_guesses=guesses),
        hard=hard,
        **kw,  # type: ignore[arg-type]
    )


def rounds(game: DuelGame, *pairs: tuple[tuple[int, ...], tuple[int, ...]]) -> DuelGame:
    """Play rounds: the player's guess, then the bot's reply."""
    for mine, reply in pairs:
        game, _ = play_round(game, ALICE, mine, reply)
    return game


# --- the start ---------------------------------------------------------------------------------


def test_a_duel_starts_with_both_secrets_and_the_player_to_guess() -> None:
    game = duel(strategy="optimal")
    assert game.kind == "duel" and game.strategy == "optimal"
    assert game.status is Status.ACTIVE and game.turn is Turn.PLAYER and game.version == 0
    assert game.secret.reveal() == BOTS and game.theirs.reveal() == THEIRS
    assert game.guesses_left == 10 and game.player_moves == game.bot_moves == ()


def test_the_player_secret_may_be_typed_like_a_guess() -> None:
    assert duel(theirs="6655").theirs.reveal() == THEIRS
    assert check_secret(Variant(), "rgby") == (0, 1, 2, 3)


@pytest.mark.parametrize(
    ("variant", "secret"),
    [
        (Variant(), "123"),  # too short
        (Variant(), "12345"),  # too long
        (Variant(), "1237"),  # a colour the variant lacks
        (Variant(duplicates=False), "1123"),  # a repeat where none is allowed
        (Variant(), (0, 1, 2, 9)),  # a tuple with a colour out of range
        (Variant(), "not a code"),
    ],
)
def test_a_secret_that_does_not_fit_the_variant_is_refused(
    variant: Variant, secret: str | tuple[int, ...]
) -> None:
    with pytest.raises(BadSecret) as refused:
        new_duel_game(
            guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE, theirs=secret, variant=variant
        )
    assert refused.value.reason is None or isinstance(refused.value.reason, CodeError)


def test_the_bot_secret_is_drawn_when_none_is_given() -> None:
    drawn = {
        new_duel_game(guild_id=None, channel_id=1, starter_id=2, theirs=THEIRS).secret.reveal()
        for _ in range(20)
    }
    assert len(drawn) > 1 and all(len(code) == 4 for code in drawn)


# --- turns -------------------------------------------------------------------------------------


def test_turns_alternate_player_then_bot() -> None:
    game = duel()
    game, first = guess(game, ALICE, MISS)
    assert first.turn is Turn.BOT and game.turn is Turn.BOT and first.number == 1
    game, reply = bot_guess(game, MISS)
    assert reply.turn is Turn.PLAYER and game.turn is Turn.PLAYER and reply.number == 1
    game, second = guess(game, ALICE, (1, 1, 1, 1))
    assert second.number == 2 and game.turn is Turn.BOT
    assert [m.player_id for m in game.log] == [ALICE, None, ALICE]


def test_the_player_cannot_guess_in_the_bot_turn() -> None:
    game, _ = guess(duel(), ALICE, MISS)
    with pytest.raises(NotYourTurn) as refused:
        guess(game, ALICE, MISS)
    assert refused.value.turn is Turn.BOT


def test_the_bot_cannot_guess_in_the_player_turn() -> None:
    with pytest.raises(NotYourTurn) as refused:
        bot_guess(duel(), MISS)
    assert refused.value.turn is Turn.PLAYER


def test_only_the_starter_guesses() -> None:
    with pytest.raises(NotYourGame) as refused:
        guess(duel(), BOB, MISS)
    assert refused.value.owner_id == ALICE and refused.value.reason is OwnerReason.OWNER


def test_a_duel_is_not_another_mode_game() -> None:
    play = new_play_game(guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE)
    with pytest.raises(NotADuel):
        guess(play, ALICE, MISS)
    with pytest.raises(NotADuel):
        bot_guess(play, MISS)
    assert issubclass(NotADuel, WrongGameKind)
    assert as_duel(duel()).kind == "duel"


def test_a_guess_that_is_no_code_is_refused_on_either_side() -> None:
    with pytest.raises(InvalidGuess):
        guess(duel(), ALICE, "12")
    game, _ = guess(duel(), ALICE, MISS)
    with pytest.raises(InvalidGuess):
        bot_guess(game, (0, 1, 2, 6))


# --- scoring -----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", [(5, 4, 4, 5), (5, 5, 4, 4), (0, 0, 0, 0), (4, 4, 5, 5)])
def test_the_bot_guess_is_scored_against_the_player_secret(code: tuple[int, ...]) -> None:
    game, _ = guess(duel(), ALICE, MISS)
    game, reply = bot_guess(game, code)
    assert (reply.move.black, reply.move.white) == score(code, THEIRS)
    assert reply.move.player_id is None and reply.move.code == code
    assert game.bot_clues == ((code, score(code, THEIRS)),)


@pytest.mark.parametrize("code", [(0, 1, 2, 3), (3, 2, 1, 0), (5, 5, 4, 4)])
def test_the_player_guess_is_scored_against_the_bot_secret(code: tuple[int, ...]) -> None:
    game, mine = guess(duel(), ALICE, code)
    assert (mine.move.black, mine.move.white) == score(code, BOTS)
    assert game.clues_for(ALICE) == ((code, score(code, BOTS)),)
    assert game.bot_clues == ()


def test_each_side_clues_are_its_own() -> None:
    game = rounds(duel(), (MISS, (5, 5, 0, 0)), ((1, 1, 1, 1), (4, 4, 4, 4)))
    assert [code for code, _ in game.clues_for(ALICE)] == [MISS, (1, 1, 1, 1)]
    assert [code for code, _ in game.clues_for(BOB)] == [MISS, (1, 1, 1, 1)]  # the player's
    assert [code for code, _ in game.bot_clues] == [(5, 5, 0, 0), (4, 4, 4, 4)]


# --- every end ---------------------------------------------------------------------------------


def test_the_player_wins_by_cracking_it_in_fewer_guesses() -> None:
    game = rounds(duel(), (MISS, MISS))
    game, mine = guess(game, ALICE, BOTS)
    assert mine.status is Status.ACTIVE and game.turn is Turn.BOT  # the bot's guess 2 is owed
    game, reply = bot_guess(game, MISS)
    assert reply.status is Status.WON and game.winner_id == ALICE and game.turn is None
    assert game.revealed_secret == BOTS and game.revealed_theirs == THEIRS


def test_the_same_count_is_a_draw() -> None:
    game = rounds(duel(), (MISS, MISS), (BOTS, THEIRS))
    assert game.status is Status.DRAW and game.winner_id is None and game.is_over
    assert len(game.player_moves) == len(game.bot_moves) == 2


def test_the_bot_wins_by_cracking_it_first() -> None:
    game = rounds(duel(), (MISS, MISS))
    game, mine = guess(game, ALICE, MISS)
    assert mine.status is Status.ACTIVE
    game, reply = bot_guess(game, THEIRS)
    assert reply.status is Status.LOST and game.winner_id is None and reply.turn is None
    assert game.revealed_secret == BOTS and game.revealed_theirs == THEIRS


def test_the_bot_wins_when_the_player_guesses_run_out() -> None:
    game = rounds(duel(guesses=2), (MISS, MISS))
    game, last = guess(game, ALICE, MISS)
    assert last.status is Status.LOST and last.turn is None  # no reply is owed
    assert game.guesses_left == 0 and len(game.bot_moves) == 1
    with pytest.raises(GameOver):
        bot_guess(game, THEIRS)


def test_cracking_it_with_the_last_guess_still_waits_for_the_bot() -> None:
    game = rounds(duel(guesses=2), (MISS, MISS))
    game, last = guess(game, ALICE, BOTS)
    assert last.status is Status.ACTIVE and game.turn is Turn.BOT
    drawn, _ = bot_guess(game, THEIRS)
    won, _ = bot_guess(game, MISS)
    assert drawn.status is Status.DRAW and won.status is Status.WON


def test_a_one_guess_duel_is_decided_in_one_round() -> None:
    game = rounds(duel(guesses=1), (BOTS, THEIRS))
    assert game.status is Status.DRAW
    lost, _ = guess(duel(guesses=1), ALICE, MISS)
    assert lost.status is Status.LOST


def test_giving_up_ends_it_and_shows_both_secrets() -> None:
    game, _ = guess(duel(), ALICE, MISS)
    ended, outcome = give_up(game, ALICE)
    assert ended.status is Status.ABANDONED and ended.ended_by == ALICE and ended.winner_id is None
    assert outcome.reason is MoveKind.GIVE_UP and outcome.secret == BOTS
    assert ended.revealed_theirs == THEIRS and ended.turn is None
    with pytest.raises(GameOver):
        guess(ended, ALICE, MISS)
    with pytest.raises(GameOver):
        bot_guess(ended, MISS)


def test_expiry_ends_it_with_nobody_to_blame() -> None:
    ended, outcome = expire(rounds(duel(), (MISS, MISS)))
    assert ended.status is Status.ABANDONED and ended.ended_by is None
    assert outcome.reason is MoveKind.TIMEOUT
    with pytest.raises(GameOver):
        expire(ended)


def test_only_its_player_ends_a_duel() -> None:
    assert DuelGame.owner_ends_only


# --- rounds, as the actions play them ----------------------------------------------------------


def test_a_round_is_the_player_guess_and_the_bot_reply() -> None:
    game, outcomes = play_round(duel(), ALICE, MISS, (5, 5, 0, 0))
    assert [o.move.player_id for o in outcomes] == [ALICE, None]
    assert game.turn is Turn.PLAYER and game.version == 2


def test_a_round_that_ends_with_the_player_guess_leaves_the_reply_unused() -> None:
    game, outcomes = play_round(duel(guesses=1), ALICE, MISS, THEIRS)
    assert len(outcomes) == 1 and game.status is Status.LOST and game.bot_moves == ()


def test_the_guess_is_checked_without_the_secret_before_any_work() -> None:
    shown = rounds(duel(hard=True), ((0, 0, 1, 1), (4, 4, 5, 5))).withheld()
    assert check_guess(shown, ALICE, "1233") == (0, 1, 2, 2)
    with pytest.raises(NotYourGame):
        check_guess(shown, BOB, MISS)
    with pytest.raises(InvalidGuess):
        check_guess(shown, ALICE, "9")
    with pytest.raises(BreaksAClue):
        check_guess(shown, ALICE, "5555")
    waiting, _ = guess(duel(), ALICE, MISS)
    with pytest.raises(NotYourTurn):
        check_guess(waiting.withheld(), ALICE, MISS)
    with pytest.raises(GameOver):
        check_guess(give_up(duel(), ALICE)[0], ALICE, MISS)


# --- hard mode ---------------------------------------------------------------------------------


def test_hard_mode_holds_the_player_to_their_own_answers_only() -> None:
    game = rounds(duel(hard=True), ((0, 0, 1, 1), (4, 4, 5, 5)))  # 1122 -> one black, one white
    with pytest.raises(BreaksAClue):
        guess(game, ALICE, (4, 4, 4, 4))  # shares no colour with 1122
    fits, _ = guess(game, ALICE, (0, 1, 3, 3))  # would have earned 1122 exactly that
    assert fits.turn is Turn.BOT
    easy = rounds(duel(), ((0, 0, 1, 1), (4, 4, 5, 5)))
    guess(easy, ALICE, (4, 4, 4, 4))  # outside hard mode any code goes


# --- the secrets stay hidden -------------------------------------------------------------------


def test_nothing_that_prints_a_running_duel_shows_either_secret() -> None:
    game = rounds(duel(theirs=(5, 4, 5, 4)), (MISS, MISS))
    shown = f"{game} {game!r} {game.secret} {game.theirs}"
    for code in ("1234", "6565", "0, 1, 2, 3", "5, 4, 5, 4"):
        assert code not in shown


def test_a_withheld_duel_holds_neither_secret() -> None:
    game = duel().withheld()
    assert not game.secret.known and not game.theirs.known
    assert game.revealed_secret is None and game.revealed_theirs is None
    assert game.withheld() is game
    assert duel().revealed_theirs is None  # a running game reveals nothing


# --- properties --------------------------------------------------------------------------------

codes = st.tuples(*(st.integers(0, 5) for _ in range(4)))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 8),
    codes,
    codes,
    st.lists(st.tuples(codes, codes), min_size=1, max_size=10),
)
def test_any_duel_follows_the_turns_and_the_fewer_guesses_rule(
    limit: int,
    bots: tuple[int, ...],
    theirs: tuple[int, ...],
    plays: list[tuple[tuple[int, ...], tuple[int, ...]]],
) -> None:
    game = new_duel_game(
        guild_id=None,
        channel_id=1,
        starter_id=ALICE,
        theirs=theirs,
        secret=bots,
        variant=Variant(max_guesses=limit),
    )
    for mine, reply in plays:
        if game.is_over:
            break
        assert game.turn is Turn.PLAYER
        game, outcomes = play_round(game, ALICE, mine, reply)
        assert (outcomes[0].move.black, outcomes[0].move.white) == score(mine, bots)
        if len(outcomes) == 2:
            assert (outcomes[1].move.black, outcomes[1].move.white) == score(reply, theirs)
        assert game.turn in (None, Turn.PLAYER)  # a round always hands the turn back
    player = [m.code for m in game.player_moves]
    bot = [m.code for m in game.bot_moves]
    assert len(player) - len(bot) in (0, 1) and len(player) <= limit
    mine_at = next((n for n, code in enumerate(player, 1) if code == bots), None)
    theirs_at = next((n for n, code in enumerate(bot, 1) if code == theirs), None)
    if not game.is_over:
        assert mine_at is None and theirs_at is None and len(player) < limit
    elif game.status is Status.WON:
        assert mine_at is not None and (theirs_at is None or theirs_at > mine_at)
        assert game.winner_id == ALICE
    elif game.status is Status.DRAW:
        assert mine_at is not None and mine_at == theirs_at
    else:
        assert game.status is Status.LOST and game.winner_id is None
        assert mine_at is None and (theirs_at is not None or len(player) == limit)
    if game.is_over:  # nothing is owed to either side once it is over
        assert len(player) == len(bot) or game.status is Status.LOST


# --- the setup a secret's picker carries -------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.integers(2, 8),
    st.integers(2, 10),
    st.booleans(),
    st.integers(1, 20),
    st.sampled_from(OPPONENTS),
    st.booleans(),
)
def test_every_setup_survives_its_custom_id(
    pegs: int, colours: int, repeats: bool, guesses: int, opponent: str, hard: bool
) -> None:
    try:
        variant = Variant(pegs, colours, repeats, guesses)
    except InvalidVariant:
        return
    setup = Setup(variant, opponent, hard)
    number = setup_number(setup)
    assert len(str(number)) <= SETUP and setup_of(number) == setup


@pytest.mark.parametrize("forged", [0, 1, 10**6, 2 * 9 * 11 * 2 * 21 * 10 * 5])
def test_a_setup_no_picker_carries_is_a_bad_choice(forged: int) -> None:
    with pytest.raises(BadChoice):
        setup_of(forged)


# --- hints -------------------------------------------------------------------------------------


def test_a_hint_is_the_player_alone_and_counted_once_per_press() -> None:
    from bot.modes.duel.rules import hint

    game = rounds(duel(), (MISS, (5, 5, 0, 0)))
    with pytest.raises(NotYourGame):
        hint(game, BOB)
    game, first = hint(game, ALICE)
    game, second = hint(game, ALICE)
    assert (first.level, second.level, game.hints) == (1, 2, 2)
    game, _ = play_round(game, ALICE, (1, 1, 1, 1), (4, 4, 4, 4))
    _, third = hint(game, ALICE)
    assert third.level == 1  # a new round, a new first hint
    with pytest.raises(GameOver):
        hint(give_up(game, ALICE)[0], ALICE)
    with pytest.raises(NotADuel):
        hint(new_play_game(guild_id=GUILD, channel_id=CHANNEL, starter_id=ALICE), ALICE)
