"""The code space of one Mastermind variant: codes as indices and tuples, parsing and formatting.

A code is a tuple of colour numbers, 0-based inside the engine (colour 0 is red). Players see
colours as 1-based digits, letters, names or emoji. Codes are ordered like numbers, so index 0 is
1111 and the last index is 6666 (for 4 pegs, 6 colours); without duplicates the order is the same,
skipping the codes that repeat a colour. Indices are computed arithmetically, so parsing and
formatting never enumerate the space; `all_codes()` does, lazily, for the solver.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache, cached_property
from typing import Any

import numpy as np

MIN_PEGS, MAX_PEGS = 2, 8
MIN_COLOURS, MAX_COLOURS = 2, 10

Code = tuple[int, ...]


@dataclass(frozen=True)
class Colour:
    """One peg colour: how players may write it and how the board draws it."""

    name: str
    letter: str
    emoji: str
    aliases: tuple[str, ...] = ()


# The seeds' colours, in the order a game uses them: a 6-colour game plays the first six.
# Letters are unique so a code like "RGBY" is unambiguous; emoji differ in hue *and* the legend
# always prints the letter beside them, so the board stays readable for colour-blind players.
COLOURS: tuple[Colour, ...] = (
    Colour("red", "R", "🔴"),
    Colour("green", "G", "🟢"),
    Colour("blue", "B", "🔵"),
    Colour("yellow", "Y", "🟡"),
    Colour("orange", "O", "🟠"),
    Colour("brown", "N", "🟤"),
    Colour("purple", "P", "🟣", aliases=("violet", "v")),
    Colour("pink", "K", "🩷"),
    Colour("teal", "T", "🩵", aliases=("cyan",)),
    Colour("olive", "L", "🫒"),
)

NAMES_BY_LANGUAGE: dict[str, tuple[tuple[str, ...], ...]] = {
    "pl": (
        ("czerwony",),
        ("zielony",),
        ("niebieski",),
        ("żółty",),
        ("pomarańczowy",),
        ("brązowy",),
        ("fioletowy",),
        ("różowy",),
        ("turkusowy",),
        ("oliwkowy",),
    ),
}
"""Colour names in other languages, in the order of COLOURS. Every language is accepted in
every game, and letters with diacritics may be left off (`zolty` is `żółty`)."""

_SEPARATORS = re.compile(r"[\s,;|/\-_.+]+")
_VARIATION_SELECTOR = "\ufe0f"
_UNKNOWN_WORD = re.compile(r"[^\W\d_]+|.")
_FOLD_ALSO = {"ł": "l", "đ": "d", "ø": "o"}  # letters NFD does not split


@cache
def _fold_char(char: str) -> str:
    """One lower-case letter without its diacritic (ż → z, ł → l); anything else unchanged."""
    if char in _FOLD_ALSO:
        return _FOLD_ALSO[char]
    base = unicodedata.normalize("NFD", char)[0]
    return base if base.isalpha() and base.isascii() else char


def fold(text: str) -> str:
    """Lower case without diacritics, one character for one, so positions still match."""
    return "".join(_fold_char(char) for char in text.lower())


def colour_counts(codes: np.ndarray, colours: int) -> np.ndarray:
    """How many pegs of each colour every row of `codes` has: shape (n, colours), uint8."""
    counts = np.zeros((codes.shape[0], colours), dtype=np.uint8)
    rows = np.arange(codes.shape[0])
    for p in range(codes.shape[1]):
        counts[rows, codes[:, p]] += 1  # one position at a time: no repeated (row, col)
    return counts


class CodeProblem(StrEnum):
    """Why a code or variant cannot be used: with `CodeError.details`, what a presentation
    layer needs to say it in the player's language (`bot.ui.code_errors`)."""

    PEGS_RANGE = "pegs-range"  # pegs
    COLOURS_RANGE = "colours-range"  # colours
    TOO_FEW_COLOURS = "too-few-colours"  # pegs, colours
    NO_SUCH_INDEX = "no-such-index"  # index, size
    LENGTH = "length"  # pegs, count, text (None for a code given as numbers), example
    COLOUR_NUMBER = "colour-number"  # colour
    REPEATS = "repeats"  # repeated (colour numbers)
    EMPTY = "empty"  # pegs, example
    TOO_LONG = "too-long"  # length, pegs, example
    NOT_IN_GAME = "not-in-game"  # colour, token, colours
    UNKNOWN_DIGIT = "unknown-digit"  # token, colours
    UNKNOWN_COLOUR = "unknown-colour"  # token, colours
    NEGATIVE_ANSWER = "negative-answer"
    TOO_MANY_PEGS = "too-many-pegs"  # black, white, pegs
    IMPOSSIBLE_ANSWER = "impossible-answer"  # black
    ALREADY_SOLVED = "already-solved"  # the solver was asked past an all-black answer


class CodeError(ValueError):
    """A code a player wrote cannot be used: `problem` says why and `details` hold its data,
    so the UI can say what to fix in the player's language. `str(error)` is both, for logs."""

    def __init__(self, problem: CodeProblem, **details: Any) -> None:
        super().__init__(f"{problem}: {details}" if details else str(problem))
        self.problem = problem
        self.details = details


def digit_for(colour: int) -> str:
    """Colour 0..8 is digit 1..9; the tenth colour is 0, as on a keypad."""
    return str((colour + 1) % 10)


EXCERPT_LENGTH = 24


def excerpt(text: str, length: int = EXCERPT_LENGTH) -> str:
    """Quote what a player wrote, cut short: an error must never echo a wall of text."""
    shown = text if len(text) <= length else text[: length - 1] + "…"
    return repr(shown)


class CodeSpace:
    """Every code of a variant: `pegs` positions, `colours` colours, repeats allowed or not."""

    def __init__(self, pegs: int, colours: int, duplicates: bool = True) -> None:
        if not MIN_PEGS <= pegs <= MAX_PEGS:
            raise CodeError(
                CodeProblem.PEGS_RANGE,
                pegs=pegs,
            )
        if not MIN_COLOURS <= colours <= MAX_COLOURS:
            raise CodeError(
                CodeProblem.COLOURS_RANGE,
                colours=colours,
            )
        if not duplicates and colours < pegs:
            raise CodeError(
                CodeProblem.TOO_FEW_COLOURS,
                pegs=pegs,
                colours=colours,
            )
        self.pegs = pegs
        self.colours = colours
        self.duplicates = duplicates
        self.size = colours**pegs if duplicates else math.perm(colours, pegs)
        self._tokens = _colour_words(colours)

    def __repr__(self) -> str:
        return f"CodeSpace(pegs={self.pegs}, colours={self.colours}, duplicates={self.duplicates})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CodeSpace) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def key(self) -> tuple[int, int, bool]:
        """A plain-data identity, safe to send to another process."""
        return (self.pegs, self.colours, self.duplicates)

    @property
    def palette(self) -> tuple[Colour, ...]:
        return COLOURS[: self.colours]

    # --- index <-> tuple -------------------------------------------------------------------

    def index_of(self, code: Code) -> int:
        """The code's rank in numeric order (its position in `all_codes()`)."""
        self.validate(code)
        if self.duplicates:
            index = 0
            for colour in code:
                index = index * self.colours + colour
            return index
        index, used = 0, set()
        for position, colour in enumerate(code):
            smaller_unused = sum(1 for c in range(colour) if c not in used)
            remaining = self.pegs - position - 1
            index += smaller_unused * math.perm(self.colours - position - 1, remaining)
            used.add(colour)
        return index

    def code_at(self, index: int) -> Code:
        """The code of rank `index`; inverse of `index_of`."""
        if not 0 <= index < self.size:
            raise CodeError(
                CodeProblem.NO_SUCH_INDEX,
                index=index,
                size=self.size,
            )
        if self.duplicates:
            digits = []
            for _ in range(self.pegs):
                index, colour = divmod(index, self.colours)
                digits.append(colour)
            return tuple(reversed(digits))
        unused = list(range(self.colours))
        code = []
        for position in range(self.pegs):
            block = math.perm(self.colours - position - 1, self.pegs - position - 1)
            slot, index = divmod(index, block)
            code.append(unused.pop(slot))
        return tuple(code)

    def validate(self, code: Code) -> Code:
        """Check length, colour range and repeats; return the code as a tuple."""
        code = tuple(int(c) for c in code)
        self._check_length(code, None)
        for colour in code:
            if not 0 <= colour < self.colours:
                raise CodeError(
                    CodeProblem.COLOUR_NUMBER,
                    colour=colour,
                )
        if not self.duplicates and len(set(code)) != len(code):
            raise self._repeats(code)
        return code

    def _check_length(self, code: Sequence[int], text: str | None) -> None:
        """Refuse a code with too few or too many pegs (`text`: what the player typed, if a
        player typed it), in the same words whether it was typed or picked."""
        if len(code) != self.pegs:
            raise CodeError(
                CodeProblem.LENGTH,
                pegs=self.pegs,
                count=len(code),
                text=text,
                example=self.example(),
            )

    # --- the whole space, for the solver ---------------------------------------------------

    @cached_property
    def codes(self) -> np.ndarray:
        """Every code as a row of colour numbers, in index order: shape (size, pegs), uint8."""
        if self.duplicates:
            # Column by column into one uint8 array: a million codes cost 6 MB of output and one
            # int64 index, not a stack of int64 columns (+100 MB at the peak for 6 x 10).
            out = np.empty((self.size, self.pegs), dtype=np.uint8)
            index = np.arange(self.size, dtype=np.int64)
            for p in range(self.pegs - 1, -1, -1):
                out[:, p] = index % self.colours
                index //= self.colours
            return out
        flat = itertools.chain.from_iterable(itertools.permutations(range(self.colours), self.pegs))
        array = np.fromiter(flat, dtype=np.uint8, count=self.size * self.pegs)
        return array.reshape(self.size, self.pegs)

    @cached_property
    def counts(self) -> np.ndarray:
        """How many pegs of each colour every code has: shape (size, colours), uint8."""
        return colour_counts(self.codes, self.colours)

    # --- parsing ---------------------------------------------------------------------------

    MAX_INPUT = 100
    """Longest text `parse` reads: the longest code (8 colour names) fits with room to spare."""

    def parse(self, text: str) -> Code:
        """Read a code written as digits, letters, colour names or emoji, separated or not."""
        text = (text or "").replace(_VARIATION_SELECTOR, "").strip()
        if not text:
            raise CodeError(
                CodeProblem.EMPTY,
                pegs=self.pegs,
                example=self.example(),
            )
        if len(text) > self.MAX_INPUT:
            raise CodeError(
                CodeProblem.TOO_LONG,
                length=len(text),
                pegs=self.pegs,
                example=self.example(),
            )
        code: list[int] = []
        for chunk in _SEPARATORS.split(text):
            if chunk:
                code.extend(self._read_chunk(chunk))
        self._check_length(code, text)
        if not self.duplicates and len(set(code)) != len(code):
            raise self._repeats(tuple(code))
        return tuple(code)

    def _read_chunk(self, chunk: str) -> list[int]:
        """Split one unseparated chunk greedily: the longest colour word first, then letters."""
        lowered = fold(chunk)
        colours, position = [], 0
        while position < len(lowered):
            match = self._longest_token_at(lowered, position)
            if match is None:
                raise self._unknown(chunk, position)
            token, colour = match
            if colour >= self.colours:
                shown = chunk[position : position + len(token)]
                raise CodeError(
                    CodeProblem.NOT_IN_GAME,
                    colour=colour,
                    token=shown,
                    colours=self.colours,
                )
            colours.append(colour)
            position += len(token)
        return colours

    def _longest_token_at(self, text: str, position: int) -> tuple[str, int] | None:
        for token, colour in self._tokens:
            if text.startswith(token, position):
                return token, colour
        return None

    def _unknown(self, chunk: str, position: int) -> CodeError:
        bad = _UNKNOWN_WORD.match(chunk[position:])
        token = bad.group(0) if bad else chunk[position:]
        if token.isdigit():
            return CodeError(
                CodeProblem.UNKNOWN_DIGIT,
                token=token,
                colours=self.colours,
            )
        return CodeError(
            CodeProblem.UNKNOWN_COLOUR,
            token=token,
            colours=self.colours,
        )

    def _repeats(self, code: Code) -> CodeError:
        repeated = sorted({c for c in code if code.count(c) > 1})
        return CodeError(
            CodeProblem.REPEATS,
            repeated=tuple(repeated),
        )

    # --- formatting ------------------------------------------------------------------------

    def digits(self, code: Code) -> str:
        return "".join(digit_for(c) for c in code)

    def letters(self, code: Code) -> str:
        return "".join(COLOURS[c].letter for c in code)

    def names(self, code: Code) -> str:
        return " ".join(COLOURS[c].name for c in code)

    def emoji(self, code: Code) -> str:
        return "".join(COLOURS[c].emoji for c in code)

    def digit_range(self) -> str:
        return f"{digit_for(0)}-{digit_for(self.colours - 1)}"

    def legend(self) -> str:
        """Each colour as emoji, letter and name: the board's colour-blind-safe key."""
        return ", ".join(f"{c.emoji} {c.letter} {c.name}" for c in self.palette)

    def example(self) -> str:
        """A valid code to show in help text, e.g. RGBY."""
        return "".join(COLOURS[p % self.colours].letter for p in range(self.pegs))

    # --- answers ---------------------------------------------------------------------------

    def answers(self) -> list[tuple[int, int]]:
        """Every (black, white) answer a secret can give, in reading order; (pegs-1, 1) never."""
        return [
            (black, white)
            for black in range(self.pegs + 1)
            for white in range(self.pegs + 1 - black)
            if not (black == self.pegs - 1 and white == 1)
        ]

    def check_answer(self, black: int, white: int) -> None:
        """Refuse answers no secret can produce."""
        if black < 0 or white < 0:
            raise CodeError(CodeProblem.NEGATIVE_ANSWER)
        if black + white > self.pegs:
            raise CodeError(
                CodeProblem.TOO_MANY_PEGS,
                black=black,
                white=white,
                pegs=self.pegs,
            )
        if black == self.pegs - 1 and white == 1:
            raise CodeError(
                CodeProblem.IMPOSSIBLE_ANSWER,
                black=black,
            )


@functools.lru_cache(maxsize=MAX_COLOURS + 1)
def _colour_words(colours: int) -> tuple[tuple[str, int], ...]:
    """Every word that names a colour, longest first so 'red' wins over the letter 'r'. The
    same for every space with this many colours, and a game's space is built each time it is
    read from the store: made once."""
    tokens: dict[str, int] = {}
    for number, colour in enumerate(COLOURS):
        local = (names[number] for names in NAMES_BY_LANGUAGE.values())
        for word in (colour.name, *colour.aliases, *itertools.chain(*local)):
            tokens.setdefault(fold(word), number)
        tokens.setdefault(colour.letter.lower(), number)
        tokens[colour.emoji.replace(_VARIATION_SELECTOR, "")] = number
    for number in range(min(colours, MAX_COLOURS)):
        tokens[digit_for(number)] = number
    return tuple(sorted(tokens.items(), key=lambda item: -len(item[0])))
