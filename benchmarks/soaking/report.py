"""The soak's figures over its measured window, printed beside the targets of issue #25.

A `Window` snapshots CPU counters when the measured part starts and ends (after warm-up);
`figures` turns it and the ledger into printable lines, in a form that can go into the docs.
"""

from __future__ import annotations

import os
import statistics
import time
from dataclasses import dataclass, field

from benchmarks.soaking.ledger import Ledger, Sent
from benchmarks.soaking.procstat import MemorySampler, cpu_seconds

CPU_TARGET_MS = 2.0
BUSY_P99_MS, BUSY_MAX_MS = 100.0, 500.0  # 10 busy channels
CROWD_MAX_MS = 1000.0  # 48 busy channels


@dataclass
class Window:
    """CPU seconds of each bot main process and of this process over the measured window."""

    pids: list[int]
    start: float = field(default_factory=time.perf_counter)
    end: float = 0.0
    bot_cpu: dict[int, float] = field(default_factory=dict)
    own_cpu: float = 0.0

    def __post_init__(self) -> None:
        self.bot_cpu = {pid: -cpu_seconds(pid) for pid in self.pids}
        self.own_cpu = -cpu_seconds(os.getpid())

    def close(self) -> None:
        self.end = time.perf_counter()
        for pid in self.pids:
            self.bot_cpu[pid] += cpu_seconds(pid)
        self.own_cpu += cpu_seconds(os.getpid())

    @property
    def seconds(self) -> float:
        return self.end - self.start


def percentile(values: list[float], fraction: float) -> float:
    """Nearest rank from above: a value that was observed."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


@dataclass(frozen=True)
class Summary:
    """One run's headline figures, for a side-by-side table."""

    label: str
    per_second: float
    moves_per_second: float
    bot_cpu_ms: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    passed: bool

    HEADER = "run                          inter/s  moves/s  CPU ms/inter  p50 ms  p99 ms  max ms"

    def row(self) -> str:
        return (
            f"{self.label:<28} {self.per_second:7.1f}  {self.moves_per_second:7.1f}  "
            f"{self.bot_cpu_ms:12.2f}  {self.p50_ms:6.1f}  {self.p99_ms:6.1f}  {self.max_ms:6.1f}"
            + ("" if self.passed else "  FAILED CHECK")
        )


def summary(label: str, window: Window, ledger: Ledger, passed: bool) -> Summary:
    answered = ledger.answered_between(window.start, window.end)
    values = [e.handle.latency * 1000 for e in answered if e.handle.latency is not None] or [0.0]
    moves = sum(1 for e in answered if e.acknowledged and e.source is not None)
    return Summary(
        label,
        len(answered) / window.seconds,
        moves / window.seconds,
        sum(window.bot_cpu.values()) * 1000 / max(1, len(answered)),
        statistics.median(values),
        percentile(values, 0.99),
        max(values),
        passed,
    )


def latency_line(label: str, entries: list[Sent]) -> str:
    values = [e.handle.latency * 1000 for e in entries if e.handle.latency is not None]
    if not values:
        return f"  {label:<22} n=   0"
    return (
        f"  {label:<22} n={len(values):>5}  p50 {statistics.median(values):6.1f}  "
        f"p99 {percentile(values, 0.99):6.1f}  max {max(values):6.1f} ms"
    )


def figures(window: Window, ledger: Ledger, channels: int, processes: int) -> list[str]:
    """Throughput, CPU per interaction, latency per kind, over the window."""
    answered = ledger.answered_between(window.start, window.end)
    moves = [e for e in answered if e.acknowledged and e.source is not None]
    count = max(1, len(answered))
    bot_ms = sum(window.bot_cpu.values()) * 1000 / count
    own_ms = window.own_cpu * 1000 / count
    one, five, fifteen = os.getloadavg()
    target = (
        f"p99 <= {BUSY_P99_MS:.0f} ms, max <= {BUSY_MAX_MS:.0f} ms"
        if channels <= 10
        else f"nothing lost, max <= {CROWD_MAX_MS:.0f} ms"
    )
    lines = [
        f"window {window.seconds:.1f} s, {channels} channels x {processes} process(es); "
        f"load average {one:.2f} {five:.2f} {fifteen:.2f} ({os.cpu_count()} cores)",
        f"throughput: {len(answered) / window.seconds:.1f} interactions/s, "
        f"{len(moves) / window.seconds:.1f} moves stored/s ({len(answered)} interactions)",
        f"bot main-process CPU per interaction: {bot_ms:.2f} ms (target <= {CPU_TARGET_MS} ms; "
        f"{sum(window.bot_cpu.values()) / window.seconds:.2f} of a core)",
        f"fake Discord + players process CPU per interaction: {own_ms:.2f} ms "
        f"({window.own_cpu / window.seconds:.2f} of a core)",
        f"first-answer latency (target {target}):",
        latency_line("all", answered),
    ]
    for kind in sorted({e.kind for e in answered}):
        lines.append(latency_line(kind, [e for e in answered if e.kind == kind]))
    return lines


def memory_lines(memory: MemorySampler) -> list[str]:
    """Start, peak and end RSS of every process sampled."""
    lines = ["memory (RSS, MB: start / peak / end):"]
    for track in memory.tracks.values():
        lines.append(
            f"  {track.name:<48} {track.start:6.0f} / {track.peak:6.0f} / {track.end:6.0f}"
        )
    return lines


def latency_failures(window: Window, ledger: Ledger, channels: int) -> list[str]:
    """Targets on latency that were missed (printed; never a --check failure)."""
    answered = ledger.answered_between(window.start, window.end)
    values = [e.handle.latency * 1000 for e in answered if e.handle.latency is not None]
    if not values:
        return ["no interaction answered in the window"]
    worst, p99 = max(values), percentile(values, 0.99)
    if channels <= 10 and (p99 > BUSY_P99_MS or worst > BUSY_MAX_MS):
        return [f"latency p99 {p99:.0f} ms / max {worst:.0f} ms above the 10-channel target"]
    if channels > 10 and worst > CROWD_MAX_MS:
        return [f"latency max {worst:.0f} ms above the busy target"]
    return []
