"""Discord outages in the log: one WARNING when a shard loses Discord, one INFO when it is back.

discord.py reconnects by itself, which is right, but it logs each failed attempt as an ERROR
with a full traceback (eight in an eight-second outage), which reads as a crash to the person
watching the log. This filter, on discord.py's own loggers, turns the first failed attempt of
an outage into one WARNING line, drops the rest (kept, with their tracebacks, at DEBUG), and
turns the line of the connection that ends it into one INFO saying how long it lasted. It
matches discord.py's messages, which constraints.txt pins; tests/test_outage.py fails if they
change.
"""

from __future__ import annotations

import logging
import time

RECONNECTING = "Attempting a reconnect"
"""How discord.py (shard.py, client.py) begins the line of each failed reconnect."""
CONNECTED = ("has connected to Gateway", "has successfully RESUMED")
"""How discord.py's gateway.py says a shard is connected (a new session, or the old one)."""


class OutageLog(logging.Filter):
    """Rewrites discord.py's reconnect lines; one per process (`install`)."""

    def __init__(self) -> None:
        super().__init__()
        self.since: dict[int, float] = {}
        """When each shard in an outage lost Discord (time.monotonic)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if message.startswith(RECONNECTING):
            return self._lost(record)
        if any(sign in message for sign in CONNECTED):
            return self._back(record)
        return True

    def _lost(self, record: logging.LogRecord) -> bool:
        shard = _shard(record)
        if shard in self.since:  # a further failed attempt of the same outage
            if not logging.getLogger().isEnabledFor(logging.DEBUG):
                return False
            _reword(record, logging.DEBUG, record.getMessage())
            return True
        self.since[shard] = time.monotonic()
        error = record.exc_info[1] if record.exc_info else None
        reason = f"{type(error).__name__}: {error}" if error is not None else "no reason given"
        _reword(
            record,
            logging.WARNING,
            f"lost the connection to Discord (shard {shard}: {reason}); reconnecting by itself "
            "until it is back, with one line when it is",
        )
        record.exc_info = record.exc_text = None
        return True

    def _back(self, record: logging.LogRecord) -> bool:
        shard = _shard(record)
        lost = self.since.pop(shard, None)
        if lost is None:  # a first connection, or a resume after a short drop: theirs, as is
            return True
        _reword(
            record,
            logging.INFO,
            f"connected to Discord again after {time.monotonic() - lost:.0f} s (shard {shard})",
        )
        return True

    def in_outage(self) -> bool:
        """Whether some shard has lost Discord and not reconnected yet."""
        return bool(self.since)


def _shard(record: logging.LogRecord) -> int:
    """The shard a discord.py line is about: its first argument in shard.py and gateway.py
    (client.py's line, for an unsharded client, has none: shard 0)."""
    args = record.args if isinstance(record.args, tuple) else ()
    first = args[0] if args and "shard" in str(record.msg).lower() else 0
    return first if isinstance(first, int) else 0


def _reword(record: logging.LogRecord, level: int, message: str) -> None:
    record.levelno, record.levelname = level, logging.getLevelName(level)
    record.msg, record.args = message, None
    record.name = __name__


WATCH = OutageLog()
"""The one filter: `install` puts it on discord.py's loggers; the bot asks it `in_outage`."""


def install() -> None:
    """Put the filter on the discord.py loggers that write these lines (idempotent)."""
    for name in ("discord.shard", "discord.client", "discord.gateway"):
        logger = logging.getLogger(name)
        if WATCH not in logger.filters:
            logger.addFilter(WATCH)
