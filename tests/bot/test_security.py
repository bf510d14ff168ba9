"""Issue #8, authorization in the bot: forged interactions never reach a game.

A malicious client can send any interaction: any custom_id, any select value, from any channel
of the server or from a DM with the bot, with any message attached. The fake's
`forge_interaction` sends exactly that. The bot itself (not discord.py) must check that the game
belongs to the interaction's guild and channel and that every value is one it offered; a
refusal is private (ephemeral), clear, and stores nothing.
"""

from __future__ import annotations

from pathlib import Path

from tests.bot.helpers import active_game, board_shows, bot_guess, move_count, query, secret_text
from tests.discord_fake import FakeChannel, FakeDiscord, InteractionHandle

#: Where forgeries come from: another channel of the server, and a DM with the bot.
ELSEWHERE = ("games", "dm")
UNEXPECTED = "Something went wrong"


def place(fake: FakeDiscord, where: str, user: str) -> FakeChannel:
    """The channel a forgery is sent from: a guild channel, or `user`'s DM with the bot."""
    return fake.dm_channel(user) if where == "dm" else fake.channel(where)


async def private_refusal(handle: InteractionHandle, problems: list[str] | None = None) -> None:
    """The bot answered `handle` with a private message (replied at once, deferred and then
    filled in, or acknowledged with a private followup) that offers nothing to act on and is
    not the catch-all error.

    With `problems`, a failure is noted there instead of raised, so that one test reports every
    forgery the bot lets through; the test asserts the list is empty at its end.
    """
    try:
        await _check_refusal(handle)
    except AssertionError as error:
        if problems is None:
            raise
        problems.append(str(error).splitlines()[0])


async def _check_refusal(handle: InteractionHandle) -> None:
    kind = await handle.answer()
    if kind == 6:  # a silent acknowledgement is fine only if a private followup says why
        reply = await handle.followup()
    else:
        assert kind in (4, 5), f"{handle.description}: answered with type {kind}, not privately"
        reply = await handle.settled()
        if handle.followups:
            reply = handle.followups[-1]
    assert reply.ephemeral, f"{handle.description}: the refusal is public: {reply.text!r}"
    assert reply.text.strip(), f"{handle.description}: the refusal says nothing"
    assert UNEXPECTED not in reply.text, f"{handle.description}: {reply.text!r} is not clear"
    assert not reply.buttons and not reply.selects, f"{handle.description}: {reply.text!r}"


def other_code(secret: str) -> str:
    """A wrong guess: the secret with its first peg changed."""
    return ("2" if secret[0] == "1" else "1") + secret[1:]


async def test_a_forged_code_modal_from_another_channel_or_a_dm_stores_nothing(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "play", options={"pegs": 6, "colours": 8}
        )
    ).settled()
    game_id, _ = active_game(db_path)
    secret = secret_text(db_path)
    opened = await fake_discord.click(board, "Guess", user="bob")
    modal = await opened.modal()
    # The live format, nonce or not: `mm:code:<game>` optionally followed by `:<anything>`.
    assert modal.custom_id == f"mm:code:{game_id}" or modal.custom_id.startswith(
        f"mm:code:{game_id}:"
    ), modal.custom_id

    problems: list[str] = []
    for where in ELSEWHERE:
        for custom_id in dict.fromkeys([modal.custom_id, f"mm:code:{game_id}"]):
            forged = await fake_discord.forge_interaction(
                place(fake_discord, where, "bob"),
                "bob",
                type=5,
                custom_id=custom_id,
                fields={"code": secret},  # the winning code: the worst a forger can do
                message=board,
            )
            await private_refusal(forged, problems)
            forged_bare = await fake_discord.forge_interaction(
                place(fake_discord, where, "dave"),
                "dave",
                type=5,
                custom_id=custom_id,
                fields={"code": secret},
            )
            await private_refusal(forged_bare, problems)
    assert problems == []
    assert move_count(db_path) == 0
    assert query(db_path, "SELECT status FROM games") == [("active",)]
    assert "**10** of 10" in board.text

    line = await (
        await fake_discord.submit_modal(modal, {"code": other_code(secret)}, user="bob")
    ).response()
    assert not line.ephemeral and "9 guesses left" in line.text
    await board_shows(fake_discord, board, "**9** of 10")
    assert move_count(db_path) == 1


async def test_forged_buttons_and_picker_from_another_channel_or_a_dm_store_nothing(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    game_id, _ = active_game(db_path)
    picker = await (await fake_discord.click(board, "Guess", user="carol")).response()
    for peg, colour in enumerate("0123"):
        select = picker.selects[peg]["custom_id"]
        await (await fake_discord.select(picker, select, [colour], user="carol")).response()
    assert "🔴🟢🔵🟡" in picker.text  # a complete pick, ready to submit
    confirm = await (await fake_discord.click(board, "Give up", user="alice")).response()
    assert confirm.ephemeral and confirm.buttons  # alice started it: she may end it, here

    problems: list[str] = []
    for where in ELSEWHERE:
        alice_at = place(fake_discord, where, "alice")
        carol_at = place(fake_discord, where, "carol")
        forgeries = [
            # The starter herself, from elsewhere: only the channel check can refuse these.
            (alice_at, "alice", f"mm:guess:{game_id}", 2, None, board),
            (alice_at, "alice", f"mm:quit:{game_id}", 2, None, board),
            (alice_at, "alice", f"mm:quit-yes:{game_id}", 2, None, confirm),
            (carol_at, "carol", picker.selects[0]["custom_id"], 3, ["5"], picker),
            (carol_at, "carol", f"mm:send:{game_id}", 2, None, picker),
        ]
        for channel, user, custom_id, component_type, values, message in forgeries:
            forged = await fake_discord.forge_interaction(
                channel,
                user,
                type=3,
                custom_id=custom_id,
                component_type=component_type,
                values=values,
                message=message,
            )
            await private_refusal(forged, problems)
        # With no message at all discord.py drops a component before the bot sees it; if the
        # bot ever handles one itself, it must refuse it privately too.
        bare = await fake_discord.forge_interaction(
            carol_at, "carol", type=3, custom_id=f"mm:send:{game_id}", expect_answer=False
        )
        await (await fake_discord.slash("general", "bob", "mastermind", "rules")).settled()
        if bare.answered:
            await private_refusal(bare, problems)

    assert problems == []
    assert move_count(db_path) == 0
    assert query(db_path, "SELECT status FROM games") == [("active",)]
    assert "🔴🟢🔵🟡" in picker.text and board.buttons  # the picker and board as they were

    sent = await fake_discord.click(picker, "Submit guess", user="carol")
    await sent.response()
    line = await sent.followup()
    assert not line.ephemeral and "🔴🟢🔵🟡" in line.text
    await board_shows(fake_discord, board, "🔴🟢🔵🟡")
    assert move_count(db_path) == 1


async def test_forged_select_values_get_a_clear_private_refusal(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    await (await fake_discord.slash("general", "alice", "mastermind", "play")).settled()
    picker = await (
        await fake_discord.click(fake_discord.messages("general")[0], "Guess", user="carol")
    ).response()
    before = picker.text
    first = picker.selects[0]["custom_id"]
    offered = [o["value"] for o in picker.selects[0]["options"]]
    assert offered == ["0", "1", "2", "3", "4", "5"]
    problems: list[str] = []
    for values in (["9"], ["6"], ["x"], ["-1"], [""], ["1", "2"]):
        forged = await fake_discord.forge_interaction(
            "general",
            "carol",
            type=3,
            custom_id=first,
            component_type=3,
            values=values,
            message=picker,
        )
        await private_refusal(forged, problems)
    assert problems == []
    assert picker.text == before  # no forged colour was taken into the pick
    assert move_count(db_path) == 0

    for peg, colour in enumerate("5432"):
        select = picker.selects[peg]["custom_id"]
        await (await fake_discord.select(picker, select, [colour], user="carol")).response()
    sent = await fake_discord.click(picker, "Submit guess", user="carol")
    await sent.response()
    assert "🟤🟠🟡🔵" in (await sent.followup()).text
    assert move_count(db_path) == 1


async def test_forged_answers_on_a_solve_game_are_refused(
    fake_discord: FakeDiscord, bot, db_path: Path
) -> None:
    board = await (
        await fake_discord.slash(
            "general", "alice", "mastermind", "solve", options={"pegs": 6, "colours": 8}
        )
    ).settled()
    game_id, _ = active_game(db_path)
    moves = move_count(db_path)
    assert bot_guess(board)[0] == 1 and len(board.selects) == 2
    first = board.selects[0]["custom_id"]
    offered = {o["value"] for s in board.selects for o in s["options"]}
    assert "0:0" in offered and "5:1" not in offered

    # Values the bot never offered, on its own board, by the player who started the game.
    problems: list[str] = []
    for value in ("5:1", "9:9", "7:0", "x", "-1:0", "1", "0:0:0", "0:x"):
        forged = await fake_discord.forge_interaction(
            "general",
            "alice",
            type=3,
            custom_id=first,
            component_type=3,
            values=[value],
            message=board,
        )
        await private_refusal(forged, problems)
    # A value it offered, and its Give up button, from another channel or a DM.
    for where in ELSEWHERE:
        channel = place(fake_discord, where, "alice")
        answer = await fake_discord.forge_interaction(
            channel,
            "alice",
            type=3,
            custom_id=first,
            component_type=3,
            values=["0:0"],
            message=board,
        )
        await private_refusal(answer, problems)
        stop = await fake_discord.forge_interaction(
            channel, "alice", type=3, custom_id=f"mm:stop:{game_id}", message=board
        )
        await private_refusal(stop, problems)
    assert problems == []
    assert move_count(db_path) == moves
    assert query(db_path, "SELECT status FROM games") == [("active",)]
    assert bot_guess(board)[0] == 1

    chosen = await fake_discord.select(board, first, ["0:0"], user="alice")
    assert await chosen.answer() in (6, 7)
    await fake_discord.wait_for(lambda: bot_guess(board)[0] == 2, what="the second guess")
    assert query(db_path, "SELECT kind, black, white FROM moves WHERE kind = 'answer'") == [
        ("answer", 0, 0)
    ]
    assert move_count(db_path) > moves
