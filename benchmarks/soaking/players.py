"""The soak's players: each plays whole games back to back, acting again when its board moved.

- `play_channel`: a cooperative play game; every player guesses at once (slash `guess`, and
  one player through the Guess button's private picker), each again once the board moved.
- `solve_channel`: Knuth solve games (4 x 6), the answer buttons clicked truthfully.
- `daily_players`: one daily each, for a queue of players: pick every peg, Submit, repeat.
- `race_channel`: a race whose lobby the clock closes (10 s); two racers join and guess on
  their private boards, the starter never guesses, so the clock also ends it (1 minute).

Every move is acknowledged in the ledger only once the player saw it answered.
"""

from __future__ import annotations

import asyncio
import functools
import itertools
from collections.abc import Iterator

from benchmarks.soaking.table import (
    MOVED_TIMEOUT,
    Table,
    button,
    guess_rows,
    newest_board,
    route_of,
)
from bot.engine.codes import CodeSpace
from bot.engine.scoring import score
from tests.discord_fake import FakeMessage

CLASSIC = CodeSpace(4, 6)
RACE_JOIN_SECONDS = 10
RACE_MINUTES = 1


def code_stream(table: Table) -> Iterator[str]:
    """Every 4 x 6 code once, in a random order: no two guesses of one game repeat."""
    numbers = list(range(CLASSIC.size))
    table.rng.shuffle(numbers)
    return (CLASSIC.digits(CLASSIC.code_at(n)) for n in itertools.cycle(numbers))


async def start_game(
    table: Table, channel: str, user: str, command: str, route: str, **options: object
) -> FakeMessage | None:
    """Start a public game (its board), or find the one already running in the channel."""
    acted = await table.act(
        f"{command} start",
        lambda: table.fake.slash(channel, user, "mastermind", command, options=options or None),
    )
    if acted is not None and acted[1] in (4, 5) and acted[0].handle.original is not None:
        board = acted[0].handle.original
        if not board.ephemeral and await table.until(lambda: not board.loading, 5.0):
            return board
    return newest_board(table.fake, channel, route)


async def play_channel(table: Table, channel: str, players: list[str]) -> None:
    """Cooperative play games back to back; players[0] guesses through the picker."""
    while table.playing:
        board = await start_game(table, channel, players[0], "play", "guess")
        if board is None:
            continue
        codes = code_stream(table)
        await asyncio.gather(
            *(play_turns(table, board, p, codes, picker=i == 0) for i, p in enumerate(players))
        )


async def play_turns(
    table: Table, board: FakeMessage, player: str, codes: Iterator[str], *, picker: bool
) -> None:
    """Guess, wait for the board to move, guess again, until the game is over."""
    while table.playing and button(board, "guess") is not None:
        edits = board.edits
        if picker:
            await picker_guess(table, board, player, next(codes))
        else:
            await slash_guess(table, board, player, next(codes))
        await table.moved(board, edits)


async def slash_guess(table: Table, board: FakeMessage, player: str, code: str) -> None:
    """`/mastermind guess`: acknowledged by its public line."""
    acted = await table.act(
        "play guess (slash)",
        lambda: table.fake.slash(
            board.channel, player, "mastermind", "guess", options={"code": code}
        ),
        source=lambda handle: f"i:{handle.id}",
    )
    if acted is None:
        return
    entry, kind = acted
    reply = entry.handle.original
    if kind == 4 and reply is not None and not reply.ephemeral:
        table.ledger.acknowledge(entry)
    else:
        table.ledger.refuse(entry)


async def pick_code(table: Table, message: FakeMessage, player: str, code: str, kind: str) -> bool:
    """Choose each peg's colour in a private picker or board's selects; False if one failed."""
    for peg, digit in enumerate(code):
        selects = message.selects
        if peg >= len(selects):
            return False
        custom_id = selects[peg]["custom_id"]
        acted = await table.act(
            kind,
            functools.partial(
                table.fake.select, message, custom_id, [str(int(digit) - 1)], user=player
            ),
        )
        if acted is None or acted[1] != 7:
            return False
    return True


async def picker_guess(table: Table, board: FakeMessage, player: str, code: str) -> None:
    """The Guess button's private picker: open, pick, Submit; acknowledged by "Guess sent"."""
    guess = button(board, "guess")
    if guess is None:
        return
    opened = await table.act(
        "picker open", lambda: table.fake.click(board, str(guess["custom_id"]), user=player)
    )
    if opened is None or opened[1] != 4 or opened[0].handle.original is None:
        return
    picker = opened[0].handle.original
    if not await pick_code(table, picker, player, code, "picker pick"):
        return
    acted = await table.act(
        "picker submit",
        lambda: table.fake.click(picker, "Submit guess", user=player),
        source=lambda _: f"picker:{picker.id}",
    )
    if acted is None:
        return
    entry, kind = acted
    if kind == 7 and "Guess sent" in picker.text:
        table.ledger.acknowledge(entry)
    elif kind != 7:
        table.ledger.refuse(entry)


async def solve_channel(table: Table, channel: str, player: str) -> None:
    """Knuth solve games back to back, each answered truthfully for a random secret."""
    while table.playing:
        board = await start_game(table, channel, player, "solve", "ans")
        if board is None:
            continue
        secret = CLASSIC.code_at(table.rng.randrange(CLASSIC.size))
        while table.playing and button(board, "ans") is not None:
            await solve_answer(table, board, player, secret)


async def solve_answer(
    table: Table, board: FakeMessage, player: str, secret: tuple[int, ...]
) -> None:
    """Click the truthful answer to the board's guess; acknowledged when the board moved."""
    text = board.text
    if "**Guess " not in text:
        await table.moved(board, board.edits)
        return
    guess = text.split("**Guess ")[-1].split("`")[1]
    black, white = score(CLASSIC.parse(guess), secret)
    custom_ids = [
        str(c["custom_id"])
        for c in board.buttons
        if route_of(str(c["custom_id"]))[0] == "ans"
        and route_of(str(c["custom_id"]))[1][2:] == [black, white]
    ]
    edits = board.edits
    if not custom_ids:
        await table.moved(board, edits)
        return
    acted = await table.act(
        "solve answer",
        lambda: table.fake.click(board, custom_ids[0], user=player),
        source=lambda handle: f"i:{handle.id}",
    )
    if acted is None:
        await table.moved(board, edits)
        return
    entry, kind = acted
    clicked = route_of(custom_ids[0])[1][1]  # mm:ans:<game>:<version>:<black>:<white>
    if kind not in (6, 7):
        table.ledger.refuse(entry)
    else:
        # Not any edit: a click deferred (6) just before a kill, then a restart's redraw of
        # the same version, moved the board without taking the answer.
        await table.seen(entry, lambda: shown_version(board) > clicked, MOVED_TIMEOUT)


def shown_version(board: FakeMessage) -> int:
    """The version a board's footer names ("Game 12 · move 3"), -1 if none."""
    footer = str(((board.embed or {}).get("footer") or {}).get("text") or "")
    words = footer.rsplit("move ", 1)
    return int(words[1]) if len(words) == 2 and words[1].isdigit() else -1


async def daily_players(table: Table, channel: str, players: list[str]) -> None:
    """Each player in turn opens today's daily and plays it to its end."""
    for player in players:
        if not table.playing:
            return
        await daily_game(table, channel, player)


async def daily_game(table: Table, channel: str, player: str) -> None:
    """One player's daily: open it, then pick and Submit until it is over."""
    acted = await table.act(
        "daily open", lambda: table.fake.slash(channel, player, "mastermind", "daily")
    )
    board = None if acted is None else acted[0].handle.original
    if board is None or not await table.until(lambda: not board.loading, 5.0):
        return
    codes = code_stream(table)
    while table.playing and button(board, "dsend") is not None:
        await private_guess(table, board, player, next(codes), "daily")


async def private_guess(
    table: Table, board: FakeMessage, player: str, code: str, mode: str
) -> None:
    """Pick a code on a private daily or race board and Submit it; acknowledged once the
    board shows one more guess row. Its source is what the Submit button's id names."""
    if not await pick_code(table, board, player, code, f"{mode} pick"):
        await table.moved(board, board.edits)
        return
    route = "dsend" if mode == "daily" else "rsend"
    submit = button(board, route)
    if submit is None:
        return
    custom_id = str(submit["custom_id"])
    numbers = route_of(custom_id)[1]
    if mode == "daily":  # mm:dsend:<game>:<version>
        source = f"daily:{numbers[0]}:{numbers[1]}"
    else:  # mm:rsend:<game>:<guesses made>
        source = f"race:{numbers[0]}:{table.fake.user(player).id}:{numbers[1] + 1}"
    rows = guess_rows(board)
    acted = await table.act(
        f"{mode} submit",
        lambda: table.fake.click(board, custom_id, user=player),
        source=lambda _: source,
    )
    if acted is None:
        return
    entry, kind = acted
    if kind != 7:
        table.ledger.refuse(entry)
    else:
        await table.seen(entry, lambda: guess_rows(board) > rows, MOVED_TIMEOUT)


async def race_channel(table: Table, channel: str, host: str, racers: list[str]) -> None:
    """Races back to back: the clock starts each and, since the host never guesses, ends it."""
    while table.playing:
        await race(table, channel, host, racers)


async def race(table: Table, channel: str, host: str, racers: list[str]) -> None:
    """One race: open, join, wait for the clock to start it, guess, wait for it to end."""
    options = {"join_seconds": RACE_JOIN_SECONDS, "minutes": RACE_MINUTES}
    board = await start_game(table, channel, host, "race", "rjoin", **options)
    if board is None:
        return
    for racer in racers:
        await race_join(table, board, racer)
    if await table.until(lambda: button(board, "rboard") is not None, RACE_JOIN_SECONDS + 10.0):
        await asyncio.gather(*(race_turns(table, board, r) for r in racers))
    await table.until(
        lambda: button(board, "rboard") is None and button(board, "rjoin") is None,
        RACE_MINUTES * 60 + 15.0,
    )


async def race_join(table: Table, board: FakeMessage, racer: str) -> None:
    """Join: acknowledged once the lobby names the racer."""
    join = button(board, "rjoin")
    if join is None:
        return
    acted = await table.act(
        "race join",
        lambda: table.fake.click(board, str(join["custom_id"]), user=racer),
        source=lambda handle: f"i:{handle.id}",
    )
    if acted is None:
        return
    entry, kind = acted
    mention = f"<@{table.fake.user(racer).id}>"
    if kind != 7:
        table.ledger.refuse(entry)
    else:
        await table.seen(entry, lambda: mention in board.text, MOVED_TIMEOUT)


async def race_turns(table: Table, board: FakeMessage, racer: str) -> None:
    """Open My board, then guess on it until cracked, out of guesses or the race is over."""
    mine = button(board, "rboard")
    if mine is None:
        return
    acted = await table.act(
        "race board", lambda: table.fake.click(board, str(mine["custom_id"]), user=racer)
    )
    private = None if acted is None else acted[0].handle.original
    if private is None:
        return
    await table.until(lambda: not private.loading, 5.0)
    codes = code_stream(table)
    while table.playing and button(private, "rsend") is not None:
        await private_guess(table, private, racer, next(codes), "race")
