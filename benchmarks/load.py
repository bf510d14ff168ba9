"""Load benchmark: many players at once against the real bot, through the loopback fake Discord.

    python benchmarks/load.py [--channels 8] [--players 4] [--rounds 5] [--check]

Every channel runs a cooperative play game whose players all guess at the same moment, round
after round, while other channels run Knuth solve games, and one channel keeps the solver busy
with the largest variant it accepts (6 pegs x 10 colours, a million codes). Printed: the time
from each interaction's dispatch to the bot's first answer (Discord's limit is 3 s), how many
guesses were stored, and how fast the bot answers a trivial command while the solver works on
the big variant: the event loop must stay responsive.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import MastermindBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engine.codes import CodeSpace  # noqa: E402
from bot.engine.scoring import score  # noqa: E402
from bot.ui.text import answer_label  # noqa: E402
from tests.discord_fake import FakeDiscord  # noqa: E402

DEADLINE = 3.0
CLASSIC = CodeSpace(4, 6)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def play_channel(fake: FakeDiscord, channel: str, players: list[str], rounds: int) -> int:
    """A cooperative game where every player guesses at once, `rounds` times."""
    await (
        await fake.slash(channel, players[0], "mastermind", "play", options={"guesses": 20})
    ).response()
    rng = CLASSIC.code_at
    answered = 0
    for round_number in range(rounds):
        handles = await asyncio.gather(
            *(
                fake.slash(
                    channel,
                    player,
                    "mastermind",
                    "guess",
                    options={"code": CLASSIC.digits(rng((round_number * 37 + i * 101) % 1296))},
                )
                for i, player in enumerate(players)
            )
        )
        replies = await asyncio.gather(*(h.response(timeout=10.0) for h in handles))
        answered += sum(1 for r in replies if not r.ephemeral)
    return answered


async def solve_channel(fake: FakeDiscord, channel: str, user: str, secret: str) -> int:
    """A Knuth solve game answered truthfully; returns the guesses needed."""
    board = await (await fake.slash(channel, user, "mastermind", "solve")).settled(timeout=10.0)
    for _ in range(8):
        text = board.text
        guess = text.split("**Guess ")[1].split("`")[1]
        number = int(text.split("**Guess ")[1].split(":")[0])
        edits = board.edits
        label = answer_label(*score(CLASSIC.parse(guess), CLASSIC.parse(secret)))
        await (await fake.click(board, label, user=user)).answer(timeout=10.0)
        await fake.wait_for(lambda e=edits: board.edits > e, timeout=10.0)
        if "Solved in" in board.text:
            return number
    raise RuntimeError("solve game did not finish")


async def responsiveness(fake: FakeDiscord, channel: str, user: str) -> list[float]:
    """Start a 6x10 solve game and, while the solver works, time /mastermind rules."""
    big = await (
        await fake.slash(channel, user, "mastermind", "solve", options={"pegs": 6, "colours": 10})
    ).settled(timeout=30.0)
    timings = []
    for step in range(3):
        edits = big.edits
        select = big.selects[0]
        handle = await fake.select(
            big, select["custom_id"], [select["options"][step]["value"]], user=user
        )
        await handle.answer(timeout=10.0)
        while big.edits == edits:
            started = time.perf_counter()
            rules = await fake.slash(channel, user, "mastermind", "rules")
            await rules.response(timeout=10.0)
            timings.append(time.perf_counter() - started)
            await asyncio.sleep(0.05)
        if not big.selects:
            break
    return timings


async def main(args: argparse.Namespace) -> int:
    channels = [f"play{i}" for i in range(args.channels)]
    solvers = [f"solve{i}" for i in range(args.solves)]
    players = [f"p{i}" for i in range(args.players)]
    fake = FakeDiscord(members=tuple(players), channels=(*channels, *solvers, "big"))
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            token=fake.token, database_path=Path(tmp) / "load.db", solver_workers=args.workers
        )
        async with fake.run_in_process(lambda: MastermindBot(settings), timeout=60.0):
            started = time.perf_counter()
            secrets = ["3456", "6543", "1234", "2211", "5566", "1353", "4242", "6121"]
            results = await asyncio.gather(
                *(play_channel(fake, c, players, args.rounds) for c in channels),
                *(
                    solve_channel(fake, c, players[0], secrets[i % len(secrets)])
                    for i, c in enumerate(solvers)
                ),
                responsiveness(fake, "big", players[-1]),
            )
            wall = time.perf_counter() - started
        latencies = [x for x in fake.latencies() if x is not None]
        by_kind: dict[str, list[float]] = {}
        for handle in fake.interactions:
            if handle.latency is not None:
                kind = handle.description.split(" by ")[0].split("'")[0].strip()
                by_kind.setdefault(kind, []).append(handle.latency)
    await fake.close()
    guesses = sum(results[: len(channels)])
    solved = results[len(channels) : len(channels) + len(solvers)]
    rules_times = results[-1]
    worst = max(latencies)
    print(
        f"load: {len(channels)} play channels x {len(players)} simultaneous players x "
        f"{args.rounds} rounds, {len(solvers)} Knuth solve games, one 6x10 solve; "
        f"{args.workers} solver worker(s)"
    )
    print(f"interactions answered: {len(latencies)} in {wall:.2f} s")
    print(
        f"first answer latency: p50 {statistics.median(latencies) * 1000:.1f} ms, "
        f"p99 {percentile(latencies, 0.99) * 1000:.1f} ms, max {worst * 1000:.1f} ms "
        f"(Discord's limit {DEADLINE * 1000:.0f} ms)"
    )
    for kind, values in sorted(by_kind.items(), key=lambda kv: -max(kv[1])):
        print(
            f"  {kind:<32} n={len(values):>4}  p50 {statistics.median(values) * 1000:7.1f} ms"
            f"  max {max(values) * 1000:7.1f} ms"
        )
    print(f"guesses accepted: {guesses} of {len(channels) * len(players) * args.rounds}")
    print(f"solve games: guesses needed {solved} (max {max(solved)})")
    if rules_times:
        print(
            f"/mastermind rules while 6x10 is solved: n={len(rules_times)}, "
            f"max {max(rules_times) * 1000:.1f} ms, "
            f"median {statistics.median(rules_times) * 1000:.1f} ms"
        )
    failed = worst > DEADLINE or max(solved) > 5 or fake.violations
    if fake.violations:
        print("violations:", *fake.violations, sep="\n  ")
    print("PASS" if not failed else "FAIL")
    return 1 if failed and args.check else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--solves", type=int, default=4)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="exit 1 if a target fails")
    sys.exit(asyncio.run(main(parser.parse_args())))
