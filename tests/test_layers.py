"""The house rules of `shared/DESIGN.md`: nothing imports a higher floor, and no module circle.

Imports are read from the source (every `import` and `from ... import`, at any depth, except
under `if TYPE_CHECKING:`), so a late import inside a function counts too.
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
    "bot.engine": 1,  # pure rules
    "bot.store": 2,  # the single source of truth
    "bot.solver_pool": 2,  # the solver's worker processes
    "bot.worker_processes": 2,
    "bot.modes": 3,  # what each player action does
    "bot.ui": 4,  # Discord presentation only
    "bot.cogs": 5,  # every input
    "bot.app": 6,  # assembly and process entry points
    "bot.runner": 6,
    "bot.sync": 6,
    "bot.cli": 6,
    "bot.transfer": 6,
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


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The bot modules `path` imports at run time (a `from a import b` of a submodule counts as
    importing `a.b`)."""
    found: set[str] = set()
    package = (
        module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    )

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
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


@pytest.mark.parametrize("module", sorted(GRAPH))
def test_no_module_imports_a_higher_floor(module: str) -> None:
    upward = sorted(other for other in GRAPH[module] if floor_of(other) > floor_of(module))
    assert not upward, f"{module} (floor {floor_of(module)}) imports higher floors: {upward}"


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
