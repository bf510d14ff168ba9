"""discord.py's translator for the command tree: names, descriptions and choices in every
shipped language, taken from the same catalogues as the messages."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.ui.i18n.catalogue import SOURCE_LANGUAGE, messages


class CatalogueTranslator(app_commands.Translator):
    """Answers each (string, locale) of a sync; None (no localisation) for English, for a
    language we do not ship, and for a string its catalogue leaves as it is."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        t = messages(locale)
        if t.language == SOURCE_LANGUAGE:
            return None
        source = string.message
        key = string.extras.get("context")
        translated = t.pgettext(key, source) if isinstance(key, str) else t.gettext(source)
        return translated if translated != source else None
