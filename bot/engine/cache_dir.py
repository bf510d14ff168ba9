"""Where numba keeps the compiled kernels, and one compile at a time per cache.

numba caches next to the source, else in the user's cache; when it can write neither (a clone
owned by root, run as a service user without a home) it raises "no locator available" and the
worker dies. So the folder is chosen here, before numba reads its configuration, as one this
process can write: CACHE_DIR, else NUMBA_CACHE_DIR, else the user's cache folder. A folder that
cannot be written is copied to a temporary one, so what it holds still loads and the rest is
compiled there: a slower start and one WARNING, never a crash.
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

NUMBA_VARIABLE = "NUMBA_CACHE_DIR"
FOLDER = "mastermind-bot"
LOCK_NAME = "compile.lock"
STAMP_NAME = "complete.stamp"
"""Written after a warm-up that compiled (or loaded) every kernel to its end."""
KERNELS = Path(__file__).with_name("kernels.py")
COMPILE_SECONDS = 15
"""About how long compiling the kernels takes on a small host: 12.5 to 15.1 s measured on the
2-core development machine (#31). The log line that gives it is the one place this figure is
written: the docs point to that line (tests/test_release.py holds them to it)."""


@dataclass(frozen=True)
class CacheDir:
    """The folder numba uses in this process and its workers, and why another one was not."""

    path: Path
    problem: str | None = None
    """Set when the wanted folder could not be written: the WARNING to log."""

    @property
    def warm(self) -> bool:
        """Whether this copy's kernels were all compiled here (a load, not a compile): a
        warm-up that ran to its end left its stamp. Kernels alone do not tell: a first start
        stopped mid-compile leaves some of them, and the next start compiles the rest. numba
        checks each index against its source itself; this only chooses the log line."""
        try:
            return _stamp_path(self.path).read_text() == _stamp()
        except OSError:
            return False


def _ours(folder: Path) -> Path:
    """Where numba keeps this copy's kernels in `folder` (one subfolder per source folder,
    named as numba names it: the folder's name and the SHA-1 of its absolute path), so the
    caches of other copies sharing the folder are not looked at."""
    source = os.path.abspath(os.path.dirname(KERNELS))
    digest = hashlib.sha1(source.encode()).hexdigest()  # numba's own naming, not security
    return folder / f"{os.path.basename(source)}_{digest}"


def _stamp_path(folder: Path) -> Path:
    return _ours(folder) / STAMP_NAME


def _stamp() -> str:
    """What the stamp holds: the kernels' source as numba keys its cache (time and size), so
    an edited or reinstalled `kernels.py` is a compile again."""
    status = KERNELS.stat()
    return f"{status.st_mtime_ns} {status.st_size}\n"


def user_cache_folder(environ: Mapping[str, str]) -> Path:
    """`$XDG_CACHE_HOME/mastermind-bot/numba`, else `~/.cache/mastermind-bot/numba`."""
    base = environ.get("XDG_CACHE_HOME") or str(Path(environ.get("HOME") or "~").expanduser())
    if not environ.get("XDG_CACHE_HOME"):
        base = os.path.join(base, ".cache")
    return Path(base) / FOLDER / "numba"


def choose(configured: Path | None = None) -> CacheDir:
    """Point numba (here and in every worker started later) at a writable cache folder.

    `configured` is the CACHE_DIR setting; without it NUMBA_CACHE_DIR, else the user's cache
    folder. Call it before the kernels are imported; calling it again keeps the same folder.
    """
    wanted = configured or Path(os.environ.get(NUMBA_VARIABLE) or user_cache_folder(os.environ))
    problem = _cannot_write(wanted)
    chosen = CacheDir(wanted)
    if problem is not None:
        fallback = Path(tempfile.mkdtemp(prefix="mastermind-bot-numba-"))
        atexit.register(shutil.rmtree, fallback, ignore_errors=True)
        if wanted.is_dir():  # a read-only cache still loads: copy what it holds
            shutil.copytree(wanted, fallback, dirs_exist_ok=True, ignore_dangling_symlinks=True)
        chosen = CacheDir(
            fallback,
            f"cannot write the solver's cache in {wanted} ({problem}); compiling into {fallback} "
            "for this run instead, so every start compiles (about "
            f"{COMPILE_SECONDS} s): set CACHE_DIR to a folder this user can write",
        )
    os.environ[NUMBA_VARIABLE] = str(chosen.path)
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba read its configuration already: read it again
        config.reload_config()
    return chosen


def _cannot_write(folder: Path) -> str | None:
    """Why numba could not write in `folder` (made if missing), or None if it can."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        return error.strerror or type(error).__name__
    return None


def current() -> Path:
    """The folder `choose` chose (in this process or, inherited, its worker), else the default."""
    return Path(os.environ.get(NUMBA_VARIABLE) or user_cache_folder(os.environ))


@contextmanager
def compiling_alone() -> Iterator[None]:
    """Hold the cache's compile lock: one process compiles, the others wait, then load what it
    wrote. Without a lockable cache folder, go on unlocked (numba's writes are atomic)."""
    path = current() / LOCK_NAME
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # releases the lock


def warmed_alone(warm_up: Callable[[], T]) -> T:
    """A worker's `warm_up` under the compile lock (a module function: a worker can run it)."""
    with compiling_alone():
        return warm_up()


def compiled_alone(warm_up: Callable[[], T]) -> T:
    """`warmed_alone` for a warm-up that compiles every kernel: once it ends, the cache is
    stamped complete (`CacheDir.warm`), so a compile cut short is never taken for a full one."""
    with compiling_alone():
        result = warm_up()
        folder = current()
        with suppress(OSError):  # an unwritable cache compiles at every start anyway
            _stamp_path(folder).parent.mkdir(parents=True, exist_ok=True)
            _stamp_path(folder).write_text(_stamp())
        return result
