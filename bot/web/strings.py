"""The page's own words (its buttons, labels and notices), from the same catalogue as the
bot's, so `GET /api/strings` answers them in the player's language: the shared table of
`bot.ui.page_words` (the keys the page looks up; tests/browser/test_page_files.py holds the page
to it) and each mode's `WebMode.words` (its own labels, in its web.py)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from bot.ui.i18n import Messages
from bot.ui.i18n.later import Said
from bot.ui.page_words import page_words as shared_words


def page_words(t: Messages, modes: Iterable[Mapping[str, Said]]) -> dict[str, str]:
    """The page's labels, and each mode's, in the language `t`."""
    words = shared_words(t)
    for own in modes:
        words.update((key, said(t)) for key, said in own.items())
    return words
