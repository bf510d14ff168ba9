"""How every chart looks, in one place: the Okabe-Ito colours (told apart with any colour
vision), a card of its own (legible on Discord's dark and light themes alike) and type sized for
an embed image on a phone. Plain values: no drawing library here."""

from __future__ import annotations

WIDTH_PX, HEIGHT_PX, DPI = 720, 480, 100
"""Discord shows an embed image at most about 400 px wide on a phone, and scales it down to fit;
720 px keeps it sharp on a dense screen without making the file large."""

SMALLEST_TEXT_PX = WIDTH_PX / 34
"""No text is smaller than this: at the phone's ~330 px it is still about 10 px high."""

POINT_PX = DPI / 72
TITLE_PT = 21.0
TEXT_PT = 16.0
assert TEXT_PT * POINT_PX >= SMALLEST_TEXT_PX

CARD = "#FFFFFF"
"""The chart's own opaque background: the same picture reads on the dark and the light theme."""
INK = "#1A1A1A"
"""Text and outlines (contrast 17:1 on the card)."""
MUTED = "#5C5C5C"
"""Subtitles and grid labels (contrast 6.7:1 on the card)."""
GRID = "#D9D9D9"

OKABE_ITO = {
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "black": "#000000",
}
"""Okabe and Ito's colour-blind-safe palette (2008). Each mode picks its own for its games in
the charts (`ModeSpec.chart`); yellow is left out there: too pale on the white card."""

YOURS = OKABE_ITO["blue"]
KNUTH = OKABE_ITO["orange"]
HIGHLIGHT = OKABE_ITO["vermillion"]
BARS = OKABE_ITO["sky blue"]

HARD_HATCH = "//"
HINT_HATCH = ".."
