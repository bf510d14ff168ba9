"""Compile the engine's kernels into numba's disk cache ahead of time.

    python -m bot.engine.precompile

Without it, the first solver worker after an install (or after `kernels.py` changed) compiles
them while it warms up, about 25 s before the bot is ready; every later worker loads them from
the cache in about a second. CI runs this before the tests, whose bot fixtures wait at most 30 s
for the bot to be ready.
"""

from __future__ import annotations

import sys
import time

from bot.engine import jobs


def main() -> int:
    started = time.perf_counter()
    jobs.warm_up()
    print(
        f"engine kernels compiled or loaded from the cache in {time.perf_counter() - started:.1f} s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
