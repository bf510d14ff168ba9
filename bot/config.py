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
        "DATABASE_URL",
        "(none)",
        "postgresql://user:password@host:port/database: use PostgreSQL instead of the SQLite "
        "file, which several bot processes (shard clusters) may share.",
    ),
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
    SettingHelp(
        "SHARD_COUNT",
        "(auto)",
        "How many shards the whole bot runs (Discord requires sharding from 2,500 servers).",
    ),
    SettingHelp(
        "SHARD_IDS",
        "(all)",
        "The shards this process runs, e.g. 0,1 or 0-3 (needs SHARD_COUNT and DATABASE_URL).",
    ),
    SettingHelp(
        "LEASE_SECONDS",
        "30",
        "Clusters: seconds after its holder dies before another process takes over the jobs "
        "that run once (1-600).",
    ),
    SettingHelp(
        "DAILY_KEY",
        "(random, kept)",
        "The secret the daily code is derived from (16+ characters); without it the bot makes "
        "one once and keeps it in the database. Changing it changes every day's code.",
    ),
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
    database_url: str | None = None
    """A PostgreSQL URL; None: the SQLite file at `database_path`."""
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs; None: all of them."""
    lease_seconds: float = 30.0
    daily_key: str | None = None
    """The daily code's secret; None: one made at random once and kept in the database."""

    def __repr__(self) -> str:
        return (
            f"Settings(token=<hidden>, database={self.database_label!r}, "
            f"dev_guild_id={self.dev_guild_id}, solver_workers={self.solver_workers}, "
            f"solver_time_budget={self.solver_time_budget}, "
            f"game_timeout_hours={self.game_timeout_hours}, log_level={self.log_level!r}, "
            f"shard_count={self.shard_count}, shard_ids={self.shard_ids}, "
            f"lease_seconds={self.lease_seconds})"
        )

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL, or the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_label(self) -> str:
        """The database for log lines: the URL without its password, or the file's path."""
        if self.database_url:
            return _redact(self.database_url)
        return str(self.database_path)

    @property
    def shards_label(self) -> str:
        """`shards 0,1 of 4`, `4 shards`, or `` (Discord decides)."""
        if self.shard_ids is not None:
            return f"shard(s) {','.join(map(str, self.shard_ids))} of {self.shard_count}"
        return f"{self.shard_count} shard(s)" if self.shard_count else ""

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
        database_url = _database_url(environ)
        shard_count = _optional_bounded_int(environ, "SHARD_COUNT", 1, 65536)
        shard_ids = _shard_ids(environ, shard_count)
        if shard_ids is not None and database_url is None:
            raise ConfigError(
                "SHARD_IDS splits the bot over several processes, which must share a PostgreSQL "
                "database: set DATABASE_URL=postgresql://... (on SQLite, one process runs every "
                "shard: leave SHARD_IDS empty)."
            )
        return cls(
            token=token,
            database_path=Path(environ.get("DATABASE_PATH", "").strip() or "mastermind.db"),
            database_url=database_url,
            shard_count=shard_count,
            shard_ids=shard_ids,
            lease_seconds=_bounded_float(environ, "LEASE_SECONDS", 30.0, 1.0, 600.0),
            dev_guild_id=_optional_int(environ, "DEV_GUILD_ID"),
            solver_workers=_bounded_int(environ, "SOLVER_WORKERS", 1, 1, 64),
            solver_time_budget=_bounded_float(environ, "SOLVER_TIME_BUDGET", 2.0, 0.1, 60.0),
            game_timeout_hours=_bounded_float(environ, "GAME_TIMEOUT_HOURS", 24.0, 0.1, 24 * 365),
            log_level=_log_level(environ),
            daily_key=_daily_key(environ),
        )


def _database_url(environ: Mapping[str, str]) -> str | None:
    raw = environ.get("DATABASE_URL", "").strip()
    if not raw:
        return None
    scheme = raw.split("://", 1)[0].lower() if "://" in raw else ""
    if scheme not in ("postgresql", "postgres"):
        raise ConfigError(
            f"DATABASE_URL must be a PostgreSQL URL (postgresql://user:password@host:port/"
            f"database), got {_redact(raw)!r}; for SQLite, set DATABASE_PATH instead."
        )
    return raw


def _redact(url: str) -> str:
    """The URL without its password."""
    scheme, sep, rest = url.partition("://")
    credentials, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in credentials:
        return url
    return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"


def _optional_bounded_int(environ: Mapping[str, str], name: str, low: int, high: int) -> int | None:
    if not environ.get(name, "").strip():
        return None
    return _bounded_int(environ, name, low, low, high)


def _shard_ids(environ: Mapping[str, str], count: int | None) -> tuple[int, ...] | None:
    """`0,1`, `2-3` or `0,2-3`: distinct shard numbers below SHARD_COUNT, in order."""
    raw = environ.get("SHARD_IDS", "").strip()
    if not raw:
        return None
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT: the number of shards of the whole bot.")
    ids: list[int] = []
    for part in raw.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ConfigError(f"SHARD_IDS must be shard numbers like 0,1 or 0-3, got {raw!r}.")
        ids += range(int(low), int(high if dash else low) + 1)
    if not ids or len(set(ids)) != len(ids) or max(ids) >= count:
        raise ConfigError(
            f"SHARD_IDS must name distinct shards from 0 to {count - 1} (SHARD_COUNT is "
            f"{count}), got {raw!r}."
        )
    return tuple(sorted(ids))


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


DAILY_KEY_MIN_LENGTH = 16


def _daily_key(environ: Mapping[str, str]) -> str | None:
    """A secret nobody guesses: long enough that the daily codes cannot be worked out."""
    raw = environ.get("DAILY_KEY", "").strip()
    if not raw:
        return None
    if len(raw.encode()) < DAILY_KEY_MIN_LENGTH:
        raise ConfigError(
            f"DAILY_KEY must hold at least {DAILY_KEY_MIN_LENGTH} characters (a long random "
            "text; leave it empty and the bot makes one and keeps it in the database)."
        )
    return raw


_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _log_level(environ: Mapping[str, str]) -> str:
    raw = environ.get("LOG_LEVEL", "").strip()
    level = raw.upper() or "INFO"
    if level not in _LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(_LEVELS)}, got {raw!r}.")
    return level
