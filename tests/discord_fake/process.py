"""A bot running as a subprocess (`python -m tests.discord_fake.launch ...`), for restart tests."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Self

if TYPE_CHECKING:
    from tests.discord_fake.driver import FakeDiscord


class BotProcess:
    """Handle on a bot subprocess: readiness, signals, exit code and captured output."""

    def __init__(
        self,
        fake: FakeDiscord,
        process: asyncio.subprocess.Process,
        command: Sequence[str],
        log_path: Path,
        since_identify: int = 0,
    ) -> None:
        self.fake = fake
        self.since_identify = since_identify
        self.process = process
        self.command = list(command)
        self.log_path = log_path
        self._final_output: list[str] | None = None
        self._exit = asyncio.create_task(self._watch_exit(), name=f"bot-exit-{self.pid}")

    @classmethod
    async def start(
        cls,
        fake: FakeDiscord,
        command: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        since_identify: int = 0,
    ) -> BotProcess:
        """Start the command with stdout and stderr going to one log file.

        A file, not a pipe: children of the bot (worker pools) inherit the descriptor, and on
        Python 3.11 asyncio's `Process.wait()` waits for the pipes to close as well.
        """
        with tempfile.NamedTemporaryFile(prefix="bot-", suffix=".log", delete=False) as log:
            process = await asyncio.create_subprocess_exec(
                *command,
                env=dict(env),
                cwd=str(cwd),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # its own process group, so cleanup reaches children
            )
        return cls(fake, process, command, Path(log.name), since_identify)

    async def _watch_exit(self) -> None:
        await self.process.wait()
        self.fake.changed()

    @property
    def pid(self) -> int:
        """The process id."""
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        """The exit code (negative: killed by that signal), or None while running."""
        return self.process.returncode

    @property
    def output_lines(self) -> list[str]:
        """Everything the bot printed (stdout and stderr) so far, line by line."""
        if self._final_output is not None:
            return self._final_output
        try:
            return self.log_path.read_text(errors="replace").splitlines()
        except FileNotFoundError:
            return []

    @property
    def output(self) -> str:
        """Everything the bot printed (stdout and stderr) so far."""
        return "\n".join(self.output_lines)

    def _exit_reason(self) -> str | None:
        if self.returncode is None:
            return None
        tail = "\n".join(self.output_lines[-20:])
        return f"process exited with code {self.returncode}; output:\n{tail}"

    async def wait_ready(self, timeout: float = 20.0, *, commands: bool = False) -> None:
        """Wait for the fake to see this bot ready; fails at once if the process exits."""
        await self.fake.wait_ready(
            timeout,
            commands=commands,
            since_identify=self.since_identify,
            alive=self._exit_reason,
        )

    def send_signal(self, sig: int) -> None:
        """Send a signal if the process still runs."""
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.send_signal(sig)

    def kill(self) -> None:
        """SIGKILL: a crash, no cleanup in the bot."""
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        """SIGTERM: what a service manager sends on stop."""
        self.send_signal(signal.SIGTERM)

    def interrupt(self) -> None:
        """SIGINT: Ctrl-C."""
        self.send_signal(signal.SIGINT)

    async def wait(self, timeout: float = 10.0) -> int:
        """Wait for the process to exit; returns the exit code (-9 after `kill()`)."""
        await asyncio.wait_for(asyncio.shield(self._exit), timeout)
        assert self.returncode is not None
        return self.returncode

    def kill_group(self) -> None:
        """SIGKILL the bot's whole process group: anything it started that still runs."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    async def stop(self, timeout: float = 5.0) -> int:
        """Terminate, kill after `timeout`, then kill leftovers in its process group.

        The output stays readable; its log file is removed.
        """
        try:
            if self.returncode is None:
                self.terminate()
                try:
                    await self.wait(timeout)
                except TimeoutError:
                    self.kill()
            return await self.wait(timeout)
        finally:
            self.kill_group()
            if self._final_output is None:
                self._final_output = self.output_lines
                self.log_path.unlink(missing_ok=True)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()
