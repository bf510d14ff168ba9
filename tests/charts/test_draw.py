"""The pictures: each chart kind drawn from fixed data matches its committed baseline within a
tolerance (matplotlib's own image comparison, which forgives anti-aliasing and font hinting
differences), stays small, and keeps its text large enough for a phone.

A deliberate change of look: `python -m tests.charts.test_draw` redraws the baselines; look at
them before committing.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from matplotlib.testing.compare import compare_images
from PIL import Image

from bot.charts import draw, style
from bot.modes import registry
from tests.charts import samples

BASELINE = Path(__file__).parent / "baseline"
TOLERANCE = 6.0
"""RMS difference allowed (0-255 scale): a moved bar, a lost label or a wrong colour is far
more; a different FreeType's anti-aliasing is far less."""
LANGUAGES = ("en", "pl")


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", sorted(samples.CHARTS))
def test_each_chart_matches_its_baseline(name: str, language: str, tmp_path: Path) -> None:
    drawn = tmp_path / f"{name}-{language}.png"
    drawn.write_bytes(draw.render(samples.CHARTS[name](language)))
    assert compare_images(str(BASELINE / drawn.name), str(drawn), tol=TOLERANCE) is None


@pytest.mark.parametrize("name", sorted(samples.CHARTS))
def test_a_chart_is_a_small_png_of_the_planned_size(name: str) -> None:
    png = draw.render(samples.CHARTS[name]("en"))
    assert len(png) <= 200 * 1024
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG" and image.size == (style.WIDTH_PX, style.HEIGHT_PX)
        assert image.getpixel((2, 2))[:3] == (255, 255, 255)  # its own opaque card


def test_no_text_is_too_small_to_read_on_a_phone() -> None:
    assert style.TEXT_PT * style.POINT_PX >= style.SMALLEST_TEXT_PX
    assert style.TITLE_PT > style.TEXT_PT


def test_every_colour_is_okabe_ito() -> None:
    kinds = [mode.chart.colour for mode in registry.MODES]
    used = {*kinds, style.YOURS, style.KNUTH, style.HIGHLIGHT, style.BARS}
    assert used <= set(style.OKABE_ITO.values())
    assert len(set(kinds)) == len(kinds)  # a colour means one kind
    assert style.OKABE_ITO["yellow"] not in kinds  # too pale on the white card


def redraw_baselines() -> None:
    BASELINE.mkdir(exist_ok=True)
    for name, make in samples.CHARTS.items():
        for language in LANGUAGES:
            (BASELINE / f"{name}-{language}.png").write_bytes(draw.render(make(language)))


if __name__ == "__main__":
    redraw_baselines()
