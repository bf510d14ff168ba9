"""Compile the engine's kernels into numba's disk cache ahead of time.

    python -m bot.engine.precompile [FOLDER]

The cache is FOLDER, else CACHE_DIR, NUMBA_CACHE_DIR or the user's cache folder, as the bot
chooses it (`cache_dir.choose`). Without this, the bot's first start after an install (or after
`kernels.py` changed) compiles them in the background (`cache_dir.COMPILE_SECONDS`) while it
already answers; every later start loads them in about a second. A container image runs it at
build time, into the folder its bot later reads.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from bot.engine import cache_dir


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    wanted = args[0] if args else os.environ.get("CACHE_DIR", "").strip()
    cache = cache_dir.choose(Path(wanted) if wanted else None)
    if cache.problem is not None:
        print(f"warning: {cache.problem}", file=sys.stderr)
    from bot.engine import jobs  # after the folder is chosen: numba reads it on import

    started = time.perf_counter()
    cache_dir.compiled_alone(jobs.warm_up)
    print(
        f"engine kernels compiled or loaded from the cache in {time.perf_counter() - started:.1f} s"
        f" ({cache.path})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
