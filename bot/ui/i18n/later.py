"""Words a mode declares once (its games' name in a chart, its section of the rules) and the
bot says later, in the reader's language: `later.gettext("Together")(t)`. The functions carry
gettext's own names, so `pybabel extract` finds the messages where they are declared."""

from __future__ import annotations

from dataclasses import dataclass

from bot.ui.i18n.catalogue import Messages


@dataclass(frozen=True)
class Said:
    """A message of the catalogue (with its context, if any), not yet in a language."""

    message: str
    context: str | None = None

    def __call__(self, t: Messages) -> str:
        if self.context is None:
            return t.gettext(self.message)
        return t.pgettext(self.context, self.message)


def gettext(message: str) -> Said:
    return Said(message)


def pgettext(context: str, message: str) -> Said:
    return Said(message, context)
