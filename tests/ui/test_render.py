"""The UI draws only: ids that the inputs read back, owner names, views nobody needs to keep."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import re
from dataclasses import replace

import pytest

import bot.modes
from bot.engine.errors import NotHere, NotYourGame, OwnerReason
from bot.engine.game import Variant
from bot.modes.play import board as play_board
from bot.modes.race import board as race_board
from bot.modes.solve import board as solve_board
from bot.modes.solve.rules import new_solve_game
from bot.ui import ids
from bot.ui.errors import friendly

BOARDS = [
    importlib.import_module(f"bot.modes.{m.name}.board")
    for m in pkgutil.iter_modules(bot.modes.__path__)
    if m.ispkg and importlib.util.find_spec(f"bot.modes.{m.name}.board") is not None
]
ROUTES = [
    value for board in BOARDS for value in vars(board).values() if isinstance(value, ids.Route)
]


def test_every_mode_board_holds_routes_and_no_prefix_is_taken_twice() -> None:
    assert len(ROUTES) >= 20
    prefixes = [route.prefix for route in ROUTES]
    assert len(prefixes) == len(set(prefixes))


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.prefix)
def test_every_route_reads_back_what_it_wrote(route: ids.Route) -> None:
    # The widest ids the store holds (since #22: 2**63 - 1, not 10**19 and up, which it cannot).
    values = [ids.LARGEST - n if width > 6 else n for n, (_, width) in enumerate(route.fields, 1)]
    custom_id = route.id(*values)
    assert len(custom_id) <= 100  # Discord's limit
    match = re.fullmatch(route.template, custom_id)
    assert match is not None and list(route.numbers(match).values()) == values
    # A wider number is matched, so it is answered, and read as no game (#22: was unmatched).
    wider = re.fullmatch(route.template, custom_id + "0" * 25)
    assert wider is not None
    with pytest.raises(NotHere):
        route.numbers(wider)


def test_the_modal_route_reads_ids_with_and_without_the_nonce() -> None:
    assert play_board.CODE_MODAL_PATTERN.fullmatch("mm:code:42:77")["nonce"] == "77"  # type: ignore[index]
    assert play_board.CODE_MODAL_PATTERN.fullmatch("mm:code:42")["nonce"] is None  # type: ignore[index]


@pytest.mark.parametrize("reason", list(OwnerReason))
def test_refusals_name_the_owner_that_the_engine_does_not(reason: OwnerReason) -> None:
    error = NotYourGame(1234, reason=reason)
    assert "<@" not in str(error) and "<@1234>" in friendly(error)


def test_solve_boards_offer_only_answers_the_guess_can_earn() -> None:
    game = new_solve_game(
        guild_id=1,
        channel_id=2,
        starter_id=3,
        first_guess=(0, 1, 2, 3),
        variant=Variant(pegs=4, colours=4, duplicates=False),
    )
    view = solve_board.solve_view(replace(game, id=5))
    assert view is not None and not view.is_dispatchable()
    labels = [getattr(item, "label", None) for item in view.children]
    assert labels == ["⚪⚪⚪⚪", "⚫⚪⚪⚪", "⚫⚫⚪⚪", "⚫⚫⚫⚫", "Give up"]


def test_the_race_leaderboard_gives_averages_and_marks_hard_wins_and_hints() -> None:
    from bot.store import PlayerStats
    from bot.ui.i18n import ENGLISH, messages

    rows = [
        PlayerStats(1, played=3, won=2, guesses=13, best=3, hard_won=1, kind="race"),
        PlayerStats(2, played=2, won=0, guesses=9, hinted=1, kind="race"),
    ]
    board = race_board.leaderboard(rows, t=ENGLISH)
    first, second = (board.description or "").splitlines()
    assert first == "🥇 <@1>: 2 won of 3, best 3 · 4.3 guesses on average 💪"
    assert second == "🥈 <@2>: 0 won of 2 · 4.5 guesses on average 💡"
    assert board.footer.text == "💪 won in hard mode · 💡 played with hints"
    polish = race_board.leaderboard(rows, t=messages("pl"))
    assert "średnio 4,3 próby" in (polish.description or "")
    plain = play_board.leaderboard([replace(rows[0], hard_won=0)], t=ENGLISH)
    assert plain.footer.text is None and "average" not in (plain.description or "")


def test_every_status_a_game_can_end_in_has_its_board_colour() -> None:
    """A game may end even (a draw: nobody won); each status draws in a colour of its own."""
    from bot.engine.game import Status
    from bot.ui import embeds

    assert Status("draw") is Status.DRAW
    assert set(embeds.STATUS_COLOUR) == set(Status)
    assert embeds.STATUS_COLOUR[Status.DRAW] not in (embeds.WON, embeds.LOST, embeds.ENDED)


def test_a_days_leaderboard_marks_hard_mode_but_no_hint_a_daily_cannot_have() -> None:
    from bot.modes.daily import board as daily_board
    from bot.store import Result
    from bot.ui.i18n import ENGLISH

    rows = [Result(1, 10, 7, True, 3, 42.0, hard=True, hinted=True)]
    line = daily_board.daily_leaderboard(7, rows, t=ENGLISH).description or ""
    assert "💪" in line and "💡" not in line
