"""The soak under Discord's rate limits (`--rate-limits`): how long boards take to show the
last move, how often the bot met a 429, and how far it stays from Discord's ban line.

A board's lag is the time from the move that gave its game its stored version (the move's
stored time) to the first time the fake's message showed that version (its footer names
"Game <id> · move <version>"). Read once every board has converged (chaos_boards.converge).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from benchmarks.soaking.chaos_boards import Convergence, edition
from benchmarks.soaking.chaos_reads import boards, last_move_times
from benchmarks.soaking.report import percentile
from tests.discord_fake import FakeDiscord

PER = 10_000
"""Invalid requests are given per this many interactions."""


@dataclass
class BoardLags:
    """Seconds from each board's last move to the board showing it, and boards never shown."""

    seconds: list[float] = field(default_factory=list)
    never: int = 0


def footer(payload: dict[str, object]) -> str:
    embeds = payload.get("embeds") or []
    first = embeds[0] if isinstance(embeds, list) and embeds else {}
    text = (first.get("footer") or {}).get("text") if isinstance(first, dict) else None
    return str(text or "")


async def board_lags(fake: FakeDiscord, database: str) -> BoardLags:
    """Every kept board's lag behind its game's last move."""
    moved_at = await last_move_times(database)
    lags = BoardLags()
    for board in await boards(database):
        at = moved_at.get(board.game_id)
        if at is None:
            continue  # no move yet (a game just started): nothing to lag behind
        try:
            message = fake.message(board.message_id)
        except KeyError:
            lags.never += 1
            continue
        shown = [
            when
            for payload, when in zip(message.history, message.history_times, strict=True)
            if edition(board) in footer(payload)
        ]
        if not shown:
            lags.never += 1
        else:
            lags.seconds.append(max(0.0, shown[0] - at))
    return lags


def lines(fake: FakeDiscord, lags: BoardLags, converged: Convergence) -> list[str]:
    """The figures of a rate-limited run (or of an unlimited one, for comparison)."""
    limiter = fake.rate_limiter
    interactions = len(fake.interactions)
    found = [
        f"boards: {converged.boards}, not converged {len(converged.behind)} (must be 0); "
        f"lag behind the last move (n={len(lags.seconds)}): "
        + (
            f"p50 {percentile(lags.seconds, 0.5):.2f} s, p99 "
            f"{percentile(lags.seconds, 0.99):.2f} s, max {max(lags.seconds):.2f} s"
            if lags.seconds
            else "none measured"
        )
        + (f"; {lags.never} never showed their last move" if lags.never else "")
    ]
    if limiter is None:
        return [*found, "rate limits: off (the fake limits nothing)"]
    buckets = Counter(hit.bucket for hit in limiter.hits)
    early = sum(1 for v in fake.violations if v.rule == "retry-too-soon")
    per = limiter.invalid_total * PER / interactions if interactions else 0.0
    return [
        *found,
        f"rate limits: {len(limiter.hits)} requests answered 429 ("
        + (", ".join(f"{name} {n}" for name, n in buckets.most_common()) or "none")
        + f"); retried sooner than retry_after: {early} (must be 0)",
        f"invalid requests (401, 403, 429): {limiter.invalid_total} for {interactions} "
        f"interactions = {per:.1f} per {PER:,} (Discord bans at 10,000 in 10 minutes)",
    ]
