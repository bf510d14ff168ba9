"""A bot running as a subprocess (`python -m tests.discord_fake.launch ...`), for restart tests."""

from __future__ import annotations

import asyncio
import contextlib
import signal
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
        since_identify: int = 0,
    ) -> None:
        self.fake = fake
        self.since_identify = since_identify
        self.process = process
        self.command = list(command)
        self.output_lines: list[str] = []
        self._reader = asyncio.create_task(self._read_output(), name=f"bot-output-{self.pid}")

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
        """Start the command with stdout and stderr captured together."""
        process = await asyncio.create_subprocess_exec(
            *command,
            env=dict(env),
            cwd=str(cwd),
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        return cls(fake, process, command, since_identify)

    async def _read_output(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while line := await stream.readline():
            self.output_lines.append(line.decode(errors="replace").rstrip())
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
        """Wait for the process to exit and its output to be read; returns the exit code."""
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        assert self.returncode is not None
        return self.returncode

    async def stop(self, timeout: float = 5.0) -> int:
        """Terminate, then kill if it has not exited within `timeout`; returns the exit code."""
        if self.returncode is None:
            self.terminate()
            try:
                return await self.wait(timeout)
            except TimeoutError:
                self.kill()
        return await self.wait(timeout)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()
