"""Every input field the running bot has, read from the bot itself: its slash commands and their
options (the app command tree, as Discord gets it), its custom_id routes (each mode's buttons
and selects) and its modal routes. A new option, button or modal is fuzzed without a change
here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.app import MastermindBot
from bot.interactions.cogs import ModeInputs
from tests.fuzz.scene import Scene

BUTTON, SELECT, MODAL = 2, 3, 5


@dataclass(frozen=True)
class RouteField:
    """One custom_id route: `mm:<prefix>:<field>:...`, as the bot matches it."""

    prefix: str
    fields: tuple[str, ...]
    pattern: re.Pattern[str]
    kind: int
    """BUTTON or SELECT (as the bot draws it; a route never drawn in the scene is a button), or
    MODAL."""

    def custom_id(self, numbers: list[str]) -> str:
        return ":".join(["mm", self.prefix, *numbers])


@dataclass(frozen=True)
class Command:
    """A slash command (a leaf: `/mastermind play`) and its options as Discord has them."""

    path: tuple[str, ...]
    options: tuple[dict[str, Any], ...]


def commands(bot: MastermindBot) -> list[Command]:
    """Every slash command of the bot's tree, subcommands flattened, with its options."""
    found: list[Command] = []

    def walk(node: dict[str, Any], path: tuple[str, ...]) -> None:
        children = node.get("options") or []
        if any(o.get("type") in (1, 2) for o in children):
            for child in children:
                walk(child, (*path, child["name"]))
        else:
            found.append(Command(path, tuple(children)))

    for command in bot.tree.get_commands():
        payload = command.to_dict(bot.tree)
        walk(payload, (payload["name"],))
    return found


def routes(bot: MastermindBot, scene: Scene) -> list[RouteField]:
    """Every custom_id route of the bot's buttons, selects and modals."""
    found: list[RouteField] = []
    for cog in bot.cogs.values():
        if not isinstance(cog, ModeInputs):
            continue
        for item in cog.items:
            pattern = re.compile(item.route.template)
            kind = _drawn_kind(scene, item.route.prefix)
            names = tuple(name for name, _ in item.route.fields)
            found.append(RouteField(item.route.prefix, names, pattern, kind))
        if cog.modal is not None:
            found.append(_modal_route(cog.modal.pattern))
    return found


def _drawn_kind(scene: Scene, prefix: str) -> int:
    for message in scene.hosts.get(prefix, []):
        for component in [*message.buttons, *message.selects]:
            if str(component.get("custom_id", "")).split(":")[1:2] == [prefix]:
                return SELECT if component.get("type") == SELECT else BUTTON
    return BUTTON


def _modal_route(pattern: re.Pattern[str]) -> RouteField:
    """A modal route from its pattern: `mm:<prefix>:(?P<a>...)...` (optional groups too)."""
    prefix = re.match(r"mm:((?:[^:(\\]|\\.)+)", pattern.pattern)
    assert prefix is not None, pattern.pattern
    names = tuple(sorted(pattern.groupindex, key=pattern.groupindex.__getitem__))
    return RouteField(prefix[1].replace("\\", ""), names, pattern, MODAL)
