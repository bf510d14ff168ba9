"""The command line without Discord: help, version, and start failures that need no network."""

from __future__ import annotations

import importlib.metadata
import os
import pty
import re
import socket
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from bot.config import SETTINGS

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("mastermind-bot")
NAMES = [setting.name for setting in SETTINGS]


def _env(**overrides: str) -> dict[str, str]:
    """This environment without any bot setting (a developer's own must not leak in)."""
    env = {k: v for k, v in os.environ.items() if k not in NAMES and k != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT)
    env.update(overrides)
    return env


def _run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", *args]
    return subprocess.run(
        command, cwd=cwd, env=_env(**env), capture_output=True, text=True, timeout=60
    )


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_help_lists_every_setting_and_command_without_token_or_database(tmp_path: Path) -> None:
    result = _run(["bot", "--help"], tmp_path)
    assert result.returncode == 0, result.stderr
    for setting in SETTINGS:
        assert setting.name in result.stdout
        assert setting.default.strip("()") in result.stdout
    for command in ("run", "sync", "unsync", "--version"):
        assert command in result.stdout
    assert list(tmp_path.iterdir()) == []  # no database, no lock file
    assert result.stderr == ""


def test_help_with_a_token_still_touches_nothing(tmp_path: Path) -> None:
    database = tmp_path / "games.db"
    result = _run(
        ["bot", "sync", "--help"], tmp_path, DISCORD_TOKEN="x.y.z", DATABASE_PATH=str(database)
    )
    assert result.returncode == 0
    assert "--guild" in result.stdout
    assert not database.exists()


def test_version_comes_from_the_package_metadata(tmp_path: Path) -> None:
    result = _run(["bot", "--version"], tmp_path)
    assert result.returncode == 0
    assert result.stdout.strip() == f"mastermind-bot {importlib.metadata.version('mastermind-bot')}"


@pytest.mark.skipif(not SCRIPT.exists(), reason="the project is not installed in this venv")
def test_the_console_script_is_the_same_command(tmp_path: Path) -> None:
    for args in (["--help"], ["--version"], []):
        script = subprocess.run(
            [str(SCRIPT), *args], cwd=tmp_path, env=_env(), capture_output=True, text=True
        )
        module = _run(["bot", *args], tmp_path)
        assert (script.returncode, script.stdout, script.stderr) == (
            module.returncode,
            module.stdout,
            module.stderr,
        )


def test_every_setting_is_documented_in_env_example_and_readme() -> None:
    example = re.findall(r"^([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE)
    assert example == NAMES
    readme = (ROOT / "README.md").read_text()
    table = re.findall(r"^\| `([A-Z_]+)` \|", readme, re.MULTILINE)
    assert table == NAMES


@pytest.mark.parametrize(
    ("name", "value", "accepts"),
    [
        ("SOLVER_WORKERS", "two", "whole number"),
        ("DEV_GUILD_ID", "my-server", "numeric Discord id"),
        ("LOG_LEVEL", "loud", "DEBUG, INFO"),
    ],
)
def test_a_bad_setting_is_one_line_naming_it(
    tmp_path: Path, name: str, value: str, accepts: str
) -> None:
    result = _run(["bot"], tmp_path, DISCORD_TOKEN="x.y.z", **{name: value})
    assert result.returncode == 2
    lines = (result.stdout + result.stderr).splitlines()
    assert len(lines) == 1, lines
    assert name in lines[0] and accepts in lines[0] and value in lines[0]
    assert list(tmp_path.iterdir()) == []


def _database_cases(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    folder = tmp_path / "a-folder.db"
    folder.mkdir()
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"this is not a database" * 100)
    theirs = tmp_path / "theirs.db"
    with closing(sqlite3.connect(theirs)) as other, other:
        other.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    return {
        "folder cannot be created": (blocker / "games.db", "games.db"),
        "path is a folder": (folder, "a-folder.db"),
        "file is not a database": (corrupt, "corrupt.db"),
        "another application's database": (theirs, "another application's tables (invoices)"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "folder cannot be created",
        "path is a folder",
        "file is not a database",
        "another application's database",
    ],
)
def test_an_unusable_database_is_one_line_before_any_network(tmp_path: Path, case: str) -> None:
    path, shown = _database_cases(tmp_path)[case]
    port = _closed_port()  # were the bot to contact Discord, it would fail differently
    result = _run(
        ["tests.discord_fake.launch", f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}"],
        tmp_path,
        DISCORD_TOKEN="x.y.z",
        DATABASE_PATH=str(path),
        NO_COLOR="1",
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("mastermind-bot:")]
    assert len(errors) == 1, result.stderr
    assert shown in errors[0] and "cannot reach Discord" not in result.stderr
    assert "logging in" not in result.stderr


def test_discord_unreachable_names_the_host_and_reason(tmp_path: Path) -> None:
    port = _closed_port()
    launch = [
        "tests.discord_fake.launch",
        f"http://127.0.0.1:{port}/api/v10",
        f"ws://127.0.0.1:{port}",
    ]
    env = {"DISCORD_TOKEN": "x.y.z", "DATABASE_PATH": str(tmp_path / "games.db")}
    result = _run(launch, tmp_path, **env)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("mastermind-bot:")]
    assert len(errors) == 1, result.stderr
    assert f"cannot reach Discord at 127.0.0.1:{port}" in errors[0]
    assert "refused" in errors[0].lower()  # the underlying reason, from the operating system
    assert "x.y.z" not in result.stderr
    assert "starting" in result.stderr and "\x1b[" not in result.stderr  # a pipe: no colour

    debug = _run(launch, tmp_path, LOG_LEVEL="DEBUG", **env)
    assert debug.returncode == 1
    assert "Traceback" in debug.stderr and "ClientConnectorError" in debug.stderr
    assert "x.y.z" not in debug.stderr


def _tty_stderr(tmp_path: Path, **env: str) -> str:
    """Run a start that fails at once with stderr on a pseudo-terminal; returns what it wrote."""
    port = _closed_port()
    launch = [f"http://127.0.0.1:{port}/api/v10", f"ws://127.0.0.1:{port}"]
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.discord_fake.launch", *launch],
            cwd=tmp_path,
            env=_env(DISCORD_TOKEN="x.y.z", DATABASE_PATH=str(tmp_path / "g.db"), **env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=follower,
        )
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the other side closed
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert process.wait(timeout=60) == 1
    finally:
        os.close(leader)
    return b"".join(chunks).decode(errors="replace")


def test_colour_only_on_a_terminal_and_never_with_no_color(tmp_path: Path) -> None:
    coloured = _tty_stderr(tmp_path, TERM="xterm")
    assert "starting" in coloured and "\x1b[" in coloured
    plain = _tty_stderr(tmp_path, TERM="xterm", NO_COLOR="1")
    assert "starting" in plain and "\x1b[" not in plain
