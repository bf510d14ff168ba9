"""The Activity's settings (#33): opt-in, both halves or neither, the secret never shown."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings

ROOT = Path(__file__).resolve().parents[2]
SECRET = "a-client-secret-nobody-sees"


def test_the_activity_is_off_by_default() -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": "t"})
    assert settings.activity_port is None and settings.client_secret is None
    assert settings.activity_host == "127.0.0.1"


def test_port_and_secret_turn_it_on_and_the_secret_stays_hidden() -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": "t",
            "ACTIVITY_PORT": "8080",
            "DISCORD_CLIENT_SECRET": SECRET,
            "ACTIVITY_HOST": "0.0.0.0",
        }
    )
    assert settings.activity_port == 8080 and settings.client_secret == SECRET
    assert settings.activity_host == "0.0.0.0"
    assert SECRET not in repr(settings) and "client_secret=<hidden>" in repr(settings)


@pytest.mark.parametrize(
    ("given", "fragment"),
    [
        ({"ACTIVITY_PORT": "8080"}, "ACTIVITY_PORT needs DISCORD_CLIENT_SECRET"),
        ({"DISCORD_CLIENT_SECRET": SECRET}, "ACTIVITY_PORT is not"),
        ({"ACTIVITY_PORT": "0", "DISCORD_CLIENT_SECRET": SECRET}, "ACTIVITY_PORT must be"),
        ({"ACTIVITY_PORT": "web", "DISCORD_CLIENT_SECRET": SECRET}, "ACTIVITY_PORT must be"),
    ],
)
def test_half_or_badly_given_is_refused(given: dict[str, str], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment) as refused:
        Settings.from_env({"DISCORD_TOKEN": "t", **given})
    assert SECRET not in str(refused.value)


def test_a_half_given_activity_is_one_line_and_exit_code_2(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ACTIVITY_", "DISCORD_"))}
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN="t", ACTIVITY_PORT="8080")
    result = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    assert result.returncode == 2, lines
    assert len(lines) == 1 and "DISCORD_CLIENT_SECRET" in lines[0], lines
