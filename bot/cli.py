"""The command line of `python -m bot` and `mastermind-bot`: run, sync, unsync, help, version.

Arguments are parsed before any setting is read, so `--help` and `--version` work on a machine
with no token, no network and no database.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path

from bot import signals
from bot.about import version
from bot.config import SETTINGS, ConfigError, Settings


def _settings_help() -> str:
    """The settings part of `--help`, from the settings table, so it cannot miss one."""
    width = max(len(setting.name) for setting in SETTINGS) + 4
    lines = ["settings (read from the environment, or from .env in the working directory):"]
    for setting in SETTINGS:
        required = setting.default == "(required)"
        label = "[required]" if required else f"[default: {setting.default.strip('()')}]"
        lines += _hanging(f"  {setting.name:<{width - 2}}", setting.meaning, label, width)
    lines.append("NO_COLOR (any non-empty value): no colour in the log, even on a terminal.")
    return "\n".join(lines)


def _hanging(head: str, text: str, label: str, indent: int) -> list[str]:
    """`text` wrapped to 79 columns under `head`, then `label` kept whole on one line, so a
    reader (or a test) finds a default like `random, kept` intact."""
    lines = textwrap.wrap(text, 79, initial_indent=head, subsequent_indent=" " * indent)
    if len(lines[-1]) + 1 + len(label) <= 79:
        lines[-1] += f" {label}"
    else:
        lines.append(" " * indent + label)
    return lines


def _guild_id(raw: str) -> int:
    """argparse's check of `--guild`: a server id is a positive number."""
    if not raw.isdigit() or int(raw) == 0:
        raise argparse.ArgumentTypeError(f"a server id is a number, got {raw!r}")
    return int(raw)


_SERVER_COMMANDS = (
    (
        "sync",
        "push the slash commands to Discord now, globally or to one server, then exit",
        "Push the slash commands to Discord now, whatever the last sync was.",
        "sync to this server only (instant)",
    ),
    (
        "unsync",
        "remove the slash commands from one server (or the global ones), then exit",
        "Remove this application's slash commands from one server, or without --guild its "
        "global commands. The next start syncs again.",
        "the server to remove them from",
    ),
)
"""The commands that talk to Discord about one server or all: name, summary in the command
list, description in the command's own --help, and what its --guild means."""


def build_parser(version: str) -> argparse.ArgumentParser:
    """The parser; `version` is passed in so building it reads nothing from disk or network."""
    parser = argparse.ArgumentParser(
        prog="mastermind-bot",
        description="A self-hosted Discord bot that plays Mastermind in both directions. "
        "Without a command (or with `run`), it runs the bot until SIGTERM or Ctrl-C. "
        "`python -m bot` is the same command.",
        epilog=_settings_help(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = commands.add_parser("run", help="run the bot (the default)")
    run.add_argument(
        "--health-file",
        type=Path,
        metavar="PATH",
        help="touch PATH every 30 s while connected, for `health` (a container's health check)",
    )
    for name, summary, description, guild in _SERVER_COMMANDS:
        command = commands.add_parser(name, help=summary, description=description)
        command.add_argument("--guild", type=_guild_id, metavar="ID", help=guild)
    health = commands.add_parser(
        "health",
        help="exit 0 if a bot run with --health-file touched it in the last 90 s, else 1",
        description="A container's health check: exit 0 if the bot (`run --health-file PATH`) "
        "touched PATH in the last 90 s (it does every 30 s while connected), else 1. Reads no "
        "setting: it needs no token.",
    )
    health.add_argument("--file", type=Path, required=True, metavar="PATH", dest="health_file")
    copy = commands.add_parser(
        "copy-to-postgres",
        help="copy a SQLite database (games, moves, stats, meta) into PostgreSQL, then exit",
        description="Copy every game, move and meta value of the SQLite file into the "
        "PostgreSQL database, in one transaction, and check the counts before committing. "
        "Running it again copies only what is missing. Stop the bot first.",
    )
    copy.add_argument(
        "--from",
        dest="source",
        metavar="PATH",
        help="the SQLite file (default: DATABASE_PATH, or mastermind.db)",
    )
    copy.add_argument(
        "--to",
        dest="target",
        metavar="URL",
        help="postgresql://user:password@host:port/database (default: DATABASE_URL)",
    )
    backup = commands.add_parser(
        "backup",
        help="copy the SQLite database, consistent and checked, even while the bot runs",
        description="Copy the SQLite database (DATABASE_PATH) with SQLite's online backup, "
        "which works while the bot runs, into one self-contained file; check it (integrity, "
        "schema) before it takes its name. On PostgreSQL it says how to use pg_dump.",
    )
    where = backup.add_mutually_exclusive_group(required=True)
    where.add_argument("--to", type=Path, metavar="FILE", help="the copy's file (replaced)")
    where.add_argument(
        "--into",
        type=Path,
        metavar="FOLDER",
        help="a new file named by the time (mastermind-YYYY-MM-DDTHHMMSSZ.db) in FOLDER",
    )
    backup.add_argument(
        "--keep",
        type=_positive,
        metavar="N",
        help="with --into: then remove all but the newest N copies there",
    )
    backup.add_argument(
        "--from",
        dest="source",
        type=Path,
        metavar="PATH",
        help="the SQLite file (default: DATABASE_PATH, or mastermind.db)",
    )
    return parser


def _positive(raw: str) -> int:
    """argparse's check of `--keep`: at least one copy."""
    if not raw.isdigit() or int(raw) == 0:
        raise argparse.ArgumentTypeError(f"a number of copies, 1 or more, got {raw!r}")
    return int(raw)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of both `python -m bot` and the `mastermind-bot` script; returns the exit
    code. A configuration error is one line, no traceback."""
    signals.hold()  # `python -m bot` did already; the `mastermind-bot` script starts here
    args = build_parser(version()).parse_args(argv)
    if args.command not in (None, "run"):  # these run no event loop that would listen
        stopped = signals.release()
        if stopped is not None:
            return stopped
    if args.command == "health":  # runs beside the bot, with or without its settings
        from bot import health

        return health.main(args.health_file)
    if args.command == "backup":  # needs no token: it never talks to Discord
        from bot import backup

        return backup.main(args.to, args.into, args.keep, args.source)
    if args.command == "copy-to-postgres":  # needs no token: it never talks to Discord
        from bot import transfer

        return transfer.main(args.source, args.target)
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"mastermind-bot: {error}", file=sys.stderr)
        return 2
    from bot import runner
    from bot.logs import setup_logging

    setup_logging(settings.log_level)
    if args.command in ("sync", "unsync"):
        return runner.run_sync(settings, args.guild, remove=args.command == "unsync")
    return runner.run(settings, health_file=getattr(args, "health_file", None))
