"""Settings, read once from the environment (and `.env`), kept in one frozen place."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line a server owner can act on."""


@dataclass(frozen=True)
class SettingHelp:
    """One variable the bot reads: `--help`, `.env.example` and the README list the same ones."""

    name: str
    default: str
    meaning: str


SETTINGS: tuple[SettingHelp, ...] = (
    SettingHelp("DISCORD_TOKEN", "(required)", "The bot token. Never logged."),
    SettingHelp("DATABASE_PATH", "mastermind.db", "The SQLite file holding every game."),
    SettingHelp(
        "DEV_GUILD_ID",
        "(none)",
        "A server id: commands are synced to that server only, instantly (development).",
    ),
    SettingHelp("SOLVER_WORKERS", "1", "Solver worker processes (1-64)."),
    SettingHelp("SOLVER_TIME_BUDGET", "2", "Seconds the solver may spend on one guess (0.1-60)."),
    SettingHelp(
        "GAME_TIMEOUT_HOURS", "24", "Hours without a move before a game ends, secret revealed."
    ),
    SettingHelp("LOG_LEVEL", "INFO", "DEBUG, INFO, WARNING, ERROR or CRITICAL."),
)


@dataclass(frozen=True)
class Settings:
    """Everything the bot reads from its environment. The token never appears in repr."""

    token: str
    database_path: Path = Path("mastermind.db")
    dev_guild_id: int | None = None
    solver_workers: int = 1
    solver_time_budget: float = 2.0
    game_timeout_hours: float = 24.0
    log_level: str = "INFO"

    def __repr__(self) -> str:
        return (
            f"Settings(token=<hidden>, database_path={str(self.database_path)!r}, "
            f"dev_guild_id={self.dev_guild_id}, solver_workers={self.solver_workers}, "
            f"solver_time_budget={self.solver_time_budget}, "
            f"game_timeout_hours={self.game_timeout_hours}, log_level={self.log_level!r})"
        )

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        """Build settings from `environ`; by default the process environment, completed by the
        working directory's `.env` (variables already set win over the file)."""
        if environ is None:
            load_dotenv(Path.cwd() / ".env", override=False)
            environ = os.environ
        token = environ.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set: put your bot token in a .env file "
                "(copy .env.example) or in the environment."
            )
        return cls(
            token=token,
            database_path=Path(environ.get("DATABASE_PATH", "").strip() or "mastermind.db"),
            dev_guild_id=_optional_int(environ, "DEV_GUILD_ID"),
            solver_workers=_bounded_int(environ, "SOLVER_WORKERS", 1, 1, 64),
            solver_time_budget=_bounded_float(environ, "SOLVER_TIME_BUDGET", 2.0, 0.1, 60.0),
            game_timeout_hours=_bounded_float(environ, "GAME_TIMEOUT_HOURS", 24.0, 0.1, 24 * 365),
            log_level=_log_level(environ),
        )


def _optional_int(environ: Mapping[str, str], name: str) -> int | None:
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) == 0:
        raise ConfigError(
            f"{name} must be a numeric Discord id (a server's Copy Server ID), got {raw!r}."
        )
    return int(raw)


def _bounded_int(environ: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}.") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, got {value}.")
    return value


def _bounded_float(
    environ: Mapping[str, str], name: str, default: float, low: float, high: float
) -> float:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}.") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be between {low} and {high}, got {value}.")
    return value


_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _log_level(environ: Mapping[str, str]) -> str:
    raw = environ.get("LOG_LEVEL", "").strip()
    level = raw.upper() or "INFO"
    if level not in _LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}, got {raw!r}.")
    return level
