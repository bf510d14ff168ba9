"""The bot's log: at DEBUG, discord.py's lines that carry whole payloads keep what happened but
not the data (a code picked in a private picker, a modal's text, an ephemeral reply)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot.logs import setup_logging

PRIVATE = "PRIVATE-6655"


@pytest.fixture
def log_at_debug() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    stream = io.StringIO()
    setup_logging("DEBUG", stream)
    try:
        yield stream
    finally:
        for handler in root.handlers[:]:
            root.removeHandler(handler)
        for handler in handlers:
            root.addHandler(handler)
        root.setLevel(level)


def test_a_gateway_event_is_logged_by_its_type_only(log_at_debug: io.StringIO) -> None:
    event = {
        "op": 0,
        "t": "INTERACTION_CREATE",
        "s": 42,
        "d": {"type": 5, "data": {"components": [{"value": PRIVATE}]}},
    }
    logging.getLogger("discord.gateway").debug("For Shard ID %s: WebSocket Event: %s", 0, event)
    line = log_at_debug.getvalue()
    assert "INTERACTION_CREATE" in line and "42" in line
    assert PRIVATE not in line


def test_a_request_and_its_answer_are_logged_without_their_bodies(
    log_at_debug: io.StringIO,
) -> None:
    http = logging.getLogger("discord.http")
    body = f'{{"content": "{PRIVATE}"}}'
    http.debug("%s %s with %s has returned %s", "POST", "https://discord/x", body, 200)
    http.debug("%s %s has received %s", "POST", "https://discord/x", {"content": PRIVATE})
    http.debug("%s %s with %s has returned %s", "GET", "https://discord/y", None, 200)
    lines = log_at_debug.getvalue().splitlines()
    assert len(lines) == 3 and all("https://discord/" in line for line in lines)
    assert "200" in lines[0] and "<payload>" in lines[0] and "<payload>" in lines[1]
    assert PRIVATE not in log_at_debug.getvalue()


def test_other_lines_pass_untouched(log_at_debug: io.StringIO) -> None:
    logging.getLogger("discord.client").debug("something with %s", PRIVATE)
    assert PRIVATE in log_at_debug.getvalue()
