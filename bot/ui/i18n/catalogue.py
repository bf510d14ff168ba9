"""Messages in one language, from the gettext catalogues in `bot/locales` (made with Babel).

A message id is the English sentence itself, with `{name}` placeholders filled by keyword, so
English needs no catalogue and a missing translation still says something true. Numbers go
through Babel's CLDR data, so a Polish board writes 1 296 and 4,476 where English writes 1,296
and 4.476.
"""

from __future__ import annotations

import functools
import gettext
import logging
from collections.abc import Iterable, Mapping
from pathlib import Path

import discord
from babel import Locale
from babel.numbers import format_decimal, format_percent

log = logging.getLogger(__name__)

LOCALES = Path(__file__).resolve().parents[2] / "locales"
"""bot/locales/<language>/LC_MESSAGES/messages.mo (and .po, its source)."""
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"


def shipped_languages() -> tuple[str, ...]:
    """English (the message ids) and every language with a compiled catalogue."""
    found = sorted(p.parents[1].name for p in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return (SOURCE_LANGUAGE, *(name for name in found if name != SOURCE_LANGUAGE))


LANGUAGES = shipped_languages()


def N_(message: str) -> str:
    """Marks a message id whose translation is looked up later, by its English text."""
    return message


class Messages:
    """Every sentence of the bot in one language: `t.gettext("Guesses left")`. The method
    names are gettext's, so `pybabel extract` finds every message without extra options."""

    def __init__(self, language: str, translations: gettext.NullTranslations) -> None:
        self.language = language
        self.locale = Locale.parse(language)
        self._translations = translations
        self._plain: dict[tuple[str | None, str], str] = {}
        """Messages without placeholders, as translated: a board asks the same few (colour
        names, labels) dozens of times per drawing."""

    def __repr__(self) -> str:
        return f"Messages({self.language!r})"

    def gettext(self, message: str, /, **values: object) -> str:
        if not values and (known := self._plain.get((None, message))) is not None:
            return known
        text = self._fill(self._translations.gettext(message), message, values)
        if not values:
            self._plain[None, message] = text
        return text

    def pgettext(self, context: str, message: str, /, **values: object) -> str:
        """A message whose id alone is ambiguous ("red" the colour, "play" the command)."""
        if not values and (known := self._plain.get((context, message))) is not None:
            return known
        text = self._fill(self._translations.pgettext(context, message), message, values)
        if not values:
            self._plain[context, message] = text
        return text

    def ngettext(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """The plural form `count` needs in this language (Polish has three); `{count}` is
        `count` written the local way unless given."""
        values.setdefault("count", self.number(count))
        text = self._translations.ngettext(singular, plural, count)
        return self._fill(text, singular if count == 1 else plural, values)

    def npgettext(
        self, context: str, singular: str, plural: str, count: int, /, **values: object
    ) -> str:
        values.setdefault("count", self.number(count))
        text = self._translations.npgettext(context, singular, plural, count)
        return self._fill(text, singular if count == 1 else plural, values)

    def number(self, value: int) -> str:
        """An integer with this language's digit grouping."""
        return _grouped(value, self.language)

    def decimal(self, value: float, places: int) -> str:
        """A number with exactly `places` decimals, grouped and pointed the local way."""
        pattern = "#,##0." + "0" * places if places else "#,##0"
        return format_decimal(value, format=pattern, locale=self.locale)

    def percent(self, value: float) -> str:
        return format_percent(value, locale=self.locale)

    def join(self, items: Iterable[str]) -> str:
        """Items in a comma-separated list, as in "peg 1, 3"."""
        return ", ".join(items)

    def _fill(self, text: str, source: str, values: Mapping[str, object]) -> str:
        """Fill the placeholders; a translation that names one the code does not give falls
        back to the English sentence (logged), so a broken catalogue never breaks a reply."""
        try:
            return text.format_map(values)
        except (KeyError, IndexError, ValueError):
            log.error("the %s translation of %r has bad placeholders", self.language, source)
            return source.format_map(values)


@functools.lru_cache(maxsize=4096)
def _grouped(value: int, language: str) -> str:
    """Babel's CLDR formatting costs a fraction of a millisecond, and a board writes the same
    few numbers (guess counts, code-space sizes) over and over: remembered."""
    return format_decimal(value, locale=Locale.parse(language))


def _language(locale: str | discord.Locale | None) -> str:
    """The shipped language for a Discord locale ("pl", "en-GB", "pt-BR"); else English."""
    value = str(locale.value if isinstance(locale, discord.Locale) else locale or "")
    return _shipped(value)


@functools.lru_cache(maxsize=256)
def _shipped(value: str) -> str:
    """Asked on every interaction, for one of Discord's few dozen locales: remembered."""
    for candidate in (value.replace("-", "_"), value.partition("-")[0]):
        if candidate in LANGUAGES:
            return candidate
    return SOURCE_LANGUAGE


@functools.cache
def _messages(language: str) -> Messages:
    if language == SOURCE_LANGUAGE:
        return Messages(language, gettext.NullTranslations())
    translations = gettext.translation(DOMAIN, LOCALES, [language])
    return Messages(language, translations)


def messages(locale: str | discord.Locale | None) -> Messages:
    """The messages for a Discord locale, in the nearest shipped language (English if none)."""
    return _messages(_language(locale))


ENGLISH = messages(SOURCE_LANGUAGE)
"""The source language: message ids are English sentences."""
