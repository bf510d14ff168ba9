"""Settings come from the environment only, and a missing token is one clear line."""

import dataclasses
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import SETTINGS, ConfigError, Settings

ROOT = Path(__file__).resolve().parents[1]


def test_defaults_and_hidden_token() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "abc.def.ghi"})
    assert settings.database_path == Path("mastermind.db")
    assert settings.solver_workers == 1
    assert settings.dev_guild_id is None
    assert "abc.def.ghi" not in repr(settings)


def test_every_setting_is_read() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "t",
            "DATABASE_PATH": "/tmp/x.db",
            "DEV_GUILD_ID": "123",
            "SOLVER_WORKERS": "3",
            "SOLVER_TIME_BUDGET": "1.5",
            "GAME_TIMEOUT_HOURS": "48",
            "LOG_LEVEL": "debug",
        }
    )
    assert settings.database_path == Path("/tmp/x.db")
    assert settings.dev_guild_id == 123
    assert settings.solver_workers == 3
    assert settings.solver_time_budget == 1.5
    assert settings.game_timeout_hours == 48
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("name", "value", "fragment"),
    [
        ("DEV_GUILD_ID", "abc", "numeric"),
        ("SOLVER_WORKERS", "0", "between"),
        ("SOLVER_WORKERS", "two", "whole number"),
        ("SOLVER_TIME_BUDGET", "soon", "a number"),
        ("GAME_TIMEOUT_HOURS", "0", "between"),
        ("LOG_LEVEL", "LOUD", "LOG_LEVEL"),
    ],
)
def test_bad_settings_are_named(name: str, value: str, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        Settings.from_env({"DISCORD_TOKEN": "t", name: value})


def test_missing_token_is_one_line_without_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert len(lines) == 1, lines
    assert "DISCORD_TOKEN" in lines[0] and ".env.example" in lines[0]
    assert f"looked in {tmp_path / '.env'}: no such file" in lines[0]  # where it looked (#23)
    assert "Traceback" not in result.stderr


def test_dotenv_is_read_from_the_working_directory_only(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-dotenv\nLOG_LEVEL=WARNING\n")
    script = "from bot.config import Settings; s = Settings.from_env(); print(s.log_level)"
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOG_LEVEL")}
    env["PYTHONPATH"] = str(ROOT)
    here = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert here.stdout.strip() == "WARNING"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    there = subprocess.run(
        [sys.executable, "-c", script], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert "DISCORD_TOKEN is not set" in there.stderr
    assert f"looked in {elsewhere / '.env'}: no such file" in there.stderr
    (elsewhere / ".env").write_text("LOG_LEVEL=DEBUG\n")
    without = subprocess.run(
        [sys.executable, "-c", script], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert f"looked in {elsewhere / '.env'}: it has no DISCORD_TOKEN line" in without.stderr
    (elsewhere / ".env").write_text((ROOT / ".env.example").read_text())  # the quick start's
    empty = subprocess.run(
        [sys.executable, "-c", script], cwd=elsewhere, env=env, capture_output=True, text=True
    )
    assert f"looked in {elsewhere / '.env'}: its DISCORD_TOKEN= line is empty" in empty.stderr


def _example() -> dict[str, str]:
    """The variables of `.env.example` with the values written there."""
    text = (ROOT / ".env.example").read_text()
    return dict(re.findall(r"^([A-Z_]+)=(.*)$", text, re.MULTILINE))


def test_env_example_holds_every_default() -> None:
    example = _example()
    for setting in SETTINGS:
        written = "" if setting.default.startswith("(") else setting.default
        assert example[setting.name] == written, setting.name
    assert Settings.from_env({**example, "DISCORD_TOKEN": "t"}) == Settings(token="t")


def test_the_readme_table_is_printed_from_the_settings() -> None:
    """The README's rows are `python -m bot.config --markdown`, pasted: they cannot drift."""
    result = subprocess.run(
        [sys.executable, "-m", "bot.config", "--markdown"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() in (ROOT / "README.md").read_text()


def test_repr_shows_every_setting_but_no_secret() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "abc.def.ghi",
            "DATABASE_URL": "postgresql://bot:s3cret@db:5432/m?sslmode=require",
            "DAILY_KEY": "a daily key nobody guesses",
        }
    )
    shown = repr(settings)
    assert "abc.def.ghi" not in shown and "nobody guesses" not in shown and "s3cret" not in shown
    assert "'postgresql://bot:***@db:5432/m?sslmode=require'" in shown
    for field in dataclasses.fields(Settings):
        assert f"{field.name}=" in shown


def test_help_meanings_say_what_each_setting_accepts() -> None:
    meanings = {setting.name: setting.meaning for setting in SETTINGS}
    assert meanings["SOLVER_WORKERS"].endswith("(1-64).")
    assert meanings["SOLVER_TIME_BUDGET"].endswith("(0.1-60).")
    assert meanings["LOG_LEVEL"].endswith("(DEBUG, INFO, WARNING, ERROR or CRITICAL).")
    assert meanings["DAILY_KEY"].endswith("(16+ characters).")
