"""The page's own words (its buttons, labels and notices), from the same catalogue as the
bot's, so `GET /api/strings` answers them in the player's language. A label the page needs is
one line here (then `pybabel extract`, its Polish, `pybabel compile`: docs/development.md)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.ui.i18n import Messages, later
from bot.ui.i18n.later import Said

LABELS: dict[str, Said] = {
    "guess": later.pgettext("button", "Guess"),
    "hint": later.pgettext("button", "Hint"),
    "giveup": later.pgettext("button", "Give up"),
    "clear": later.pgettext("activity", "Clear"),
    "remaining": later.pgettext("activity", "Guesses left"),
    "secret": later.pgettext("activity", "Secret"),
    "won": later.pgettext("activity", "Cracked!"),
    "lost": later.pgettext("activity", "Out of guesses"),
    "ended": later.pgettext("activity", "Game over"),
    "no_game": later.pgettext(
        "activity", "No game here yet. Start one in the channel with `/mastermind play`."
    ),
    "watching": later.pgettext("activity", "Here now"),
    "reconnecting": later.pgettext("activity", "Reconnecting…"),
    "black": later.pgettext("activity", "right colour, right place"),
    "white": later.pgettext("activity", "right colour, wrong place"),
    "colour": later.pgettext("activity", "Colour"),
}
"""Every label the page shows for any game, by its key; a mode's own labels are its
`WebMode.words`."""


def page_words(t: Messages, modes: Iterable[Mapping[str, Said]]) -> dict[str, str]:
    """The page's labels, and each mode's, in the language `t`."""
    words = {key: said(t) for key, said in LABELS.items()}
    for own in modes:
        words.update((key, said(t)) for key, said in own.items())
    return words
