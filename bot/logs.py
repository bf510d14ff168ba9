"""Logging for the bot process: one handler on stderr, colour only for a person at a terminal."""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import discord

from bot import outages

FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
_COLOURS = {
    logging.DEBUG: "\x1b[2m",
    logging.INFO: "\x1b[34m",
    logging.WARNING: "\x1b[33m",
    logging.ERROR: "\x1b[31m",
    logging.CRITICAL: "\x1b[41m",
}
_RESET = "\x1b[0m"


class _ColourFormatter(logging.Formatter):
    """Colours only the level name, so the message stays greppable when copied."""

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        colour = _COLOURS.get(record.levelno, "")
        return line.replace(record.levelname, f"{colour}{record.levelname}{_RESET}", 1)


def wants_colour(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org)."""
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb"


def silence_voice_warnings() -> None:
    """discord.py warns at every start that PyNaCl and davey (voice support) are missing; this
    bot never joins a voice channel, so those warnings would only mislead. Call it before any
    client is built: the warnings are emitted from `Client.__init__`."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


_GATEWAY_EVENT = "For Shard ID %s: WebSocket Event: %s"
_REQUEST_SENT = "%s %s with %s has returned %s"
_RESPONSE_READ = "%s %s has received %s"
"""The DEBUG lines of discord.py (`discord.gateway`, `discord.http`) that carry whole payloads."""


class _PayloadsOut(logging.Filter):
    """discord.py writes every gateway event and every request and response body at DEBUG. They
    hold what players send privately (a code chosen in an ephemeral picker, the text of a
    modal) and what only one player sees (an ephemeral reply): at DEBUG those lines keep what
    happened (the event's type, the request, its status), never the data."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args if isinstance(record.args, tuple) else ()
        if record.msg == _GATEWAY_EVENT and len(args) == 2:
            event = args[1] if isinstance(args[1], dict) else {}
            record.args = (args[0], {key: event.get(key) for key in ("op", "t", "s")})
        elif record.msg == _REQUEST_SENT and len(args) == 4:
            record.args = (args[0], args[1], "<payload>" if args[2] else None, args[3])
        elif record.msg == _RESPONSE_READ and len(args) == 3:
            record.args = (args[0], args[1], "<payload>")
        return True


def keep_payloads_out() -> None:
    """Install `_PayloadsOut` on the discord.py loggers that write payloads (once)."""
    for name in ("discord.gateway", "discord.http"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _PayloadsOut) for f in logger.filters):
            logger.addFilter(_PayloadsOut())


def setup_logging(level: str, stream: TextIO | None = None) -> None:
    """Send every logger (discord.py's too) to `stream` at `level`, without the payloads
    discord.py writes at DEBUG (`keep_payloads_out`); quiet noisy libraries."""
    stream = stream or sys.stderr
    handler = logging.StreamHandler(stream)
    formatter_cls = _ColourFormatter if wants_colour(stream) else logging.Formatter
    handler.setFormatter(formatter_cls(FORMAT, DATE_FORMAT))
    root = logging.getLogger()
    for old in root.handlers[:]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(getattr(logging, level))
    logging.captureWarnings(True)
    keep_payloads_out()
    silence_voice_warnings()
    outages.install()
