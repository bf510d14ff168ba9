"""/mastermind duel end to end: the real bot, the fake Discord, a real database file, the real
solver. A whole duel won, lost and drawn; both secrets hidden from every public message until
the end; refusals private, in the player's language, storing nothing; give up with its
confirmation; expiry; the bot's DM and a group DM through a user install."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.app import MastermindBot
from bot.engine.codes import CodeSpace
from bot.engine.game import Variant
from bot.engine.job_types import NextGuess
from bot.engine.scoring import score
from tests.bot.helpers import query
from tests.bot.test_security import private_refusal
from tests.discord_fake import FakeDiscord, FakeMessage

SPACE = CodeSpace(4, 6)
THEIRS = "6655"
"""The player's secret in every duel here: Knuth's guesses never start with it."""
SOLVER_WAIT = 90.0
"""The longest a round may wait for the solver: in `python -m bot` started anew its worker may
still be loading its kernels, up to half a minute and more on a busy shared machine (the answer
itself was deferred within Discord's 3 s)."""


def spellings(code: str, space: CodeSpace = SPACE) -> set[str]:
    """Every way a board or line could show `code` (digits, letters, emoji)."""
    parsed = space.parse(code)
    return {space.digits(parsed), space.letters(parsed), space.emoji(parsed)}


def public_texts(fake: FakeDiscord, channel: Any) -> list[str]:
    """Everything every public message in `channel` ever showed, each edit included."""
    texts = []
    for message in fake.messages(channel, include_deleted=True):
        if message.ephemeral:
            continue
        texts += [json.dumps(payload, ensure_ascii=False) for payload in message.history]
        texts.append(message.text)
    return texts


SNOWFLAKE = re.compile(r"\d{15,}")
"""A Discord id in a raw payload: its digits may spell a code by chance, and show none."""


def leaked(texts: list[str], *codes: str) -> list[str]:
    shown = set().union(*(spellings(code) for code in codes))
    return [text for text in texts if any(s in SNOWFLAKE.sub("", text) for s in shown)]


async def pick(
    fake: FakeDiscord, picker: FakeMessage, code: str, user: str, first: int = 0
) -> None:
    """Choose `code` (digits 1-6) in a private picker's menus, from peg `first` on."""
    for peg, colour in enumerate(code[first:], start=first):
        select = picker.selects[peg]["custom_id"]
        await (await fake.select(picker, select, [str(int(colour) - 1)], user=user)).response()


async def set_secret(
    fake: FakeDiscord, picker: FakeMessage, code: str, user: str
) -> tuple[FakeMessage, FakeMessage]:
    """Pick `code` in the secret's private picker and set it: (the picker, the public board)."""
    await pick(fake, picker, code, user)
    click = await fake.click(picker, "Set secret", user=user)
    await click.response()
    board = await click.followup()
    assert not board.ephemeral
    await fake.wait_for(lambda: "Mastermind duel" in board.text, what="the duel's board")
    return picker, board


async def start_duel(
    fake: FakeDiscord, channel: Any = "general", user: str = "alice", **options: Any
) -> FakeMessage:
    picker = await (
        await fake.slash(channel, user, "mastermind", "duel", options=options)
    ).response()
    assert picker.ephemeral
    _, board = await set_secret(fake, picker, THEIRS, user)
    return board


def bots_secret(db_path: Path) -> str:
    """The bot's secret as digits (the test peeks like a cheating player would)."""
    (text,) = query(db_path, "SELECT secret FROM games WHERE status = 'active'")[0]
    return "".join(str(c + 1) for c in json.loads(text)[:4])


def a_miss(secret: str) -> str:
    """A guess that is neither secret (nor cracks anything)."""
    return next(c for c in ("1111", "2222", "3333") if c not in (secret, THEIRS))


async def guess(
    fake: FakeDiscord, code: str, channel: Any = "general", user: str = "alice"
) -> FakeMessage:
    handle = await fake.slash(channel, user, "mastermind", "guess", options={"code": code})
    return await handle.settled(timeout=SOLVER_WAIT)


async def bot_will_crack(bot: MastermindBot, db_path: Path) -> bool:
    """Whether the bot's next guess (Knuth's, from its history) is the player's secret."""
    rows = query(
        db_path,
        "SELECT code, black, white FROM moves WHERE kind = 'guess' AND player_id IS NULL "
        "ORDER BY game_id, move_no",
    )
    history = [(json.loads(code), black, white) for code, black, white in rows]
    game_id = query(db_path, "SELECT id FROM games WHERE status = 'active'")[0][0]
    move = await bot.solver.next_move(Variant(4, 6, True), "knuth", history, game_id)
    assert isinstance(move, NextGuess)
    return SPACE.digits(tuple(move.guess)) == THEIRS


# --- a whole duel ------------------------------------------------------------------------------


async def test_a_duel_won_by_the_player_keeps_both_secrets_hidden_until_the_end(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    alice = fake.user("alice").id
    board = await start_duel(fake)
    assert [b["label"] for b in board.buttons] == ["Guess", "Hint", "Give up"]
    assert f"<@{alice}> to guess" in board.text and "**10** of 10" in board.text
    secret = bots_secret(db_path)
    line = await guess(fake, a_miss(secret))
    assert not line.ephemeral and "The bot guessed" in line.text
    await fake.wait_for(lambda: "**9** of 10" in board.text, what="the board after a round")
    assert leaked(public_texts(fake, "general"), secret, THEIRS) == []

    won = await guess(fake, secret)
    assert f"<@{alice}> wins" in won.text
    await fake.wait_for(lambda: "The player's secret" in board.text, what="the final board")
    assert all(s in board.text for s in (SPACE.emoji(SPACE.parse(secret)), "🟤🟤🟠🟠"))
    assert [b["label"] for b in board.buttons] == ["Review"]
    assert query(db_path, "SELECT kind, status, winner_id FROM games") == [("duel", "won", alice)]
    assert query(db_path, "SELECT count(*) FROM moves") == [(4,)]  # 2 rounds of 2 guesses

    review = await fake.click(board, "Review", user="bob")  # anyone in the channel
    reviewed = await review.followup()
    assert reviewed.ephemeral and "Knuth" in reviewed.text

    stats = await (
        await fake.slash("general", "bob", "mastermind", "stats", options={"player": "alice"})
    ).response()
    assert "Duels against the bot" in stats.text
    assert "**Knuth minimax**: 1 won · 0 lost · 0 drawn · 🔥 1 win in a row (best 1)" in stats.text
    options = {"games": "duel-knuth"}
    leaders = await (
        await fake.slash("general", "carol", "mastermind", "leaderboard", options=options)
    ).response()
    assert "Duel leaderboard" in leaders.text and f"<@{alice}>: 1 won of 1, best 2" in leaders.text
    assert "None" not in leaders.text  # the bot, which guesses too, is no player


async def test_a_duel_lost_through_the_guess_picker(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    miss = a_miss(bots_secret(db_path))
    for left in range(9, 3, -1):
        if "The bot wins" in board.text:
            break
        picker = await (await fake.click(board, "Guess", user="alice")).response()
        assert picker.ephemeral
        await pick(fake, picker, miss, "alice")
        sent = await fake.click(picker, "Submit guess", user="alice")
        assert "Guess sent" in (await sent.response()).text
        line = await sent.followup(timeout=SOLVER_WAIT)
        assert not line.ephemeral and "The bot guessed" in line.text
        shown = "The bot wins" if "The bot wins" in line.text else f"**{left}** of 10"
        await fake.wait_for(lambda s=shown: s in board.text, what=f"the board at {shown}")
    await fake.wait_for(lambda: "The bot wins" in board.text, what="the bot's win on the board")
    assert "🟤🟤🟠🟠" in board.text
    assert query(db_path, "SELECT status, winner_id FROM games") == [("lost", None)]


async def test_a_duel_drawn_in_the_same_round(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    secret = bots_secret(db_path)
    for _ in range(6):
        code = secret if await bot_will_crack(bot, db_path) else a_miss(secret)
        line = await guess(fake, code)
        if code == secret:
            break
    assert "A draw" in line.text
    await fake.wait_for(lambda: "A draw" in board.text, what="the draw on the board")
    assert query(db_path, "SELECT status, winner_id FROM games") == [("draw", None)]


async def test_each_opponents_leaderboard_ranks_only_the_wins_against_it(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    players = {"alice": "knuth", "bob": "entropy"}  # neither opens with the player's secret
    for player, opponent in players.items():
        await start_duel(fake, "general", player, opponent=opponent)
        won = await guess(fake, bots_secret(db_path), user=player)
        assert f"<@{fake.user(player).id}> wins" in won.text

    async def leaders(opponent: str) -> str:
        options = {"games": f"duel-{opponent}"}
        handle = await fake.slash("general", "carol", "mastermind", "leaderboard", options=options)
        return (await handle.response()).text

    alice, bob = (f"<@{fake.user(name).id}>" for name in players)
    knuth, entropy = await leaders("knuth"), await leaders("entropy")
    assert "Duel leaderboard: Knuth minimax" in knuth and "Neuwirth entropy" in entropy
    assert f"{alice}: 1 won of 1, best 1" in knuth and bob not in knuth
    assert f"{bob}: 1 won of 1, best 1" in entropy and alice not in entropy
    easy = await leaders("random-consistent")
    assert "No duel against Easy (a random code still possible) has ended yet" in easy


async def test_a_hint_is_for_the_player_alone_and_noted_on_the_board(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    refused = await (await fake.click(board, "Hint", user="bob")).response()
    assert refused.ephemeral and "game" in refused.text
    given = await (await fake.click(board, "Hint", user="alice")).settled(timeout=SOLVER_WAIT)
    assert given.ephemeral and "**1,296** codes still fit" in given.text
    await fake.wait_for(lambda: "Hints used" in board.text, what="the hint noted on the board")
    assert query(db_path, "SELECT hints FROM games") == [(1,)]


# --- refusals ----------------------------------------------------------------------------------


async def test_bad_input_is_refused_privately_and_stores_nothing(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    secret = bots_secret(db_path)

    other = await (await fake.click(board, "Guess", user="bob")).response()
    assert other.ephemeral and "game" in other.text
    typed = await guess(fake, "1234", user="bob")
    assert typed.ephemeral
    for code, fragment in {"123": "4 pegs", "1239": "'9'"}.items():
        refused = await guess(fake, code)
        assert refused.ephemeral and fragment in refused.text, refused.text
    second = await (await fake.slash("general", "bob", "mastermind", "duel")).response()
    assert second.ephemeral and "already running" in second.text
    assert query(db_path, "SELECT count(*) FROM moves") == [(0,)]

    picker = await (await fake.click(board, "Guess", user="alice")).response()
    await guess(fake, a_miss(secret))  # a round is played meanwhile
    await pick(fake, picker, "1111", "alice")
    stale = await fake.click(picker, "Submit guess", user="alice")
    refusal = await stale.response()
    assert refusal.ephemeral and "The game changed" in refusal.text
    assert query(db_path, "SELECT count(*) FROM moves") == [(2,)]


async def test_a_secret_that_does_not_fit_is_refused_in_the_player_language(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    opened = await fake.slash("general", "alice", "mastermind", "duel", options={"pegs": 5})
    modal = await opened.modal()  # five pegs: typed, not picked
    refused = await (await fake.submit_modal(modal, {"code": "123"})).response()
    assert refused.ephemeral and "does not fit" in refused.text
    fake.set_user_locale("alice", "pl")
    opened = await fake.slash("general", "alice", "mastermind", "duel", options={"pegs": 5})
    refused = await (await fake.submit_modal(await opened.modal(), {"code": "9"})).response()
    assert refused.ephemeral and "does not fit" not in refused.text
    assert query(db_path, "SELECT count(*) FROM games") == [(0,)]
    set_ = await fake.slash("general", "alice", "mastermind", "duel", options={"pegs": 5})
    board = await (await fake.submit_modal(await set_.modal(), {"code": "66554"})).settled()
    assert not board.ephemeral and "66554" not in board.text
    assert query(db_path, "SELECT kind, status FROM games") == [("duel", "active")]


async def test_forged_clicks_from_another_channel_or_a_dm_store_nothing(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    picker = await (await fake.click(board, "Guess", user="alice")).response()
    await pick(fake, picker, "1111", "alice")
    send = picker.component("Submit guess")["custom_id"]
    problems: list[str] = []
    for channel in (fake.channel("games"), fake.dm_channel("alice")):
        for custom_id, message in ((board.component("Guess")["custom_id"], board), (send, picker)):
            forged = await fake.forge_interaction(
                channel, "alice", type=3, custom_id=custom_id, message=message
            )
            await private_refusal(forged, problems)
    assert problems == []
    assert query(db_path, "SELECT count(*) FROM moves") == [(0,)]


async def test_a_stale_picker_is_refused_in_the_player_language(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    fake.set_user_locale("alice", "pl")
    picker = await (await fake.click(board, "Guess", user="alice")).response()
    assert "Wybierz" in picker.text  # the private picker speaks the player's language
    await guess(fake, a_miss(bots_secret(db_path)))
    await pick(fake, picker, "1111", "alice")
    refusal = await (await fake.click(picker, "Wyślij próbę", user="alice")).response()
    assert refusal.ephemeral and "Gra zmieniła się" in refusal.text, refusal.text
    assert query(db_path, "SELECT count(*) FROM moves") == [(2,)]


async def test_a_picked_secret_that_repeats_where_none_may_and_hard_mode(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    options = {"duplicates": False, "hard": True}
    picker = await (
        await fake.slash("general", "alice", "mastermind", "duel", options=options)
    ).response()
    await pick(fake, picker, "1123", "alice")
    refused = await (await fake.click(picker, "Set secret", user="alice")).response()
    assert refused.ephemeral and refused is not picker and "does not fit" in refused.text
    assert query(db_path, "SELECT count(*) FROM games") == [(0,)]
    _, board = await set_secret(fake, picker, "6543", "alice")  # the same picker, fixed
    assert "Hard mode" in board.text
    secret = bots_secret(db_path)
    first = next(c for c in ("1234", "2345", "3456") if c != secret)
    await guess(fake, first)
    ((black, white),) = query(
        db_path, "SELECT black, white FROM moves WHERE player_id IS NOT NULL AND kind = 'guess'"
    )
    space = CodeSpace(4, 6, duplicates=False)
    bare = next(  # a code that cannot be the secret, given the first answer
        code
        for code in map(space.code_at, range(space.size))
        if score(SPACE.parse(first), code) != (black, white)
    )
    cheat = await guess(fake, space.digits(bare))
    assert cheat.ephemeral and "Hard mode" in cheat.text
    assert query(db_path, "SELECT count(*) FROM moves") == [(2,)]


# --- give up, expiry ---------------------------------------------------------------------------


async def test_give_up_asks_first_then_shows_both_secrets(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    secret = bots_secret(db_path)
    not_theirs = await (await fake.click(board, "Give up", user="mod")).response()
    assert not_theirs.ephemeral  # a duel is its player's own: not even a moderator ends it
    ask = await (await fake.click(board, "Give up", user="alice")).response()
    assert ask.ephemeral and "reveal both secrets" in ask.text
    assert query(db_path, "SELECT status FROM games") == [("active",)]
    confirmed = await fake.click(ask, "Yes, end the game", user="alice")
    await confirmed.response()
    line = await confirmed.followup()
    assert not line.ephemeral and SPACE.emoji(SPACE.parse(secret)) in line.text
    assert "🟤🟤🟠🟠" in line.text
    await fake.wait_for(lambda: "gave the duel up" in board.text, what="the given-up board")
    assert query(db_path, "SELECT status FROM games") == [("abandoned",)]


async def test_an_idle_duel_expires_and_shows_both_secrets(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    board = await start_duel(fake)
    secret = bots_secret(db_path)
    assert await bot.expire_stale_games(timedelta(hours=1)) == 0
    assert await bot.expire_stale_games(timedelta(0)) == 1
    await fake.wait_for(lambda: "Timed out" in board.text, what="the expired board")
    assert "🟤🟤🟠🟠" in board.text and SPACE.emoji(SPACE.parse(secret)) in board.text


# --- anywhere play works -------------------------------------------------------------------


async def test_a_duel_in_the_bot_dm_and_in_a_group_dm(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    dm = fake.dm_channel("alice")
    board = await start_duel(fake, dm)
    secret = bots_secret(db_path)
    await guess(fake, secret, dm)
    await fake.wait_for(lambda: "wins" in board.text, what="the DM board's end")

    group = fake.group_dm("pair", ["alice", "bob"])
    fake.install_for_user("alice")
    since = len(fake.requests)
    board = await start_duel(fake, group)
    secret = bots_secret(db_path)
    line = await guess(fake, a_miss(secret), group)
    assert "Mastermind duel" in line.text and "The bot guessed" in line.text  # line + board
    won = await guess(fake, secret, group)
    assert "wins" in won.text and "The player's secret" in won.text
    outside = [
        r for r in fake.requests[since:] if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]
    assert outside == []  # in a group DM the bot only ever answered interactions
    assert query(db_path, "SELECT reach FROM games ORDER BY id") == [("channel",), ("interaction",)]
