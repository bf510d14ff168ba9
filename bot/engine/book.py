"""The opening book: the second guess of every large variant's openings, computed once, shipped.

The second move of a large variant is the exact search's costliest: the first guess leaves up to
200,000 codes (6 x 10 after 112234) and most guesses are still distinct. Each is within the
move budget on one core, but with little room under load; the second moves after the openings
the strategies play themselves are therefore searched once, by

    python -m bot.engine.book_build            # rewrites bot/engine/book.txt
    python -m bot.engine.book_build --check    # recomputes it and compares

and looked up afterwards. The book holds exactly what the exact search returns (a test
recomputes entries, the benchmark all of them), so a game, a sweep and a review play the same
guesses with or without it. The file has one line per position: the variant (pegs x colours,
`d` with repeated colours, `u` without), the rule, the opening, the answer (blacks, whites)
and the second guess:

    7x7d minimax 1122334 10 1444555
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

import numpy as np

from bot.engine.codes import MAX_COLOURS, MAX_PEGS, MIN_COLOURS, MIN_PEGS, Code, CodeSpace
from bot.engine.scoring import decode, encode
from bot.engine.search import MAX_CODES
from bot.engine.strategies import ENTROPY, EXPECTED_SIZE, MINIMAX, MOST_PARTS, STRATEGIES

BOOK_FROM = 100_000
"""Variants with more codes than this have their second moves in the book."""

PATH = Path(__file__).with_name("book.txt")

RULE_NAMES = {MINIMAX: "minimax", EXPECTED_SIZE: "expected-size", ENTROPY: "entropy"}
RULE_NAMES[MOST_PARTS] = "most-parts"
RULES = {name: rule for rule, name in RULE_NAMES.items()}

Key = tuple[int, int, bool, int, int]
"""pegs, colours, duplicates, rule, the opening's index."""


def variants() -> list[CodeSpace]:
    """Every variant the solver accepts with more than BOOK_FROM codes, smallest first."""
    spaces = [
        CodeSpace(pegs, colours, duplicates)
        for pegs in range(MIN_PEGS, MAX_PEGS + 1)
        for colours in range(MIN_COLOURS, MAX_COLOURS + 1)
        for duplicates in (True, False)
        if duplicates or colours >= pegs
    ]
    return sorted((s for s in spaces if BOOK_FROM < s.size <= MAX_CODES), key=lambda s: s.size)


def openings(space: CodeSpace) -> list[tuple[int, Code]]:
    """The (rule, first guess) pairs the strategies play on `space` by themselves: those with a
    rule and a fixed opening (a random opening cannot be looked up), each pair once."""
    pairs: list[tuple[int, Code]] = []
    for strategy in STRATEGIES.values():
        if strategy.rule is None:
            continue
        first = strategy.first_guess(space, np.random.default_rng(0))
        if first != strategy.first_guess(space, np.random.default_rng(1)):
            continue  # random opening
        if (strategy.rule, first) not in pairs:
            pairs.append((strategy.rule, first))
    return pairs


def variant_name(space: CodeSpace) -> str:
    return f"{space.pegs}x{space.colours}{'d' if space.duplicates else 'u'}"


def format_line(space: CodeSpace, rule: int, first: Code, answer: int, guess: int) -> str:
    black, white = decode(space.pegs, answer)
    opening = space.digits(first)
    return f"{variant_name(space)} {RULE_NAMES[rule]} {opening} {black}{white} " + space.digits(
        space.code_at(guess)
    )


def parse(text: str) -> dict[Key, dict[int, int]]:
    """The book's positions: per variant, rule and opening, the second guess by answer."""
    book: dict[Key, dict[int, int]] = {}
    spaces: dict[str, CodeSpace] = {}
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        variant, rule, opening, answer, guess = line.split()
        space = spaces.get(variant)
        if space is None:
            pegs, rest = variant.split("x")
            space = spaces[variant] = CodeSpace(int(pegs), int(rest[:-1]), rest[-1] == "d")
        black, white = int(answer[0]), int(answer[1])
        space.check_answer(black, white)
        key = (*space.key, RULES[rule], space.index_of(space.parse(opening)))
        book.setdefault(key, {})[encode(space.pegs, black, white)] = space.index_of(
            space.parse(guess)
        )
    return book


@cache
def load() -> dict[Key, dict[int, int]]:
    """The shipped book (empty if the file is missing)."""
    if not PATH.exists():
        return {}
    return parse(PATH.read_text(encoding="ascii"))


def second_guess(space: CodeSpace, rule: int, first: int, answer: int) -> int | None:
    """The book's second guess after `first` earned `answer`, or None if it has none."""
    if space.size <= BOOK_FROM:
        return None
    position = load().get((*space.key, rule, first))
    return None if position is None else position.get(answer)


def positions(book: dict[Key, dict[int, int]]) -> Iterator[tuple[Key, int, int]]:
    """Every (key, answer, guess) of a book."""
    for key, guesses in book.items():
        for answer, guess in guesses.items():
            yield key, answer, guess
