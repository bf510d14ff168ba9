"""The duel's leaderboard per opponent as drawn, in English and in Polish."""

from __future__ import annotations

from bot.modes.duel import board
from bot.store import PlayerStats
from bot.ui.i18n import messages

ENGLISH, POLISH = messages("en"), messages("pl")


def test_each_opponents_board_is_titled_by_it_in_the_readers_language() -> None:
    rows = [PlayerStats(7, played=2, won=1, guesses=9, best=4, kind="duel")]
    knuth = board.leaderboard("knuth")
    assert knuth(rows, t=ENGLISH).title == "Duel leaderboard: Knuth minimax"
    assert knuth(rows, t=POLISH).title == "Ranking pojedynków: Minimaks Knutha"
    assert "<@7>" in (knuth(rows, t=POLISH).description or "")
    easy = board.leaderboard("random-consistent")
    assert (easy([], t=ENGLISH).description or "").startswith(
        "No duel against Easy (a random code still possible) has ended yet."
    )
    assert "pojedynek" in (easy([], t=POLISH).description or "")
