"""Facts the docs give that the code or the recipes also state, checked to agree (#31): each
figure has one home, and the docs quote it from there or point to it."""

from __future__ import annotations

import re
from pathlib import Path

from bot.engine.cache_dir import COMPILE_SECONDS

ROOT = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/hosting.md", "docs/development.md", ".env.example")


def _flat(name: str) -> str:
    """The file's text with every run of whitespace (and a comment's `#`) as one space."""
    return re.sub(r"\s+(#\s+)?", " ", (ROOT / name).read_text())


def test_the_compile_time_is_the_log_lines_wherever_it_is_given() -> None:
    quoted = [
        int(seconds)
        for name in DOCS
        for seconds in re.findall(
            r"compiling the solver, once per install, about (\d+) s", _flat(name)
        )
    ]
    assert quoted and set(quoted) == {COMPILE_SECONDS}, quoted
    for name in DOCS:  # no figure of its own beside "compil..." (loading "in about 2 s" is not one)
        for match in re.finditer(r"compil\w*[^.;:]{0,60}?(\d+(?: to \d+)?) s\b", _flat(name)):
            assert match[0].endswith(f"about {COMPILE_SECONDS} s"), (name, match[0])


def test_hosting_names_the_base_image_the_dockerfile_uses() -> None:
    image = re.search(r"^FROM (\S+)", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert image
    named = re.findall(r"builds an image from `([^`]+)`", _flat("docs/hosting.md"))
    assert named == [image[1]]


def test_the_memory_per_process_is_measured_in_one_place() -> None:
    """hosting.md's table holds each process's memory at start; the others point to it."""
    for name in ("README.md", "docs/performance.md", "docs/development.md", "docs/reliability.md"):
        text = _flat(name)
        assert not re.search(r"\b(24\d|15[89]) MB\b", text), name
        assert "what-a-process-needs" in text or name != "README.md"
    assert re.search(r"\*\*at start\*\* \| \*\*24\d MB\*\*", _flat("docs/hosting.md"))
