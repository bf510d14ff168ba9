"""How to pick the next guess: the published strategies, as data the search can run.

Every strategy turns the answer classes of a guess (how many candidates give each answer) into
one number where *lower is better*; the search then prefers, among equally good guesses, one that
is still a candidate and then the lowest code, as Knuth did. The search runs these rules in
compiled loops (`kernels`), by their number (`Strategy.rule`); the NumPy functions here are the
plain reference the tests hold the loops to. Random strategies pick among the candidates with a
generator seeded by the game's own history, so a replay (or a restart of the bot) makes the same
choice. `optimal` plays a precomputed decision tree (`optimal`) where it has one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from bot.engine.codes import Code, CodeSpace

MINIMAX, EXPECTED_SIZE, ENTROPY, MOST_PARTS = 0, 1, 2, 3
"""The rules' numbers in the compiled search."""

ENTROPY_SCALE = 2.0**32
"""Entropy terms c*log2(c) are fixed-point integers, so class-size multisets in a different
order tie exactly (a float sum depends on the order)."""


def minimax(counts: np.ndarray) -> np.ndarray:
    """Knuth: the size of the largest class, the worst case."""
    return np.asarray(counts.max(axis=1))


def expected_size(counts: np.ndarray) -> np.ndarray:
    """Irving: sum of squared class sizes, proportional to the expected class size."""
    counts = counts.astype(np.int64)
    return np.asarray((counts * counts).sum(axis=1))


def entropy(counts: np.ndarray) -> np.ndarray:
    """Neuwirth: maximising entropy is minimising sum(c log c) for a fixed total."""
    c = counts.astype(np.float64)
    terms = c * np.log2(np.maximum(c, 1))
    return np.asarray(np.round(terms * ENTROPY_SCALE).astype(np.int64).sum(axis=1))


def most_parts(counts: np.ndarray) -> np.ndarray:
    """Kooi: as many non-empty classes as possible."""
    return np.asarray(-(counts > 0).sum(axis=1))


def _pattern_first(slots: Callable[[int], int]) -> Callable[[CodeSpace, np.random.Generator], Code]:
    """A first guess built from a colour pattern such as 1122; distinct colours if required."""

    def first(space: CodeSpace, rng: np.random.Generator) -> Code:
        if not space.duplicates:
            return tuple(range(space.pegs))
        return tuple(slots(p) % space.colours for p in range(space.pegs))

    return first


def _random_first(space: CodeSpace, rng: np.random.Generator) -> Code:
    return space.code_at(int(rng.integers(space.size)))


def _two_colour_first(space: CodeSpace, rng: np.random.Generator) -> Code:
    """Seed 000: two positions of one random colour, the rest of another (brown brown orange
    orange). Without repeated colours no such code exists, so any random code is used."""
    if not space.duplicates:
        return _random_first(space, rng)
    first, second = (int(c) for c in rng.choice(space.colours, size=2, replace=False))
    half = space.pegs // 2
    return (first,) * half + (second,) * (space.pegs - half)


@dataclass(frozen=True)
class Strategy:
    """A named rule for the next guess."""

    name: str
    title: str
    description: str
    first_guess: Callable[[CodeSpace, np.random.Generator], Code]
    score: Callable[[np.ndarray], np.ndarray] | None
    """Lower is better (the NumPy reference of `rule`); None means: a random candidate."""
    rule: int | None
    """The rule's number in the compiled search (MINIMAX ...); None: a random candidate."""
    tree: bool = False
    """Play the shipped optimal decision tree where one exists (`optimal`), else `rule`."""

    @property
    def is_random(self) -> bool:
        return self.rule is None


STRATEGIES: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy(
            "knuth",
            "Knuth minimax",
            "Minimise the worst case: the largest group of codes an answer could leave. "
            "Opens 1122; never needs more than 5 guesses on 4 pegs x 6 colours.",
            _pattern_first(lambda p: p // 2),
            minimax,
            MINIMAX,
        ),
        Strategy(
            "expected-size",
            "Irving expected size",
            "Minimise the expected number of codes left after the answer. Opens 1123.",
            _pattern_first(lambda p: max(0, p - 1)),
            expected_size,
            EXPECTED_SIZE,
        ),
        Strategy(
            "entropy",
            "Neuwirth entropy",
            "Maximise the information the answer gives (its entropy). Opens 1234.",
            _pattern_first(lambda p: p),
            entropy,
            ENTROPY,
        ),
        Strategy(
            "most-parts",
            "Kooi most parts",
            "Maximise the number of different answers the guess can get. Opens 1123.",
            _pattern_first(lambda p: max(0, p - 1)),
            most_parts,
            MOST_PARTS,
        ),
        Strategy(
            "random-consistent",
            "Random consistent",
            "Guess a random code that is still possible. Quick, and a fair human-like baseline.",
            _random_first,
            None,
            None,
        ),
        Strategy(
            "two-colour-random",
            "Two-colour minimax",
            "Open with two random colours (like brown brown orange orange), then Knuth minimax.",
            _two_colour_first,
            minimax,
            MINIMAX,
        ),
        Strategy(
            "optimal",
            "Optimal average",
            "Koyama and Lai's best average: 5625 guesses for all 1296 secrets of 4 pegs x 6 "
            "colours (worst case 6), from a decision tree this bot computed. Other variants have "
            "no proven tree yet: there it plays most-parts (Kooi) instead.",
            _pattern_first(lambda p: max(0, p - 1)),
            most_parts,
            MOST_PARTS,
            tree=True,
        ),
    )
}

DEFAULT_STRATEGY = "knuth"


def get_strategy(name: str) -> Strategy:
    """Look a strategy up by name, with an error listing the valid names."""
    try:
        return STRATEGIES[name]
    except KeyError:
        names = ", ".join(STRATEGIES)
        raise ValueError(f"Unknown strategy {name!r}; choose one of {names}.") from None
