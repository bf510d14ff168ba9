"""Solve, the daily and the race on the Activity (#33): each mode's own view for each viewer
and its own actions, through the real bot, the fake Discord and a real database file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from bot.engine.codes import CodeSpace
from bot.engine.scoring import score
from tests.bot.helpers import move_count, query
from tests.discord_fake import FakeDiscord

CLASSIC = CodeSpace(4, 6)


def _score(guess: list[int], secret: str) -> tuple[int, int]:
    return score(tuple(p - 1 for p in guess), CLASSIC.parse(secret))


async def _next_game(socket) -> dict:
    while True:
        message = await asyncio.wait_for(socket.receive_json(), 5)
        if message["type"] == "game":
            return message["game"]


async def test_solve_answered_and_undone_on_the_page(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "solve")).settled()
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    bob = await pages(fake_discord, "bob", instance.instance_id)
    seen = await bob.game()
    assert seen["kind"] == "solve" and seen["actions"] == []  # not bob's code to answer
    status, body = await bob.act(seen, "answer", "nonce-bob-answer", black=0, white=0)
    assert status == 403 and body["error"] == "not_your_game"

    game = await alice.game()
    assert game["actions"] == ["answer", "giveup"] and game["extra"]["can_undo"] is False
    first = game["extra"]["guess"]
    status, body = await alice.act(game, "answer", "nonce-a1", black=0, white=0)
    assert status == 200, body
    after = body["game"]
    assert after["rows"] == [{"code": first, "black": 0, "white": 0, "by": None}]
    assert "undo" in after["actions"] and after["extra"]["can_undo"]
    status, body = await alice.act(after, "undo", "nonce-a2")
    assert status == 200 and body["game"]["rows"] == []
    assert body["game"]["extra"]["guess"] == first

    secret, game = "3456", body["game"]
    for turn in range(8):
        black, white = _score(game["extra"]["guess"], secret)
        status, body = await alice.act(game, "answer", f"nonce-s{turn}", black=black, white=white)
        assert status == 200, body
        game = body["game"]
        if game["status"] != "running":
            break
    assert game["status"] == "won" and game["rows"][-1]["code"] == [3, 4, 5, 6]
    assert game["secret"] is None and game["actions"] == []


async def test_the_daily_stays_private(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    opened = await (await fake_discord.slash("general", "alice", "mastermind", "daily")).response()
    assert opened.ephemeral
    ((secret,),) = query(db_path, "SELECT secret FROM games WHERE kind = 'daily'")
    code = [c + 1 for c in json.loads(secret)]
    instance = fake_discord.start_activity("general", users=("alice", "bob"))
    alice = await pages(fake_discord, "alice", instance.instance_id)
    bob = await pages(fake_discord, "bob", instance.instance_id)
    mine = await alice.game()
    assert mine["kind"] == "daily" and mine["actions"] == ["guess"] and mine["secret"] is None
    assert await bob.game() is None  # bob has not opened today's code

    wrong = [(code[0] % 6) + 1, *code[1:]]
    async with bob.live() as socket:
        await socket.send_json({"type": "hello", "session": bob.session})
        assert (await _next_game(socket)) is None
        status, body = await alice.act(mine, "guess", "nonce-d1", code=wrong)
        assert status == 200 and len(body["game"]["rows"]) == 1
        seen = await _next_game(socket)  # alice's progress only
        assert seen["kind"] == "daily" and seen["rows"] == [] and seen["actions"] == []
        assert seen["extra"]["progress"][0]["guesses"] == 1
        status, body = await alice.act(body["game"], "guess", "nonce-d2", code=code)
        assert status == 200 and body["game"]["status"] == "won"
        assert body["game"]["secret"] == code  # its player sees the code once done
        seen = await _next_game(socket)
        assert seen["status"] == "won" and seen["secret"] is None and seen["rows"] == []
        assert str(code) not in json.dumps(seen)
    status, body = await bob.act(mine, "guess", "nonce-bob", code=wrong)
    assert status in (403, 409) and move_count(db_path) == 2


async def test_a_race_with_two_racers(fake_discord: FakeDiscord, bot, pages, db_path: Path) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "race")).settled()
    ((secret,),) = query(db_path, "SELECT secret FROM games WHERE kind = 'race'")
    code = [c + 1 for c in json.loads(secret)]
    wrong = [(code[0] % 6) + 1, *code[1:]]
    instance = fake_discord.start_activity("general", users=("alice", "bob", "carol"))
    alice, bob, carol = [
        await pages(fake_discord, user, instance.instance_id) for user in ("alice", "bob", "carol")
    ]
    lobby = await bob.game()
    assert lobby["extra"]["phase"] == "lobby" and lobby["actions"] == ["join"]
    assert lobby["secret"] is None and lobby["extra"]["ends_at"]
    status, body = await bob.act(lobby, "join", "nonce-join")
    assert status == 200 and body["game"]["extra"]["racing"]
    game = await alice.game()
    assert "start" in game["actions"]
    status, body = await alice.act(game, "start", "nonce-start")
    assert status == 200 and body["game"]["extra"]["phase"] == "running"

    game = await bob.game()
    status, body = await bob.act(game, "guess", "nonce-b1", code=wrong)
    assert status == 200 and len(body["game"]["rows"]) == 1
    status, body = await alice.act(await alice.game(), "guess", "nonce-a1", code=code)
    assert status == 200, body
    watching = await carol.game()  # not racing: the standings, no colour
    assert watching["rows"] == [] and watching["actions"] == []
    standings = {s["by"]["id"]: s for s in watching["extra"]["standings"]}
    alice_id, bob_id = (str(fake_discord.user(u).id) for u in ("alice", "bob"))
    assert standings[alice_id]["cracked"] and standings[alice_id]["place"] == 1
    assert standings[bob_id]["guesses"] == 1 and not standings[bob_id]["cracked"]
    assert watching["secret"] is None
    mine = await bob.game()
    assert [r["code"] for r in mine["rows"]] == [wrong]  # bob's own guesses only
    status, body = await bob.act(mine, "guess", "nonce-b2", code=code)
    assert status == 200 and body["game"]["status"] == "won"
    assert body["game"]["secret"] == code


async def test_each_racer_is_pushed_their_own_board(
    fake_discord: FakeDiscord, bot, pages, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "race")).settled()
    ((secret,),) = query(db_path, "SELECT secret FROM games WHERE kind = 'race'")
    wrong = [(c + 1) % 6 + 1 for c in json.loads(secret)]
    instance = fake_discord.start_activity("general", users=("alice", "bob", "carol"))
    alice, bob, carol = [
        await pages(fake_discord, user, instance.instance_id) for user in ("alice", "bob", "carol")
    ]
    status, _ = await bob.act(await bob.game(), "join", "nonce-join")
    assert status == 200
    status, _ = await alice.act(await alice.game(), "start", "nonce-start")
    assert status == 200
    async with alice.live() as a, bob.live() as b, carol.live() as c:
        for page, socket in ((alice, a), (bob, b), (carol, c)):
            await socket.send_json({"type": "hello", "session": page.session})
            assert (await _next_game(socket))["extra"]["phase"] == "running"
        status, _ = await bob.act(await bob.game(), "guess", "nonce-bob-1", code=wrong)
        assert status == 200
        seen = {name: await _next_game(s) for name, s in (("alice", a), ("bob", b), ("carol", c))}
    assert [r["code"] for r in seen["bob"]["rows"]] == [wrong]
    assert seen["alice"]["rows"] == [] and seen["carol"]["rows"] == []
    assert "guess" in seen["alice"]["actions"] and seen["carol"]["actions"] == []
    assert all(v["version"] == seen["bob"]["version"] for v in seen.values())
