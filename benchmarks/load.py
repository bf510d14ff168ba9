"""Load benchmark: many players at once against the real bot, through the loopback fake Discord.

    python benchmarks/load.py [--channels 8] [--players 4] [--rounds 5] [--check] [--quick]

Every channel runs a cooperative play game whose players all guess at the same moment, round
after round, while other channels run Knuth solve games, and one channel keeps the solver busy
with the largest variant it accepts (6 pegs x 10 colours, a million codes). Printed: the time
from each interaction's dispatch to the bot's first answer (Discord's limit is 3 s), how many
guesses were stored, and how fast the bot answers a trivial command while the solver works on
the big variant: the event loop must stay responsive.

Then two players each start a 6 x 10 `/mastermind simulate` and, while those run, a third
plays 4 x 6 solve games: printed is the time from each answer click to the board showing the
bot's next guess (target: p99 <= 1 s). Last, a fresh solver worker cycles 20 games of large
variants (6x10, 7x7, 8x5, 5x8, 6x8 ... each with its own seed) and its peak resident memory
(Linux VmHWM) is printed (target: <= 300 MB). `--quick` runs a small version of everything.

    python benchmarks/load.py --database postgresql://user:password@host/scratch [--quick]

runs only the play load, once on a SQLite file and once on that PostgreSQL database (a scratch
one: the games are written to it), and prints both sets of figures side by side: interaction
latency (p50, p99, max) and moves stored per second.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import MastermindBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engine.codes import CodeSpace  # noqa: E402
from bot.engine.game import Variant  # noqa: E402
from bot.engine.job_types import NextGuess, SimulationBudget  # noqa: E402
from bot.engine.scoring import score  # noqa: E402
from bot.solver_pool import SimulationLimits, SolverPool  # noqa: E402
from bot.ui.text import answer_label  # noqa: E402
from tests.discord_fake import FakeDiscord, FakeMessage  # noqa: E402

DEADLINE = 3.0
CLASSIC = CodeSpace(4, 6)
ANSWER_TARGET = 1.0
"""p99 of a 4 x 6 solve answer (click to next guess) while two 6 x 10 simulations run."""
MEMORY_TARGET_MB = 300.0
"""Peak memory of a solver worker after cycling 20 large-variant games."""
SIM_USERS = ("sim-a", "sim-b")
TIMED_USER = "timer"
THINK_SECONDS = 0.75
"""A pause between answers, like a player's: discord.py sends at most 110 gateway messages a
minute, and the fake Discord's heartbeat check before every click counts against that."""
LARGE_VARIANTS = [(6, 10), (7, 7), (8, 5), (5, 8), (6, 8), (7, 6), (6, 9), (5, 10), (8, 4), (4, 10)]


def edited_since(message: FakeMessage, edits: int) -> Callable[[], bool]:
    """A condition: `message` was edited after it had `edits` edits."""
    return lambda: message.edits > edits


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def play_channel(fake: FakeDiscord, channel: str, players: list[str], rounds: int) -> int:
    """A cooperative game where every player guesses at once, `rounds` times."""
    await (
        await fake.slash(channel, players[0], "mastermind", "play", options={"guesses": 20})
    ).settled()  # the board is posted first as "thinking", then the game is stored
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
        await fake.wait_for(edited_since(board, edits), timeout=10.0)
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


async def simulations_running(
    fake: FakeDiscord, channels: list[str], users: list[str]
) -> list[str]:
    """Each user starts a 6 x 10 simulation in their channel; returns the posted charts."""
    handles = [
        await fake.slash(
            channel, user, "mastermind", "simulate", options={"pegs": 6, "colours": 10}
        )
        for channel, user in zip(channels, users, strict=True)
    ]
    charts = await asyncio.gather(*(h.settled(timeout=300.0) for h in handles))
    return [chart.text for chart in charts]


async def timed_solve_answers(
    fake: FakeDiscord, channel: str, user: str, keep_going: Callable[[], bool]
) -> list[float]:
    """4 x 6 Knuth solve games, answered truthfully one after another while `keep_going()`:
    the time from each answer's click to the board showing the bot's next guess."""
    times: list[float] = []
    game = 0
    while keep_going():
        secret = CLASSIC.code_at((game * 389 + 17) % CLASSIC.size)
        game += 1
        board = await (await fake.slash(channel, user, "mastermind", "solve")).settled(10.0)
        while "Solved in" not in board.text:
            guess = board.text.split("**Guess ")[1].split("`")[1]
            label = answer_label(*score(CLASSIC.parse(guess), secret))
            edits = board.edits
            started = time.perf_counter()
            await (await fake.click(board, label, user=user)).answer(timeout=10.0)
            await fake.wait_for(edited_since(board, edits), timeout=60.0)
            if keep_going():
                times.append(time.perf_counter() - started)
            await asyncio.sleep(THINK_SECONDS)
    return times


async def simulation_phase(
    fake: FakeDiscord, bot: MastermindBot, quick: bool
) -> tuple[list[float], list[str], int]:
    """4 x 6 answer latencies while two 6 x 10 simulations are in flight."""
    if quick:  # a short budget: the same path, a fraction of the time
        bot.solver.simulation_limits = SimulationLimits(budget=SimulationBudget(seconds=2.0))
    sims = asyncio.create_task(simulations_running(fake, ["sim0", "sim1"], list(SIM_USERS)))
    await fake.wait_for(lambda: bot.solver.simulations_in_flight == 2, timeout=30.0)
    both = 0

    def in_flight() -> bool:
        nonlocal both
        both += bot.solver.simulations_in_flight == 2
        return bot.solver.simulations_in_flight > 0

    times = await timed_solve_answers(fake, "timed", TIMED_USER, in_flight)
    return times, await sims, both


async def memory_phase(games: int) -> tuple[float, float, list[str]]:
    """A fresh solver worker plays `games` large-variant games the way the bot asks for moves;
    returns its peak and current resident memory (MB) and the variants played."""
    pool = SolverPool(1)
    rng = random.Random(2026)
    played = []
    try:
        await pool.warm_up()
        for game in range(games):
            pegs, colours = LARGE_VARIANTS[game % len(LARGE_VARIANTS)]
            space = CodeSpace(pegs, colours)
            secret = space.code_at(rng.randrange(space.size))
            history: list[tuple[list[int], int, int]] = []
            for _ in range(12):
                move = await pool.next_move(Variant(pegs, colours, True), "knuth", history, game)
                assert isinstance(move, NextGuess)
                black, white = score(move.guess, secret)
                history.append((list(move.guess), black, white))
                if black == pegs:
                    break
            await pool.remaining(Variant(pegs, colours, True), history[:-1])
            await pool.knuth_guesses(Variant(pegs, colours, True), list(secret))
            played.append(f"{pegs}x{colours}")
        memory = await pool.worker_memory()
    finally:
        pool.shutdown()
    return memory.peak_mb, memory.rss_mb, played


async def main(args: argparse.Namespace) -> int:
    channels = [f"play{i}" for i in range(args.channels)]
    solvers = [f"solve{i}" for i in range(args.solves)]
    players = [f"p{i}" for i in range(args.players)]
    fake = FakeDiscord(  # unlimited: the bot's own throughput (the soak has --rate-limits)
        members=(*players, *SIM_USERS, TIMED_USER),
        channels=(*channels, *solvers, "big", "sim0", "sim1", "timed"),
        rate_limits=None,
    )
    await fake.start()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            token=fake.token, database_path=Path(tmp) / "load.db", solver_workers=args.workers
        )
        async with fake.run_in_process(lambda: MastermindBot(settings), timeout=60.0) as bot:
            started = time.perf_counter()
            secrets = ["3456", "6543", "1234", "2211", "5566", "1353", "4242", "6121"]
            played, solved, rules_times = await asyncio.gather(
                asyncio.gather(*(play_channel(fake, c, players, args.rounds) for c in channels)),
                asyncio.gather(
                    *(
                        solve_channel(fake, c, players[0], secrets[i % len(secrets)])
                        for i, c in enumerate(solvers)
                    )
                ),
                responsiveness(fake, "big", players[-1]),
            )
            wall = time.perf_counter() - started
            answers, charts, both = await simulation_phase(fake, bot, args.quick)
        latencies = [x for x in fake.latencies() if x is not None]
        by_kind: dict[str, list[float]] = {}
        for handle in fake.interactions:
            if handle.latency is not None:
                kind = handle.description.split(" by ")[0].split("'")[0].strip()
                by_kind.setdefault(kind, []).append(handle.latency)
    await fake.close()
    memory_games = 4 if args.quick else 20
    peak_mb, rss_mb, variants = await memory_phase(memory_games)
    guesses = sum(played)
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
    answer_p99 = percentile(answers, 0.99) if answers else float("inf")
    print(
        f"4x6 solve answer (click to next guess) while two 6x10 simulations run: "
        f"n={len(answers)} ({both} checks with both in flight), "
        f"p50 {statistics.median(answers) * 1000 if answers else 0:.1f} ms, "
        f"p99 {answer_p99 * 1000:.1f} ms, max {max(answers, default=0) * 1000:.1f} ms "
        f"(target p99 <= {ANSWER_TARGET * 1000:.0f} ms)"
    )
    for chart in charts:
        print(f"  simulation: {chart.splitlines()[0]}")
    print(
        f"solver worker peak memory (VmHWM) after {memory_games} large-variant games "
        f"({', '.join(variants)}): {peak_mb:.0f} MB, now {rss_mb:.0f} MB "
        f"(target <= {MEMORY_TARGET_MB:.0f} MB)"
    )
    failed = (
        worst > DEADLINE
        or max(solved) > 5
        or bool(fake.violations)
        or answer_p99 > ANSWER_TARGET
        or peak_mb > MEMORY_TARGET_MB
    )
    if fake.violations:
        print("violations:", *fake.violations, sep="\n  ")
    print("PASS" if not failed else "FAIL")
    return 1 if failed and args.check else 0


async def database_run(database: str, args: argparse.Namespace) -> dict[str, float]:
    """The play load alone (every player of every channel guessing at once, round after round)
    on one database; returns its figures."""
    channels = [f"play{i}" for i in range(args.channels)]
    players = [f"p{i}" for i in range(args.players)]
    # Unlimited: the bot's own throughput (benchmarks/soak.py --rate-limits measures it paced).
    fake = FakeDiscord(members=tuple(players), channels=tuple(channels), rate_limits=None)
    await fake.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            postgres = database.startswith(("postgresql://", "postgres://"))
            settings = Settings(
                token=fake.token,
                database_path=Path(tmp) / "load.db",
                database_url=database if postgres else None,
                solver_workers=args.workers,
            )
            async with fake.run_in_process(lambda: MastermindBot(settings), timeout=60.0):
                started = time.perf_counter()
                played = await asyncio.gather(
                    *(play_channel(fake, c, players, args.rounds) for c in channels)
                )
                wall = time.perf_counter() - started
        latencies = [x for x in fake.latencies() if x is not None]
        violations = len(fake.violations)
    finally:
        await fake.close()
    return {
        "interactions": len(latencies),
        "p50 ms": statistics.median(latencies) * 1000,
        "p99 ms": percentile(latencies, 0.99) * 1000,
        "max ms": max(latencies) * 1000,
        "moves stored": sum(played),
        "moves/s": sum(played) / wall,
        "violations": violations,
    }


async def compare_databases(args: argparse.Namespace) -> int:
    """`--database URL`: the play load on SQLite and on PostgreSQL, figures side by side."""
    if args.quick:
        args.channels, args.players, args.rounds = 4, 4, 3
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = await database_run(str(Path(tmp) / "load.db"), args)
    postgres = await database_run(args.database, args)
    print(
        f"play load: {args.channels} channels x {args.players} simultaneous players x "
        f"{args.rounds} rounds; {args.workers} solver worker(s)"
    )
    print(f"{'':<14}{'SQLite':>12}{'PostgreSQL':>14}")
    for figure in sqlite:
        digits = 0 if figure in ("interactions", "moves stored", "violations") else 1
        print(f"{figure:<14}{sqlite[figure]:>12.{digits}f}{postgres[figure]:>14.{digits}f}")
    failed = any(r["max ms"] > DEADLINE * 1000 or r["violations"] for r in (sqlite, postgres))
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
    parser.add_argument("--quick", action="store_true", help="a small run (about 30 s)")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a scratch PostgreSQL database: run the play load on SQLite and on it, side by side",
    )
    arguments = parser.parse_args()
    run = compare_databases if arguments.database else main
    sys.exit(asyncio.run(run(arguments)))
