"""CPU time and resident memory of processes, read from Linux's /proc (no extra package).

The soak measures the bot's main process by its own counters (utime + stime), not by the wall
clock, so other work on a shared machine does not inflate the bot's CPU per interaction.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds the process has used so far (0.0 once it is gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()  # after "pid (comm) "
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime (fields 14 and 15)


def rss_mb(pid: int) -> float:
    """Resident memory in MB (0.0 once the process is gone)."""
    try:
        resident = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return 0.0
    return resident * PAGE / 2**20


def children(pid: int) -> list[int]:
    """The process's direct children (its solver workers, Python's resource tracker...)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except OSError:
            continue
    return sorted(set(found))


def name_of(pid: int) -> str:
    """A short name for a child: the module or script it runs (`-c` code is shortened)."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return f"pid {pid}"
    words = [a.decode(errors="replace") for a in argv if a]
    if "-c" in words:
        code = words[words.index("-c") + 1] if words.index("-c") + 1 < len(words) else ""
        if "resource_tracker" in code:
            return "resource tracker"
        if "spawn_main" in code or "forkserver" in code:
            return "worker"
        return "python -c"
    return " ".join([Path(words[0]).name, *words[1:3]]) if words else f"pid {pid}"


@dataclass
class MemoryTrack:
    """One process's resident memory over a soak: first, highest and last sample (MB)."""

    name: str
    start: float
    peak: float
    end: float

    def add(self, value: float) -> None:
        self.peak = max(self.peak, value)
        self.end = value


class MemorySampler:
    """Samples the RSS of a process and of each of its children; `sample()` about once a second.

    Children are told apart by pid, named by what they run ("worker", "resource tracker").
    """

    def __init__(self) -> None:
        self.tracks: dict[int, MemoryTrack] = {}

    def sample(self, pid: int, label: str) -> None:
        """Sample `pid` (named `label`) and every child it has now."""
        self._add(pid, label)
        for child in children(pid):
            self._add(child, f"{label} child {child} ({name_of(child)})")

    def _add(self, pid: int, name: str) -> None:
        value = rss_mb(pid)
        if value == 0.0:
            return
        track = self.tracks.get(pid)
        if track is None:
            self.tracks[pid] = MemoryTrack(name, value, value, value)
        else:
            track.add(value)
