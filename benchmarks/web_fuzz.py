"""Fuzz benchmark of the Activity's web API (#33): every route and WebSocket message, fuzzed.

    python benchmarks/web_fuzz.py [--count 10000] [--seed N] [--families ...] [--batch 8] [--check]

The real bot runs in this process on a fresh SQLite file with its Activity on, against the
loopback fake Discord (with Activities): a play game in #general (alice and bob signed in there),
a solve game in #games (carol), each with one move already made from the page. Four families of
inputs are drawn from a seeded RNG, each one the server must refuse:

- `session`: sign-in bodies (wrong types, unknown or used codes, other instances, bad JSON);
- `action`: moves, each with at least one defect (a forged or missing session, another
  channel's game, a stale version, a replayed nonce, an unknown action, bad arguments or nonce,
  a malformed body);
- `route`: any method on any path, with junk headers and bodies;
- `socket`: WebSocket messages before and after a hello (junk, binary, wrong types, forged
  sessions, oversized).

Each must be answered with a clear error (a 4xx and `{"error", "message"}`, or on the socket an
error message or a close), within 3 s, with the database unchanged and nothing logged above
INFO. Printed per family: count, p50/p99/max answer time, failures, the seed and the load
average; `--check` exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import string
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import fuzz  # noqa: E402
from benchmarks.fuzz import percentile  # noqa: E402
from bot.app import MastermindBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.web.api import NONCE  # noqa: E402
from tests.discord_fake import FakeDiscord  # noqa: E402
from tests.fuzz import probe  # noqa: E402

DEADLINE = 3.0
SHOWN_FAILURES = 5
ACTIONS = ("guess", "hint", "giveup", "answer", "undo", "join", "start", "review")


@dataclass
class Scene:
    """What the fuzz aims at: the server, sessions, games and the moves already made."""

    base: str
    sessions: dict[str, str]  # user -> session
    games: dict[str, dict[str, Any]]  # "general" / "games" -> the game's view (after one move)
    instances: dict[str, str]  # channel -> instance id


@dataclass
class Case:
    family: str
    what: str
    run: Callable[[aiohttp.ClientSession], Awaitable[list[str]]]
    """Sends the input; the problems with its answer (none: refused as it must be)."""


@dataclass
class Result:
    case: Case
    latency: float | None = None
    problems: list[str] = field(default_factory=list)


# --- values ---------------------------------------------------------------------------------


def junk(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON value, odd ones likelier."""
    pick = rng.randrange(12 if depth < 2 else 8)
    if pick == 0:
        return None
    if pick == 1:
        return rng.choice([True, False])
    if pick == 2:
        return rng.choice([0, -1, 1, 2**63, -(2**63), 2**64, 7, 10**30])
    if pick == 3:
        return rng.choice([0.5, -0.0, 1e308, 3.0])
    if pick == 4:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(0, 40)))
    if pick == 5:
        return rng.choice(["", "x" * 5000, "\u0000", "../../etc/passwd", "💥" * 10, "<script>"])
    if pick == 6:
        return str(rng.randrange(10**18, 10**19))
    if pick == 7:
        return [rng.randrange(-3, 12) for _ in range(rng.randrange(0, 10))]
    if pick in (8, 9):
        return [junk(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    return {rng.choice(["code", "black", "white", "a", ""]): junk(rng, depth + 1) for _ in range(3)}


def header(rng: random.Random) -> str:
    """A header value an HTTP client may send: printable, no control characters."""
    alphabet = string.ascii_letters + string.digits + string.punctuation + " "
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 120)))


def nonce(rng: random.Random) -> str:
    return "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(16))


# --- judging --------------------------------------------------------------------------------


async def refused_http(
    response: aiohttp.ClientResponse, *, path: str, served: bool = False
) -> list[str]:
    """A clear refusal: 4xx, and on the API a JSON `{error, message}` (`served`: a page or a
    public file may also be served, 2xx)."""
    problems = []
    text = await response.text()
    if served and response.status < 300:
        return [] if "Content-Security-Policy" in response.headers else ["no CSP"]
    if not 400 <= response.status < 500:
        problems.append(f"status {response.status}: {text[:200]}")
    if path.startswith("/api/") and response.status != 101:
        try:
            body = json.loads(text)
        except ValueError:
            return [*problems, f"not JSON: {text[:200]}"]
        if not (isinstance(body, dict) and body.get("error") and body.get("message")):
            problems.append(f"no error and message: {text[:200]}")
    if "Content-Security-Policy" not in response.headers:
        problems.append("no Content-Security-Policy")
    return problems


# --- families -------------------------------------------------------------------------------


def session_case(rng: random.Random, scene: Scene) -> Case:
    kind = rng.randrange(5)
    if kind == 0:
        raw: bytes | None = json.dumps(junk(rng)).encode()
    elif kind == 1:
        raw = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
    elif kind == 2:
        instance = rng.choice([*scene.instances.values(), "0", "", "x" * 70])
        body = {"code": junk(rng), "instance_id": instance}
        raw = json.dumps(body).encode()
    elif kind == 3:
        code = "".join(rng.choice(string.ascii_letters) for _ in range(rng.randrange(1, 40)))
        raw = json.dumps({"code": code, "instance_id": junk(rng)}).encode()
    else:
        raw = json.dumps(
            {"code": "a" * 30, "instance_id": rng.choice(list(scene.instances.values()))}
        ).encode()
    what = f"POST /api/session {raw[:120]!r}"

    async def run(http: aiohttp.ClientSession) -> list[str]:
        async with http.post(scene.base + "/api/session", data=raw) as response:
            return await refused_http(response, path="/api/session")

    return Case("session", what, run)


def action_case(rng: random.Random, scene: Scene) -> Case:
    here = rng.choice(["general", "games"])
    game = scene.games[here]
    user = "alice" if here == "general" else "carol"
    body: dict[str, Any] = {
        "game_id": game["game_id"],
        "version": game["version"],
        "action": rng.choice(ACTIONS),
        "args": {"code": [1, 2, 3, 4]} if rng.random() < 0.5 else {"black": 0, "white": 0},
        "nonce": nonce(rng),
    }
    headers = {"Authorization": f"Bearer {scene.sessions[user]}"}
    defect = rng.randrange(9)
    if defect == 0:  # forged or missing session
        headers = rng.choice(
            [
                {},
                {"Authorization": "Bearer " + nonce(rng) * 3},
                {"Authorization": header(rng)},
            ]
        )
    elif defect == 1:  # another channel's game
        other = scene.games["games" if here == "general" else "general"]
        body["game_id"], body["version"] = other["game_id"], other["version"]
    elif defect == 2:  # a stale version
        body["version"] = game["version"] - rng.randrange(1, 3)
    elif defect == 3:  # a replayed nonce: the one this player's move in the scene used
        body["nonce"] = f"scene-{here}"
    elif defect == 4:  # an action no mode has
        body["action"] = rng.choice(
            ["", "GUESS", "secret", "__class__", "x" * 40, str(junk(rng))[:20]]
        )
    elif defect == 5:  # arguments of the wrong shape
        body["action"] = "guess" if here == "general" else "answer"
        body["args"] = {"code": junk(rng), "black": junk(rng), "white": junk(rng)}
        if (
            isinstance(body["args"]["code"], list)
            and len(body["args"]["code"]) == 4
            and all(type(x) is int and 1 <= x <= 6 for x in body["args"]["code"])
        ):
            body["args"]["code"] = [0, 0, 0, 0]
        if type(body["args"]["black"]) is int and 0 <= body["args"]["black"] <= 4:
            body["args"]["black"] = 9
    elif defect == 6:  # a bad nonce (junk may happen to be a good one: then it is spoilt)
        bad = rng.choice(["", "short", "x" * 65, "bad nonce!", junk(rng)])
        body["nonce"] = bad + "!" if isinstance(bad, str) and NONCE.fullmatch(bad) else bad
    elif defect == 7:  # a field of the wrong type
        key = rng.choice(["game_id", "version", "action", "args", "nonce"])
        body[key] = rng.choice([None, "1", 1.5, [], {}, True, -1])
        if key == "args" and body[key] == {}:
            body[key] = []
    else:  # a body that is no object
        body = junk(rng) if rng.random() < 0.5 else {"unexpected": junk(rng)}  # type: ignore[assignment]
    raw = json.dumps(body).encode()
    what = f"POST /api/action defect {defect} {headers} {raw[:200]!r}"

    async def run(http: aiohttp.ClientSession) -> list[str]:
        async with http.post(scene.base + "/api/action", data=raw, headers=headers) as response:
            return await refused_http(response, path="/api/action")

    return Case("action", what, run)


def route_case(rng: random.Random, scene: Scene) -> Case:
    method = rng.choice(["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
    path = rng.choice(
        [
            "/api/"
            + "".join(
                rng.choice(string.ascii_lowercase + "/._-%") for _ in range(rng.randrange(0, 20))
            ),
            "/static/"
            + rng.choice(
                [
                    "../bot/config/settings.py",
                    "%2e%2e/%2e%2e/pyproject.toml",
                    "nope.js",
                    "",
                    "vendor/../../web/api.py",
                ]
            ),
            "/"
            + "".join(
                rng.choice(string.ascii_letters + "/.%") for _ in range(rng.randrange(1, 30))
            ),
            rng.choice(["/api/session", "/api/game", "/api/strings", "/api/action"]),
        ]
    )
    if method == "GET" and path in ("/api/session", "/api/action"):
        method = "PUT"
    if method == "POST" and path in ("/api/game", "/api/strings"):
        method = "DELETE"
    session = scene.sessions["alice"] + "x" if rng.random() < 0.5 else nonce(rng)
    headers = rng.choice(
        [
            {},
            {"Authorization": f"Bearer {session}"},
            {"Authorization": "Basic " + nonce(rng)},
            {"Content-Type": "text/plain"},
        ]
    )
    data = json.dumps(junk(rng)).encode() if method != "GET" else None
    what = f"{method} {path} {headers} {data[:80] if data else b''!r}"

    async def run(http: aiohttp.ClientSession) -> list[str]:
        async with http.request(method, scene.base + path, data=data, headers=headers) as response:
            return await refused_http(response, path=path, served=method in ("GET", "HEAD"))

    return Case("route", what, run)


def socket_case(rng: random.Random, scene: Scene) -> Case:
    first: list[Any] = []
    kind = rng.randrange(6)
    if kind == 0:
        first = [{"type": "hello", "session": junk(rng)}]
    elif kind == 1:
        first = [junk(rng)]
    elif kind == 2:
        first = [b"\x00\x01" * rng.randrange(1, 20)]
    elif kind == 3:
        first = ["not json " + nonce(rng)]
    elif kind == 4:
        first = ["x" * 5000]
    else:  # a good hello, then junk: the page stays, each junk message answered with an error
        first = [
            {"type": "hello", "session": scene.sessions["bob"]},
            junk(rng),
            {"type": rng.choice(["game", "ping", "", "hello"]), "session": nonce(rng)},
        ]
    what = f"WS {first!r}"[:300]

    async def run(http: aiohttp.ClientSession) -> list[str]:
        problems: list[str] = []
        async with http.ws_connect(scene.base + "/api/live") as ws:
            good = False
            for message in first:
                if isinstance(message, bytes):
                    await ws.send_bytes(message)
                elif isinstance(message, str):
                    await ws.send_str(message)
                else:
                    good = good or (message == first[0] and kind == 5)
                    await ws.send_str(json.dumps(message))
            errors = 0
            while True:
                try:
                    got = await asyncio.wait_for(ws.receive(), DEADLINE)
                except TimeoutError:
                    if not good:
                        problems.append("neither refused nor closed within 3 s")
                    elif errors < len(first) - 1:
                        problems.append(f"{len(first) - 1 - errors} junk message(s) unanswered")
                    break
                if got.type is not aiohttp.WSMsgType.TEXT:
                    break  # closed: refused
                said = json.loads(got.data)
                if said.get("type") == "error":
                    errors += 1
                    if not said.get("message"):
                        problems.append(f"an error without words: {said}")
                    if errors >= len(first) - (1 if good else 0):
                        break
                elif said.get("type") in ("game", "presence", "ping"):
                    if not good:
                        problems.append(f"answered a page that never signed in: {said}")
                        break
                else:
                    problems.append(f"unexpected message {said}")
                    break
        return problems

    return Case("socket", what, run)


FAMILIES: dict[str, Callable[[random.Random, Scene], Case]] = {
    "session": session_case,
    "action": action_case,
    "route": route_case,
    "socket": socket_case,
}


# --- running --------------------------------------------------------------------------------


async def build(fake: FakeDiscord, base: str, http: aiohttp.ClientSession) -> Scene:
    """A play game in #general, a solve game in #games, a move made on each from the page."""
    await (await fake.slash("general", "alice", "mastermind", "play")).settled()
    await (await fake.slash("games", "carol", "mastermind", "solve")).settled(timeout=60.0)
    instances = {
        "general": fake.start_activity("general", users=("alice", "bob")).instance_id,
        "games": fake.start_activity("games", users=("carol",)).instance_id,
    }
    sessions: dict[str, str] = {}
    for user, channel in (("alice", "general"), ("bob", "general"), ("carol", "games")):
        body = {"code": fake.oauth_code(user), "instance_id": instances[channel]}
        async with http.post(base + "/api/session", json=body) as response:
            sessions[user] = (await response.json())["session"]
    games: dict[str, dict[str, Any]] = {}
    for user, channel, action, args in (
        ("alice", "general", "guess", {"code": [1, 1, 2, 2]}),
        ("carol", "games", "answer", {"black": 0, "white": 1}),
    ):
        headers = {"Authorization": f"Bearer {sessions[user]}"}
        async with http.get(base + "/api/game", headers=headers) as response:
            game = (await response.json())["game"]
        move = {
            "game_id": game["game_id"],
            "version": game["version"],
            "action": action,
            "args": args,
            "nonce": f"scene-{channel}",
        }
        async with http.post(base + "/api/action", json=move, headers=headers) as response:
            assert response.status == 200, await response.text()
            games[channel] = (await response.json())["game"]
    return Scene(base, sessions, games, instances)


async def run_batch(
    http: aiohttp.ClientSession, db_path: Path, log: probe.LoudLog, batch: list[Case]
) -> list[Result]:
    before = probe.snapshot(db_path)

    async def one(case: Case) -> Result:
        started = time.perf_counter()
        try:
            problems = await asyncio.wait_for(case.run(http), DEADLINE * 2)
        except Exception as error:  # a failure of the input, reported
            return Result(case, None, [f"{type(error).__name__}: {error}"])
        latency = time.perf_counter() - started
        if latency > DEADLINE and case.family != "socket":
            problems.append(f"answered after {latency:.2f} s")
        return Result(case, latency, problems)

    results = list(await asyncio.gather(*(one(case) for case in batch)))
    await asyncio.sleep(0)
    after = probe.snapshot(db_path)
    if after != before:
        changed = sorted(t for t in after if after[t] != before.get(t))
        for result in results:
            result.problems.append(f"the database changed in this batch: {changed}")
    loud = log.take()
    if loud:
        for result in results:
            result.problems.append("logged: " + " | ".join(loud)[:400])
    return results


def report(family: str, results: list[Result], seconds: float, seed: int) -> int:
    latencies = [r.latency for r in results if r.latency is not None]
    failed = [r for r in results if r.problems]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    p50, p99 = (percentile(latencies, f) * 1000 for f in (0.5, 0.99))
    print(
        f"{family:8} n={len(results)} answered={len(latencies)}  p50 {p50:.1f} ms  "
        f"p99 {p99:.1f} ms  max {max(latencies, default=0) * 1000:.0f} ms  "
        f"failures {len(failed)}  [{seconds:.0f} s, seed {seed}, load {load}]"
    )
    for result in failed[:SHOWN_FAILURES]:
        print(f"  FAIL {result.case.what}\n       {'; '.join(result.problems)[:600]}")
    return len(failed)


def free_port() -> int:
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        return int(probe_socket.getsockname()[1])


async def main(args: argparse.Namespace) -> int:
    families = args.families or list(FAMILIES)
    print(f"web fuzz: seed {args.seed}, {args.count} per family, batches of {args.batch}")
    with tempfile.TemporaryDirectory() as folder, probe.loud_log() as log:
        db_path = Path(folder) / "fuzz.db"
        failures = 0
        async with FakeDiscord(rate_limits=None, activities=True) as fake:
            port = free_port()
            settings = Settings(
                token=fake.token,
                database_path=db_path,
                activity_port=port,
                client_secret=fake.client_secret,
            )
            factory = lambda: MastermindBot(settings)  # noqa: E731
            running = fake.run_in_process(factory, timeout=60.0, commands=True)
            async with running as bot, aiohttp.ClientSession() as http:
                assert bot.activity_server is not None
                bot.activity_server.api.most_actions = 10**9  # the pace would hide the rest
                scene = await build(fake, f"http://127.0.0.1:{port}", http)
                await probe.quiet(db_path)
                log.take()  # the scene's own start
                for family in families:
                    rng = random.Random(f"{args.seed}:{family}")
                    draw = FAMILIES[family]
                    results: list[Result] = []
                    started = time.perf_counter()
                    while len(results) < args.count:
                        size = min(args.batch, args.count - len(results))
                        batch = [draw(rng, scene) for _ in range(size)]
                        results += await run_batch(http, db_path, log, batch)
                    seconds = time.perf_counter() - started
                    failures += report(family, results, seconds, args.seed)
    print("web fuzz: " + ("PASS" if failures == 0 else f"FAIL ({failures} inputs)"))
    return 1 if failures and args.check else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return fuzz.parse_args(argv, families=FAMILIES, description=__doc__ or "")


if __name__ == "__main__":
    sys.exit(asyncio.run(main(parse_args())))
