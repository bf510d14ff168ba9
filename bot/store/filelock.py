"""One bot process per database file: an advisory lock held beside it for the process's life."""

from __future__ import annotations

import errno
import fcntl
import os
import pwd
from pathlib import Path

from bot.store.errors import StoreInUse, StoreUnavailable


def _user() -> str:
    """This process's user name (its uid where it has none, as in a container)."""
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def claim(path: Path) -> int:
    """Lock `<path>.lock` and write our pid into it; returns the descriptor that holds the lock.

    The kernel drops the lock when the process dies, however it dies, so a crash never leaves it
    held. Close the descriptor to release it.
    """
    lock_path = path.with_name(path.name + ".lock")
    try:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            raise StoreUnavailable(
                f"cannot write in {path.parent.resolve()}, the database's folder "
                f"({error.strerror}): let the user the bot runs as ({_user()}) write there, or "
                "set DATABASE_PATH to a file in a folder it can write."
            ) from error
        raise StoreUnavailable(
            f"cannot create {lock_path} beside the database: {error.strerror or error}."
        ) from error
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(descriptor)
        if error.errno not in (errno.EAGAIN, errno.EACCES):
            raise StoreUnavailable(f"cannot lock {lock_path}: {error.strerror}.") from error
        raise StoreInUse(
            f"another mastermind-bot process (pid {holder}) is already using {path}: stop it "
            "first, or give this one its own DATABASE_PATH.",
            pid=holder,
        ) from None
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
    return descriptor
