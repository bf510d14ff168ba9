"""The machinery of the settings table: a row per variable, carried by its dataclass field.

`Settings` declares each setting once, as `name: type = field(default=..., metadata=row(...))`;
everything else (reading
the environment, the one-line errors, `--help`, the README rows, the redacted repr) walks the
fields and reads their rows, so a new setting is one field and nothing else.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from bot.config.values import Parser, Rejected

_ROW = "setting"
"""The key of a field's metadata that holds its row."""


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line a server owner can act on."""


class MissingSetting(ConfigError):
    """A required setting is not set at all (rather than set wrong)."""


def hidden(_: object) -> str:
    """How a secret shows in a repr: that it is set, never what it is."""
    return "<hidden>"


@dataclass(frozen=True)
class Setting:
    """One variable the bot reads: `--help`, `.env.example` and the README list the same ones."""

    name: str
    """The environment variable."""
    parse: Parser[Any]
    meaning: str
    """One sentence or two, ending with what the parser accepts."""
    missing: str = ""
    """For a required variable: what to do when it is not set."""
    show: Callable[[Any], str] = repr
    """How a set value appears in the repr: `hidden` for secrets, a redactor for URLs."""
    default: str = "(none)"
    """The default as a person writes it (`2`, `mastermind.db`), or `(none)`, `(required)`..."""


def row(
    name: str,
    parse: Parser[Any],
    meaning: str,
    *,
    absent: str = "(none)",
    missing: str = "",
    show: Callable[[Any], str] = repr,
) -> dict[str, Setting]:
    """A field's metadata: it is read from `name`; `absent` is how a None default shows, and
    `missing` (for a field without default) what to do when the variable is not set."""
    text = f"{meaning} ({parse.accepts})." if parse.accepts else f"{meaning}."
    return {_ROW: Setting(name, parse, text, missing, show, "(required)" if missing else absent)}


def _written(declared: dataclasses.Field[Any], absent: str) -> str:
    """The field's default as the variable would hold it: `2`, not `2.0`; `absent` if none."""
    value = declared.default
    if value is dataclasses.MISSING or value is None:
        return absent
    return f"{value:g}" if isinstance(value, float) else str(value)


def _fields(table: type[object]) -> Iterator[tuple[str, Setting]]:
    for each in dataclasses.fields(cast(Any, table)):
        declared = cast(Setting, each.metadata[_ROW])
        yield each.name, replace(declared, default=_written(each, declared.default))


def rows(table: type[object]) -> tuple[Setting, ...]:
    """The table's rows, in the order of its fields."""
    return tuple(setting for _, setting in _fields(table))


def read(table: type[object], environ: Mapping[str, str]) -> dict[str, Any]:
    """The table's field values found in `environ` (an unset or blank variable keeps its
    default); raises ConfigError naming the first variable that is missing or malformed."""
    values: dict[str, Any] = {}
    for attribute, setting in _fields(table):
        raw = environ.get(setting.name, "").strip()
        if not raw and setting.missing:
            raise MissingSetting(f"{setting.name} is not set: {setting.missing}")
        if raw:
            try:
                values[attribute] = setting.parse(raw)
            except Rejected as reason:
                raise ConfigError(f"{setting.name} {reason}") from None
    return values


def redacted_repr(table: object) -> str:
    """`Name(field=value, ...)` with each value shown as its row says: no secret, no password."""
    shown = (
        f"{attribute}={'None' if value is None else setting.show(value)}"
        for attribute, setting in _fields(type(table))
        for value in [getattr(table, attribute)]
    )
    return f"{type(table).__name__}({', '.join(shown)})"


def markdown(table: type[object]) -> str:
    """The README's settings table, header included."""
    lines = ["| variable | default | meaning |", "|---|---|---|"]
    for setting in rows(table):
        default = setting.default if setting.default.startswith("(") else f"`{setting.default}`"
        lines.append(f"| `{setting.name}` | {default} | {setting.meaning} |")
    return "\n".join(lines)
