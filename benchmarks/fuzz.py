"""Fuzz benchmark: every input field of the real bot, fuzzed through the loopback fake Discord.

    python benchmarks/fuzz.py [--count 10000] [--seed N] [--families ...] [--batch 8] [--check]

The bot runs in this process on a fresh SQLite file, in a scene with a game of every kind in
every state (`tests/fuzz/scene.py`). Four families of inputs are drawn from a seeded RNG
(`tests/fuzz/cases.py`): slash options (every option of every command, read from the bot's
command tree), custom_ids (every button, select and modal route, forged), select values and
modal text. Each input is one the bot must refuse; each must get a private answer within
Discord's 3 s (one whose custom_id no route takes too), with the database unchanged, nothing
logged above INFO and no rule of Discord broken. Printed per family: count, p50/p99/max time to
the answer, failures, the seed and the load average; `--check` exits 1 on any failure. Replay a
failure with its seed and `--batch 1`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import MastermindBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from tests.discord_fake import FakeDiscord  # noqa: E402
from tests.fuzz import cases, fields, probe, scene  # noqa: E402

SHOWN_FAILURES = 5


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


async def world_of(fake: FakeDiscord, bot: MastermindBot, db_path: Path) -> cases.World:
    """Build the scene, then read every field the bot has."""
    built = await scene.build(fake, db_path)
    await probe.quiet(db_path)
    spaces = {}
    for role, game_id in built.games.items():
        game = await bot.store.game(game_id)
        assert game is not None
        spaces[role] = game.variant.space
    return cases.World(fake, built, fields.routes(bot, built), fields.commands(bot), spaces)


async def fuzz_family(
    fake: FakeDiscord,
    world: cases.World,
    db_path: Path,
    log: probe.LoudLog,
    args: argparse.Namespace,
    family: str,
) -> list[probe.Result]:
    rng = random.Random(f"{args.seed}:{family}")
    draw = cases.FAMILIES[family]
    results: list[probe.Result] = []
    while len(results) < args.count:
        size = min(args.batch, args.count - len(results))
        batch = [draw(rng, world) for _ in range(size)]
        results += await probe.run_batch(fake, db_path, log, batch)
    return results


def report(
    family: str, results: list[probe.Result], seconds: float, seed: int, capacity: int
) -> int:
    """Print one family's figures; the number of failed inputs."""
    latencies = [r.latency for r in results if r.latency is not None]
    failed = [r for r in results if r.problems]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    p50, p99 = (percentile(latencies, f) * 1000 for f in (0.5, 0.99))
    print(
        f"{family:14} n={len(results)} answered={len(latencies)}  "
        f"p50 {p50:.0f} ms  p99 {p99:.0f} ms  "
        f"max {max(latencies, default=0) * 1000:.0f} ms"
        f" (target < {probe.DEADLINE:.0f} s)  failures {len(failed)}  "
        f"[{seconds:.0f} s, seed {seed}, load {load}]"
    )
    if capacity:
        print(f"  (not failed: {capacity} warning(s) about the host: slow chart, late heartbeat)")
    for result in failed[:SHOWN_FAILURES]:
        print(f"  FAIL {result.case.what}\n       {'; '.join(result.problems)[:600]}")
    return len(failed)


async def main(args: argparse.Namespace) -> int:
    families = args.families or list(cases.FAMILIES)
    print(f"fuzz: seed {args.seed}, {args.count} per family, batches of {args.batch}")
    with tempfile.TemporaryDirectory() as folder, probe.loud_log() as log:
        db_path = Path(folder) / "fuzz.db"
        failures = 0
        # Unlimited: thousands of inputs as fast as the bot answers them; Discord's limits
        # would only pace the boards, not change what each answer must be.
        async with FakeDiscord(channels=scene.CHANNELS, rate_limits=None) as fake:
            settings = Settings(token=fake.token, database_path=db_path)
            factory = lambda: MastermindBot(settings)  # noqa: E731
            async with fake.run_in_process(factory, timeout=60.0, commands=True) as bot:
                world = await world_of(fake, bot, db_path)
                log.take()  # the scene's own start
                for family in families:
                    started = time.perf_counter()
                    results = await fuzz_family(fake, world, db_path, log, args, family)
                    seconds = time.perf_counter() - started
                    capacity = len(log.capacity)
                    log.capacity.clear()
                    failures += report(family, results, seconds, args.seed, capacity)
    print("fuzz: " + ("PASS" if failures == 0 else f"FAIL ({failures} inputs)"))
    return 1 if failures and args.check else 0


def parse_args(
    argv: list[str] | None = None,
    *,
    families: Iterable[str] = cases.FAMILIES,
    description: str = __doc__ or "",
) -> argparse.Namespace:
    """A fuzz's options (this one's, or the web fuzz's with its own families)."""
    parser = argparse.ArgumentParser(description=description.split("\n")[0])
    parser.add_argument("--count", type=int, default=10_000, help="inputs per family")
    parser.add_argument("--seed", type=int, default=None, help="default: drawn and printed")
    parser.add_argument("--families", nargs="*", choices=list(families), default=None)
    parser.add_argument("--batch", type=int, default=8, help="inputs sent at once")
    parser.add_argument("--check", action="store_true", help="exit 1 on any failure")
    args = parser.parse_args(argv)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(10**9)
    return args


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
