"""What each kind of setting accepts: one parser per kind, carrying its own range or choices.

A parser turns the variable's text (stripped, never empty) into its value, or raises `Rejected`
with the reason; the caller puts the variable's name in front, so every message reads
`NAME must be ..., got ...`. `accepts` is what `--help` and the README show after the meaning.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from bot.redact import redact

T_co = TypeVar("T_co", covariant=True)
N = TypeVar("N", int, float)


class Rejected(ValueError):
    """A variable's text is not a value of its kind; the message is the reason, without the name."""


class Parser(Protocol[T_co]):
    """Text to value, with a short description of what it accepts ('' when the meaning says it)."""

    @property
    def accepts(self) -> str: ...

    def __call__(self, raw: str) -> T_co: ...


@dataclass(frozen=True)
class Text:
    """Any text, kept as written."""

    accepts: str = ""

    def __call__(self, raw: str) -> str:
        return raw


@dataclass(frozen=True)
class FilePath:
    """A file's path, relative to the working directory unless absolute."""

    accepts: str = ""

    def __call__(self, raw: str) -> Path:
        return Path(raw)


@dataclass(frozen=True)
class InRange(Generic[N]):
    """A number from `low` to `high`; `whole` and `number` make the two kinds the bot reads."""

    convert: Callable[[str], N]
    low: N
    high: N
    kind: str
    """What the text must be, for the message: `a whole number`, `a number`."""

    @classmethod
    def whole(cls, low: int, high: int) -> InRange[int]:
        """An integer from `low` to `high`."""
        return InRange(int, low, high, "a whole number")

    @classmethod
    def number(cls, low: float, high: float) -> InRange[float]:
        """A decimal number from `low` to `high`."""
        return InRange(float, low, high, "a number")

    @property
    def accepts(self) -> str:
        return f"{self.low:g}-{self.high:g}"

    def __call__(self, raw: str) -> N:
        try:
            value = self.convert(raw)
        except ValueError:
            raise Rejected(f"must be {self.kind}, got {raw!r}.") from None
        if not self.low <= value <= self.high:
            raise Rejected(f"must be between {self.low} and {self.high}, got {value}.")
        return value


@dataclass(frozen=True)
class OneOf:
    """One of a few words, in any case; the value is upper case."""

    choices: Sequence[str]

    @property
    def accepts(self) -> str:
        return f"{', '.join(self.choices[:-1])} or {self.choices[-1]}"

    def __call__(self, raw: str) -> str:
        if raw.upper() not in self.choices:
            raise Rejected(f"must be one of {', '.join(self.choices)}, got {raw!r}.")
        return raw.upper()


@dataclass(frozen=True)
class DiscordId:
    """A Discord snowflake, as a server's Copy Server ID gives it."""

    accepts: str = ""

    def __call__(self, raw: str) -> int:
        if not raw.isdigit() or int(raw) == 0:
            raise Rejected(
                f"must be a numeric Discord id (a server's Copy Server ID), got {raw!r}."
            )
        return int(raw)


@dataclass(frozen=True)
class PostgresUrl:
    """A `postgresql://` (or `postgres://`) URL; an error about a wrong one hides its password."""

    accepts: str = ""

    def __call__(self, raw: str) -> str:
        scheme = raw.split("://", 1)[0].lower() if "://" in raw else ""
        if scheme not in ("postgresql", "postgres"):
            raise Rejected(
                f"must be a PostgreSQL URL (postgresql://user:password@host:port/database), got "
                f"{redact(raw)!r}; for SQLite, set DATABASE_PATH instead."
            )
        return raw


@dataclass(frozen=True)
class ShardList:
    """`0,1`, `2-3` or `0,2-3`: shard numbers, in order. Whether they are distinct and below
    SHARD_COUNT is checked with the other settings, which this parser does not see."""

    accepts: str = ""

    def __call__(self, raw: str) -> tuple[int, ...]:
        ids: list[int] = []
        for part in raw.replace(" ", "").split(","):
            low, dash, high = part.partition("-")
            if not low.isdigit() or (dash and not high.isdigit()):
                raise Rejected(f"must be shard numbers like 0,1 or 0-3, got {raw!r}.")
            ids += range(int(low), int(high if dash else low) + 1)
        return tuple(sorted(ids))


@dataclass(frozen=True)
class LongSecret:
    """A secret nobody guesses: `min_bytes` or more, so what it derives cannot be worked out."""

    min_bytes: int

    @property
    def accepts(self) -> str:
        return f"{self.min_bytes}+ characters"

    def __call__(self, raw: str) -> str:
        if len(raw.encode()) < self.min_bytes:
            raise Rejected(
                f"must hold at least {self.min_bytes} characters (a long random text; leave it "
                "empty and the bot makes one and keeps it in the database)."
            )
        return raw
