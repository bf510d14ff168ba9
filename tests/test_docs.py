"""The README is a short front door and every relative link in it and in docs/ leads somewhere.

A link is checked the way GitHub renders it: the path is relative to the page, and an anchor
must be the slug of a heading of the page it points to.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 300
UNCHECKED_ANCHORS = {ROOT / "docs" / "solver.md"}
"""Pages whose headings another engineer writes during #20: the file must exist, its anchors
are not checked yet."""

LINK = re.compile(r"(?<!\\)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose(text: str) -> list[str]:
    """The page's lines outside fenced code blocks (a link or heading there is not one)."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its text, lower case, without punctuation, '-' for ' '."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor; a repeated heading gets -1, -2... as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for line in prose(page.read_text()):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def relative_links(page: Path) -> list[str]:
    """The targets of the page's links that stay inside the repository."""
    targets = []
    for line in prose(page.read_text()):
        line = re.sub(r"`[^`]*`", "", line)  # code spans hold no links
        targets += [t for t in LINK.findall(line) if not EXTERNAL.match(t)]
    return targets


def broken(page: Path, target: str) -> str | None:
    """Why `target`, linked from `page`, leads nowhere; None when it leads somewhere."""
    path, _, anchor = target.partition("#")
    destination = (page.parent / path).resolve() if path else page
    if not destination.exists():
        return f"{target}: no file {destination.relative_to(ROOT)}"
    if not anchor or destination in UNCHECKED_ANCHORS or destination.suffix != ".md":
        return None
    if anchor not in anchors(destination):
        return f"{target}: no heading #{anchor} in {destination.relative_to(ROOT)}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(page: Path) -> None:
    problems = [problem for t in relative_links(page) if (problem := broken(page, t))]
    assert problems == []


def test_the_docs_exist_and_are_linked_from_the_readme() -> None:
    readme_links = {(ROOT / t.partition("#")[0]).resolve() for t in relative_links(PAGES[0])}
    for name in ("hosting", "playing", "reliability", "solver", "development"):
        assert ROOT / "docs" / f"{name}.md" in readme_links, name


def test_the_readme_is_at_most_300_lines() -> None:
    lines = len((ROOT / "README.md").read_text().splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines"


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("3. Copy and fill in `.env`", "3-copy-and-fill-in-env"),
        (
            "1. Create the Discord application and invite the bot",
            "1-create-the-discord-application-and-invite-the-bot",
        ),
        ("Hard mode, hints and the review", "hard-mode-hints-and-the-review"),
        (
            "Strategies against the published figures (4 pegs, 6 colours, all 1,296 secrets)",
            "strategies-against-the-published-figures-4-pegs-6-colours-all-1296-secrets",
        ),
        (
            "Layout: five floors, nothing imports upward",
            "layout-five-floors-nothing-imports-upward",
        ),
        ("`python -m bot` and [docs](docs/x.md)", "python--m-bot-and-docs"),
    ],
)
def test_anchors_are_githubs_slugs(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
