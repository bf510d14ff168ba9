"""The search's inner loops, compiled with numba: scoring, symmetry pools, the guess scan, sweeps.

Why compiled: the average searched node holds about 20 candidates, where NumPy's per-call
overhead costs more than the arithmetic. These loops fuse scoring, the answer histogram and the
strategy's score in one pass per guess, and drop a guess as soon as it cannot win.

Only the search imports this module, lazily, so the bot's main process never loads numba. Every
function is compiled once per machine and cached on disk (`cache=True`, in `__pycache__`); a
worker loads them while it warms up. All functions release the GIL, so threads can run sweeps
of different subtrees on different cores.

A code space's arrays travel as one tuple, `tables` (see `Scorer.tables`): `codes` (N x
pegs, uint8), `counts` (N x colours, uint8), `cmask` (each code's colours as a bit mask), `ms`
(each code's colour-multiset number), `hits` (multiset x multiset shared colours; 1 x 1 when
there are too many multisets, then hits are counted colour by colour) and `table`
(the whole N x N answer table for small spaces, else 1 x 1). The answer number is
`black * pegs + hits`, the same as `scoring.encode`. A guess's answers against a node's candidates
come from the table (a row gather) when there is one; otherwise from a scalar loop for a few
candidates, or, for many, as a sum of precomputed rows (`answer_rows`): vector adds only. Guesses
that are not candidates are scored while they are enumerated (`scan_canonical`), each sharing
the part of its answers that its first pegs make with the guess before it; and a guess's
colours alone bound its score (its hits against every candidate depend only on them, the
blacks can split each hit class only so far), so colours that cannot beat the best guess so
far are never enumerated (the multiset cut: `multisets`, `viable_multisets`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np

from bot.engine.strategies import ENTROPY, EXPECTED_SIZE, MINIMAX

F = TypeVar("F", bound=Callable[..., Any])

Tables = tuple[np.ndarray, ...]
"""codes, counts, cmask, ms, hits, table: see the module's docstring."""

Sets = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""add, start, full_ms, full_counts: the colour multisets of `multisets`."""

CHUNK = 64
"""Answers are computed this many at a time, so a guess that cannot win stops soon."""

SEEDS = 32
"""At a node with many candidates, this many spread-out candidates are scored first: the best
of them is a bound that drops most guesses early (the result is the same)."""

ORBITS_FROM = 64
"""Guesses are checked against the symmetries (`lowest_in_orbit`) only at positions with this
many candidates: passes go in increasing order and only a strictly better score wins, so a
guess that is not the lowest of its orbit can never win anyway (its lowest twin came first,
with the same score). The check only saves scoring, which is cheap for few candidates."""

PERMS = 1024
"""At most this many symmetries are kept per position of a sweep (any subset of them is
correct; they only shrink the pool)."""

SMALL = 24
"""Below this many candidates (and without a full table), answers are computed one by one;
from it on, as sums of rows (vectorised)."""

NO_SCORE = np.iinfo(np.int64).max


def jit(function: F) -> F:
    """numba's njit, cached on disk, without the GIL; typed as the plain function."""
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def step(function: F) -> F:
    """A small kernel inlined into its callers' loops (numba's IR inlining), so sharing it
    costs no call in the hot enumerations."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))


@step
def answer(tables: Tables, guess: int, target: int) -> int:
    """The answer number of one guess against one code (inlined: a call passes the six
    tables, which costs more than the answer)."""
    codes, counts, ms, hits = tables[0], tables[1], tables[3], tables[4]
    pegs = codes.shape[1]
    if hits.shape[0] > 1:
        value = int(hits[ms[guess], ms[target]])
    else:  # too many multisets for a table (see `Scorer.tables`)
        value = 0
        for c in range(counts.shape[1]):
            value += min(counts[target, c], counts[guess, c])
    for p in range(pegs):
        if codes[target, p] == codes[guess, p]:
            value += pegs
    return value


@jit
def feedback(tables: Tables, guess: int, targets: np.ndarray, out: np.ndarray) -> None:
    """out[j] = the answer number of `guess` against code `targets[j]`: `answer` with the
    guess's row of the hits table and its pegs taken once, not once per target (a call per
    target cost 70 ns of a 7 x 7 filter's 80 ns)."""
    codes, ms, hits = tables[0], tables[3], tables[4]
    if hits.shape[0] <= 1:  # no hits table (see `Scorer.tables`)
        for j in range(targets.size):
            out[j] = answer(tables, guess, targets[j])
        return
    pegs = codes.shape[1]
    row = hits[ms[guess]]
    mine = codes[guess]
    for j in range(targets.size):
        t = targets[j]
        value = row[ms[t]]
        for p in range(pegs):
            if codes[t, p] == mine[p]:
                value += pegs
        out[j] = value


@jit
def full_table(tables: Tables) -> np.ndarray:
    """Every answer number, N x N (small spaces only)."""
    size = tables[0].shape[0]
    out = np.empty((size, size), np.uint8)
    every = np.arange(size)
    for guess in range(size):
        feedback(tables, guess, every, out[guess])
    return out


@jit
def answer_rows(tables: Tables, targets: np.ndarray) -> np.ndarray:
    """What each guess colour adds to the targets' answers, so a guess's answers are a sum of
    rows: row p * colours + c holds `pegs` where a target has colour c at position p (blacks);
    row (pegs + k - 1) * colours + c holds min(k, the target's count of c) (hits of a guess
    with k pegs of colour c)."""
    codes, counts = tables[0], tables[1]
    n = targets.size
    pegs, colours = codes.shape[1], counts.shape[1]
    rows = np.zeros((2 * pegs * colours, n), np.uint8)
    for j in range(n):
        t = targets[j]
        for p in range(pegs):
            rows[p * colours + codes[t, p], j] = pegs
        for c in range(colours):
            for k in range(1, pegs + 1):
                rows[(pegs + k - 1) * colours + c, j] = min(k, counts[t, c])
    return rows


@jit
def answers_by_rows(
    tables: Tables, guess: int, rows: np.ndarray, start: int, end: int, out: np.ndarray
) -> None:
    """out[start:end] = `guess`'s answers against those targets of `rows` (`answer_rows`)."""
    codes, counts = tables[0], tables[1]
    pegs, colours = codes.shape[1], counts.shape[1]
    part = out[start:end]
    first = rows[codes[guess, 0], start:end]
    for j in range(end - start):
        part[j] = first[j]
    for p in range(1, pegs):
        row = rows[p * colours + codes[guess, p], start:end]
        for j in range(end - start):
            part[j] += row[j]
    for c in range(colours):
        k = counts[guess, c]
        if k:
            row = rows[(pegs + k - 1) * colours + c, start:end]
            for j in range(end - start):
                part[j] += row[j]


@jit
def tally(
    answers: np.ndarray,
    start: int,
    end: int,
    n: int,
    rule: int,
    plogp: np.ndarray,
    limit: int,
    hist: np.ndarray,
    score: int,
) -> tuple[int, int, bool]:
    """Count answers[start:end] into `hist`, updating the rule's score (lower is better) of
    all n answers. Returns (score, where it stopped, whether it gave up): it gives up early,
    with a score >= limit, once the score of the n answers cannot end below `limit`."""
    if rule == MINIMAX:
        for j in range(start, end):
            h = hist[answers[j]] + 1
            hist[answers[j]] = h
            if h > score:
                score = h
                if score >= limit:
                    return score, j + 1, True
    elif rule == EXPECTED_SIZE:
        for j in range(start, end):
            h = hist[answers[j]] + 1
            hist[answers[j]] = h
            score += 2 * h - 1
        if score >= limit:
            return score, end, True
    elif rule == ENTROPY:
        for j in range(start, end):
            h = hist[answers[j]] + 1
            hist[answers[j]] = h
            score += plogp[h] - plogp[h - 1]
        if score >= limit:
            return score, end, True
    else:
        for j in range(start, end):
            h = hist[answers[j]] + 1
            hist[answers[j]] = h
            if h == 1:
                score -= 1
        if score - (n - end) >= limit:
            return score - (n - end), end, True
    return score, end, False


@jit
def scan(
    tables: Tables,
    rule: int,
    plogp: np.ndarray,
    pool: np.ndarray,
    mark: np.ndarray,
    targets: np.ndarray,
    best: int,
    best_guess: int,
    best_mark: int,
    stop_at: int,
) -> tuple[int, int]:
    """Score every guess of `pool` against `targets`; return the (score, guess) that wins by
    the strategy's rule and Knuth's tie-break: the lowest score, then a candidate (`mark`),
    then the lowest code. Starts from (`best`, `best_guess`, whether it is a candidate), so a
    pool can come in chunks (best_guess -1 with best_mark 1: only a score below `best` wins);
    stops as soon as the best score is <= `stop_at` (no later guess can beat it)."""
    table = tables[5]
    n = targets.size
    with_table = table.shape[0] == tables[0].shape[0]
    by_rows = not with_table and n >= SMALL
    rows = answer_rows(tables, targets) if by_rows else np.zeros((1, 1), np.uint8)
    hist = np.zeros(256, np.int64)
    answers = np.empty(n, np.uint8)
    for i in range(pool.size):
        if best <= stop_at:
            break
        g = pool[i]
        tie_wins = (mark[g] > best_mark) or (mark[g] == best_mark and g < best_guess)
        limit = best + 1 if tie_wins and best < NO_SCORE else best
        score = 0
        done = 0
        while done < n:
            end = min(n, done + CHUNK)
            if with_table:
                row = table[g]
                for j in range(done, end):
                    answers[j] = row[targets[j]]
            elif by_rows:
                answers_by_rows(tables, g, rows, done, end, answers)
            else:
                for j in range(done, end):
                    answers[j] = answer(tables, g, targets[j])
            score, done, gave_up = tally(answers, done, end, n, rule, plogp, limit, hist, score)
            if gave_up:
                break
        for j in range(done):
            hist[answers[j]] = 0
        if score < limit:
            best = score
            best_guess = g
            best_mark = mark[g]
    return best, best_guess


@jit
def colour_kinds(colours: int, used: int, absent: int) -> tuple[np.ndarray, np.ndarray]:
    """Per colour: 0 fixed, 1 free (unused so far), 2 absent (in no candidate); and its rank
    among the colours of its kind."""
    kind = np.zeros(colours, np.int64)
    rank = np.zeros(colours, np.int64)
    free = 0
    gone = 0
    for c in range(colours):
        if absent >> c & 1:
            kind[c] = 2
            rank[c] = gone
            gone += 1
        elif not used >> c & 1:
            kind[c] = 1
            rank[c] = free
            free += 1
    return kind, rank


@step
def admit(
    kind: np.ndarray, rank: np.ndarray, duplicates: bool, c: int, free: int, gone: int
) -> tuple[bool, int, int]:
    """The canonical rule for one more peg of colour `c`, after pegs that introduced `free`
    free and `gone` absent colours: whether a canonical guess may have it, and the counts
    after it (see `canonical_pool`)."""
    if kind[c] == 1:
        if rank[c] > free:
            return False, free, gone
        if rank[c] == free:
            free += 1
    elif kind[c] == 2:
        if duplicates:
            if rank[c] != 0:
                return False, free, gone
        else:
            if rank[c] != gone:
                return False, free, gone
            gone += 1
    return True, free, gone


@step
def digit_of(duplicates: bool, taken: int, c: int) -> int:
    """Colour `c`'s digit in a code's index: itself, or without repeats its rank among the
    colours the earlier pegs (`taken`, a bit mask) left."""
    if duplicates:
        return c
    digit = 0
    for smaller in range(c):
        if not taken >> smaller & 1:
            digit += 1
    return digit


@step
def index_weights(pegs: int, colours: int, duplicates: bool) -> np.ndarray:
    """How much each position's digit weighs in a code's index."""
    weight = np.ones(pegs, np.int64)
    for p in range(pegs - 2, -1, -1):
        weight[p] = weight[p + 1] * (colours if duplicates else colours - p - 1)
    return weight


@jit
def is_canonical(
    codes: np.ndarray, duplicates: bool, kind: np.ndarray, rank: np.ndarray, guess: int
) -> bool:
    """Whether `guess` is the lowest of its class (the rules of `canonical_pool`)."""
    free = 0
    gone = 0
    for p in range(codes.shape[1]):
        ok, free, gone = admit(kind, rank, duplicates, codes[guess, p], free, gone)
        if not ok:
            return False
    return True


@jit
def colours_by_rank(kind: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """Free colours by rank, then absent colours by rank (see `colour_kinds`)."""
    colours = kind.size
    by_rank = np.empty(2 * colours, np.int64)
    for c in range(colours):
        if kind[c] == 1:
            by_rank[rank[c]] = c
        elif kind[c] == 2:
            by_rank[colours + rank[c]] = c
    return by_rank


@jit
def lowest_in_orbit(
    codes: np.ndarray,
    duplicates: bool,
    kind: np.ndarray,
    by_rank: np.ndarray,
    perms: np.ndarray,
    mapped: np.ndarray,
    guess: int,
) -> bool:
    """Whether no symmetry of `perms` gives a lower code than `guess` (itself canonical). A
    symmetry is a row: a permutation of the positions (`pegs` entries), then a permutation of
    the colours (`colours` entries); each maps every guess so far onto itself, so it maps the
    candidates onto themselves. Its image of `guess` is reduced like `is_canonical` (free and
    absent colours) before the comparison. The first row is the identity; `mapped` is scratch
    space, one entry per colour."""
    pegs, colours = codes.shape[1], kind.size
    for i in range(1, perms.shape[0]):
        mapped[:] = -1
        free = 0
        gone = 0
        for p in range(pegs):
            c = perms[i, pegs + codes[guess, perms[i, p]]]
            if kind[c] == 0:
                m = c
            elif kind[c] == 2 and duplicates:
                m = by_rank[colours]
            else:
                if mapped[c] < 0:
                    if kind[c] == 1:
                        mapped[c] = by_rank[free]
                        free += 1
                    else:
                        mapped[c] = by_rank[colours + gone]
                        gone += 1
                m = mapped[c]
            if m != codes[guess, p]:
                if m < codes[guess, p]:
                    return False
                break
    return True


@jit
def multisets(tables: Tables, duplicates: bool) -> Sets:
    """Every colour multiset of 0 to `pegs` pegs (the colours of a guess's first pegs), for
    the multiset cut of `scan_canonical`: (`add`, `start`, `full_ms`, `full_counts`).

    Multisets are numbered by size, then by their colour counts read as a number (as
    `Scorer.tables` numbers the full ones: full multiset start[pegs] + f is number f there);
    those of size k are start[k] .. start[k + 1] - 1; add[m, c] is the multiset m plus one peg
    of colour c (-1 if that is not a multiset of at most `pegs` pegs, or repeats a colour
    without duplicates); full_ms[f] is the number in `tables` of full multiset start[pegs] + f
    (its row of the hits table) and full_counts[f] its colour counts."""
    codes, counts, ms = tables[0], tables[1], tables[3]
    pegs, colours = codes.shape[1], counts.shape[1]
    most = pegs if duplicates else 1  # pegs of one colour
    radix = np.ones(colours, np.int64)
    for c in range(1, colours):
        radix[c] = radix[c - 1] * (pegs + 1)
    total = 1
    level = 1
    for k in range(pegs):  # multisets (or sets) of k + 1 pegs
        level = level * ((colours + k) if duplicates else (colours - k)) // (k + 1)
        total += level
    # every multiset in increasing order of its number: an odometer over the colour counts
    found = np.zeros(total, np.int64)
    held_by = np.zeros(total, np.int64)
    count = np.zeros(colours, np.int64)
    key = 0
    held = 0
    i = 0
    while True:
        found[i] = key
        held_by[i] = held
        i += 1
        c = 0
        while c < colours and (held == pegs or count[c] == most):
            held -= count[c]
            key -= count[c] * radix[c]
            count[c] = 0
            c += 1
        if c == colours:
            break
        count[c] += 1
        held += 1
        key += radix[c]
    start = np.zeros(pegs + 2, np.int64)
    for i in range(total):
        start[held_by[i] + 1] += 1
    for k in range(pegs + 1):
        start[k + 1] += start[k]
    keys = np.empty(total, np.int64)
    fill = start[:-1].copy()
    for i in range(total):  # by size, each size still in increasing order
        keys[fill[held_by[i]]] = found[i]
        fill[held_by[i]] += 1
    add = np.empty((total, colours), np.int32)
    add[:] = -1
    for k in range(pegs):
        for i in range(start[k], start[k + 1]):
            for c in range(colours):
                if (keys[i] // radix[c]) % (pegs + 1) == most:
                    continue
                wanted = keys[i] + radix[c]
                lo, hi = start[k + 1], start[k + 2]  # binary search among size k + 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if keys[mid] < wanted:
                        lo = mid + 1
                    else:
                        hi = mid
                add[i, c] = lo
    weight = index_weights(pegs, colours, duplicates)
    full_ms = np.zeros(start[pegs + 1] - start[pegs], np.int64)
    full_counts = np.zeros((full_ms.size, colours), np.uint8)
    for f in range(full_ms.size):
        key = keys[start[pegs] + f]
        p = 0
        index = 0
        taken = 0
        for c in range(colours):  # the code of the multiset's colours in increasing order
            full_counts[f, c] = (key // radix[c]) % (pegs + 1)
            for _ in range(full_counts[f, c]):
                index += digit_of(duplicates, taken, c) * weight[p]
                taken |= 1 << c
                p += 1
        full_ms[f] = ms[index] if ms.size == codes.shape[0] else 0
    return add, start, full_ms, full_counts


@jit
def classes_per_hits(pegs: int) -> np.ndarray:
    """How many answers a guess that is not a candidate can give a target with h hits: h + 1
    (0 to h blacks), but only pegs - 1 for h = pegs (pegs - 1 blacks cannot be, pegs would
    be the guess itself)."""
    caps = np.arange(1, pegs + 2)
    caps[pegs] = max(1, pegs - 1)
    return caps


@jit
def spread_bound(rule: int, sizes: np.ndarray, caps: np.ndarray, plogp: np.ndarray) -> int:
    """The best score a guess could reach if the sizes[h] targets with h hits spread as evenly
    as possible over their caps[h] answers (a lower bound of its real score)."""
    score = 0
    for h in range(sizes.size):
        size = sizes[h]
        if size == 0:
            continue
        q = size // caps[h]
        r = size % caps[h]
        if rule == MINIMAX:
            score = max(score, q + 1 if r else q)
        elif rule == EXPECTED_SIZE:
            score += r * (q + 1) * (q + 1) + (caps[h] - r) * q * q
        elif rule == ENTROPY:
            score += r * plogp[q + 1] + (caps[h] - r) * plogp[q]
        else:
            score -= min(size, caps[h])
    return score


@jit
def viable_multisets(
    tables: Tables,
    sets: Sets,
    rule: int,
    plogp: np.ndarray,
    targets: np.ndarray,
    groups: np.ndarray,
    weights: np.ndarray,
    best: int,
    viable: np.ndarray,
) -> None:
    """viable[m] = whether a guess whose colours include the multiset m could score below
    `best`. A guess's hits against each target depend only on its colour multiset; the
    blacks then split each hit class into at most `classes_per_hits` answers, so
    `spread_bound` of the hit classes bounds the score of every order of those colours.
    Targets come grouped by colour multiset (`groups`, `weights` of them; none without a hits
    table: then target by target)."""
    codes, counts, hits = tables[0], tables[1], tables[4]
    pegs, colours = codes.shape[1], counts.shape[1]
    add, start, full_ms, full_counts = sets
    if best == NO_SCORE:  # no bound yet
        viable[:] = True
        return
    caps = classes_per_hits(pegs)
    sizes = np.zeros(pegs + 1, np.int64)
    with_hits = groups.size > 0
    first = start[pegs]
    for f in range(start[pegs + 1] - first):
        sizes[:] = 0
        ok = True
        if with_hits:
            row = hits[full_ms[f]]
            for i in range(groups.size):
                h = row[groups[i]]
                sizes[h] += weights[i]
                if rule == MINIMAX and sizes[h] > (best - 1) * caps[h]:
                    ok = False
                    break
        else:
            for j in range(targets.size):
                h = 0
                for c in range(colours):
                    h += min(full_counts[f, c], counts[targets[j], c])
                sizes[h] += 1
                if rule == MINIMAX and sizes[h] > (best - 1) * caps[h]:
                    ok = False
                    break
        viable[first + f] = ok and spread_bound(rule, sizes, caps, plogp) < best
    for k in range(pegs - 1, -1, -1):
        for i in range(start[k], start[k + 1]):
            v = False
            for c in range(colours):
                if add[i, c] >= 0 and viable[add[i, c]]:
                    v = True
                    break
            viable[i] = v


@jit
def target_groups(tables: Tables, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The targets' colour multisets (numbers in `tables`) and how many targets have each;
    empty without a hits table."""
    ms, hits = tables[3], tables[4]
    if hits.shape[0] <= 1:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    slot = np.full(hits.shape[0], -1, np.int64)
    groups = np.empty(targets.size, np.int64)
    weights = np.zeros(targets.size, np.int64)
    k = 0
    for j in range(targets.size):
        m = ms[targets[j]]
        if slot[m] < 0:
            slot[m] = k
            groups[k] = m
            k += 1
        weights[slot[m]] += 1
    return groups[:k], weights[:k]


@jit
def scan_canonical(
    tables: Tables,
    duplicates: bool,
    used: int,
    absent: int,
    perms: np.ndarray,
    rule: int,
    plogp: np.ndarray,
    targets: np.ndarray,
    mark: np.ndarray,
    best: int,
    best_guess: int,
    stop_at: int,
    sets: Sets,
) -> tuple[int, int]:
    """Like `scan` over every canonical guess that is not a candidate (`mark`), in increasing
    order, needing a score strictly below `best`; but the guesses are enumerated position by
    position (as in `canonical_pool`) and their answers built up along the way: a guess
    sharing its first pegs with the one before shares their part of every answer, so each
    guess costs about two vector adds before its answers are counted. The multiset cut: first
    pegs whose colours no guess scoring below `best` can contain (`viable_multisets`, over
    `sets`) are not extended; the cut only drops guesses that cannot win, so the order and
    the result are those of the full scan."""
    codes, counts = tables[0], tables[1]
    pegs, colours = codes.shape[1], counts.shape[1]
    n = targets.size
    black = np.zeros((pegs * colours, n), np.uint8)  # pegs where the target has c at p
    more = np.zeros((colours * pegs, n), np.uint8)  # 1 where the target has more than k of c
    for j in range(n):
        t = targets[j]
        for p in range(pegs):
            black[p * colours + codes[t, p], j] = pegs
        for c in range(colours):
            for k in range(counts[t, c]):
                more[c * pegs + k, j] = 1
    partial = np.zeros((pegs, n), np.uint8)
    answers = np.empty(n, np.uint8)
    hist = np.zeros(256, np.int64)
    kind, rank = colour_kinds(colours, used, absent)
    by_rank = colours_by_rank(kind, rank)
    mapped = np.empty(colours, np.int64)
    orbits = perms.shape[0] > 1 and n >= ORBITS_FROM
    weight = index_weights(pegs, colours, duplicates)
    have = np.zeros((pegs, colours), np.int64)  # pegs of each colour before each position
    next_colour = np.zeros(pegs, np.int64)
    index = np.zeros(pegs, np.int64)
    frees = np.zeros(pegs, np.int64)
    gones = np.zeros(pegs, np.int64)
    taken = np.zeros(pegs, np.int64)
    add = sets[0]
    subset = np.zeros(pegs + 1, np.int64)  # the multiset of the first pegs (`multisets`)
    groups, weights = target_groups(tables, targets)
    viable = np.empty(add.shape[0], np.bool_)
    viable_multisets(tables, sets, rule, plogp, targets, groups, weights, best, viable)
    pos = 0
    while pos >= 0:
        c = next_colour[pos]
        if c >= colours:
            pos -= 1
            continue
        next_colour[pos] = c + 1
        if not duplicates and taken[pos] >> c & 1:
            continue
        ok, f, g = admit(kind, rank, duplicates, c, frees[pos], gones[pos])
        if not ok:
            continue
        sub = add[subset[pos], c]
        if not viable[sub]:
            continue
        digit = digit_of(duplicates, taken[pos], c)
        code = index[pos] + digit * weight[pos]
        black_row = black[pos * colours + c]
        more_row = more[c * pegs + have[pos, c]]
        here = partial[pos]
        subset[pos + 1] = sub
        if pos + 1 < pegs:
            there = partial[pos + 1]
            for j in range(n):
                there[j] = here[j] + black_row[j] + more_row[j]
            have[pos + 1] = have[pos]
            have[pos + 1, c] += 1
            index[pos + 1] = code
            frees[pos + 1] = f
            gones[pos + 1] = g
            taken[pos + 1] = taken[pos] | (1 << c)
            next_colour[pos + 1] = 0
            pos += 1
            continue
        if mark[code]:
            continue
        if orbits and not lowest_in_orbit(codes, duplicates, kind, by_rank, perms, mapped, code):
            continue
        score = 0
        done = 0
        if rule == MINIMAX:  # the common case, fused: each answer counted as it is made
            done = n
            for j in range(n):
                a = here[j] + black_row[j] + more_row[j]
                answers[j] = a
                h = hist[a] + 1
                hist[a] = h
                if h > score:
                    score = h
                    if score >= best:
                        done = j + 1
                        break
        while done < n:
            end = min(n, done + CHUNK)
            for j in range(done, end):
                answers[j] = here[j] + black_row[j] + more_row[j]
            score, done, gave_up = tally(answers, done, end, n, rule, plogp, best, hist, score)
            if gave_up:
                break
        for j in range(done):
            hist[answers[j]] = 0
        if score < best:
            best = score
            best_guess = code
            if best <= stop_at:
                return best, best_guess
            viable_multisets(tables, sets, rule, plogp, targets, groups, weights, best, viable)
    return best, best_guess


@jit
def exact_best(
    tables: Tables,
    duplicates: bool,
    classes: int,
    rule: int,
    plogp: np.ndarray,
    cands: np.ndarray,
    used: int,
    perms: np.ndarray,
    mark: np.ndarray,
    sets: Sets,
) -> int:
    """The exact best guess at a node: every canonical guess, candidates first, each pass in
    increasing order, stopping once a guess reaches the rule's lower bound. `perms`: the
    symmetries that fix every guess so far (see `lowest_in_orbit`; the identity first; any
    subset of them is correct, more of them make the pool smaller); `sets`: the space's
    `multisets`, for the multiset cut of the guesses that are not candidates."""
    codes, counts, cmask = tables[0], tables[1], tables[2]
    n = cands.size
    present = 0
    for j in range(n):
        present |= cmask[cands[j]]
    absent = ((1 << counts.shape[1]) - 1) & ~present
    kind, rank = colour_kinds(counts.shape[1], used, absent)
    by_rank = colours_by_rank(kind, rank)
    mapped = np.empty(counts.shape[1], np.int64)
    orbits = perms.shape[0] > 1 and n >= ORBITS_FROM
    first = np.empty(n, np.int32)
    k = 0
    for j in range(n):
        if is_canonical(codes, duplicates, kind, rank, cands[j]) and (
            not orbits or lowest_in_orbit(codes, duplicates, kind, by_rank, perms, mapped, cands[j])
        ):
            first[k] = cands[j]
            k += 1
    for j in range(n):
        mark[cands[j]] = 1
    low_candidate = lower_bound(rule, n, classes, plogp, True)
    low_other = lower_bound(rule, n, classes, plogp, False)
    # Targets in increasing order: neighbours tend to share answers, so a guess's uneven
    # classes show early and it is dropped sooner than in a scattered order.
    targets = cands
    best = NO_SCORE
    if k > 2 * SEEDS:  # a few candidates first: their best score bounds every later guess
        seeds = first[: k : k // SEEDS].copy()  # contiguous: no second compiled scan
        best = scan(tables, rule, plogp, seeds, mark, targets, best, -1, 0, -NO_SCORE)[0]
        best = best + 1  # so a candidate with that score still wins
    best, guess = scan(tables, rule, plogp, first[:k], mark, targets, best, -1, 1, low_candidate)
    if best > low_other:  # (even with a full table: enumerating is faster than gathers)
        best, guess = scan_canonical(
            tables, duplicates, used, absent, perms, rule, plogp, targets, mark, best, guess,
            low_other, sets,
        )  # fmt: skip
    for j in range(n):
        mark[cands[j]] = 0
    return guess


@jit
def colour_bits(codes: np.ndarray, guess: int) -> int:
    bits = 0
    for p in range(codes.shape[1]):
        bits |= 1 << codes[guess, p]
    return bits


@jit
def sweep(
    tables: Tables,
    duplicates: bool,
    classes: int,
    rule: int,
    plogp: np.ndarray,
    roots: np.ndarray,
    bounds: np.ndarray,
    depth: int,
    used: int,
    perms: np.ndarray,
    win: int,
    distribution: np.ndarray,
) -> bool:
    """Play every code of some positions `depth` guesses deep as one decision tree each,
    adding how many guesses each secret needs to `distribution`. Position i holds the codes
    roots[bounds[i] : bounds[i + 1]] (sorted); the guesses before them used the colours
    `used`, and `perms` are the symmetries fixing those guesses (see `lowest_in_orbit`).
    Positions are segments of one array, split in place by answer, so the tree needs O(N)
    memory; a secret with 1 or 2 codes left is counted directly. Returns False if the tree
    got deeper than `distribution` allows."""
    codes = tables[0]
    n = roots.size
    pegs = codes.shape[1]
    width = pegs * pegs + pegs + 1
    order = roots.copy()
    scratch = np.empty(n, np.int32)
    reply = np.empty(n, np.uint8)
    mark = np.zeros(codes.shape[0], np.uint8)
    sets = multisets(tables, duplicates)
    starts = np.zeros(width + 1, np.int64)
    room = distribution.size * width + bounds.size
    stack_lo = np.empty(room, np.int64)
    stack_hi = np.empty(room, np.int64)
    stack_depth = np.empty(room, np.int64)
    stack_used = np.empty(room, np.int64)
    top = 0
    for i in range(bounds.size - 1):
        stack_lo[top], stack_hi[top] = bounds[i], bounds[i + 1]
        stack_depth[top], stack_used[top] = depth, used
        top += 1
    # the symmetries fixing the guesses of the current path, per depth (depth first: a
    # position at depth d is taken only after its parent at d - 1 set them)
    levels = distribution.size + 1
    group = np.empty((levels, min(PERMS, perms.shape[0]), perms.shape[1]), np.int64)
    group_size = np.zeros(levels, np.int64)
    while top > 0:
        top -= 1
        lo, hi, d, u = stack_lo[top], stack_hi[top], stack_depth[top], stack_used[top]
        size = hi - lo
        if d >= distribution.size - 1:
            return False
        cands = order[lo:hi]
        here = perms if d == depth else group[d, : group_size[d]]
        if d > 1 and size <= 2:
            distribution[d] += 1
            if size == 2:
                distribution[d + 1] += 1
            continue
        else:
            guess = exact_best(tables, duplicates, classes, rule, plogp, cands, u, here, mark, sets)
        feedback(tables, guess, cands, reply[:size])
        starts[:] = 0
        for j in range(size):
            starts[reply[j] + 1] += 1
        for a in range(width):
            starts[a + 1] += starts[a]
        for j in range(size):
            a = reply[j]
            scratch[starts[a]] = cands[j]
            starts[a] += 1
        cands[:] = scratch[:size]
        bits = u | colour_bits(codes, guess)
        kept = 0
        for i in range(here.shape[0]):
            if kept == group.shape[1]:
                break
            fixed = True
            for p in range(pegs):
                if here[i, pegs + codes[guess, here[i, p]]] != codes[guess, p]:
                    fixed = False
                    break
            if fixed:
                group[d + 1, kept] = here[i]
                kept += 1
        group_size[d + 1] = kept
        begin = 0
        for a in range(width):
            end = starts[a]
            if end > begin:
                if a == win:
                    distribution[d] += 1
                else:
                    stack_lo[top], stack_hi[top] = lo + begin, lo + end
                    stack_depth[top], stack_used[top] = d + 1, bits
                    top += 1
            begin = end
    return True


@jit
def canonical_pool(
    pegs: int, colours: int, duplicates: bool, used: int, absent: int, out: np.ndarray
) -> int:
    """Write, in increasing order, the lowest code of every class of equivalent guesses; return
    how many.

    Two guesses are equivalent when they split the candidates the same way:
    * free colours (no guess used them yet) may be permuted, so the k-th free colour a canonical
      guess introduces is the k-th lowest free colour;
    * colours no candidate contains (`absent`) never score, so any of them may stand for
      another: a canonical guess uses only the lowest (without repeats, the lowest ones in
      order).
    Guesses are enumerated position by position, so the cost is the pool's size, not N's.
    """
    kind, rank = colour_kinds(colours, used, absent)
    weight = index_weights(pegs, colours, duplicates)
    next_colour = np.zeros(pegs + 1, np.int64)
    index = np.zeros(pegs + 1, np.int64)
    frees = np.zeros(pegs + 1, np.int64)
    gones = np.zeros(pegs + 1, np.int64)
    taken = np.zeros(pegs + 1, np.int64)
    count = 0
    pos = 0
    while pos >= 0:
        if pos == pegs:
            out[count] = index[pegs]
            count += 1
            pos -= 1
            continue
        c = next_colour[pos]
        if c >= colours:
            pos -= 1
            continue
        next_colour[pos] = c + 1
        if not duplicates and taken[pos] >> c & 1:
            continue
        ok, f, g = admit(kind, rank, duplicates, c, frees[pos], gones[pos])
        if not ok:
            continue
        digit = digit_of(duplicates, taken[pos], c)
        index[pos + 1] = index[pos] + digit * weight[pos]
        frees[pos + 1] = f
        gones[pos + 1] = g
        taken[pos + 1] = taken[pos] | (1 << c)
        next_colour[pos + 1] = 0
        pos += 1
    return count


@jit
def lower_bound(rule: int, n: int, classes: int, plogp: np.ndarray, candidate: bool) -> int:
    """The best score any guess could reach on n candidates, split over `classes` non-winning
    answers as evenly as possible (plus the winning one for a candidate guess)."""
    spread = n - 1 if candidate else n
    q = spread // classes
    r = spread % classes
    if rule == MINIMAX:
        low = q + 1 if r else q
        return max(low, 1) if candidate else low
    if rule == EXPECTED_SIZE:
        return r * (q + 1) * (q + 1) + (classes - r) * q * q + (1 if candidate else 0)
    if rule == ENTROPY:
        return int(r * plogp[q + 1] + (classes - r) * plogp[q])
    parts = min(spread, classes) + (1 if candidate else 0)
    return -parts


@jit
def class_sizes(tables: Tables, pool: np.ndarray, targets: np.ndarray, out: np.ndarray) -> None:
    """out[i, a] = how many targets give answer a to guess pool[i]."""
    out[:] = 0
    for i in range(pool.size):
        for j in range(targets.size):
            out[i, answer(tables, pool[i], targets[j])] += 1
