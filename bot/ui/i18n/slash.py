"""Marks the slash commands' words for translation: `pybabel extract` finds these calls (the
names are gettext's), and discord.py hands the `locale_str` back to the translator at sync."""

from __future__ import annotations

from discord.app_commands import locale_str


def gettext(message: str) -> locale_str:
    """A description: any sentence up to 100 characters."""
    return locale_str(message)


def pgettext(context: str, message: str) -> locale_str:
    """A name (`context` "command" or "option"; Discord wants 1-32 lower-case letters, digits,
    - or _) or a choice ("strategy")."""
    return locale_str(message, context=context)
