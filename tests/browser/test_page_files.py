"""The Activity's page as files: what ships, how big, what it may load, and the vendored SDK
being exactly what contrib/vendor-sdk/build.sh built (no browser needed)."""

from __future__ import annotations

import gzip
import hashlib
import json
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "bot" / "web" / "static"
VENDOR = STATIC / "vendor"
BUILD = ROOT / "contrib" / "vendor-sdk"
SDK = "@discord/embedded-app-sdk"
LIMIT = 200 * 1024
"""The page, SDK included, gzipped (#33)."""


def served() -> list[Path]:
    """Every file the page loads: everything under static/ but the licence texts."""
    return sorted(
        path
        for path in STATIC.rglob("*")
        if path.is_file() and path.suffix in {".html", ".js", ".css"}
    )


def test_the_page_and_the_sdk_fit_in_200_kb_gzipped() -> None:
    sizes = {path.name: len(gzip.compress(path.read_bytes(), 9)) for path in served()}
    assert "index.html" in sizes and "embedded-app-sdk.js" in sizes
    assert sum(sizes.values()) <= LIMIT, sizes


def test_the_vendored_sdk_is_the_one_the_script_built() -> None:
    sums = dict(reversed(line.split()) for line in (VENDOR / "SHA256SUMS").read_text().splitlines())
    assert set(sums) == {"embedded-app-sdk.js", "LICENSE.md", "THIRD-PARTY-NOTICES.txt"}
    for name, digest in sums.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_the_sdk_version_is_pinned_in_one_place_and_recorded() -> None:
    wanted = json.loads((BUILD / "package.json").read_text())["dependencies"]
    locked = json.loads((BUILD / "package-lock.json").read_text())["packages"]
    for name in (SDK, "esbuild"):
        assert re.fullmatch(r"\d+\.\d+\.\d+", wanted[name]), f"{name} is not pinned"
        assert locked[f"node_modules/{name}"]["version"] == wanted[name]
    assert (VENDOR / "VERSION").read_text().split() == [
        SDK,
        wanted[SDK],
        "bundled",
        "by",
        "esbuild",
        wanted["esbuild"],
    ]


def test_the_sdk_ships_with_its_licence_and_its_dependencies_notices() -> None:
    assert "Copyright (c) 2024 Discord Inc." in (VENDOR / "LICENSE.md").read_text()
    notices = (VENDOR / "THIRD-PARTY-NOTICES.txt").read_text()
    for name in (SDK, "zod", "eventemitter3", "uuid", "big-integer", "decimal.js-light"):
        assert f"\n{name} " in notices, name


def test_the_page_loads_nothing_from_another_origin_and_nothing_inline() -> None:
    html = (STATIC / "index.html").read_text()
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "an inline script"
    assert not re.search(r"<style|\sstyle=|\son[a-z]+=", html), "inline style or handler"
    for tag in re.findall(r"<script[^>]*>", html):
        assert 'type="module"' in tag and 'src="/static/' in tag, tag
    for path in served():
        text = path.read_text()
        if path.parent == VENDOR:
            continue  # Discord's SDK names Discord's origins to check messages against
        for url in re.findall(r"(?:https?:)?//[a-z0-9.-]+\.[a-z]{2,}[^\s'\"`)]*", text):
            assert url.startswith("https://cdn.discordapp.com/"), f"{path.name}: {url}"
        assert "@import" not in text and "innerHTML" not in text and "eval(" not in text, path.name
        assert "fonts" not in text.lower() or path.suffix != ".css", path.name


def test_the_page_ships_inside_the_python_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["bot"]
    shipped = {p for pattern in patterns for p in (ROOT / "bot").glob(pattern) if p.is_file()}
    assert {p for p in STATIC.rglob("*") if p.is_file()} <= shipped


def test_every_label_the_page_asks_for_is_in_the_table_in_every_language() -> None:
    from bot.ui.i18n import LANGUAGES, messages
    from bot.ui.page_words import page_words

    asked = set()
    for path in served():
        if path.parent != VENDOR:
            asked |= set(
                re.findall(r"(?:say|words\(strings,)\s*\(?\s*'([a-z_.]+)'", path.read_text())
            )
    english = page_words(messages("en"))
    assert {"guesses_left", "action.guess", "clue", "no_game"} <= asked
    for key in asked:
        assert key in english, f"the page asks for {key!r}, which the table lacks"
    for language in LANGUAGES:
        table = page_words(messages(language))
        assert table.keys() == english.keys()
        for key, text in table.items():
            # A placeholder comes back unfilled, for the page to fill.
            assert set(re.findall(r"\{\w+\}", text)) == set(re.findall(r"\{\w+\}", english[key]))
    assert page_words(messages("pl"))["action.guess"] == "Zgadnij"


def test_ci_fails_rather_than_skips_the_browser_tests_without_chromium(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.browser import harness

    monkeypatch.setattr(harness.shutil, "which", lambda name: None)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="apt-get"):
        harness.chromium_path()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        harness.chromium_path()
