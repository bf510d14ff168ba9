"""The opt-in Prometheus endpoint (METRICS_PORT): what a host graphs and alerts on.

prometheus-client serves `/metrics` from its own thread, so a scrape never waits on the event
loop. The store and the solver report through `bot.metrics` (its calls are no-ops without this
module); the Discord side is read here, from outside the input code: each interaction's arrival
from the gateway event (Bot.dispatch), its first answer from discord.py's adapter for
interaction answers (`async_context`, set for the bot's tasks), board edits and each REST
request's time (rate-limit waits included) from a wrapper of its REST client's `request`,
discord.py's own waits on an empty bucket from its buckets (bot/bucket_waits.py), and 429s
from the WARNING it logs for each. An aiohttp trace would
see all of it in one place but costs about 37 us of CPU per request (benchmarks/metrics_cost.py),
over the budget of 50 us per interaction. Running games and the workers' memory are sampled
every REFRESH_SECONDS.
"""

from __future__ import annotations

import functools
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import discord
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from bot import bucket_waits, metrics

REFRESH_SECONDS = 15.0
UNANSWERED_SECONDS = 15.0
"""An interaction with no answer after this is counted `unanswered` (Discord gave up at 3 s)."""
LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0)
BOARD_EDIT = "/channels/{channel_id}/messages/{message_id}"
"""The route of a channel message's edit: how boards are redrawn."""
RATE_LIMITED = "We are being rate limited."
"""How discord.py's http.py begins its WARNING for a 429 it waits out and retries."""


class MetricsUnavailable(Exception):
    """The endpoint cannot listen; `str(error)` is the one line to show."""


class _MeteredAdapter(AsyncWebhookAdapter):
    """discord.py's adapter for interaction answers, timing each first answer (the callback)."""

    def __init__(self, series: Prometheus) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.series = series

    def create_interaction_response(self, interaction_id: int, token: str, **options: Any) -> Any:
        return self._timed(
            interaction_id, super().create_interaction_response(interaction_id, token, **options)
        )

    async def _timed(self, interaction_id: int, answer: Any) -> Any:
        try:
            result = await answer
        except discord.HTTPException:
            self.series.answered(interaction_id, ok=False)
            raise
        self.series.answered(interaction_id, ok=True)
        return result


class Prometheus(metrics.Sink):
    """Every series, in a registry of its own; `serve` starts the endpoint."""

    def __init__(self) -> None:
        disable_created_metrics()  # type: ignore[no-untyped-call]  # no `_created` twins
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)  # process_resident_memory_bytes, CPU, open files
        PlatformCollector(registry=registry)
        # Every series in this registry, every latency in the same buckets: said once here.
        counter = functools.partial(Counter, registry=registry)
        gauge = functools.partial(Gauge, registry=registry)
        latency = functools.partial(Histogram, buckets=LATENCY, registry=registry)
        self.interactions = counter(
            "mastermind_interactions",
            "Interactions received, by kind (command:<name>, component, modal, autocomplete) "
            "and outcome (answered, failed: Discord refused the answer, unanswered)",
            ["kind", "outcome"],
        )
        self.first_answer = latency(
            "mastermind_interaction_first_answer_seconds",
            "From the interaction's arrival to its first answer's acknowledgement by Discord "
            "(Discord's deadline is 3 s)",
        )
        self.transactions = latency(
            "mastermind_store_transaction_seconds",
            "One store transaction, waiting for the database included",
            ["access"],
        )
        self.commits = latency(
            "mastermind_store_commit_seconds",
            "One SQLite COMMIT (a group commit of every write waiting together)",
        )
        self.solver_queue = gauge(
            "mastermind_solver_jobs_in_flight",
            "Solver jobs queued or running (moves, hints, reviews, simulations)",
        )
        self.solver_jobs = latency(
            "mastermind_solver_job_seconds",
            "One solver job, waiting for a worker included",
        )
        self.board_edits = counter("mastermind_board_edits", "Channel messages (boards) edited")
        self.requests = latency(
            "mastermind_discord_request_seconds",
            "One REST request to Discord by route (method and path template), discord.py's "
            "waits for a rate limit's bucket included: a slow tail here is the rate limit",
            ["route"],
        )
        self._routes: dict[tuple[str, str], Any] = {}
        self.rate_limited = counter(
            "mastermind_discord_rate_limited",
            "Requests Discord answered 429 (discord.py waits retry_after, then retries)",
        )
        self.rate_limit_wait = counter(
            "mastermind_discord_rate_limit_wait_seconds",
            "Seconds of retry_after in Discord's 429 answers",
        )
        self.bucket_waits = counter(
            "mastermind_discord_bucket_waits",
            "Requests discord.py held back, by route, because Discord's headers said their "
            "bucket was empty (no 429: it waits for the bucket's reset before sending, or "
            "after the answer that emptied it)",
            ["route"],
        )
        self.bucket_wait_seconds = counter(
            "mastermind_discord_bucket_wait_seconds",
            "Seconds requests were held by those waits, by route",
            ["route"],
        )
        self._held: dict[tuple[str, str], tuple[Any, Any]] = {}
        self.running = gauge("mastermind_games_running", "Games running, by mode", ["mode"])
        self._workers: Callable[[], Sequence[tuple[str, int]]] = list
        registry.register(_WorkerMemory(lambda: self._workers()))
        self._arrived: dict[int, tuple[float, str]] = {}
        # Labelled children looked up once: `labels()` on every call is most of their cost.
        self._read = self.transactions.labels("read")
        self._write = self.transactions.labels("write")
        self._counted: dict[tuple[str, str], Any] = {}

    # --- bot.metrics.Sink --------------------------------------------------------------

    def transaction(self, write: bool, seconds: float) -> None:
        (self._write if write else self._read).observe(seconds)

    def commit(self, seconds: float) -> None:
        self.commits.observe(seconds)

    def solver_job(self, change: int, seconds: float | None = None) -> None:
        self.solver_queue.inc(change)
        if seconds is not None:
            self.solver_jobs.observe(seconds)

    # --- the Discord side ----------------------------------------------------------------

    def arrived(self, interaction_id: int, kind: str) -> None:
        """An interaction came in (the gateway event, before any handler)."""
        self._arrived[interaction_id] = (time.perf_counter(), kind)

    def answered(self, interaction_id: int, ok: bool) -> None:
        """Discord acknowledged (or refused) an interaction's first answer."""
        arrived = self._arrived.pop(interaction_id, None)
        if arrived is not None:
            started, kind = arrived
            self.first_answer.observe(time.perf_counter() - started)
            self._count(kind, "answered" if ok else "failed")

    def attach(self, client: discord.Client) -> None:
        """Watch `client`'s answers, board edits and rate limits. Call it from the task that
        runs the client (setup_hook): the answers' adapter is a context variable, which every
        task the client starts from there inherits."""
        async_context.set(_MeteredAdapter(self))
        request = client.http.request

        async def counted(route: Route, **options: Any) -> Any:
            if route.method == "PATCH" and route.path == BOARD_EDIT:
                self.board_edits.inc()
            started = time.perf_counter()
            being_made = bucket_waits.ROUTE.set(route)
            try:
                return await request(route, **options)
            finally:
                bucket_waits.ROUTE.reset(being_made)
                self._request(route.method, route.path, time.perf_counter() - started)

        setattr(client.http, "request", counted)  # noqa: B010 - an instance's method, wrapped
        bucket_waits.time_waits(client.http, self.held)
        logging.getLogger("discord.http").addFilter(self._rate_limited)

    def _request(self, method: str, path: str, seconds: float) -> None:
        child = self._routes.get((method, path))
        if child is None:
            child = self._routes[method, path] = self.requests.labels(f"{method} {path}")
        child.observe(seconds)

    def held(self, route: Route | None, seconds: float) -> None:
        """discord.py held a request of `route` for `seconds` on an empty bucket."""
        key = ("?", "?") if route is None else (route.method, route.path)
        children = self._held.get(key)
        if children is None:
            label = " ".join(key)
            children = self._held[key] = (
                self.bucket_waits.labels(label),
                self.bucket_wait_seconds.labels(label),
            )
        children[0].inc()
        children[1].inc(seconds)

    def _rate_limited(self, record: logging.LogRecord) -> bool:
        """discord.py's WARNING for each 429 (method, url, retry_after): counted, kept."""
        if str(record.msg).startswith(RATE_LIMITED) and isinstance(record.args, tuple):
            self.rate_limited.inc()
            retry = record.args[-1]
            if isinstance(retry, int | float):
                self.rate_limit_wait.inc(float(retry))
        return True

    def _count(self, kind: str, outcome: str) -> None:
        child = self._counted.get((kind, outcome))
        if child is None:
            child = self._counted[kind, outcome] = self.interactions.labels(kind, outcome)
        child.inc()

    def refresh(self, running: Iterable[tuple[str, int]]) -> None:
        """The periodic part: games running per mode, and interactions never answered."""
        for mode, count in running:
            self.running.labels(mode).set(count)
        stale = time.perf_counter() - UNANSWERED_SECONDS
        for interaction_id, (started, kind) in list(self._arrived.items()):
            if started < stale:
                del self._arrived[interaction_id]
                self._count(kind, "unanswered")

    def watch_workers(self, workers: Callable[[], Sequence[tuple[str, int]]]) -> None:
        """Where the worker processes are: (pool, pid) pairs, read at each scrape."""
        self._workers = workers

    def serve(self, port: int, address: str) -> None:
        """Listen on `address:port` (a thread of prometheus-client's); MetricsUnavailable, one
        line, if it cannot."""
        try:
            start_http_server(port, addr=address, registry=self.registry)
        except OSError as error:
            raise MetricsUnavailable(
                f"cannot serve metrics on {address}:{port} (METRICS_PORT, METRICS_ADDRESS): "
                f"{error.strerror or error}; give each bot process a port of its own, or leave "
                "METRICS_PORT empty."
            ) from error


def kind_of(data: dict[str, Any], interaction_type: int) -> str:
    """`command:play`, `component`, `modal`, `autocomplete`: few enough values for a label."""
    if interaction_type == 2:  # an application command: /mastermind <subcommand>
        options = data.get("options") or []
        name = options[0].get("name") if options and options[0].get("type") == 1 else None
        return f"command:{name or data.get('name', '?')}"
    return {3: "component", 4: "autocomplete", 5: "modal"}.get(interaction_type, "other")


class _WorkerMemory:
    """mastermind_worker_resident_bytes{pool}: each worker process's resident memory, read from
    /proc at scrape time (the bot's own is process_resident_memory_bytes)."""

    def __init__(self, workers: Callable[[], Sequence[tuple[str, int]]]) -> None:
        self.workers = workers

    def collect(self) -> Iterable[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "mastermind_worker_resident_bytes",
            "Resident memory of each worker process (solver, simulation, chart)",
            labels=["pool", "pid"],
        )
        page = os.sysconf("SC_PAGE_SIZE")
        for pool, pid in self.workers():
            try:
                with open(f"/proc/{pid}/statm") as statm:
                    resident = int(statm.read().split()[1]) * page
            except (OSError, ValueError, IndexError):
                continue
            family.add_metric([pool, str(pid)], resident)
        yield family
