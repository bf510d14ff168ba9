"""Run a bot module as `python -m <module>` would, but against the fake Discord.

    python -m tests.discord_fake.launch <rest_base> <gateway_url> [module [args...]]
    FAKE_DISCORD_REST=... FAKE_DISCORD_GATEWAY=... python -m tests.discord_fake.launch [module]

`module` defaults to `bot`; further arguments become the module's sys.argv[1:].
FAKE_DISCORD_GUILD_READY_TIMEOUT (seconds, default 0.1) shortens discord.py's wait between the
last GUILD_CREATE and on_ready. The bot's code is not touched: only discord.py's class
attributes are patched before the module runs (see patching.py).
"""

from __future__ import annotations

import os
import runpy
import sys

from tests.discord_fake.patching import apply_patches

USAGE = "usage: python -m tests.discord_fake.launch [<rest_base> <gateway_url>] [module [args]]"


def main(argv: list[str] | None = None) -> None:
    """Patch discord.py from the arguments or environment, then run the module as __main__."""
    args = list(sys.argv[1:] if argv is None else argv)
    if len(args) >= 2 and args[0].startswith("http"):
        rest, gateway, args = args[0], args[1], args[2:]
    else:
        rest = os.environ.get("FAKE_DISCORD_REST", "")
        gateway = os.environ.get("FAKE_DISCORD_GATEWAY", "")
    if not rest or not gateway:
        print(USAGE, file=sys.stderr)
        raise SystemExit(2)
    module, module_args = (args[0], args[1:]) if args else ("bot", [])
    timeout = float(os.environ.get("FAKE_DISCORD_GUILD_READY_TIMEOUT", "0.1"))
    apply_patches(rest, gateway, guild_ready_timeout=timeout)
    sys.argv = [module, *module_args]
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
