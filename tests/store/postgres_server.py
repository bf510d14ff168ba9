"""A real PostgreSQL server for the tests, started and stopped by the tests themselves.

`initdb` into a fresh temporary folder, `pg_ctl start` on a free loopback port (no Unix socket,
trust authentication on 127.0.0.1 only, fsync off: the data is thrown away), one empty database
per test, and `pg_ctl stop` at the end of the session. The binaries come from PATH or from
Debian's /usr/lib/postgresql/<version>/bin (`apt-get install postgresql`; `.ci/run` does it).

PostgreSQL refuses to run as root, so as root the server runs as the `postgres` system user
(created by the Debian package) through `runuser`.

Use the `postgres_server` fixture (pytest plugin: `tests.store.pg_fixtures`); without the
binaries it skips, saying why.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import glob
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")
SUPERUSER = "postgres"


class PostgresUnavailable(Exception):
    """No PostgreSQL server can be run here; the message says why (the skip reason)."""


def find_binaries() -> Path:
    """The folder holding initdb and pg_ctl."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "pg_ctl").exists() and (Path(folder) / "initdb").exists():
            return Path(folder)
    raise PostgresUnavailable(
        "PostgreSQL binaries (initdb, pg_ctl) not found on PATH or in /usr/lib/postgresql/*/bin; "
        "install them (Debian: apt-get install postgresql) to run the PostgreSQL tests"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to the end from synchronous code, even inside a running event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def placeholders(sql: str) -> str:
    """`?` placeholders (as the SQLite tests write them) to PostgreSQL's `$1, $2, ...`."""
    numbers = itertools.count(1)
    return re.sub(r"\?", lambda _: f"${next(numbers)}", sql)


class PostgresServer:
    """One throwaway PostgreSQL cluster on 127.0.0.1."""

    def __init__(self) -> None:
        self.bin = find_binaries()
        self.as_root = os.geteuid() == 0
        self._user: pwd.struct_passwd | None = None
        if self.as_root:
            try:
                self._user = pwd.getpwnam("postgres")
            except KeyError:
                raise PostgresUnavailable(
                    "running as root, and PostgreSQL refuses root: no 'postgres' system user to "
                    "run it as (the Debian package creates it)"
                ) from None
            if shutil.which("runuser") is None:
                raise PostgresUnavailable("running as root without runuser to drop privileges")
        self.folder = Path(tempfile.mkdtemp(prefix="mastermind-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self.port = 0
        self._numbers = itertools.count(1)

    def _command(self, *args: str) -> list[str]:
        if self._user is not None:
            return ["runuser", "-u", self._user.pw_name, "--", *args]
        return list(args)

    def _run(self, *args: str, timeout: float = 60.0) -> None:
        done = subprocess.run(
            self._command(*args),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            cwd=self.folder,
        )
        if done.returncode:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailable(
                f"{Path(args[0]).name} failed ({done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-1500:]}\n{log}"
            )

    def start(self) -> None:
        if self._user is not None:
            os.chown(self.folder, self._user.pw_uid, self._user.pw_gid)
        self._run(
            str(self.bin / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        for attempt in range(3):
            self.port = _free_port()
            options = (
                f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                "-c max_connections=200 -c shared_buffers=32MB"
            )
            try:
                self._run(
                    str(self.bin / "pg_ctl"),
                    "start",
                    "-w",
                    "-t",
                    "60",
                    "-D",
                    str(self.data),
                    "-l",
                    str(self.log),
                    "-o",
                    options,
                    timeout=90.0,
                )
                return
            except PostgresUnavailable:
                if attempt == 2:  # the port may have been taken meanwhile: try another
                    raise

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bin / "pg_ctl"), "stop", "-D", str(self.data), "-m", "immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "t") -> str:
        """A new, empty database; returns its URL."""
        name = f"{prefix}_{os.getpid()}_{next(self._numbers)}"

        async def create() -> None:
            conn = await asyncpg.connect(self.dsn())
            try:
                await conn.execute(f'CREATE DATABASE "{name}"')
            finally:
                await conn.close()

        run_sync(create())
        return self.dsn(name)

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]

        async def drop() -> None:
            conn = await asyncpg.connect(self.dsn())
            try:
                await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            finally:
                await conn.close()

        run_sync(drop())


def query(url: str, sql: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
    """Rows of a plain SQL query (`?` or `$n` placeholders) on its own connection, as an
    outside tool would read (or write) the database."""

    async def fetch() -> list[tuple[Any, ...]]:
        conn = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await conn.fetch(placeholders(sql), *params)]
        finally:
            await conn.close()

    return run_sync(fetch())
