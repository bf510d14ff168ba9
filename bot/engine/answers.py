"""Which answers a guess can get at all, so the board never offers one that cannot happen.

The set depends on the guess: 1122 can never earn exactly one black (its colours pair up), and
without repeated colours 4 pegs of 4 colours always earn 4 pegs in all. Scoring the guess
against every code would cost 0.15 s for a million codes; instead a dynamic programme walks the
positions once, tracking black pegs and how much of each guess colour the secret has used
(capped at the guess's count, since more adds nothing), plus how many positions took a colour the
guess lacks. A few hundred states at most, so it runs in well under a millisecond.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from bot.engine.codes import Code, CodeSpace

Answer = tuple[int, int]


def possible_answers(space: CodeSpace, guess: Code) -> tuple[Answer, ...]:
    """Every (black, white) some code of `space` earns against `guess`, in reading order."""
    return _answers(space.pegs, space.colours, space.duplicates, tuple(guess))


@lru_cache(maxsize=4096)
def _answers(pegs: int, colours: int, duplicates: bool, guess: Code) -> tuple[Answer, ...]:
    counts = Counter(guess)
    present = sorted(counts)
    index = {colour: n for n, colour in enumerate(present)}
    caps = [counts[c] for c in present]
    absent = colours - len(present)  # colours the guess does not use
    # state: (black, used count per guess colour capped at its cap, positions of absent colours)
    states = {(0, (0,) * len(present), 0)}
    for position in range(pegs):
        target = index[guess[position]]
        following: set[tuple[int, tuple[int, ...], int]] = set()
        for black, used, others in states:
            for n in range(len(present)):
                if not duplicates and used[n]:
                    continue
                bumped = list(used)
                bumped[n] = min(caps[n], used[n] + 1)
                following.add((black + (n == target), tuple(bumped), others))
            if absent > (0 if duplicates else others):
                following.add((black, used, others + (0 if duplicates else 1)))
        states = following
    found = {(black, sum(used) - black) for black, used, _ in states}
    return tuple(sorted(found))
