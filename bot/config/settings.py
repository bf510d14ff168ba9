"""The settings table: each field of `Settings` is one environment variable, declared once.

Read once at start from the environment (and the working directory's `.env`), then frozen.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values, load_dotenv

from bot.config.rows import (
    ConfigError,
    MissingSetting,
    Setting,
    hidden,
    read,
    redacted_repr,
    row,
    rows,
)
from bot.config.values import (
    DiscordId,
    FilePath,
    InRange,
    LongSecret,
    OneOf,
    PostgresUrl,
    ShardList,
    Text,
)
from bot.redact import redact

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


def _redacted_url(url: str) -> str:
    return repr(redact(url))


@dataclass(frozen=True, kw_only=True, repr=False)
class Settings:
    """Everything the bot reads from its environment. No secret appears in repr."""

    token: str = field(
        metadata=row(
            "DISCORD_TOKEN",
            Text(),
            "The bot token; never logged",
            missing="put your bot token in a .env file (copy .env.example) or in the environment.",
            show=hidden,
        ),
    )
    database_path: Path = field(
        default=Path("mastermind.db"),
        metadata=row(
            "DATABASE_PATH",
            FilePath(),
            "The SQLite file holding every game, move and statistic; its folder is made if needed",
        ),
    )
    database_url: str | None = field(
        default=None,
        metadata=row(
            "DATABASE_URL",
            PostgresUrl(),
            "postgresql://user:password@host:port/database: keep everything in PostgreSQL instead "
            "of the SQLite file (DATABASE_PATH is then unused); several bot processes (shard "
            "clusters) may share it",
            show=_redacted_url,
        ),
    )
    dev_guild_id: int | None = field(
        default=None,
        metadata=row(
            "DEV_GUILD_ID",
            DiscordId(),
            "A server id: commands are synced to that server only, instantly (development)",
        ),
    )
    solver_workers: int = field(
        default=1,
        metadata=row(
            "SOLVER_WORKERS",
            InRange.whole(1, 64),
            "Solver worker processes; raise it on a busy host with several cores",
        ),
    )
    solver_time_budget: float = field(
        default=2.0,
        metadata=row(
            "SOLVER_TIME_BUDGET",
            InRange.number(0.1, 60.0),
            "Seconds the solver may spend on one guess in a variant of over 100,000 codes; it then "
            "plays the best still-possible guess found so far",
        ),
    )
    cache_dir: Path | None = field(
        default=None,
        metadata=row(
            "CACHE_DIR",
            FilePath(),
            "The folder where the solver keeps its compiled code (made if needed); without it "
            "NUMBA_CACHE_DIR, else ~/.cache/mastermind-bot. One this user cannot write only makes "
            "every start compile again",
            absent="(the user's cache)",
        ),
    )
    game_timeout_hours: float = field(
        default=24.0,
        metadata=row(
            "GAME_TIMEOUT_HOURS",
            InRange.number(0.1, 24 * 365),
            "Hours without a move before a game ends and its secret is revealed",
        ),
    )
    log_level: str = field(
        default="INFO",
        metadata=row(
            "LOG_LEVEL",
            OneOf(LOG_LEVELS),
            "How much the bot logs; DEBUG also shows the traceback of a start failure",
        ),
    )
    shard_count: int | None = field(
        default=None,
        metadata=row(
            "SHARD_COUNT",
            InRange.whole(1, 65536),
            "How many shards the whole bot runs; Discord requires sharding from 2,500 servers, and "
            "without it one process runs as many as Discord asks for",
            absent="(auto)",
        ),
    )
    shard_ids: tuple[int, ...] | None = field(
        default=None,
        metadata=row(
            "SHARD_IDS",
            ShardList(),
            "The shards this process runs, e.g. 0,1 or 0-3 (needs SHARD_COUNT and DATABASE_URL)",
            absent="(all)",
        ),
    )
    lease_seconds: float = field(
        default=30.0,
        metadata=row(
            "LEASE_SECONDS",
            InRange.number(1.0, 600.0),
            "Clusters: seconds after its holder dies before another process takes over the jobs "
            "that run once",
        ),
    )
    daily_key: str | None = field(
        default=None,
        metadata=row(
            "DAILY_KEY",
            LongSecret(16),
            "The secret the daily code is derived from; without it the bot makes one at random "
            "once and keeps it in the database (clusters share it). Changing it changes every "
            "day's code",
            absent="(random, kept)",
            show=hidden,
        ),
    )
    charts: str = field(
        default="ON",
        metadata=row(
            "CHARTS",
            OneOf(("ON", "OFF")),
            "PNG charts on /mastermind stats, the review and /mastermind simulate, drawn in a "
            "worker process of their own; OFF draws none and never imports matplotlib",
        ),
    )

    metrics_port: int | None = field(
        default=None,
        metadata=row(
            "METRICS_PORT",
            InRange.whole(1, 65535),
            "A port for a Prometheus endpoint (/metrics): interactions, latency, the store, the "
            "solver, board edits, rate limits, running games, memory; off without it",
            absent="(off)",
        ),
    )
    metrics_address: str = field(
        default="127.0.0.1",
        metadata=row(
            "METRICS_ADDRESS",
            Text(),
            "The address the metrics endpoint listens on; 0.0.0.0 for every interface (in a "
            "container)",
        ),
    )

    activity_port: int | None = field(
        default=None,
        metadata=row(
            "ACTIVITY_PORT",
            InRange.whole(1, 65535),
            "A port for the Discord Activity, the game's graphical board inside Discord "
            "(docs/activity.md), served by the bot itself; needs DISCORD_CLIENT_SECRET; off "
            "without it, and then nothing of it is loaded",
            absent="(off)",
        ),
    )
    client_secret: str | None = field(
        default=None,
        metadata=row(
            "DISCORD_CLIENT_SECRET",
            Text(),
            "The application's OAuth2 client secret (Developer Portal, OAuth2): the Activity "
            "signs players in with it; needs ACTIVITY_PORT; never logged, never sent to a browser",
            show=hidden,
        ),
    )
    activity_host: str = field(
        default="127.0.0.1",
        metadata=row(
            "ACTIVITY_HOST",
            Text(),
            "The address the Activity's web server listens on, behind the HTTPS proxy or tunnel "
            "that Discord reaches; 0.0.0.0 for every interface (in a container)",
        ),
    )

    def __repr__(self) -> str:
        return redacted_repr(self)

    @property
    def charts_on(self) -> bool:
        """Whether answers come with their charts (CHARTS)."""
        return self.charts == "ON"

    @property
    def database(self) -> str | Path:
        """What the store opens: the PostgreSQL URL, or the SQLite file."""
        return self.database_url or self.database_path

    @property
    def database_label(self) -> str:
        """The database for log lines: the URL without its password, or the file's path."""
        if self.database_url:
            return redact(self.database_url)
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
        dotenv = None
        if environ is None:
            dotenv = Path.cwd() / ".env"
            load_dotenv(dotenv, override=False)
            environ = os.environ
        try:
            settings = cls(**read(cls, environ))
        except MissingSetting as error:
            if dotenv is None:
                raise
            found = _found(dotenv, error)
            raise MissingSetting(f"{error} (looked in {dotenv}: {found}.)") from None
        _check_shards(settings, environ.get("SHARD_IDS", "").strip())
        _check_activity(settings)
        return settings


def offline_settings() -> Settings:
    """The settings of a command that never talks to Discord (`backup`): the same table, the
    same `.env` and the same checks, but no token needed (it holds a placeholder)."""
    load_dotenv(Path.cwd() / ".env", override=False)
    return Settings.from_env({**os.environ, "DISCORD_TOKEN": NO_TOKEN})


NO_TOKEN = "(not needed by this command)"


def _found(dotenv: Path, error: MissingSetting) -> str:
    """What `.env` says of the missing variable: no file, no line for it, or a line left empty
    (the quick start's copy of .env.example before the token is pasted in)."""
    if not dotenv.is_file():
        return "no such file"
    name = str(error).split(" ", 1)[0]
    if name in dotenv_values(dotenv):
        return f"its {name}= line is empty"
    return f"it has no {name} line"


def _check_shards(settings: Settings, raw: str) -> None:
    """The rules that tie SHARD_IDS to SHARD_COUNT and DATABASE_URL, which no single row sees."""
    ids, count = settings.shard_ids, settings.shard_count
    if ids is None:
        return
    if count is None:
        raise ConfigError("SHARD_IDS needs SHARD_COUNT: the number of shards of the whole bot.")
    if not ids or len(set(ids)) != len(ids) or max(ids) >= count:
        raise ConfigError(
            f"SHARD_IDS must name distinct shards from 0 to {count - 1} (SHARD_COUNT is "
            f"{count}), got {raw!r}."
        )
    if settings.database_url is None:
        raise ConfigError(
            "SHARD_IDS splits the bot over several processes, which must share a PostgreSQL "
            "database: set DATABASE_URL=postgresql://... (on SQLite, one process runs every "
            "shard: leave SHARD_IDS empty)."
        )


def _check_activity(settings: Settings) -> None:
    """The Activity needs both its port and the client secret; one without the other is a
    setting half given, not a choice."""
    if settings.activity_port is not None and settings.client_secret is None:
        raise ConfigError(
            "ACTIVITY_PORT needs DISCORD_CLIENT_SECRET: the application's client secret "
            "(Developer Portal -> your application -> OAuth2), with which the Activity signs "
            "players in; or leave ACTIVITY_PORT empty to turn the Activity off."
        )
    if settings.activity_port is None and settings.client_secret is not None:
        raise ConfigError(
            "DISCORD_CLIENT_SECRET is set but ACTIVITY_PORT is not: set ACTIVITY_PORT to the "
            "port the Activity listens on (docs/activity.md), or leave DISCORD_CLIENT_SECRET "
            "empty."
        )


SETTINGS: tuple[Setting, ...] = rows(Settings)
"""Every variable, in the order `--help`, `.env.example` and the README list them."""
