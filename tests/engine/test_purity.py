"""The engine is pure: importing every module of it pulls in no Discord, asyncio or database."""

import pkgutil
import subprocess
import sys

import bot.engine


def test_engine_imports_no_io_layers() -> None:
    modules = [f"bot.engine.{m.name}" for m in pkgutil.iter_modules(bot.engine.__path__)]
    assert "bot.engine.solver" in modules and "bot.engine.game" in modules
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in ('discord', 'asyncio', 'sqlite3', 'aiosqlite', 'aiohttp')"
        " if m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
