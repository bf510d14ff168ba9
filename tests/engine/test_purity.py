"""The engine is pure: importing every module of it pulls in no Discord, asyncio or database,
and no third-party package outside an allow-list; the compiled kernels load only when a search
runs, so the bot's main process never imports numba."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import bot.engine

ALLOWED = {
    "numpy": "arrays for every vectorised step",
    "numba": "the compiled search loops (bot/engine/kernels.py), from wheels, cached on disk",
    "llvmlite": "numba's compiler back end, imported by numba itself",
}
"""Third-party packages the engine may import, and why."""

IO_LAYERS = ("discord", "asyncio", "sqlite3", "aiosqlite", "aiohttp")


def imported_by(modules: list[str]) -> tuple[list[str], list[str]]:
    """(I/O layers, third-party top-level packages) loaded by importing `modules`."""
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"print(sorted(m for m in {IO_LAYERS!r} if m in sys.modules))\n"
        "top = {m.split('.')[0] for m in sys.modules}\n"
        "print(sorted(m for m in top if m not in sys.stdlib_module_names and not "
        "m.startswith('_') and m not in ('bot', 'cython_runtime')))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    io, third_party = result.stdout.strip().splitlines()
    return eval(io), eval(third_party)


def test_engine_imports_no_io_layers_and_only_allowed_packages() -> None:
    modules = [f"bot.engine.{m.name}" for m in pkgutil.iter_modules(bot.engine.__path__)]
    assert "bot.engine.solver" in modules and "bot.engine.kernels" in modules
    io, third_party = imported_by(modules)
    assert io == []
    assert set(third_party) <= set(ALLOWED), third_party


def test_numba_loads_only_with_the_kernels() -> None:
    """What the bot's main process imports (jobs, for the worker calls, and the rules) leaves
    numba out: it costs about 100 MB and a third of a second."""
    modules = ["bot.engine.jobs", "bot.engine.game", "bot.engine.search", "bot.engine.optimal"]
    _, third_party = imported_by(modules)
    assert third_party == ["numpy"]


def test_every_modes_rules_are_pure_too() -> None:
    """A mode's rules (`bot/modes/<mode>/rules.py`) sit on the engine core and follow its rules:
    no Discord, asyncio or database, and nothing heavier than numpy."""
    import bot.modes

    modes = [m.name for m in pkgutil.iter_modules(bot.modes.__path__) if m.ispkg]
    rules = [
        f"bot.modes.{m}.rules"
        for m in modes
        if (Path(bot.modes.__path__[0]) / m / "rules.py").exists()
    ]
    assert {"bot.modes.play.rules", "bot.modes.race.rules"} <= set(rules)
    io, third_party = imported_by(rules)
    assert io == []
    assert third_party == ["numpy"]
