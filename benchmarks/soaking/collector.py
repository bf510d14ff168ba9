"""The instrument's garbage collector, kept out of the figures.

The fake Discord keeps every message and interaction it has seen, so its heap grows all run
long, and a full collection of it stalled every answer in flight for up to 1.2 s: read as the
bot's latency, though the bot's own longest collection was 48 ms. The soak's process settles
its heap as the bot does (bot/heap.py) and then leaves its old generation alone: a run is
minutes long, and what it keeps it keeps to the end anyway.
"""

from __future__ import annotations

import gc

from bot import heap

RARELY = 1_000_000
"""Young collections between full ones: more than any run makes."""


def quiet() -> None:
    """Settle the heap, then make full collections as rare as a run allows."""
    heap.settle()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, RARELY)
