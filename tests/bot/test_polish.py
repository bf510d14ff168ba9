"""A Polish player on a Polish server, through the real bot and the fake Discord: every word
they read is Polish, boards included; Polish colour names are scored; the commands carry `pl`."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import MastermindBot
from bot.engine.codes import CodeSpace
from bot.engine.scoring import score
from bot.ui import text
from bot.ui.i18n import messages
from tests.bot.helpers import active_game, board_shows, guesses, press, secret_text
from tests.discord_fake import FakeDiscord, FakeMessage
from tests.ui.test_i18n import english_words

PL = messages("pl")
CLASSIC = CodeSpace(4, 6)
GUESS_ON_BOARD = re.compile(r"\*\*Próba (\d+):\*\* .*?`(\d+)`")


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """The fake with a Polish server and Alice's Discord in Polish (everyone else English)."""
    fake = FakeDiscord()
    await fake.start()
    await fake.set_guild_locale("pl")
    fake.set_user_locale("alice", "pl")
    try:
        yield fake
    finally:
        await fake.close()
    fake.assert_no_violations()


def _words(payload: dict[str, Any]) -> Iterator[str]:
    """Every string a message payload shows: content, embeds, component labels and options."""
    yield payload.get("content") or ""
    for embed in payload.get("embeds") or []:
        yield embed.get("title") or ""
        yield embed.get("description") or ""
        for field in embed.get("fields") or []:
            yield field.get("name") or ""
            yield field.get("value") or ""
        yield (embed.get("footer") or {}).get("text") or ""
    yield from _component_words(payload.get("components") or [])


def _component_words(components: list[dict[str, Any]]) -> Iterator[str]:
    for component in components:
        for key in ("label", "placeholder", "title", "content"):
            yield component.get(key) or ""
        for option in component.get("options") or []:
            yield option.get("label") or ""
            yield option.get("description") or ""
        yield from _component_words(component.get("components") or [])
        if component.get("component"):
            yield from _component_words([component["component"]])


def shown_to(fake: FakeDiscord, user: str) -> list[str]:
    """Everything `user` saw: public messages and their own private ones, every version of
    each, and the modals they opened."""
    who = fake.user(user)
    seen: list[str] = []
    for message in fake.all_messages(include_deleted=True):
        viewer = message.visible_to
        if viewer is not None and viewer.id != who.id:
            continue
        for version in [*message.history, message.payload()]:
            seen.extend(w for w in _words(version) if w)
    for modal in fake.modals:
        if modal.user.id == who.id:
            seen.append(modal.title)
            seen.extend(w for w in _component_words(modal.components) if w)
    return seen


def assert_all_polish(fake: FakeDiscord, user: str = "alice") -> None:
    seen = shown_to(fake, user)
    assert len(seen) > 10
    english = {line: english_words(line) for line in seen if english_words(line)}
    assert not english, f"English shown to a Polish player: {english}"


def bot_guess(board: FakeMessage) -> tuple[int, str]:
    match = GUESS_ON_BOARD.search(board.text)
    assert match, board.text
    return int(match[1]), match[2]


def answer(guess: str, secret: str) -> str:
    """The button a truthful Polish player presses."""
    return text.answer_label(*score(CLASSIC.parse(guess), CLASSIC.parse(secret)), t=PL)


async def test_the_synced_commands_carry_polish(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    (group,) = [c for c in fake_discord.synced_commands() if c["name"] == "mastermind"]
    assert group["description_localizations"] == {"pl": "Zagraj w Mastermind"}
    subcommands = {o["name"]: o for o in group["options"]}
    polish = {name: o["name_localizations"]["pl"] for name, o in subcommands.items()}
    assert polish == {
        "play": "graj",
        "guess": "zgadnij",
        "giveup": "poddaj-się",
        "solve": "rozwiąż",
        "board": "plansza",
        "rules": "zasady",
        "simulate": "symuluj",
        "stats": "statystyki",
        "leaderboard": "ranking",
        "daily": "dzienna",
        "race": "wyścig",
        "duel": "pojedynek",
    }
    for sub in subcommands.values():
        assert set(sub["description_localizations"]) == {"pl"}
        for option in sub.get("options") or []:
            assert option["description_localizations"]["pl"], option
            if option["name"] != "solo":  # "solo" is Polish too
                assert option["name_localizations"]["pl"], option
            for choice in option.get("choices") or []:
                assert choice["name_localizations"]["pl"], choice
    pegs = subcommands["play"]["options"][0]
    assert (pegs["name"], pegs["name_localizations"]) == ("pegs", {"pl": "pionki"})
    strategies = {
        c["value"]: c["name_localizations"]["pl"]
        for c in subcommands["solve"]["options"][-1]["choices"]
    }
    assert strategies["knuth"] == "Minimaks Knutha"


async def test_a_polish_player_plays_a_game_in_polish(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    start = await fake.slash("general", "alice", "mastermind", "play")
    assert (start.payload["locale"], start.payload["guild_locale"]) == ("pl", "pl")
    board = await start.settled()
    assert "Mastermind · 4 pionki · 6 kolorów" in board.text
    assert "🔴 **R** czerwony" in board.text and "**10** z 10" in board.text
    labels = [b["label"] for b in board.buttons]
    assert (labels[0], labels[-1], len(labels)) == ("Zgadnij", "Poddaj się", 3)  # Hint between
    game_id, _ = active_game(db_path)
    secret = secret_text(db_path)

    # the private picker: selects named in Polish, a refusal in Polish, then a guess
    picker = await (await fake.click(board, "Zgadnij", user="alice")).response()
    assert picker.ephemeral and picker.text.startswith("Wybierz kolor każdego pionka")
    assert picker.selects[0]["placeholder"] == "Pionek 1"
    assert picker.selects[0]["options"][3]["label"] == "Y żółty"
    last = "3" if secret != "1234" else "4"  # never the secret: the game goes on
    await (await fake.select(picker, "Pionek 1", ["0"], user="alice")).response()
    await (await fake.select(picker, "Pionek 2", ["1"], user="alice")).response()
    early = await (await fake.click(picker, "Wyślij próbę", user="alice")).response()
    assert early.ephemeral and early.text == "Najpierw wybierz kolory pionków 3, 4."
    for peg, colour in ((3, "2"), (4, last)):
        await (await fake.select(picker, f"Pionek {peg}", [colour], user="alice")).response()
    submitted = await fake.click(picker, "Wyślij próbę", user="alice")
    line = await submitted.followup()
    assert "zgaduje 🔴🟢🔵" in line.text and "zostało 9 prób" in line.text
    await board_shows(fake, board, "**9** z 10")

    # Polish colour names are scored, with and without diacritics
    typed, code = "pomarańczowy brazowy zolty ŻÓŁTY", (4, 5, 3, 3)
    if CLASSIC.digits(code) == secret:
        typed, code = "pomarańczowy brazowy zolty czerwony", (4, 5, 3, 0)
    handle = await fake.slash("general", "alice", "mastermind", "guess", options={"code": typed})
    line = await handle.response()
    black, white = score(code, CLASSIC.parse(secret))
    assert f"zgaduje {CLASSIC.emoji(code)} `{CLASSIC.letters(code)}` → " in line.text
    assert f"→ {text.pegs(black, white)} ({text.peg_words(black, white, t=PL)})" in line.text
    assert guesses(db_path, game_id)[-1][1] == CLASSIC.digits(code) or json.loads(
        guesses(db_path, game_id)[-1][1]
    ) == list(code)
    refused = await (
        await fake.slash(
            "general", "alice", "mastermind", "guess", options={"code": "czerwony szary"}
        )
    ).response()
    assert refused.ephemeral and refused.text.startswith("Nie znam koloru 'szary'. Kolory: 🔴 R")

    # a win: the line, Knuth's count and the board, in Polish
    won = await (
        await fake.slash("general", "alice", "mastermind", "guess", options={"code": secret})
    ).response()
    assert "łamie kod w 3 próbach!**" in won.text
    await fake.wait_for(lambda: "Algorytm Knutha potrzebowałby" in won.text, what="Knuth's note")
    await board_shows(fake, board, "🎉 Kod złamany przez")
    assert "Ukryty kod" in board.text
    assert [b["custom_id"].split(":")[1] for b in board.buttons] == ["review"]  # review only

    rules = await (await fake.slash("general", "alice", "mastermind", "rules")).response()
    assert rules.ephemeral and rules.embed and rules.embed["title"] == "Jak grać w Mastermind"
    stats = await (await fake.slash("general", "alice", "mastermind", "stats")).response()
    assert "Wygrane" in stats.text and "1 (100%)" in stats.text
    leaders = await (await fake.slash("general", "alice", "mastermind", "leaderboard")).response()
    assert "wygrane 1 z 1, najlepiej 3" in leaders.text
    nothing = await (await fake.slash("general", "alice", "mastermind", "board")).response()
    assert nothing.ephemeral and nothing.text.startswith("Na tym kanale nie trwa żadna gra.")
    assert_all_polish(fake)


async def test_a_long_code_modal_and_giving_up_in_polish(
    fake_discord: FakeDiscord, bot: MastermindBot, db_path: Path
) -> None:
    fake = fake_discord
    options = {"pegs": 5, "colours": 8, "duplicates": False}
    board = await (
        await fake.slash("games", "alice", "mastermind", "play", options=options)
    ).settled()
    assert "5 pionków · 8 kolorów · bez powtórzeń" in board.text
    modal = await (await fake.click(board, "Zgadnij", user="alice")).modal()
    assert modal.title == "Zgadnij kod" and "Twoja próba" in _component_words(modal.components)
    code, letters = "czerwony zielony niebieski zolty fioletowy", "RGBYP"
    if secret_text(db_path) == "12347":  # never the secret: the game goes on
        code, letters = "czerwony zielony niebieski zolty różowy", "RGBYK"
    submitted = await fake.submit_modal(modal, {"code": code})
    line = await submitted.response()
    assert f"zgaduje 🔴🟢🔵🟡{CLASSIC.emoji(())}" in line.text and f"`{letters}`" in line.text

    ask = await (await fake.slash("games", "alice", "mastermind", "giveup")).response()
    assert ask.ephemeral and ask.text == "Zakończyć tę grę i odkryć ukryty kod?"
    confirm = await fake.click(ask, "Tak, zakończ grę", user="alice")
    ended = await confirm.followup()
    assert ended.text.startswith("🏳️ Gra zakończona przez") and "Ukryty kod to" in ended.text
    assert ask.text == "Gra zakończona."
    await board_shows(fake, board, "🏳️ Gra poddana przez")
    assert_all_polish(fake)


async def test_a_polish_player_has_the_bot_solve_their_code(
    fake_discord: FakeDiscord, bot: MastermindBot
) -> None:
    fake = fake_discord
    secret = "1234"
    board = await (await fake.slash("games", "alice", "mastermind", "solve")).settled()
    assert "ukrywa kod, ja go łamię" in board.text
    assert "**Próba 1:**" in board.text and "Wciąż możliwe kody: **1\xa0296**" in board.text
    assert "Strategia: Minimaks Knutha." in board.text
    assert board.buttons[0]["label"] == "brak"

    # a wrong answer, taken back
    number, guess = bot_guess(board)
    await press(fake, board, "⚪⚪⚪⚪" if answer(guess, secret) != "⚪⚪⚪⚪" else "brak", "alice")
    await press(fake, board, "Cofnij ostatnią odpowiedź", "alice")
    assert "↩️ Cofnięto" in board.text and bot_guess(board)[0] == number

    for _ in range(8):
        number, guess = bot_guess(board)
        await press(fake, board, answer(guess, secret), "alice")
        if "Kod złamany w" in board.text:
            break
    assert re.search(r"🎯 Kod złamany w \d próbach!", board.text), board.text
    assert_all_polish(fake)


async def test_boards_speak_the_servers_language_and_replies_the_players(
    fake_discord: FakeDiscord, bot: MastermindBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = fake_discord
    await fake.set_guild_locale("en-US")
    board = await (await fake.slash("general", "alice", "mastermind", "play")).settled()
    assert "**10** of 10" in board.text  # the server's language
    picker = await (await fake.click(board, "Guess", user="alice")).response()
    assert picker.text.startswith("Wybierz kolor")  # Alice's language
    bob = await (await fake.click(board, "Guess", user="bob")).response()
    assert bob.text.startswith("Pick a colour")

    # a board redrawn with no interaction (here: expired) is in the server's language too,
    # also where this process does not cache the server (another shard, or before ready)
    await fake.set_guild_locale("pl")
    second = await (await fake.slash("games", "bob", "mastermind", "play")).settled()
    assert "**10** z 10" in second.text
    monkeypatch.setattr(bot, "get_guild", lambda guild_id: None)
    assert await bot.expire_stale_games(timedelta(0)) == 2
    await board_shows(fake, board, "⌛ Koniec czasu: nikt nie grał zbyt długo.")
    await board_shows(fake, second, "⌛ Koniec czasu: nikt nie grał zbyt długo.")
    assert any(r.path.endswith(f"/guilds/{fake.guild_id}") for r in fake.requests)
