"""The hard-mode refusal names the earliest clue a guess breaks in a sentence that is true of
it, one wording per way of breaking it; hints and reviews read as the README shows them."""

from __future__ import annotations

import discord
import pytest

from bot.engine.codes import CodeSpace
from bot.engine.errors import BreaksAClue
from bot.engine.hard import Broken, first_broken_clue
from bot.engine.job_types import Hint
from bot.engine.review import review, summarise
from bot.engine.scoring import score
from bot.modes.hints import board as hints_board
from bot.modes.play import board as play_board
from bot.modes.play.rules import new_play_game
from bot.modes.review.board import review_embed, summary_text
from bot.ui import clues, errors
from bot.ui.i18n import ENGLISH

SPACE = CodeSpace(4, 6)
CLUE = "guess 1 (🔴🔴🔵🟡 `RRBY` → {pegs})"


def refusal(earlier: str, answer: tuple[int, int], guess: str) -> tuple[Broken, str]:
    broken = first_broken_clue([(SPACE.parse(earlier), answer)], SPACE.parse(guess))
    assert broken is not None
    return broken.broken, errors.friendly(BreaksAClue(broken), ENGLISH)


@pytest.mark.parametrize(
    ("earlier", "answer", "guess", "kind", "sentence"),
    [
        ("RRBY", (1, 1), "GGGG", Broken.TOO_FEW_COLOURS, "rules out a code with none of R, B, Y."),
        ("RRRR", (1, 0), "GGGG", Broken.TOO_FEW_COLOURS, "rules out a code with no R."),
        (
            "RRBY",
            (2, 1),
            "RGGG",
            Broken.TOO_FEW_COLOURS,
            "says the secret has 3 of its colours; your guess has only 1.",
        ),
        ("RRBY", (0, 0), "BGGG", Broken.TOO_MANY_COLOURS, "rules out a code with any of R, B, Y."),
        ("RRRR", (0, 0), "RGGG", Broken.TOO_MANY_COLOURS, "rules out a code with any R."),
        (
            "RRBY",
            (1, 0),
            "RRGG",
            Broken.TOO_MANY_COLOURS,
            "says the secret has only 1 of its colours; your guess has 2.",
        ),
        (
            "RRBY",
            (0, 2),
            "RGGR",
            Broken.WRONG_PLACES,
            "says none of its pegs is in the right place; your guess has 1 of them in the "
            "same place.",
        ),
        (
            "RRBY",
            (1, 1),
            "RRGG",
            Broken.WRONG_PLACES,
            "says exactly 1 of its pegs is in the right place; your guess has 2 of them in the "
            "same place.",
        ),
    ],
)
def test_each_way_of_breaking_a_clue_has_its_sentence(
    earlier: str, answer: tuple[int, int], guess: str, kind: Broken, sentence: str
) -> None:
    broken, said = refusal(earlier, answer, guess)
    assert broken is kind
    first, rule = said.split("\n")
    clue = clues.clue_line(SPACE.parse(earlier), answer)
    assert first == f"🚫 Hard mode: guess 1 ({clue}) {sentence}"
    assert rule == "In hard mode every guess must fit every answer so far."


def test_the_sentence_is_true_of_the_guess() -> None:
    """What it counts is what scoring says: the secret's share of that guess's colours (its
    pegs), and the refused guess's."""
    earlier, secret = SPACE.parse("RRBY"), SPACE.parse("RBGN")
    answer = score(earlier, secret)  # (1, 1): two of RRBY's colours
    for index in range(SPACE.size):
        code = SPACE.code_at(index)
        broken = first_broken_clue([(earlier, answer)], code)
        if broken is None:
            continue
        said = clues.broken_clue(BreaksAClue(broken), ENGLISH)
        shared = sum(score(earlier, code))
        if broken.broken is Broken.TOO_FEW_COLOURS and shared:
            assert f"has 2 of its colours; your guess has only {shared}." in said
        elif broken.broken is Broken.TOO_MANY_COLOURS:
            assert f"has only 2 of its colours; your guess has {shared}." in said
        elif broken.broken is Broken.WRONG_PLACES:
            assert f"has {score(earlier, code)[0]} of them in the same place" in said


def test_hints_and_the_board_marks_read_as_shown() -> None:
    count = hints_board.hint_text(Hint(256), 1, 1, SPACE, False, t=ENGLISH)
    assert count == (
        "💡 **256** codes still fit every answer so far. Press Hint again for a code worth "
        "guessing.\n1 hint used in this game."
    )
    knuth = hints_board.hint_text(Hint(208, (0, 0, 2, 3), False), 2, 2, SPACE, False, t=ENGLISH)
    assert "Knuth's algorithm would guess 🔴🔴🔵🟡 `RRBY` next. It can't be the secret" in knuth
    hard = hints_board.hint_text(Hint(1, (0, 1, 2, 3), True), 2, 3, SPACE, True, t=ENGLISH)
    assert "**1** code still fits" in hard and "3 hints used" in hard
    game = new_play_game(guild_id=1, channel_id=2, starter_id=3, hard=True)
    fields = play_board.mark_board(discord.Embed(), game, t=ENGLISH).fields
    assert [f.name for f in fields] == ["Hard mode"]


def test_a_review_embed_has_a_field_per_guess_under_its_summary() -> None:
    secret = SPACE.parse("RGBY")
    history = [(g, score(g, secret)) for g in map(SPACE.parse, ["RRGG", "NNNN", "RGYB", "RGBY"])]
    rows = review(SPACE, history)
    embed = review_embed(7, SPACE, rows, summarise(rows), t=ENGLISH)
    assert embed.title == "Review of game 7" and len(embed.fields) == 4
    assert embed.fields[0].name == "Guess 1: 🔴🔴🟢🟢 RRGG → ⚫⚪"
    assert embed.fields[0].value.startswith("Codes possible: **1,296** → **")
    assert embed.description == summary_text(summarise(rows), t=ENGLISH)
    assert "Furthest behind: guess 2 could have left up to" in (embed.description or "")
    assert summary_text(summarise([]), t=ENGLISH).startswith("No guesses to review")
