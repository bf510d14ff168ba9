"""What the Prometheus endpoint (METRICS_PORT) costs the bot's process per interaction.

    python benchmarks/metrics_cost.py [--interactions 20000] [--requests 3]

A soak's CPU per interaction on a shared 2-core machine varies by more than the 0.05 ms target
from one run to the next (`benchmarks/soak.py --metrics-ab N` runs the pairs anyway), so this
times, in CPU, everything the endpoint adds to one interaction, through the same objects the
bot uses: its arrival noted (`Bot.dispatch`: its kind, a clock read), its first answer through
the metered adapter (one more coroutine, the latency histogram, the outcome counter),
`--requests` REST requests through the counting wrapper and discord.py's own bucket (timed for
waits on an empty bucket: bot/bucket_waits.py; a board edit among them), two store
transactions and a COMMIT observed, and the solver's queue gauge moved twice. Each run's best of
three is printed, with the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from discord.http import Ratelimit, Route  # noqa: E402

from bot.prometheus import BOARD_EDIT, Prometheus, _MeteredAdapter, kind_of  # noqa: E402


class _Http:
    """discord.py's REST client as far as a request's cost goes: each request takes and gives
    back a token of its route's bucket (a bucket that never runs dry: no wait is timed)."""

    def __init__(self) -> None:
        self._buckets: dict[str, Ratelimit] = {}

    def get_ratelimit(self, key: str) -> Ratelimit:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = Ratelimit(None)
            bucket.limit = bucket.remaining = 10**9
        return bucket

    async def request(self, route: Route, **options: Any) -> None:
        async with self.get_ratelimit(route.key):
            return None


class _Client:
    """What `Prometheus.attach` reads of a client: its REST client's `request` and buckets."""

    def __init__(self) -> None:
        self.http = _Http()


async def _nothing() -> None:
    return None


def per_interaction(count: int, requests: int, metered: bool) -> float:
    """CPU microseconds per interaction of what the bot does with (or without) metrics."""
    sink = Prometheus()
    client = _Client()
    if metered:
        sink.attach(client)  # type: ignore[arg-type]
    adapter = _MeteredAdapter(sink)
    data = {"name": "mastermind", "options": [{"type": 1, "name": "guess", "options": []}]}
    edit = Route("PATCH", BOARD_EDIT, channel_id=5, message_id=6)
    request = client.http.request

    async def run() -> None:
        for number in range(count):
            if metered:
                sink.arrived(number, kind_of(data, 2))
                sink.solver_job(+1)
                sink.transaction(False, 0.001)
                sink.transaction(True, 0.002)
                sink.commit(0.001)
                sink.solver_job(-1, 0.003)
                await adapter._timed(number, _nothing())
            else:
                await _nothing()
            for _ in range(requests):
                await request(edit)

    loop = asyncio.new_event_loop()
    started = time.process_time()
    loop.run_until_complete(run())
    spent = time.process_time() - started
    loop.close()
    return spent / count * 1e6


def main() -> int:
    parse = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parse.add_argument("--interactions", type=int, default=20000)
    parse.add_argument("--requests", type=int, default=3, help="REST requests per interaction")
    args = parse.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (2 cores)")
    runs = [(False, True)[n % 2] for n in range(6)]
    spent: dict[bool, list[float]] = {False: [], True: []}
    for metered in runs:
        spent[metered].append(per_interaction(args.interactions, args.requests, metered))
    without, with_metrics = min(spent[False]), min(spent[True])
    added = with_metrics - without
    print(
        f"per interaction ({args.requests} REST requests): {without:.1f} us CPU without "
        f"metrics, {with_metrics:.1f} us with (best of 3 each, alternating)"
    )
    print(f"added: {added:.1f} us = {added / 1000:.3f} ms CPU per interaction (target < 0.05 ms)")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
