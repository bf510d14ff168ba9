"""A stop that comes while `python -m bot` is still importing is held, then acted on (#23)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import signals

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def own_handlers() -> Iterator[None]:
    """Give pytest its handlers back, whatever the test leaves."""
    saved = {sig: signal.getsignal(sig) for sig in signals.STOPS}
    yield
    signals._held.clear()
    for sig, handler in saved.items():
        signal.signal(sig, handler)


@pytest.mark.usefixtures("own_handlers")
def test_a_held_stop_interrupts_nothing_and_is_handed_on() -> None:
    signals.hold()
    os.kill(os.getpid(), signal.SIGINT)  # no KeyboardInterrupt in the middle of an import
    os.kill(os.getpid(), signal.SIGTERM)  # and no death before anything is closed
    assert signals.held() == signal.SIGINT  # the first one counts
    assert signals.release() == 130
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL


@pytest.mark.usefixtures("own_handlers")
def test_nothing_held_releases_to_nothing() -> None:
    signals.hold()
    assert signals.held() is None and signals.release() is None


def test_a_one_shot_command_stopped_while_starting_exits_quietly() -> None:
    """`health` runs no event loop: a Ctrl-C held while it imported ends it with 130, silently."""
    script = (
        "import os, signal, sys\n"
        "from bot import signals\n"
        "signals.hold()\n"
        "os.kill(os.getpid(), signal.SIGINT)\n"
        "from bot.cli import main\n"
        "sys.exit(main(['health', '--file', 'nowhere']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 130 and result.stderr == "", result.stderr
