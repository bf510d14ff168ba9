"""Knuth's five-guess algorithm in plain Python, written the way the seed documents describe it.

This is the yardstick for `benchmarks/solver.py`, not engine code: lists of code tuples, a score
function with loops and a Counter, and for every guess among all codes a loop over the candidate
list that counts the answer classes. The guess with the smallest largest class wins; ties go to
a candidate, then to the lowest code (Knuth's convention). Each secret is a separate game, as the
seeds play them (MastermindAll), so nothing is shared between games. Nothing is vectorised,
memoised or pruned on purpose: the ratio against the engine is only meaningful if this is the
straightforward program a reader of the seeds would write.
"""

from __future__ import annotations

import itertools
from collections import Counter

Code = tuple[int, ...]
Answer = tuple[int, int]


def all_codes(pegs: int, colours: int) -> list[Code]:
    """Every code in numeric order (1111, 1112, ... 6666 for 4 pegs x 6 colours), 0-based."""
    return list(itertools.product(range(colours), repeat=pegs))


def score(guess: Code, secret: Code) -> Answer:
    """(black, white): blacks position by position, whites from the common colour counts."""
    black = 0
    for g, s in zip(guess, secret, strict=True):
        if g == s:
            black += 1
    common = Counter(guess) & Counter(secret)
    return black, sum(common.values()) - black


def next_guess(candidates: list[Code], codes: list[Code]) -> Code:
    """Minimax over every code: the smallest worst-case class, a candidate, then the lowest."""
    if len(candidates) == 1:
        return candidates[0]
    possible = set(candidates)
    best_worst = len(candidates) + 1
    best: Code | None = None
    best_is_candidate = False
    for guess in codes:  # numeric order, so the first of equals is the lowest
        classes: Counter[Answer] = Counter()
        for secret in candidates:
            classes[score(guess, secret)] += 1
        worst = max(classes.values())
        is_candidate = guess in possible
        if worst < best_worst or (worst == best_worst and is_candidate and not best_is_candidate):
            best_worst, best, best_is_candidate = worst, guess, is_candidate
    assert best is not None
    return best


def play(secret: Code, codes: list[Code], first: Code) -> list[Code]:
    """One game against a known secret; the guesses made, the last one winning."""
    pegs = len(secret)
    candidates = list(codes)
    guess = first
    guesses = []
    while True:
        guesses.append(guess)
        answer = score(guess, secret)
        if answer[0] == pegs:
            return guesses
        candidates = [code for code in candidates if score(guess, code) == answer]
        guess = next_guess(candidates, codes)


def distribution(pegs: int, colours: int, first: Code) -> Counter[int]:
    """Guess counts over every secret, one game each: MastermindAll in plain Python."""
    codes = all_codes(pegs, colours)
    return Counter(len(play(secret, codes, first)) for secret in codes)
