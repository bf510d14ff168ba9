"""A released schema step is never edited: a database that had it must not differ from one
that has it now. Each released step's text (SQLite's and PostgreSQL's, in order; a SQLite
rebuild by its function's name) is pinned by a digest taken when it was released, so sharing a
statement between steps, or any edit, cannot change what a step runs unnoticed."""

from __future__ import annotations

import hashlib

from bot.store.schema import STEPS, Statement

RELEASED = {  # number: (SQLite's digest, PostgreSQL's digest); 0.2.0 released steps 1 to 7
    1: ("b56fdcf0a71a2c55", "ce35cdd704fd2362"),
    2: ("cb29a8c39e20d112", "e3b0c44298fc1c14"),
    3: ("4444cb2f7f6e9922", "e3b0c44298fc1c14"),
    4: ("779d9fe746dbc804", "32f03b6aac9f1bc8"),
    6: ("e3b0c44298fc1c14", "f78c34ac856ef155"),
    7: ("ad3413eb87328419", "39bee589ad14a289"),
}
"""Step 5 is the daily's own (its record's steps), pinned by nothing here."""


def digest(statements: tuple[Statement, ...]) -> str:
    text = "\x00".join(s if isinstance(s, str) else s.__name__ for s in statements)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_every_released_step_runs_the_text_it_was_released_with() -> None:
    now = {step.number: (digest(step.sqlite), digest(step.postgres)) for step in STEPS}
    assert {number: now[number] for number in RELEASED} == RELEASED
