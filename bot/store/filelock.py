"""One bot process per database file: a lock on the database file itself, held for the
process's life.

The lock is taken on the file, not on its name: `flock` locks the file's inode, so every name
that reaches the same file (a symlink, a hard link, a relative path from another folder, the
same folder through a bind mount or another container's volume) meets the same lock. A lock
file beside the database would be a different file under each of those names.

`flock` and SQLite's own locks never meet: SQLite takes POSIX record locks (`fcntl`), which on
Linux are a separate kind. The kernel drops the lock when the process dies, however it dies,
so a crash never leaves it held.
"""

from __future__ import annotations

import errno
import fcntl
import os
import pwd
from pathlib import Path

from bot.store.errors import StoreInUse, StoreUnavailable

LOCKS = Path("/proc/locks")
"""Where Linux lists every lock held, with the holder's pid and the file's device and inode."""


def _user() -> str:
    """This process's user name (its uid where it has none, as in a container)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def claim(path: Path) -> int:
    """Lock the database file (created empty if missing: SQLite takes an empty file as a new
    database); returns the descriptor that holds the lock. Close it, after SQLite's own
    connections, to release it."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreUnavailable(
                f"cannot write in {path.parent.resolve()}, the database's folder "
                f"({error.strerror}): let the user the bot runs as ({_user()}) write there, or "
                "set DATABASE_PATH to a file in a folder it can write."
            ) from error
        raise StoreUnavailable(
            f"cannot create database {path}: {error.strerror or error}; set DATABASE_PATH to a "
            "file in a folder the bot can write to."
        ) from error
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        holder = holder_pid(os.fstat(descriptor))
        os.close(descriptor)
        if error.errno not in (errno.EAGAIN, errno.EACCES):
            raise StoreUnavailable(f"cannot lock database {path}: {error.strerror}.") from error
        raise StoreInUse(
            f"another mastermind-bot process (pid {holder or 'unknown'}) is already using "
            f"{path}: stop it first, or give this one its own DATABASE_PATH.",
            pid=holder,
        ) from None
    return descriptor


def holder_pid(stat: os.stat_result) -> str | None:
    """The pid holding a `flock` on the file, as the kernel lists it (None if unknown)."""
    identity = f"{os.major(stat.st_dev):02x}:{os.minor(stat.st_dev):02x}:{stat.st_ino}"
    try:
        listed = LOCKS.read_text()
    except OSError:
        return None
    for line in listed.splitlines():
        fields = line.split()
        if "FLOCK" in fields and identity in fields and "->" not in fields:  # not a waiter
            return fields[fields.index(identity) - 1]
    return None
