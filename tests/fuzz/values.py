"""Adversarial values, drawn from a seeded `random.Random` so a failure replays from its seed:
text a player could type, numbers a forged custom_id could carry, values a forged select could
send."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.engine.codes import CodeError, CodeSpace

LARGEST = 2**63 - 1
TOKENS = (
    *"0123456789",
    *"RGBYOPCWrgbyopcwXZ",
    "red",
    "green",
    "czerwony",
    "zielony",
    "RED",
    "🔴",
    "🟢",
    "🔵",
    "🟡",
    "🟥",
    "⚫",
    "⚪",
    "❔",
)
"""Pieces of codes: digits, letters, colour names in both languages, emoji and near-emoji."""
CONFUSABLES = (
    *"０１２３４５６７８９",  # full-width digits
    *"٠١٢٣٤٥٦٧٨٩",  # Arabic-Indic digits (str.isdecimal() says yes)
    *"①②③¹²³ⅠⅡⅢ",  # circled, superscript, Roman numerals (int() says no)
    "𝟏",  # mathematical bold digit one
    "Ｒ",  # full-width R
    "ʀ",  # small capital R
    "Ꮐ",  # Cherokee letter that looks like G
    "е",  # Cyrillic e
    "ı",  # dotless i
    "ß",
)
ODD = (
    "\u200b",  # zero-width space
    "\u200d",  # zero-width joiner
    "\ufeff",  # byte-order mark
    "\u00a0",  # no-break space
    "\u3000",  # ideographic space
    "\u202e",  # right-to-left override
    "\ufe0f",  # emoji variation selector
    "\u0301",  # combining acute accent
    "\x00",
    "\n",
    "\t",
    "\r\n",
    "'",
    '"',
    "`",
    "\\",
    "%s",
    "{0}",
    "{secret}",
    "<@1>",
    "@everyone",
    "||",
    "**",
    "; DROP TABLE games; --",
)
SEPARATORS = (" ", ",", "-", "  ", " , ", "/", "|", ":", ";", "\n")
WHITESPACE = (" ", "\t", "\n", "\u00a0", "\u3000", "\u200b", "\u2028")


def text(rng: random.Random, low: int, high: int) -> str:
    """Any text of `low` to `high` characters, most of it near a code, some of it far."""
    shape = rng.randrange(8)
    if shape == 0:
        body = rng.choice(WHITESPACE) * rng.randint(1, 8)
    elif shape == 1:  # as long as allowed
        body = rng.choice([*TOKENS, *CONFUSABLES, *ODD]) * high
    elif shape == 2:
        body = "".join(rng.choice(CONFUSABLES) for _ in range(rng.randint(1, 10)))
    elif shape == 3:
        body = "".join(rng.choice(ODD) for _ in range(rng.randint(1, 6)))
    else:  # code-like: tokens with odd things and separators between them
        parts = []
        for _ in range(rng.randint(1, 12)):
            pool = rng.choice((TOKENS, TOKENS, TOKENS, CONFUSABLES, ODD, SEPARATORS))
            parts.append(rng.choice(pool))
        body = "".join(parts)
    body = body[:high]
    return body if len(body) >= low else body + "x" * (low - len(body))


def not_a_code(rng: random.Random, space: CodeSpace, low: int = 1, high: int = 100) -> str:
    """Text that is no code of `space` (a draw that is one by chance is drawn again)."""
    while True:
        candidate = text(rng, low, high)
        try:
            space.parse(candidate)
        except CodeError:
            return candidate


def number(rng: random.Random, near: Sequence[int] = ()) -> str:
    """A custom_id number: one of `near` (real ids and stamps), an edge of what the store holds,
    beyond it, zero-padded, or just large."""
    shape = rng.randrange(10)
    if shape < 4 and near:
        return str(rng.choice(near))
    if shape == 4:
        return str(rng.choice((0, 1, 9, 10, 99, 999_999, 1_000_000)))
    if shape == 5:
        return str(rng.choice((LARGEST, LARGEST + 1, 2**64, 2**64 - 1, 10**19, 10**20 - 1)))
    if shape == 6:
        return "0" * rng.randint(1, 25) + str(rng.choice([*near, 1]))
    if shape == 7:
        return "9" * rng.randint(18, 60)
    if shape == 8:
        return str(rng.getrandbits(rng.choice((8, 32, 63, 64))))
    return str(rng.randint(0, 1 << 22) << 22)  # snowflake-shaped


def mangled_number(rng: random.Random, near: Sequence[int] = ()) -> str:
    """A custom_id number no route reads as one: signed, spaced, in other digits, or empty."""
    base = number(rng, near)
    shape = rng.randrange(6)
    if shape == 0:
        return "-" + base
    if shape == 1:
        return base.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    if shape == 2:
        return base.translate(str.maketrans("0123456789", "０１２３４５６７８９"))
    if shape == 3:
        return rng.choice(WHITESPACE) + base
    if shape == 4:
        return ""
    return base + rng.choice(("e3", ".0", "x", "_1", "\u200b"))


def select_values(rng: random.Random, offered: Sequence[str]) -> list[str]:
    """What a forged select sends: none, several, values never offered, or odd text."""
    shape = rng.randrange(7)
    if shape == 0:
        return []
    if shape == 1 and offered:
        return rng.sample(list(offered), min(len(offered), rng.randint(2, 4)))
    if shape == 2:
        return [str(rng.choice((-1, 10, 11, 99, 100, 2**63, 10**30)))]
    if shape == 3:
        return [rng.choice(CONFUSABLES)]
    if shape == 4:
        return [
            f"{rng.choice((*'0123456789', '٣', '10', '-1', ''))}:{rng.choice((*'0123', '', 'x'))}"
        ]
    if shape == 5:
        return [text(rng, 0, 100)]
    return [rng.choice((" 1", "1 ", "01", "1\n", "+1", "1.0", "0x1", "1e0", "\x00"))]
