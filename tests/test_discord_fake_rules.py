"""The fake's Discord limits as pure functions: each payload below breaks exactly one rule."""

from __future__ import annotations

from typing import Any

import pytest

from tests.discord_fake.rules import (
    COMPONENTS_V2,
    check_commands,
    check_components,
    check_message,
    check_modal,
)


def _row(*components: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(components)}


def _button(custom_id: str = "b", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "label": "B", "custom_id": custom_id, **extra}


def _options(count: int) -> list[dict[str, str]]:
    return [{"label": f"o{i}", "value": f"v{i}"} for i in range(count)]


def _select(custom_id: str = "s", **extra: Any) -> dict[str, Any]:
    return {"type": 3, "custom_id": custom_id, "options": _options(3), **extra}


def _text_input(custom_id: str = "t", **extra: Any) -> dict[str, Any]:
    return {"type": 4, "style": 1, "label": "T", "custom_id": custom_id, **extra}


def test_a_fine_message_passes() -> None:
    payload = {
        "content": "x" * 2000,
        "embeds": [{"title": "t", "description": "d", "fields": [{"name": "n", "value": "v"}]}],
        "components": [_row(*(_button(f"b{i}") for i in range(5))), _row(_select())],
    }
    assert check_message(payload) == []


@pytest.mark.parametrize(
    ("payload", "rule"),
    [
        ({"content": "x" * 2001}, "content-length"),
        ({"content": ""}, "empty-message"),
        ({"embeds": [{"title": "t" * 257}]}, "embed-limit"),
        ({"embeds": [{"description": "d" * 4097}]}, "embed-limit"),
        ({"embeds": [{"footer": {"text": "f" * 2049}}]}, "embed-limit"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]}, "embed-limit"),
        ({"embeds": [{"fields": [{"name": "", "value": "v"}]}]}, "embed-limit"),
        ({"embeds": [{"title": "t"}] * 11}, "embed-count"),
        ({"embeds": [{"description": "d" * 3001}] * 2}, "embed-limit"),
        ({"components": [_row(_button(f"b{i}")) for i in range(6)]}, "component-rows"),
        ({"components": [_row(*(_button(f"b{i}") for i in range(6)))]}, "component-rows"),
        ({"components": [_row(_select("a"), _select("b"))]}, "component-rows"),
        ({"components": [_row(_select(), _button())]}, "component-rows"),
        ({"components": [_row()]}, "component-rows"),
        ({"components": [_button()]}, "component-type"),
        ({"components": [_row(_text_input())]}, "component-type"),
        ({"components": [_row(_button("c" * 101))]}, "custom-id-length"),
        ({"components": [_row(_button("same"), _button("same"))]}, "custom-id-duplicate"),
        ({"components": [_row(_button(label=""))]}, "button"),
        ({"components": [_row({"type": 2, "style": 5, "label": "L"})]}, "button"),
        ({"components": [_row(_select(options=_options(26)))]}, "select"),
        ({"components": [_row(_select(max_values=4))]}, "select"),
        (
            {"content": "x", "flags": COMPONENTS_V2, "components": [{"type": 10, "content": "y"}]},
            "components-v2",
        ),
    ],
)
def test_each_broken_message_rule_is_named(payload: dict[str, Any], rule: str) -> None:
    assert {p.rule for p in check_message(payload)} == {rule}


def test_an_edit_is_checked_against_the_message_it_changes() -> None:
    previous = {"content": "old", "embeds": [], "components": [], "flags": 0}
    assert check_message({"content": "x" * 2001}, previous=previous)[0].rule == "content-length"
    assert [p.rule for p in check_message({"content": ""}, previous=previous)] == ["empty-message"]
    assert check_message({"components": []}, previous=previous) == []


def test_layout_views_allow_forty_components() -> None:
    texts = [{"type": 10, "content": str(i)} for i in range(40)]
    assert check_components(texts, v2=True) == []
    assert {p.rule for p in check_components([*texts, texts[0]], v2=True)} == {"component-count"}


def test_a_fine_modal_passes() -> None:
    modal = {
        "custom_id": "m",
        "title": "T" * 45,
        "components": [
            _row(_text_input("a")),
            {"type": 18, "label": "L", "component": _text_input("b", label=None)},
            {"type": 18, "label": "Pick", "component": _select("c")},
            {"type": 10, "content": "Some help text"},
        ],
    }
    assert check_modal(modal) == []


@pytest.mark.parametrize(
    ("modal", "rule"),
    [
        ({"custom_id": "m", "title": "T" * 46, "components": [_row(_text_input())]}, "modal"),
        ({"custom_id": "m", "title": "T", "components": []}, "modal"),
        ({"custom_id": "m", "title": "T", "components": [_row(_button())]}, "modal"),
        (
            {"custom_id": "m" * 101, "title": "T", "components": [_row(_text_input())]},
            "custom-id-length",
        ),
        (
            {"custom_id": "m", "title": "T", "components": [_row(_text_input(label=None))]},
            "text-input",
        ),
        (
            {"custom_id": "m", "title": "T", "components": [_row(_text_input(max_length=4001))]},
            "text-input",
        ),
    ],
)
def test_each_broken_modal_rule_is_found(modal: dict[str, Any], rule: str) -> None:
    assert {p.rule for p in check_modal(modal)} == {rule}


def _command(**extra: Any) -> dict[str, Any]:
    return {"name": "mastermind", "description": "Play", "type": 1, **extra}


def test_command_sync_rules() -> None:
    assert check_commands([_command()]) == []
    assert check_commands([_command(name="Mastermind")])[0].rule == "command"
    assert check_commands([_command(description="")])[0].rule == "command"
    assert check_commands([_command(), _command()])[0].message == "duplicate command 'mastermind'"
    options = [
        {"type": 4, "name": "pegs", "description": "d"},
        {"type": 4, "name": "colours", "description": "d", "required": True},
    ]
    (problem,) = check_commands([_command(options=options)])
    assert "required options must come before" in problem.message
    many = [_command(name=f"c{i}") for i in range(101)]
    assert {p.rule for p in check_commands(many)} == {"command-count"}
