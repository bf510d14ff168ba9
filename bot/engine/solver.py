"""A code-breaker: from the (guess, answer) history to the candidates and the next guess.

Everything here is plain data in and out, so the bot can run `next_move` in a worker process:
the history is a list of (guess, (black, white)) with guesses as tuples of 0-based colours.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from bot.engine import book
from bot.engine.codes import Code, CodeError, CodeProblem, CodeSpace
from bot.engine.optimal import tree_for
from bot.engine.scoring import decode, encode, score
from bot.engine.search import (
    SearchContext,
    SearchLimits,
    check_size,
    colour_mask,
    expected_bytes,
    symmetries,
)
from bot.engine.strategies import DEFAULT_STRATEGY, get_strategy

Answer = tuple[int, int]
History = Sequence[tuple[Code, Answer]]


class Contradiction(ValueError):
    """No code is consistent with every answer. `index` is the answer (0-based) that first
    left no code, so the player can be offered to undo it."""

    def __init__(self, index: int, guess: str, answer: Answer) -> None:
        self.index = index
        self.answer = answer
        black, white = answer
        super().__init__(
            f"no code left after answer {index + 1} ({black} black, {white} white to {guess}); "
            "undo it"
        )


@dataclass(frozen=True)
class Move:
    """The solver's next guess and how many codes were still possible before it."""

    guess: Code
    remaining: int
    exact: bool = True
    """Whether the strategy's exact search (or its book or tree) chose the guess. False where
    that search would overrun the move budget and the approximate search chose instead, so
    the board can say "approximate" (see `budget`)."""


CONTEXT_CACHE_BYTES = 64 << 20
"""Scoring tables kept per worker process. One 6 pegs x 10 colours context holds 55 MiB (its
25 MB hits table and the entropy terms of a million codes included), a 7 x 7 one 27 MiB, a 4 x 6
one 2 MiB: the bound keeps about one huge variant and many small ones alive (a worker also holds
about 100 MB of numba and its compiled code)."""


class ContextCache:
    """Search contexts (scoring tables, symmetry caches) by variant, bounded by their bytes.

    A worker lives for many games. Keeping every variant it met would keep hundreds of MB of
    tables alive once players cycle through large variants, so the least recently used
    contexts are dropped: room is made before a new one is built (from its expected size) and
    again whenever one is used (contexts grow as their tables are built). The context in use
    always stays, however large.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._contexts: OrderedDict[tuple[int, int, bool], SearchContext] = OrderedDict()

    def get(self, pegs: int, colours: int, duplicates: bool) -> SearchContext:
        key = (pegs, colours, duplicates)
        context = self._contexts.pop(key, None)
        if context is None:
            space = CodeSpace(pegs, colours, duplicates)
            check_size(space)  # refuse before dropping anything
            self._make_room(expected_bytes(space))
            context = SearchContext(space)
        self._contexts[key] = context
        self._make_room(0)
        return context

    def holds(self, context: SearchContext) -> bool:
        """Whether `context` is still the cached one for its variant."""
        return self._contexts.get(context.space.key) is context

    @property
    def nbytes(self) -> int:
        return sum(context.nbytes for context in self._contexts.values())

    def clear(self) -> None:
        self._contexts.clear()

    def _make_room(self, needed: int) -> None:
        """Drop the oldest contexts until `needed` more bytes fit (the newest one stays)."""
        sizes = {key: context.nbytes for key, context in self._contexts.items()}
        held = sum(sizes.values())
        keep = 0 if needed else 1
        while self._contexts and len(self._contexts) > keep and held + needed > self.max_bytes:
            key, _ = self._contexts.popitem(last=False)
            held -= sizes[key]


contexts = ContextCache(CONTEXT_CACHE_BYTES)
"""This process's contexts: every Solver of a variant shares one."""


def context_for(pegs: int, colours: int, duplicates: bool) -> SearchContext:
    """The SearchContext of a variant in this process (see `ContextCache`)."""
    return contexts.get(pegs, colours, duplicates)


def history_seed(seed: int, history: History) -> np.random.Generator:
    """A generator determined by the seed and the history, so random choices replay exactly."""
    words = [seed & 0xFFFFFFFF]
    for guess, (black, white) in history:
        words.extend(guess)
        words.extend((black, white))
    return np.random.default_rng(words)


IndexHistory = tuple[tuple[int, int], ...]
"""A history as (guess index, answer number) pairs: how the search and the tree walker see it."""


class Solver:
    """Breaks a secret of one variant with one strategy."""

    def __init__(
        self,
        space: CodeSpace,
        strategy: str = DEFAULT_STRATEGY,
        first_guess: Code | None = None,
        seed: int = 0,
        limits: SearchLimits | None = None,
    ) -> None:
        self.strategy = get_strategy(strategy)
        self.context = context_for(*space.key)
        self.space = self.context.space  # equal to `space`; its code arrays are built only once
        self.seed = seed
        self.limits = limits
        self._first = space.validate(first_guess) if first_guess is not None else None
        self.tree = tree_for(self.space) if self.strategy.tree else None
        if self.tree is not None and self._first not in (None, self.tree.first_guess):
            self.tree = None  # another opening leaves the tree at once

    @property
    def note(self) -> str | None:
        """Why the strategy plays differently here than its name says, if it does."""
        if self.strategy.tree and self.tree is None:
            return (
                f"{self.strategy.name}: no optimal tree for {self.space.pegs} pegs x "
                f"{self.space.colours} colours{'' if self.space.duplicates else ' (no repeats)'}"
                f"{' with this opening' if tree_for(self.space) else ''}; "
                f"played by its fallback rule (most-parts)"
            )
        return None

    def first_guess(self) -> Code:
        if self._first is not None:
            return self._first
        if self.tree is not None:
            return self.tree.first_guess
        return self.strategy.first_guess(self.space, history_seed(self.seed, ()))

    def candidates(self, history: History) -> np.ndarray:
        """Indices of the codes consistent with every answer; raises Contradiction if none."""
        candidates = np.arange(self.space.size)
        for index, (guess, (black, white)) in enumerate(history):
            self.space.check_answer(black, white)
            guess = self.space.validate(guess)
            feedback = self.context.scorer.against(self.space.index_of(guess), candidates)
            candidates = candidates[feedback == encode(self.space.pegs, black, white)]
            if len(candidates) == 0:
                raise Contradiction(index, self.space.digits(guess), (black, white))
        return candidates

    def choose(self, candidates: np.ndarray, history: IndexHistory, used: int) -> int:
        """The index of the next guess after a non-empty `history`, given its candidates
        (sorted) and the colours its guesses used."""
        return self.decide(candidates, history, used)[0]

    def decide(self, candidates: np.ndarray, history: IndexHistory, used: int) -> tuple[int, bool]:
        """`choose`'s guess, and whether it is the strategy's exact choice (False: the exact
        search would overrun the move budget, so the approximate one chose; see `budget`)."""
        if self.tree is not None:
            guess = self.tree.guess_at(history)
            if guess is not None:
                return guess, True
        rule = self.strategy.rule
        if len(history) == 1 and rule is not None:
            guess = book.second_guess(self.space, rule, *history[0])
            if guess is not None:
                return guess, True
        symmetry = symmetries(self.space, [self.space.codes[g] for g, _ in history])
        exact = rule is None or self.context.exact_fits(
            rule, candidates, used, symmetry, self.limits
        )
        rng = None
        if self.strategy.is_random or not exact:
            pegs = self.space.pegs
            plain = [(self.space.code_at(g), decode(pegs, a)) for g, a in history]
            rng = history_seed(self.seed, plain)
        guess = self.context.best_guess(
            self.strategy, candidates, used, rng, self.limits, symmetry, exact
        )
        return guess, exact

    def next_move(self, history: History) -> Move:
        """The next guess after `history` (which must not already hold the winning answer)."""
        if any(black == self.space.pegs for _, (black, _w) in history):
            raise CodeError(CodeProblem.ALREADY_SOLVED)
        candidates = self.candidates(history)
        if not history:
            return Move(self.first_guess(), len(candidates))
        pegs = self.space.pegs
        indexed = tuple(
            (self.space.index_of(tuple(guess)), encode(pegs, black, white))
            for guess, (black, white) in history
        )
        used = colour_mask(guess for guess, _ in history)
        index, exact = self.decide(candidates, indexed, used)
        return Move(self.space.code_at(index), len(candidates), exact)


def solve_secret(solver: Solver, secret: Code, max_guesses: int = 50) -> list[Code]:
    """Play a whole game against a known secret; the guesses made, the last one winning."""
    history: list[tuple[Code, Answer]] = []
    while len(history) < max_guesses:
        guess = solver.next_move(history).guess
        answer = score(guess, secret)
        history.append((guess, answer))
        if answer[0] == solver.space.pegs:
            return [g for g, _ in history]
    raise RuntimeError(f"no solution within {max_guesses} guesses")
