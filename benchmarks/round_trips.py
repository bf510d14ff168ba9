"""Store round trips and REST calls per player interaction, measured on the real bot.

    python benchmarks/round_trips.py [--repeat 3] [--requests]

The bot runs in this process against the loopback fake Discord, on a real SQLite file, with its
store counted: the real `SqlStore` over the real SQLite dialect, each transaction recorded with
the store call that began it and the task that made that call. Each interaction is played alone
and the bot is left to fall quiet before the next, so everything it did belongs to that one:

* path: transactions made by the interaction's own handler (the task discord.py runs it in,
  which the bot tracks in `in_flight`), i.e. what the player's answer waits on;
* batched marks: the background group commit of which version each board shows (`BoardMarks`);
* other: any other task (a board redrawn in the background, a timer).

One row is not one interaction: four players typing a guess at the same moment, counted
together, which shows how many times the board is edited for four simultaneous moves.

REST is every request the bot made to the fake Discord meanwhile (answers, followups, edits).
Issue #20's bound, which `tests/test_round_trips.py` holds: a play guess (slash or picker) is
one write transaction and at most one read on its path.
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import functools
import inspect
import json
import sqlite3
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.app import MastermindBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.engine.codes import CodeSpace  # noqa: E402
from bot.engine.scoring import score  # noqa: E402
from bot.store import SqlStore  # noqa: E402
from bot.store.sqlite_dialect import SqliteDialect  # noqa: E402
from bot.ui.text import answer_label  # noqa: E402
from tests.discord_fake import FakeDiscord, FakeMessage  # noqa: E402
from tests.discord_fake.models import InteractionHandle, RecordedRequest  # noqa: E402

CLASSIC = CodeSpace(4, 6)
QUIET_SECONDS = 0.25
"""The bot counts as done with an interaction once it made no store call and no REST request
for this long (the board marks wait 0.05 s to batch, so their write falls inside)."""
MARKS_TASK = "board-marks"
PLAY_GUESS = "play: /mastermind guess"
PICKER_SUBMIT = "play: picker Submit"
BURST = "play: 4 players guess at once"
T = TypeVar("T")


@dataclass(frozen=True)
class Call:
    """A store call in progress: which method, from which task."""

    method: str
    task: asyncio.Task[Any] | None


CURRENT_CALL: contextvars.ContextVar[Call | None] = contextvars.ContextVar("call", default=None)


@dataclass(frozen=True)
class Transaction:
    method: str
    write: bool
    task: asyncio.Task[Any] | None

    @property
    def tag(self) -> str:
        return f"{self.method}:{'W' if self.write else 'R'}"


class CountingDialect:
    """The real dialect; records each transaction with the store call that began it (the
    store runs a transaction in a task of its own, which inherits the caller's context)."""

    def __init__(self, dialect: Any, log: list[Transaction]) -> None:
        self.dialect, self.log = dialect, log

    def __getattr__(self, name: str) -> Any:
        return getattr(self.dialect, name)

    async def run(
        self, work: Callable[[Any], Coroutine[Any, Any, Any]], *, write: bool, **how: Any
    ) -> Any:
        call = CURRENT_CALL.get() or Call("?", None)
        self.log.append(Transaction(call.method, write, call.task))
        return await self.dialect.run(work, write=write, **how)


class NamedCalls:
    """The real store; each call through it names its method and caller to its transactions."""

    def __init__(self, store: Any) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._store, name)
        if not inspect.iscoroutinefunction(attribute):
            return attribute

        @functools.wraps(attribute)
        async def named(*args: Any, **kwargs: Any) -> Any:
            token = CURRENT_CALL.set(Call(name, asyncio.current_task()))
            try:
                return await attribute(*args, **kwargs)
            finally:
                CURRENT_CALL.reset(token)

        return named


class Remembered(set[Any]):
    """`bot.in_flight`, also remembering every handler task it ever held."""

    def __init__(self) -> None:
        super().__init__()
        self.ever: set[Any] = set()

    def add(self, task: Any) -> None:
        self.ever.add(task)
        super().add(task)


@dataclass(frozen=True)
class Cost:
    """What one interaction cost."""

    path: tuple[str, ...]
    path_reads: int
    path_writes: int
    marks: int
    other: tuple[str, ...]
    rest: tuple[str, ...]


@dataclass
class Meter:
    """Plays interactions one at a time and records what each cost."""

    fake: FakeDiscord
    log: list[Transaction]
    bot: Any = None
    costs: dict[str, list[Cost]] = field(default_factory=dict)

    async def quiet(self, timeout: float = 15.0) -> None:
        """Wait until the bot made no store call or REST request for QUIET_SECONDS."""
        deadline = time.monotonic() + timeout
        seen, since = (-1, -1), time.monotonic()
        while time.monotonic() < deadline:
            now = (len(self.log), len(self.fake.requests))
            if now != seen or self.bot.in_flight:
                seen, since = now, time.monotonic()
            elif time.monotonic() - since >= QUIET_SECONDS:
                return
            await asyncio.sleep(0.02)
        raise TimeoutError("the bot did not fall quiet")

    async def measure(self, label: str, action: Awaitable[T]) -> T:
        """Once the bot is quiet, run `action` (it dispatches one interaction and waits for its
        answer), let the bot fall quiet again and record what it did meanwhile."""
        await self.quiet()
        first, sent = len(self.log), len(self.fake.requests)
        result = await action
        await self.quiet()
        self.record(label, self.log[first:], self.fake.requests[sent:])
        return result

    def record(self, label: str, done: list[Transaction], rest: list[RecordedRequest]) -> None:
        handlers = self.bot.in_flight.ever
        path = [t for t in done if t.task in handlers]
        marks = [t for t in done if t.task not in handlers and _named(t.task, MARKS_TASK)]
        other = [t for t in done if t not in path and t not in marks]
        cost = Cost(
            path=tuple(t.tag for t in path),
            path_reads=sum(not t.write for t in path),
            path_writes=sum(t.write for t in path),
            marks=len(marks),
            other=tuple(f"{t.tag}@{_task_name(t.task)}" for t in other),
            rest=tuple(f"{r.method} {_route(r.path)}" for r in rest),
        )
        self.costs.setdefault(label, []).append(cost)


def _task_name(task: asyncio.Task[Any] | None) -> str:
    return task.get_name() if task is not None else "?"


def _named(task: asyncio.Task[Any] | None, name: str) -> bool:
    return task is not None and task.get_name() == name


def _route(path: str) -> str:
    """A REST path with its ids and tokens left out, e.g. /interactions/{}/{}/callback."""
    parts = path.split("?")[0].strip("/").split("/")
    return "/" + "/".join("{}" if p.isdigit() or len(p) > 40 else p for p in parts)


# --- the interactions ------------------------------------------------------------------------


def secret(db_path: Path, kind: str) -> str:
    """The active game's secret as digits, peeked at like a cheating player would."""
    with sqlite3.connect(db_path) as connection:
        ((stored,),) = connection.execute(
            "SELECT secret FROM games WHERE status = 'active' AND kind = ? ORDER BY id DESC "
            "LIMIT 1",
            (kind,),
        ).fetchall()
    return "".join(str(c + 1) for c in json.loads(stored))


def wrong(code: str, shift: int) -> str:
    """Every peg another colour (shift 1 to 5): never the secret."""
    return "".join(str((int(d) - 1 + shift) % 6 + 1) for d in code)


async def answered(dispatch: Awaitable[InteractionHandle]) -> InteractionHandle:
    """Dispatch an interaction and wait for its first answer."""
    handle = await dispatch
    await handle.answer(timeout=10.0)
    return handle


async def updated(
    fake: FakeDiscord, message: FakeMessage, dispatch: Awaitable[InteractionHandle]
) -> InteractionHandle:
    """Dispatch a component interaction on `message`: its first answer, and the message edited
    if that answer was an update of it."""
    edits = message.edits
    handle = await dispatch
    if await handle.answer(timeout=10.0) in (6, 7):
        await fake.wait_for(lambda: message.edits > edits, timeout=10.0)
    return handle


async def reply(dispatch: Awaitable[InteractionHandle], index: int | None = None) -> FakeMessage:
    """Dispatch an interaction: the message it answered with (settled), or its followup."""
    handle = await dispatch
    if index is None:
        return await handle.settled(timeout=10.0)
    return await handle.followup(index, timeout=10.0)


async def pick(meter: Meter, board: FakeMessage, user: str, code: str, label: str) -> None:
    """Choose each peg of `code` on a board's selects, one interaction each."""
    fake = meter.fake
    for peg, digit in enumerate(code):
        select = board.selects[peg]["custom_id"]
        choice = fake.select(board, select, [str(int(digit) - 1)], user=user)
        await meter.measure(label, updated(fake, board, choice))


async def burst(fake: FakeDiscord, code: str) -> None:
    """Four players type a guess at the same moment (one window: the four handlers together)."""
    players = ("alice", "bob", "carol", "dave")
    guesses = [
        fake.slash("general", who, "mastermind", "guess", options={"code": wrong(code, 3 + i % 2)})
        for i, who in enumerate(players)
    ]
    await asyncio.gather(*(reply(guess) for guess in guesses))


async def play_round(meter: Meter, db_path: Path) -> None:
    """A play game: a slash guess, a picker guess, four guesses at once, a hint and a give-up."""
    fake, measure = meter.fake, meter.measure
    play = fake.slash("general", "alice", "mastermind", "play", options={"guesses": 20})
    board = await measure("play: /mastermind play", reply(play))
    code = secret(db_path, "play")
    guess = fake.slash("general", "alice", "mastermind", "guess", options={"code": wrong(code, 1)})
    await measure(PLAY_GUESS, reply(guess))
    picker = await measure(
        "play: picker open (Guess)", reply(fake.click(board, "Guess", user="bob"))
    )
    await pick(meter, picker, "bob", wrong(code, 2), "play: picker pick a peg")
    await measure(PICKER_SUBMIT, reply(fake.click(picker, "Submit guess", user="bob"), 0))
    await measure(BURST, burst(fake, code))
    await measure("play: Hint", reply(fake.click(board, "Hint", user="carol")))
    confirm = await measure("play: Give up (ask)", reply(fake.click(board, "Give up", user="mod")))
    end = fake.click(confirm, "Yes, end the game", user="mod")
    await measure("play: Give up confirm", reply(end, 0))


async def solve_game(meter: Meter, code: str) -> None:
    """A Knuth solve game on `code`, every answer given truthfully."""
    fake = meter.fake
    start = fake.slash("solve", "alice", "mastermind", "solve")
    board = await meter.measure("solve: /mastermind solve", reply(start))
    while "Solved in" not in board.text:
        guess = board.text.split("**Guess ")[1].split("`")[1]
        label = answer_label(*score(CLASSIC.parse(guess), CLASSIC.parse(code)))
        click = fake.click(board, label, user="alice")
        await meter.measure("solve: answer button", updated(fake, board, click))


async def daily_game(meter: Meter, db_path: Path, guesses: int) -> None:
    """Today's daily puzzle: `guesses` wrong guesses on the private board."""
    fake = meter.fake
    start = fake.slash("daily", "alice", "mastermind", "daily")
    board = await meter.measure("daily: /mastermind daily", reply(start))
    code = secret(db_path, "daily")
    for shift in range(1, guesses + 1):
        await pick(meter, board, "alice", wrong(code, shift), "daily: pick a peg")
        submit = fake.click(board, "Submit guess", user="alice")
        await meter.measure("daily: Submit", updated(fake, board, submit))


async def race_game(meter: Meter, db_path: Path, guesses: int) -> None:
    """A race of one started at once: `guesses` wrong guesses on the racer's private board."""
    fake = meter.fake
    lobby = await meter.measure(
        "race: /mastermind race", reply(fake.slash("race", "alice", "mastermind", "race"))
    )
    mine = await meter.measure("race: Start", reply(fake.click(lobby, "Start", user="alice"), 1))
    code = secret(db_path, "race")
    for shift in range(1, guesses + 1):
        await pick(meter, mine, "alice", wrong(code, shift), "race: pick a peg")
        submit = fake.click(mine, "Submit guess", user="alice")
        await meter.measure("race: Submit", updated(fake, mine, submit))


# --- the run ---------------------------------------------------------------------------------


async def counted_store(db_path: Path, log: list[Transaction]) -> NamedCalls:
    """The real SQL store on a SQLite file, its transactions recorded in `log`."""
    dialect = CountingDialect(SqliteDialect(db_path), log)
    store = await SqlStore.open(dialect)  # type: ignore[arg-type]
    log.clear()  # opening and migrating are not a player's
    return NamedCalls(store)


def build_bot(settings: Settings, store: NamedCalls) -> MastermindBot:
    bot = MastermindBot(settings, store=store)  # type: ignore[arg-type]
    bot.in_flight = Remembered()
    return bot


async def measure(repeat: int = 3) -> tuple[dict[str, list[Cost]], list[str]]:
    """Play every kind of interaction `repeat` times; their costs, and the fake's violations."""
    fake = FakeDiscord(channels=("general", "solve", "daily", "race"))
    await fake.start()
    log: list[Transaction] = []
    meter = Meter(fake, log)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            db_path = Path(tmp) / "round_trips.db"
            settings = Settings(
                token=fake.token, database_path=db_path, daily_key="round trips benchmark"
            )
            store = await counted_store(db_path, log)
            factory = functools.partial(build_bot, settings, store)
            async with fake.run_in_process(factory, timeout=60.0, commands=True) as bot:
                meter.bot = bot
                for _ in range(repeat):
                    await play_round(meter, db_path)
                for game in range(repeat):
                    await solve_game(meter, CLASSIC.digits(CLASSIC.code_at(game * 389 + 17)))
                await daily_game(meter, db_path, repeat)
                await race_game(meter, db_path, repeat)
                await meter.quiet()
    finally:
        await fake.close()
    return meter.costs, [str(v) for v in fake.violations]


def spread(values: list[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high}"


def table(costs: dict[str, list[Cost]]) -> list[str]:
    """One row per kind of interaction; a range where the repeats differed."""
    lines = [
        f"| {'interaction':<29} | n | path R | path W | batched marks W | other | REST | "
        "path transactions |",
        f"|{'-' * 31}|---|--------|--------|-----------------|-------|------|-------------------|",
    ]
    for label, runs in costs.items():
        paths = sorted({" ".join(c.path) or "-" for c in runs})
        lines.append(
            f"| {label:<29} | {len(runs)} | {spread([c.path_reads for c in runs]):>6} | "
            f"{spread([c.path_writes for c in runs]):>6} | "
            f"{spread([c.marks for c in runs]):>15} | {spread([len(c.other) for c in runs]):>5} | "
            f"{spread([len(c.rest) for c in runs]):>4} | {' / '.join(paths)} |"
        )
    return lines


def details(costs: dict[str, list[Cost]]) -> list[str]:
    """The other transactions and REST requests of each kind's first run."""
    lines = []
    for label, runs in costs.items():
        first = runs[0]
        lines.append(f"{label}: other {' '.join(first.other) or '-'}")
        lines.append(f"  REST {', '.join(first.rest) or '-'}")
    return lines


async def main(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    costs, violations = await measure(args.repeat)
    print(f"store transactions and REST calls per interaction ({args.repeat} run(s) of each)")
    print("\n".join(table(costs)))
    if args.requests:
        print("\n".join(details(costs)))
    print(f"({time.perf_counter() - started:.1f} s)")
    if violations:
        print("violations:", *violations, sep="\n  ")
    return 1 if violations else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each interaction (1-5)")
    parser.add_argument(
        "--requests", action="store_true", help="list each kind's other transactions and REST"
    )
    sys.exit(asyncio.run(main(parser.parse_args())))
