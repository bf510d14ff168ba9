"""The page's own words (its buttons, labels and notices), from the same catalogue as the
bot's, so `GET /api/strings` answers them in the player's language. A label the page needs is
one line here (then `pybabel extract`, its Polish, `pybabel compile`: docs/development.md)."""

from __future__ import annotations

from bot.ui.i18n import Messages, later
from bot.ui.i18n.later import Said

LABELS: dict[str, Said] = {
    "guess": later.pgettext("button", "Guess"),
    "hint": later.pgettext("button", "Hint"),
    "giveup": later.pgettext("button", "Give up"),
    "undo": later.pgettext("button", "Undo"),
    "join": later.pgettext("button", "Join"),
    "clear": later.pgettext("activity", "Clear"),
    "remaining": later.pgettext("activity", "Guesses left"),
    "secret": later.pgettext("activity", "Secret"),
    "won": later.pgettext("activity", "Cracked!"),
    "lost": later.pgettext("activity", "Out of guesses"),
    "ended": later.pgettext("activity", "Game over"),
    "no_game": later.pgettext(
        "activity", "No game here yet. Start one in the channel with /mastermind play."
    ),
    "watching": later.pgettext("activity", "Here now"),
    "reconnecting": later.pgettext("activity", "Reconnecting…"),
    "black": later.pgettext("activity", "right colour, right place"),
    "white": later.pgettext("activity", "right colour, wrong place"),
    "colour": later.pgettext("activity", "Colour"),
    "answer": later.pgettext("activity", "Answer"),
    "your_guess": later.pgettext("activity", "My guess"),
    "lobby": later.pgettext("activity", "Waiting for racers"),
    "standings": later.pgettext("activity", "Standings"),
    "progress": later.pgettext("activity", "Today's players"),
}
"""Every label of the page by its key."""


def page_words(t: Messages) -> dict[str, str]:
    """The page's labels in the language `t`."""
    return {key: said(t) for key, said in LABELS.items()}
