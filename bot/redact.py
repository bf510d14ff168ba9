"""The one URL redactor: a database URL's password never reaches a log line, a message or a repr.

It imports nothing of the bot, so every floor (settings, the store, the commands) may use it.
"""

from __future__ import annotations

import re

_PASSWORD_PARAMETER = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)
"""libpq and asyncpg also take the password as a query parameter: `...?password=secret`."""


def redact(url: str) -> str:
    """The URL with its password (in the credentials or as a parameter) replaced by `***`.

    The credentials end at the last `@`, so a password holding `@`, `/` or `:` is hidden whole.
    """
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if sep and at and ":" in credentials:
        rest = f"{credentials.partition(':')[0]}:***@{host}"
    return _PASSWORD_PARAMETER.sub(r"\1***", f"{scheme}{sep}{rest}")
