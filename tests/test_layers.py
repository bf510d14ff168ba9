"""The house rules (docs/architecture.md): nothing imports a higher floor, no module circle, and
no mode imports another mode.

Imports are read from the source (every `import` and `from ... import`, at any depth, under
`if TYPE_CHECKING:` too), so a late import inside a function counts as well. Inside each mode's
package the same holds for its own floors: rules, then record and actions, then board, then
inputs.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parent.parent / "bot"

# The floor of each part of bot/; a module may import its own floor or lower ones.
FLOORS: dict[str, int] = {
    "bot.config": 0,  # settings and logging: read by every entry point, import nothing of bot
    "bot.logs": 0,
    "bot.redact": 0,  # the one URL redactor: settings, the store and the commands use it
    "bot.about": 0,
    "bot.signals": 0,  # a stop held until the event loop listens: imports nothing of bot
    "bot.health": 0,  # the heartbeat file of a health check: imports nothing of bot
    "bot.metrics": 0,  # where measurements go (nowhere, or bot.prometheus): imports nothing
    "bot.outages": 0,  # Discord outages in the log: a filter on discord.py's loggers
    "bot.failures": 0,  # a service's one-line start failure (the Activity's port taken)
    "bot.engine": 1,  # pure rules
    "bot.store": 2,  # the single source of truth
    "bot.solver_pool": 2,  # the solver's worker processes
    "bot.worker_processes": 2,
    "bot.charts": 2,  # the charts' data and their worker processes (matplotlib in the worker)
    "bot.ui": 3,  # presentation building blocks: components, embeds, words, i18n
    "bot.interactions": 4,  # what every input shares: replies, boards in step, the bot's shape
    "bot.modes": 5,  # one package per way to play (and per shared feature), and their registry
    "bot.app": 6,  # assembly and process entry points
    "bot.runner": 6,
    "bot.cluster": 6,  # leases, the chores that run once, the shard guard: the process's part
    "bot.sync": 6,
    "bot.cli": 6,
    "bot.transfer": 6,
    "bot.backup": 6,
    "bot.prometheus": 6,  # the opt-in metrics endpoint (METRICS_PORT)
    "bot.web": 6,  # the opt-in Activity (ACTIVITY_PORT): the page's server, beside the app
    "bot.__main__": 6,
    "bot": 0,  # the package root: its version, nothing else; unlisted modules must be placed
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(BOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def floor_of(module: str) -> int:
    best = max(
        (name for name in FLOORS if module == name or module.startswith(name + ".")), key=len
    )
    return FLOORS[best]


MODE_FLOORS = {"rules": 1, "record": 2, "actions": 2, "board": 3, "web": 4, "inputs": 4}
"""The floors inside a mode's package (`bot.modes.<mode>.<floor>`); the registry and the
command group sit above every mode."""


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The bot modules `path` imports at run time (a `from a import b` of a submodule counts as
    importing `a.b`)."""
    found: set[str] = set()
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.add(candidate if candidate in modules else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(), filename=str(path)))
    return {name for name in found if name == "bot" or name.startswith("bot.")}


SOURCES = sorted(BOT.rglob("*.py"))
MODULES = {module_name(path) for path in SOURCES}
GRAPH = {module_name(path): imports_of(path, MODULES) & MODULES for path in SOURCES}


def mode_floor_of(module: str) -> int | None:
    """A module's floor inside the modes (None outside a mode's package); the registry and the
    command group are above them all."""
    parts = module.split(".")
    if parts[:2] != ["bot", "modes"] or len(parts) < 3:
        return None
    if len(parts) == 3:
        return len(MODE_FLOORS) + 1  # bot.modes.registry, bot.modes.commands
    return MODE_FLOORS[parts[3]]


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_higher_floor(module: str) -> None:
    upward = sorted(other for other in GRAPH[module] if floor_of(other) > floor_of(module))
    assert not upward, f"{module} (floor {floor_of(module)}) imports higher floors: {upward}"


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if mode_floor_of(m) is not None))
def test_inside_the_modes_no_module_imports_a_higher_floor(module: str) -> None:
    """rules <- record, actions <- board <- inputs, in every mode and across modes."""
    own = mode_floor_of(module)
    assert own is not None
    upward = sorted(o for o in GRAPH[module] if (mode_floor_of(o) or 0) > own)
    assert not upward, f"{module} imports higher floors of the modes: {upward}"


SHARED = {"common", "hints", "review"}
"""The packages several modes share; every other package under bot/modes is one mode."""


def mode_of(module: str) -> str | None:
    """The package under bot/modes a module belongs to (None: the registry, or outside)."""
    parts = module.split(".")
    return parts[2] if parts[:2] == ["bot", "modes"] and len(parts) >= 4 else None


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if mode_of(m) is not None))
def test_no_mode_imports_another_mode(module: str) -> None:
    """A mode imports itself and the shared packages only; a shared package imports no mode,
    so a mode's folder can come and go alone."""
    own = mode_of(module)
    allowed = SHARED if own in SHARED else {*SHARED, own}
    others = sorted(o for o in GRAPH[module] if mode_of(o) not in (None, *allowed))
    assert not others, f"{module} imports another mode: {others}"


def test_every_module_of_a_mode_is_on_a_floor() -> None:
    for module in GRAPH:
        parts = module.split(".")
        if parts[:2] == ["bot", "modes"] and len(parts) == 4:
            assert parts[3] in MODE_FLOORS, f"{module}: a mode's modules are {list(MODE_FLOORS)}"


def test_no_import_circle() -> None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def walk(module: str) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(GRAPH[module]):
            if other == module or other.startswith(module + "."):
                continue  # a package importing its own submodules is not a circle
            if state.get(other) == 1:
                circle = [*path[path.index(other) :], other]
                pytest.fail("import circle: " + " -> ".join(circle))
            if other not in state:
                walk(other)
        path.pop()
        state[module] = 2

    for module in sorted(GRAPH):
        if module not in state:
            walk(module)


def test_the_engine_speaks_no_discord() -> None:
    """No mention markup and no Discord words in the pure rules."""
    for path in (BOT / "engine").rglob("*.py"):
        source = path.read_text()
        assert "<@" not in source, f"{path.name} formats a Discord mention"
        assert "discord" not in source.lower().replace("no discord", ""), path.name


def test_every_package_says_what_it_owns() -> None:
    for init in BOT.rglob("__init__.py"):
        docstring = ast.get_docstring(ast.parse(init.read_text()))
        assert docstring and len(docstring) > 40, f"{init} has no docstring saying what it owns"
