"""The bot: opens the store, starts the solver workers, loads every mode's cog, syncs commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import health, metrics, sync
from bot.charts.pool import ChartPool
from bot.cluster import Chore, Cluster, LeaseKeeper
from bot.config import Settings
from bot.engine import cache_dir
from bot.engine.game import Game
from bot.interactions import boards, expiry
from bot.interactions.context import Host, ModeSpec, TimerPass
from bot.interactions.keeper import BoardKeeper
from bot.interactions.replies import on_app_command_error
from bot.interactions.timers import Timers
from bot.modes import registry
from bot.prometheus import REFRESH_SECONDS, Prometheus, kind_of
from bot.solver_pool import SolverPool, SolverUnavailable
from bot.store import Held, Store, StoreBusy, always, open_store
from bot.ui.i18n import Messages
from bot.ui.i18n.translator import CatalogueTranslator

if TYPE_CHECKING:  # imported only when ACTIVITY_PORT is set (`_start_activity`)
    from bot.web.service import ActivityServer

log = logging.getLogger(__name__)


SHUTDOWN_GRACE_SECONDS = 4.0
"""Moves in flight finish within this (the solver's budget is 2 s; Discord waits 3 s)."""


def _prometheus(settings: Settings) -> Prometheus | None:
    """The metrics' series when METRICS_PORT is set; every store and solver measurement goes
    to them from now on (bot.metrics)."""
    if settings.metrics_port is None:
        return None
    series = Prometheus()
    metrics.use(series)
    return series


@contextlib.contextmanager
def _retried_later(what: str) -> Iterator[None]:
    """A part of the ready pass that failed is retried by the cluster's pass; a database that
    is away or busy has been told once by the store, so that is not an ERROR again here."""
    try:
        yield
    except StoreBusy:
        log.debug("%s waits for the database; the pass retries", what)
    except Exception:
        log.exception("%s failed; the pass retries", what)


def servers(count: int) -> str:
    """`1 server`, `3 servers`: the log's count of the servers the bot is in."""
    return f"{count} server" if count == 1 else f"{count} servers"


@dataclass
class _Owned:
    """The services a bot owns, each None until `setup_hook` opens it (a bot closed before its
    start closes only what it has): `_close_in_order` says in which order they close."""

    store: Store | None = None
    boards: BoardKeeper | None = None
    solver: SolverPool | None = None
    charts: ChartPool | None = None
    activity: ActivityServer | None = None


class MastermindBot(Host):
    """A slash-command-only bot: no privileged intents, no message content."""

    def __init__(
        self,
        settings: Settings,
        store: Store | None = None,
        clock: Callable[[], datetime] | None = None,
        health_file: Path | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        self.prometheus = _prometheus(settings)
        """The metrics endpoint's series (METRICS_PORT), or None."""
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            # None (every shard) is what discord.py's default means, though its stubs say list.
            shard_ids=None if settings.shard_ids is None else list(settings.shard_ids),  # type: ignore[arg-type]
        )
        self.settings = settings
        self.clock: Callable[[], datetime] = clock or (lambda: datetime.now(UTC))
        """What time it is (aware, UTC), for every mode whose rules follow the calendar or a
        clock. Tests move it."""
        self._owned = _Owned(store=store)
        """The services this bot opens (in setup_hook) and closes (in `close`); None until
        opened. A store handed in is the bot's to close too."""
        if store is not None:
            self.store = store
        self.timers = Timers(self.clock)
        self.in_flight: set[asyncio.Task[object]] = set()  # type: ignore[assignment]
        """Interaction handlers still running; `close` lets them finish before the store shuts."""
        self.cluster = cluster
        """Every lease this process holds (its shards, if the runner joined them, and the jobs
        lease); the bot closes it."""
        self._warming: asyncio.Task[None] | None = None
        self.health_file = health_file
        """Touched while connected, for `python -m bot health` (`run --health-file`)."""
        self._heartbeat: asyncio.Task[None] | None = None
        self._reconciling: asyncio.Task[None] | None = None
        """The redraw of boards behind their games after each READY; a stop cancels it."""
        self._metrics: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        if self._owned.store is None:
            self.store = self._owned.store = await open_store(self.settings.database)
        self.boards = self._owned.boards = boards.keeper_for(self)
        self.boards.start()
        cache = cache_dir.choose(self.settings.cache_dir)  # before any worker starts
        if cache.problem is not None:
            log.warning("%s", cache.problem)
        self.solver = self._owned.solver = SolverPool(
            self.settings.solver_workers, self.settings.solver_time_budget
        )
        self._warming = asyncio.create_task(self._warm_solver(cache), name="warm-solver")
        if self.health_file is not None:
            beating = health.beat(self.health_file, self._connected)
            self._heartbeat = asyncio.create_task(beating, name="heartbeat")
        self.charts = self._owned.charts = ChartPool(
            self.settings.charts_on
        )  # its worker starts on the first chart
        if self.prometheus is not None and self.settings.metrics_port is not None:
            self.prometheus.attach(self)  # here: the bot's tasks inherit what it sets
            self.prometheus.watch_workers(self._worker_pids)
            self.prometheus.serve(self.settings.metrics_port, self.settings.metrics_address)
            log.info(
                "metrics at http://%s:%d/metrics",
                self.settings.metrics_address,
                self.settings.metrics_port,
            )
            self._metrics = asyncio.create_task(self._refresh_metrics(), name="metrics")
        await registry.install(self)
        if self.settings.activity_port is not None:
            await self._start_activity()
        self.tree.error(on_app_command_error)
        await self.tree.set_translator(CatalogueTranslator())  # commands in every language
        if self.cluster is None:  # in-process (tests): no shard leases, the jobs lease only
            self.cluster = Cluster(self.store, ttl=self.settings.lease_seconds)
        await self.cluster.start(self, self.chores, self.sync_commands)

    async def _start_activity(self) -> None:
        """The Activity's web server (ACTIVITY_PORT): imported only now, so a bot without it
        loads nothing of it."""
        from bot.web.service import ActivityServer

        self._owned.activity = ActivityServer(self)
        await self._owned.activity.start()

    @property
    def activity_server(self) -> ActivityServer | None:
        """The Activity's web server, or None (off, or not started yet)."""
        return self._owned.activity

    @property
    def jobs(self) -> LeaseKeeper | None:
        """The lease of the jobs that run once in a cluster (None before the start)."""
        return None if self.cluster is None else self.cluster.jobs

    def dispatch(self, event_name: str, /, *args: object, **kwargs: object) -> None:
        """Every gateway event; with metrics on, an interaction's arrival is noted here, as it
        is parsed, before any handler runs (its first answer is timed from this)."""
        if self.prometheus is not None and event_name == "interaction" and args:
            interaction = args[0]
            if isinstance(interaction, discord.Interaction):
                data = dict(interaction.data or {})
                kind = kind_of(data, interaction.type.value)
                self.prometheus.arrived(interaction.id, kind)
        super().dispatch(event_name, *args, **kwargs)

    async def _refresh_metrics(self) -> None:
        """Every REFRESH_SECONDS: the running games of each mode, unanswered interactions."""
        assert self.prometheus is not None
        while not self.is_closed():
            try:
                counts = [
                    (mode.codec.kind, len(await self.store.running(mode.codec.kind)))
                    for mode in registry.MODES
                ]
            except Exception:  # a database outage says so elsewhere; metrics wait for it
                counts = []
            self.prometheus.refresh(counts)
            await asyncio.sleep(REFRESH_SECONDS)

    def _worker_pids(self) -> list[tuple[str, int]]:
        """The worker processes, for the metrics' memory of each (read at each scrape)."""
        solver, charts = self._owned.solver, self._owned.charts
        return [
            *(("solver", pid) for pid in (solver.pids if solver else [])),
            *(("chart", pid) for pid in (charts.pids if charts else [])),
        ]

    def _connected(self) -> bool:
        """Whether the gateway is up, for the health check's heartbeat."""
        return self.is_ready() and not self.is_closed()

    async def _warm_solver(self, cache: cache_dir.CacheDir) -> None:
        """Compile (or load) the solver in the background: the bot connects and answers at
        once, and a move that needs the solver meanwhile waits for it, not for an error."""
        if not cache.warm:
            log.info(
                "compiling the solver, %s, about %d s (cache: %s); the bot answers meanwhile, "
                "and a move that needs the solver waits for it",
                "once per install" if cache.problem is None else "for this run only",
                cache_dir.COMPILE_SECONDS,
                cache.path,
            )
        started = asyncio.get_running_loop().time()
        try:
            await self.solver.warm_up()
        except SolverUnavailable as error:  # stopped meanwhile, or a worker died
            log.debug("the solver's warm-up ended early: %s", error.code)
            return
        seconds = asyncio.get_running_loop().time() - started
        log.info("solver ready in %.1f s", seconds)

    def kind_of(self, game: Game) -> ModeSpec[Any]:
        return registry.spec_of(game)

    def modes(self) -> Sequence[ModeSpec[Any]]:
        return registry.MODES

    def words_for(self, error: BaseException, t: Messages) -> str | None:
        return registry.words_for(error, t)

    async def sync_commands(self) -> None:
        """Sync only when the application, scope or tree changed since the last sync."""
        await sync.sync_at_start(self.tree, self.store, self.settings.dev_guild_id)

    async def on_ready(self) -> None:
        """Say so, then set the modes' timers of this process's servers again (doing what fell
        due while it was down) and redraw the boards a crash left behind their games, whether
        or not this process holds the jobs lease: the lease holder's pass does both for every
        server too, but in a cluster it may be minutes off."""
        # After an outage, bot.outages has said so; a second `ready as` would read as a restart.
        level = logging.INFO if self._reconciling is None else logging.DEBUG
        log.log(level, "ready as %s in %s", self.user, servers(len(self.guilds)))
        if self._reconciling is None or self._reconciling.done():  # a stop cancels it
            self._reconciling = asyncio.create_task(self._reconcile(), name="reconcile-boards")

    async def _reconcile(self) -> None:
        for spec in registry.MODES:
            if spec.timers is None:
                continue
            with _retried_later(f"setting the {spec.kind} timers again"):
                await spec.timers(self, served_only=True, while_held=always)
        with _retried_later("redrawing the boards behind their games"):
            await self.boards.reconcile(served_only=True)
        with _retried_later("ending the games past their deadline"):  # last: the above first
            await expiry.expiry_pass(self, served_only=True, while_held=always)

    async def expire_stale_games(self, older_than: timedelta, while_held: Held = always) -> int:
        """End now the games nobody touched for `older_than` (`bot.interactions.expiry` does
        it at each deadline); their boards show the secret. One board that fails to redraw
        stays marked as behind and is retried by the next pass."""
        expired = await self.store.expire_stale(older_than, while_held=while_held)
        for game in expired:
            if game.id is not None and while_held():
                await self.boards.refresh(game.id)
        return len(expired)

    def chores(self) -> list[Chore]:
        """The chores that run once in a cluster (`bot.cluster.chores`), in order: each mode's
        timers set again for every server (a process that died owes its deadlines), the expiry
        timer (games nobody played for GAME_TIMEOUT_HOURS) likewise, boards behind their
        games."""

        def timers(spec: ModeSpec[Any], set_again: TimerPass) -> Chore:
            return Chore(
                f"{spec.kind} timers",
                lambda held: set_again(self, served_only=False, while_held=held),
            )

        return [
            *(timers(spec, spec.timers) for spec in registry.MODES if spec.timers is not None),
            Chore(
                "expiry",
                lambda held: expiry.expiry_pass(self, served_only=False, while_held=held),
            ),
            Chore("boards behind", lambda held: self.boards.reconcile(while_held=held)),
        ]

    async def chores_pass(self) -> None:
        """One round of the once-per-cluster chores now (`chores`), each while this process
        still holds the jobs lease."""
        assert self.cluster is not None, "setup_hook joins the cluster first"
        await self.cluster.run_chores(self.chores())

    _shutdown: asyncio.Task[None] | None = None

    async def close(self) -> None:
        """Stop in order: the expiry pass, running handlers (up to SHUTDOWN_GRACE_SECONDS), the
        Discord connection, the database, the solver workers. Safe to call more than once."""
        if self._shutdown is None:
            self._shutdown = asyncio.create_task(self._close_in_order(), name="bot-close")
        await asyncio.shield(self._shutdown)

    async def _close_in_order(self) -> None:
        # a stopping bot is not healthy; its background chores end first
        if self.cluster is not None:
            await self.cluster.stop_chores()
        if self._owned.activity is not None:  # no new move from a page from now on
            await self._owned.activity.close()
        for chore in (self._heartbeat, self._reconciling, self._metrics):
            if chore is not None:
                chore.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await chore
        for name in list(self.cogs):  # their timers stop; the next start's pass takes over
            await self.remove_cog(name)
        await self.timers.close()
        if self.cluster is not None:  # another process may take the jobs and shards over now
            await self.cluster.close()
        owned = self._owned
        if owned.solver is not None:
            # A simulation may run for seconds; its player is told it stopped, and no move
            # waits on it, so it goes first.
            owned.solver.stop_simulations()
            if self._warming is not None and not self._warming.done():
                # Still compiling: no move waiting for it could finish within the grace, so
                # the workers stop now and each waiting player is told while Discord still
                # listens (after the connection closes, nobody could be).
                await owned.solver.close(grace=0.0)
        deadline = asyncio.get_running_loop().time() + SHUTDOWN_GRACE_SECONDS
        while self.in_flight:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                log.warning("closing with %d interaction(s) still running", len(self.in_flight))
                break
            await asyncio.wait(set(self.in_flight), timeout=left)
        if owned.boards is not None:  # the last moves' boards are drawn and recorded
            left = deadline - asyncio.get_running_loop().time()
            await owned.boards.close(max(0.1, left))
        await super().close()
        if owned.store is not None:
            await owned.store.close()
        if owned.solver is not None:
            owned.solver.shutdown()
        if self._warming is not None:  # ended by the shutdown; only its outcome is collected
            self._warming.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._warming
        if owned.charts is not None:
            owned.charts.shutdown()
