"""A stop (Ctrl-C, SIGTERM) that arrives before the event loop listens: held, not lost.

`python -m bot` takes about a second to import before its event loop installs the real
handlers. A Ctrl-C in that second would print a KeyboardInterrupt traceback from whatever was
being imported, and a SIGTERM would end the process before it closed anything. Held here, the
stop is acted on as soon as the loop listens (`held`), or ends a command that needs no loop
when it gives the signals back (`release`).
"""

from __future__ import annotations

import signal
from types import FrameType

STOPS = (signal.SIGINT, signal.SIGTERM)
_held: list[signal.Signals] = []


def hold() -> None:
    """From now on, remember a stop instead of acting on it."""
    for sig in STOPS:
        signal.signal(sig, _remember)


def _remember(number: int, frame: FrameType | None) -> None:
    _held.append(signal.Signals(number))


def held() -> signal.Signals | None:
    """The first stop that arrived while held, if any."""
    return _held[0] if _held else None


def release() -> int | None:
    """Python's own handlers again (Ctrl-C interrupts, SIGTERM ends the process). Returns the
    exit code of a stop held meanwhile (130 or 143, as the shell reports them), else None."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    first = held()
    return None if first is None else 128 + first
