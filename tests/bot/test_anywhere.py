"""Issue #10, play anywhere: the app installed to a user as well as to a server.

The real bot against the fake Discord, from the bot's own DM, from a server that never invited
the bot (a user install) and from a group DM. Where the bot is not a member the fake refuses
every bot-token route (a `not-a-member` violation fails the test) and sends no gateway events;
these tests also read the REST log to show the bot only ever answered interactions there.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import aiohttp
import discord

from bot.app import MastermindBot
from bot.engine.codes import CodeSpace
from tests.bot.helpers import answer_label, bot_guess, press, query, secret_text
from tests.discord_fake import FakeDiscord, FakeDiscordError, FakeMessage, RecordedRequest

CLASSIC = CodeSpace(4, 6)
TOKEN_LIFETIME = 15 * 60
THROUGH_INTERACTIONS = ("/interactions/", "/webhooks/")


def other_code(secret: str) -> str:
    """A wrong guess: the secret with its first peg changed."""
    return ("2" if secret[0] == "1" else "1") + secret[1:]


def outside_interactions(fake: FakeDiscord, since: int) -> list[RecordedRequest]:
    """Every REST request since `since` that was not an interaction callback or webhook."""
    return [r for r in fake.requests[since:] if not r.path.startswith(THROUGH_INTERACTIONS)]


def game_rows(db_path: Path) -> list[tuple[str, str, str]]:
    return query(db_path, "SELECT kind, status, reach FROM games ORDER BY id")


async def pick_and_submit(fake: FakeDiscord, picker: FakeMessage, code: str, user: str) -> None:
    """Choose each peg of `code` (digits 1-6) in a private picker, then submit it."""
    for peg, colour in enumerate(code):
        select = picker.selects[peg]["custom_id"]
        await (await fake.select(picker, select, [str(int(colour) - 1)], user=user)).response()


async def crack(fake: FakeDiscord, board: FakeMessage, secret: str, user: str) -> int:
    """Answer the bot truthfully on its board until it wins; the guesses it needed."""
    for _ in range(8):
        number, guess = bot_guess(board)
        await press(fake, board, answer_label(CLASSIC, guess, secret), user)
        if "Solved in" in board.text:
            return number
    raise AssertionError(f"not solved: {board.text}")


async def test_the_synced_commands_are_offered_to_users_and_in_every_context(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    (group,) = fake_discord.synced_commands()
    assert group["name"] == "mastermind"
    assert sorted(group["integration_types"]) == [0, 1]  # server install and user install
    assert sorted(group["contexts"]) == [0, 1, 2]  # servers, the bot's DM, private channels


async def test_a_dm_with_the_bot_plays_and_solves_to_the_end(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    dm = fake.dm_channel("alice")
    since = len(fake.requests)
    board = await (await fake.slash(dm, "alice", "mastermind", "play")).settled()
    assert not board.ephemeral and board.channel == dm
    secret = secret_text(db_path)
    miss = await (
        await fake.slash(dm, "alice", "mastermind", "guess", options={"code": other_code(secret)})
    ).response()
    assert "9 guesses left" in miss.text
    await fake.wait_for(lambda: "**9** of 10" in board.text, what="the DM board redrawn")
    won = await (
        await fake.slash(dm, "alice", "mastermind", "guess", options={"code": secret})
    ).response()
    assert "cracked the code in 2 guesses" in won.text
    await fake.wait_for(lambda: "Cracked by" in board.text, what="the DM board shows the win")

    solve = await (await fake.slash(dm, "alice", "mastermind", "solve")).settled()
    assert await crack(fake, solve, "3456", "alice") <= 5
    assert game_rows(db_path) == [("play", "won", "channel"), ("solve", "solved", "channel")]

    # The bot's own DM is a channel it may edit: the boards are kept up to date with its token
    # there (the play board always; the solve board when a redraw runs in the background), and
    # nothing else. Every message was an interaction's response.
    own = outside_interactions(fake, since)
    assert own and all(r.method == "PATCH" for r in own), own
    boards = {f"/channels/{dm.id}/messages/{message.id}" for message in (board, solve)}
    assert f"/channels/{dm.id}/messages/{board.id}" in {r.path for r in own}
    assert {r.path for r in own} <= boards
    assert all(m.interaction_id is not None for m in fake.messages(dm))


async def test_a_server_that_never_invited_the_bot_plays_and_solves_through_interactions(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    fake.add_foreign_guild("Friends", ("hangout",))
    fake.install_for_user("alice")
    assert bot.get_guild(fake.channel("hangout").guild_id or 0) is None  # no GUILD_CREATE
    since = len(fake.requests)

    start = await fake.slash("hangout", "alice", "mastermind", "play")
    assert start.payload["authorizing_integration_owners"] == {"1": str(fake.user("alice").id)}
    assert start.payload["context"] == 0
    board = await start.settled()
    secret = secret_text(db_path)
    assert "**10** of 10" in board.text

    # A slash guess answers with its line and the board: that message is the board of record.
    miss = await (
        await fake.slash(
            "hangout", "alice", "mastermind", "guess", options={"code": other_code(secret)}
        )
    ).response()
    assert "9 guesses left" in miss.text and "**9** of 10" in miss.text
    assert {"Guess", "Give up"} <= {b["label"] for b in miss.buttons}
    assert "**10** of 10" in board.text  # the first board is left as it was, for now
    await fake.wait_for(
        lambda: query(db_path, "SELECT board_message_id FROM games") == [(miss.id,)],
        what="the guess's message to become the board of record",
    )

    # Bob (no install of his own) clicks Guess on the first board: that click redraws it, and
    # the picker comes as a private followup.
    click = await fake.click(board, "Guess", user="bob")
    assert await click.answer() == 7 and "**9** of 10" in board.text
    picker = await click.followup()
    assert picker.ephemeral
    await pick_and_submit(fake, picker, "1111" if secret != "1111" else "2222", "bob")
    sent = await fake.click(picker, "Submit guess", user="bob")
    await sent.response()
    line = await sent.followup()
    assert not line.ephemeral and "**8** of 10" in line.text and line.buttons

    won = await (
        await fake.slash("hangout", "alice", "mastermind", "guess", options={"code": secret})
    ).response()
    assert "cracked the code in 3 guesses" in won.text and "Cracked by" in won.text
    await fake.wait_for(lambda: "Knuth's algorithm would have needed" in won.text)

    solve = await (await fake.slash("hangout", "alice", "mastermind", "solve")).settled()
    assert await crack(fake, solve, "6543", "alice") <= 5
    assert game_rows(db_path) == [
        ("play", "won", "interaction"),
        ("solve", "solved", "interaction"),
    ]
    assert outside_interactions(fake, since) == []
    hangout = fake.channel("hangout")
    assert all(m.interaction_id is not None for m in fake.messages(hangout))


async def test_a_group_dm_game_and_what_only_servers_have(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    group = fake.group_dm("the gang", ["alice", "bob", "carol"])
    fake.install_for_user("alice")
    since = len(fake.requests)

    # Bob never installed the app: Discord offers him no command in the group DM.
    try:
        await fake.slash(group, "bob", "mastermind", "play")
    except FakeDiscordError as refused:
        assert "install" in str(refused)
    else:
        raise AssertionError("a command ran without any install authorizing it")

    start = await fake.slash(group, "alice", "mastermind", "play")
    assert start.payload["context"] == 2
    board = await start.settled()
    secret = secret_text(db_path)
    line = await (
        await fake.slash(group, "alice", "mastermind", "guess", options={"code": secret})
    ).response()
    assert "cracked the code in 1 guess" in line.text and "Cracked by" in line.text

    # A second game; bob may not end alice's game, and there are no moderators here.
    board = await (await fake.slash(group, "alice", "mastermind", "play")).settled()
    give_up = await fake.click(board, "Give up", user="bob")
    refusal = await give_up.followup()
    assert refusal.ephemeral and "outside servers" in refusal.text
    confirm = await (await fake.click(board, "Give up", user="alice")).followup()
    ended = await fake.click(confirm, "Yes, end the game", user="alice")
    await ended.response()
    final = await ended.followup()
    assert not final.ephemeral and "ended the game. The secret was" in final.text
    assert "Given up by" in final.text
    assert not {"Guess", "Give up"} & {b["label"] for b in final.buttons}

    leaders = await (await fake.slash(group, "alice", "mastermind", "leaderboard")).response()
    assert leaders.ephemeral and "server" in leaders.text
    assert game_rows(db_path) == [
        ("play", "won", "interaction"),
        ("play", "abandoned", "interaction"),
    ]
    assert outside_interactions(fake, since) == []


async def test_the_leaderboard_in_a_dm_explains_itself_privately(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    fake = fake_discord
    dm = fake.dm_channel("dave")
    leaders = await (await fake.slash(dm, "dave", "mastermind", "leaderboard")).response()
    assert leaders.ephemeral and "Leaderboards belong to a server" in leaders.text
    rules = await (await fake.slash(dm, "dave", "mastermind", "rules")).response()
    assert rules.ephemeral and "How to play Mastermind" in rules.text
    stats = await (await fake.slash(dm, "dave", "mastermind", "stats")).response()
    assert stats.embed is not None


async def test_an_expired_token_is_never_used(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    fake.add_foreign_guild("Friends", ("hangout",))
    fake.install_for_user("carol")
    since = len(fake.requests)
    start = await fake.slash("hangout", "carol", "mastermind", "play")
    board = await start.settled()
    secret = secret_text(db_path)
    guess = await fake.slash(
        "hangout", "carol", "mastermind", "guess", options={"code": other_code(secret)}
    )
    second = await guess.response()
    for handle in (start, guess):
        fake.age_interaction(handle, TOKEN_LIFETIME + 60)

    # A click 16 minutes later: the board redraws through the new click, not an old token.
    click = await fake.click(board, "Guess", user="carol")
    assert await click.answer() == 7 and "**9** of 10" in board.text
    assert (await click.followup()).ephemeral

    # The game expires: no board is edited (nothing could be), ...
    assert await bot.expire_stale_games(timedelta(0)) == 1
    assert "Secret" not in second.text
    # ... and the next click on its board reveals the secret through that click.
    late = await fake.click(second, "Guess", user="carol")
    assert await late.answer() == 7
    assert "Secret" in second.text and "Timed out" in second.text
    assert "Guess" not in {b["label"] for b in second.buttons}
    over = await late.followup()
    assert over.ephemeral and "This game is over." in over.text
    assert outside_interactions(fake, since) == []
    assert not fake.take_violations("token-expired")


async def test_the_fake_refuses_what_discord_refuses_where_the_bot_is_not(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    fake = fake_discord
    fake.add_foreign_guild("Friends", ("hangout",))
    group = fake.group_dm("pair", ["alice", "bob"])
    fake.install_for_user("alice")
    for channel in (fake.channel("hangout"), group):
        try:
            with discord.http.handle_message_parameters("hi") as params:
                await bot.http.send_message(channel.id, params=params)
        except discord.Forbidden as error:
            assert (error.status, error.code) == (403, 50001)
        else:
            raise AssertionError("a message was posted where the bot is not a member")
    assert len(fake.take_violations("not-a-member")) == 2

    # A token older than 15 minutes is refused: 401 Invalid Webhook Token.
    handle = await fake.slash("hangout", "alice", "mastermind", "rules")
    await handle.response()
    fake.age_interaction(handle, TOKEN_LIFETIME + 1)
    url = f"{fake.rest_base}/webhooks/{fake.application_id}/{handle.token}"
    async with aiohttp.ClientSession() as session, session.post(url, json={"content": "late"}) as r:
        assert r.status == 401 and (await r.json())["code"] == 50027
    assert len(fake.take_violations("token-expired")) == 1

    # A command whose synced contexts leave out DMs is not offered there.
    fake.commands[None][0]["contexts"] = [0]
    try:
        await fake.slash(fake.dm_channel("alice"), "alice", "mastermind", "rules")
    except FakeDiscordError as refused:
        assert "context 1" in str(refused)
    else:
        raise AssertionError("a command ran in a context it does not allow")
