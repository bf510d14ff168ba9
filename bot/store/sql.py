"""The one SQL implementation of `Store`, over a `Dialect` (SQLite or PostgreSQL).

* Every call is one transaction, run to its end even if the caller is cancelled, so none is
  left half-done on a shared connection (each dialect sees to it: `Dialect.run`).
* An action (`act`) loads its game holding its row, applies one pure transition, saves only
  what it appended and reads where the board is, in that one write transaction.
* A repeated `source` never makes a second move: it is checked first, and a unique index catches
  two processes racing with the same input.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Mapping
from datetime import datetime, timedelta
from typing import Any, Self, TypeVar, Unpack

from bot import metrics
from bot.engine.errors import AlreadyPlayed, GameOver, StaleGame
from bot.engine.game import G, Game, MoveKind, Status, expire
from bot.store import bulk, codec, game_rows, stats_queries, values
from bot.store.dialect import Dialect, Session
from bot.store.errors import Conflict, ImportRefused, UnreadableGame
from bot.store.game_rows import CHANNEL_GAME, public, utc_now
from bot.store.interface import ActionTarget
from bot.store.leases import Lease
from bot.store.schema import SHARED_UNIQUE_INDEXES as SHARED
from bot.store.stats_queries import HistoryFilter
from bot.store.values import Held, OutcomeT, always

log = logging.getLogger(__name__)

T = TypeVar("T")
Work = Callable[[Session, Any], Coroutine[Any, Any, T]]
"""What runs inside one transaction: given the session and the moment (as the dialect stores
it) at which the transaction began."""


class SqlStore:
    """The `Store` on one database. Use `await SqlStore.open(dialect)`, or `async with`."""

    def __init__(self, dialect: Dialect, *, clock: Callable[[], datetime] | None = None) -> None:
        self.dialect = dialect
        self._clock = clock or utc_now
        self._connected = False
        self._listeners: list[Callable[[values.Applied[Any]], None]] = []
        self._everywhere: list[Callable[[values.Applied[Any]], None]] = []
        self._stop_hearing: Callable[[], Awaitable[None]] | None = None
        self._reading: dict[int, int] = {}  # another process's games being read: newest version
        self._inline = dialect.inline_moves
        self._unreadable_told: set[int] = set()  # games whose unreadable record was logged

    @classmethod
    async def open(
        cls,
        dialect: Dialect,
        *,
        clock: Callable[[], datetime] | None = None,
        schema_version: int | None = None,
    ) -> SqlStore:
        """Connect and migrate (`schema_version`: only for tests that build an older schema).
        Raises StoreUnavailable, one line naming the database, if it cannot be used."""
        store = cls(dialect, clock=clock)
        await store.connect(schema_version)
        return store

    async def connect(self, schema_version: int | None = None) -> None:
        await self.dialect.connect(schema_version)
        self._connected = True

    async def close(self) -> None:
        """Release the database once the transactions begun have finished (bounded)."""
        if self._stop_hearing is not None:
            stop, self._stop_hearing = self._stop_hearing, None
            await stop()
        self._connected = False
        await self.dialect.close()

    async def __aenter__(self) -> Self:
        if not self._connected:
            await self.connect()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # --- games ---------------------------------------------------------------------------

    async def start(
        self, game: G, *, board: tuple[int, int] | None = None, source: str | None = None
    ) -> G:
        """Store a new game with its board (channel id, message id) in one transaction, so no
        crash leaves a game without one; `source` marks its first move."""
        if game.id is not None or game.is_over:
            raise ValueError("only a new, active game can be started")

        async def work(session: Session, now: object) -> G:
            return await game_rows.insert_game(session, game, board, now, source)

        try:
            started = public(await self._write(work, source=source))
        except Conflict as conflict:
            if not codec.of(game.kind).once_per_puzzle or conflict.data["index"] in SHARED:
                raise
            held = await self._read(lambda session: game_rows.played_id(session, game))
            raise AlreadyPlayed(held) from None
        self._tell(values.Applied(started, None, None))  # a new game: no board drawn for it yet
        return started

    async def act(
        self, transition: Callable[[Game], tuple[Game, OutcomeT]], **target: Unpack[ActionTarget]
    ) -> values.Applied[OutcomeT]:
        """Load a game (its row held), apply one pure transition, save what it appended and read
        where its board is: one write transaction. Errors as `apply`."""
        if unknown := target.keys() - ActionTarget.__optional_keys__:
            raise TypeError(f"unexpected keyword arguments: {sorted(unknown)}")
        channel_id, game_id = target.get("channel_id"), target.get("game_id")
        expected_version, source = target.get("expected_version"), target.get("source")
        if (channel_id is None) == (game_id is None):
            raise TypeError("give exactly one of channel_id and game_id")

        async def work(session: Session, now: object) -> values.Applied[OutcomeT]:
            loaded = await game_rows.load_for_move(
                session,
                self.dialect.lock_game,
                channel_id=channel_id,
                game_id=game_id,
                source=source,
                inline_moves=self.dialect.inline_moves,
            )
            if expected_version is not None and loaded.game.version != expected_version:
                raise StaleGame()
            new, outcome = transition(loaded.game)
            await game_rows.save(
                session, loaded.game, new, now, source, at_once=self.dialect.save_at_once
            )
            return values.Applied(public(new), outcome, loaded.board)

        # where the save is one statement, moves for different games load and save together
        moved = ("game", game_id) if channel_id is None else ("channel", channel_id)
        applied = await self._write(
            work, source=source, alongside=moved if self.dialect.save_at_once else None
        )
        self._tell(applied)
        return applied

    def listen(self, listener: Callable[[values.Applied[Any]], None]) -> None:
        self._listeners.append(listener)

    async def listen_everywhere(self, listener: Callable[[values.Applied[Any]], None]) -> None:
        self._everywhere.append(listener)
        if self._stop_hearing is None:
            self._stop_hearing = await self.dialect.hear(self._heard)

    def _tell(self, applied: values.Applied[Any]) -> None:
        for listener in (*self._listeners, *self._everywhere):
            listener(applied)

    def _heard(self, game_id: int, channel_id: int, version: int) -> None:
        """Another process committed `game_id` at `version`: read it (once for a burst) and
        tell those who listen everywhere; its board is that process's to draw."""
        reading = self._reading.get(game_id)
        self._reading[game_id] = version if reading is None else max(version, reading)
        if reading is None:
            asyncio.get_running_loop().create_task(self._read_heard(game_id), name="store-heard")

    async def _read_heard(self, game_id: int) -> None:
        told = -1  # a new game is version 0
        try:
            while self._reading.get(game_id, -1) > told and self._connected:
                told = self._reading[game_id]
                game = await self.game(game_id)
                if game is not None:
                    for listener in self._everywhere:
                        listener(values.Applied(game, None, None))
                    told = max(told, game.version)
        except Exception:  # an outage is told by the store's own calls; a view waits for it
            log.debug("reading game %s another process changed failed", game_id, exc_info=True)
        finally:
            self._reading.pop(game_id, None)

    async def apply(
        self, transition: Callable[[Game], tuple[Game, OutcomeT]], **target: Unpack[ActionTarget]
    ) -> tuple[Game, OutcomeT]:
        """`act` without the board."""
        applied = await self.act(transition, **target)
        return applied.game, applied.outcome

    async def active_game(self, channel_id: int) -> Game | None:
        found = await self._read(
            lambda session: game_rows.fetch(
                session, CHANNEL_GAME, {"channel": channel_id}, inline_moves=self._inline
            )
        )
        return found[0].game if found else None

    async def game(self, game_id: int) -> Game | None:
        found = await self._loaded(game_id)
        return None if found is None else found.game

    async def _loaded(self, game_id: int) -> game_rows.Loaded | None:
        """A game with its row (where its board is), in one read."""
        found = await self._read(
            lambda session: game_rows.fetch(
                session, "id = :id", {"id": game_id}, inline_moves=self._inline
            )
        )
        return found[0] if found else None

    async def running(self, kind: str) -> list[Game]:
        skipped: list[UnreadableGame] = []  # one unreadable game must not stop every clock
        found = await self._read(
            lambda session: game_rows.fetch(
                session,
                "kind = :kind AND status = 'active' ORDER BY id",
                {"kind": kind},
                inline_moves=self._inline,
                skipped=skipped,
            )
        )
        for unreadable in skipped:
            self._tell_once(unreadable)
        return [each.game for each in found]

    async def end_unreadable(self, game_id: int, player_id: int) -> bool:
        """End a game this version cannot read, as its starter or a moderator giving up would:
        a give-up move appended to its log, its row abandoned (so a newer version reads it as
        ended). True if it was running; its channel is free either way."""

        async def work(session: Session, now: object) -> bool:
            rows = await session.fetch(
                f"SELECT version FROM games WHERE id = :id AND status = 'active'"
                f"{self.dialect.lock_game}",
                {"id": game_id},
            )
            if not rows:
                return False
            number = int(rows[0]["version"]) + 1
            await session.execute(
                "INSERT INTO moves (game_id, move_no, kind, player_id, created_at) "
                "VALUES (:id, :number, :kind, :player, :now)",
                {
                    "id": game_id,
                    "number": number,
                    "kind": MoveKind.GIVE_UP.value,
                    "player": player_id,
                    "now": now,
                },
            )
            await session.execute(
                "UPDATE games SET status = :status, winner_id = NULL, version = :number, "
                "finished_at = :now, last_move_at = :now WHERE id = :id",
                {"status": Status.ABANDONED.value, "number": number, "now": now, "id": game_id},
            )
            return True

        ended = await self._write(work)
        if ended:
            log.info("game %s, which this version cannot read, was ended by %s", game_id, player_id)
        return ended

    async def expire_stale(
        self,
        older_than: timedelta,
        *,
        while_held: Held = always,
        guilds: Callable[[int | None], bool] | None = None,
    ) -> list[Game]:
        """Each game ends in its own transaction: one that cannot be read is logged and
        skipped, and the others still end."""
        cutoff = self.dialect.stamp(self._clock() - older_than)
        rows = await self._read(
            lambda session: session.fetch(
                "SELECT id, guild_id FROM games WHERE status = 'active' "
                "AND last_move_at < :cutoff ORDER BY id",
                {"cutoff": cutoff},
            )
        )
        expired: list[Game] = []
        for row in rows:
            if guilds is not None and not guilds(row["guild_id"]):
                continue
            if not while_held():
                break
            try:
                game, _ = await self.apply(expire, game_id=row["id"])
            except (GameOver, StaleGame):
                continue  # someone moved or ended it meanwhile
            except UnreadableGame:
                continue  # logged once; its starter or a moderator ends it
            except Exception:
                log.exception("game %s could not be expired; skipped", row["id"])
                continue
            expired.append(game)
        return expired

    async def last_moves(self) -> list[tuple[int | None, datetime]]:
        rows = await self._read(
            lambda session: session.fetch(
                "SELECT guild_id, last_move_at FROM games WHERE status = 'active'", {}
            )
        )
        return [(row["guild_id"], self.dialect.moment(row["last_move_at"])) for row in rows]

    # --- boards --------------------------------------------------------------------------

    def lease(self, name: str, holder: str, ttl: float) -> Lease:
        return self.dialect.lease(name, holder, ttl)

    async def board(self, game_id: int) -> values.Board | None:
        return await self._read(lambda session: game_rows.board(session, game_id))

    async def drawn(self, game_id: int) -> tuple[Game, values.Board] | None:
        found = await self._loaded(game_id)
        board = None if found is None else found.board
        return None if found is None or board is None else (found.game, board)

    async def move_board(
        self, game_id: int, channel_id: int, message_id: int, version: int
    ) -> None:
        await self._execute(
            "UPDATE games SET board_channel_id = :channel, board_message_id = :message, "
            "rendered_version = :version WHERE id = :id",
            {"channel": channel_id, "message": message_id, "version": version, "id": game_id},
        )

    async def mark_rendered(
        self, game_id: int, version: int, message_id: int | None = None
    ) -> None:
        if message_id is None:
            await self._execute(
                "UPDATE games SET rendered_version = :version "
                "WHERE id = :id AND rendered_version < :version",
                {"version": version, "id": game_id},
            )
        else:
            await self.mark_rendered_many({game_id: (message_id, version)})

    async def mark_rendered_many(self, marks: Mapping[int, tuple[int, int]]) -> None:
        async def work(session: Session, _now: object) -> None:
            await session.execute_many(
                "UPDATE games SET rendered_version = :version WHERE id = :id "
                "AND board_message_id = :message AND rendered_version < :version",
                [  # one lock order
                    {"version": version, "id": game_id, "message": message_id}
                    for game_id, (message_id, version) in sorted(marks.items())
                ],
            )

        if marks:
            await self._write(work)

    async def board_versions(self, game_id: int) -> tuple[int, values.Board] | None:
        rows = await self._read(
            lambda session: session.fetch(
                "SELECT version, board_channel_id, board_message_id, rendered_version FROM games "
                "WHERE id = :id AND board_message_id IS NOT NULL AND reach = 'channel'",
                {"id": game_id},
            )
        )
        if not rows:
            return None
        row = rows[0]
        board = values.Board(
            int(row["board_channel_id"]), int(row["board_message_id"]), int(row["rendered_version"])
        )
        return int(row["version"]), board

    async def boards_behind(self, limit: int = 100) -> list[int]:
        rows = await self._read(
            lambda session: session.fetch(
                "SELECT id FROM games WHERE rendered_version < version "
                "AND board_message_id IS NOT NULL AND reach = 'channel' ORDER BY id LIMIT :limit",
                {"limit": limit},
            )
        )
        return [int(row["id"]) for row in rows]

    # --- statistics and history ----------------------------------------------------------

    async def player_stats(
        self, guild_id: int | None, user_id: int, kind: str = "play"
    ) -> values.PlayerStats:
        return await self._read(
            lambda session: stats_queries.player_stats(session, guild_id, user_id, kind)
        )

    async def leaderboard(
        self, guild_id: int, limit: int = 10, kind: str = "play"
    ) -> list[values.PlayerStats]:
        return await self._read(
            lambda session: stats_queries.leaderboard(session, guild_id, limit, kind)
        )

    async def kind_rows(
        self, kind: str, query: str, params: Mapping[str, object]
    ) -> list[dict[str, Any]]:
        return await self._read(
            lambda session: stats_queries.kind_rows(session, kind, query, params)
        )

    async def history(self, **where: Unpack[HistoryFilter]) -> list[values.HistoryEntry]:
        return await self._read(
            lambda session: stats_queries.history(session, self.dialect, **where)
        )

    async def wins(self, guild_id: int | None, user_id: int) -> list[values.Win]:
        return await self._read(
            lambda session: stats_queries.wins(session, self.dialect, guild_id, user_id)
        )

    async def results(self, kind: str, user_id: int) -> list[values.Result]:
        return await self._read(
            lambda session: stats_queries.results(session, self.dialect, kind, user_id)
        )

    async def ranking(
        self, kind: str, guild_id: int, puzzle: int, limit: int = 10
    ) -> list[values.Result]:
        return await self._read(
            lambda session: stats_queries.ranking(
                session, self.dialect, kind, guild_id, puzzle, limit
            )
        )

    # --- key-value -----------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        rows = await self._read(
            lambda session: session.fetch("SELECT value FROM meta WHERE key = :key", {"key": key})
        )
        return next((str(row["value"]) for row in rows), None)

    async def set_meta(self, key: str, value: str) -> None:
        await self._execute(bulk.SET_META, {"key": key, "value": value})

    async def claim_meta(self, key: str, value: str) -> str:
        async def work(session: Session, _now: object) -> str:
            await session.execute(
                "INSERT INTO meta (key, value) VALUES (:key, :value) ON CONFLICT (key) DO NOTHING",
                {"key": key, "value": value},
            )
            rows = await session.fetch("SELECT value FROM meta WHERE key = :key", {"key": key})
            return str(rows[0]["value"])

        return await self._write(work)

    # --- the whole database --------------------------------------------------------------

    async def export(self) -> values.Snapshot:
        return await self._read(lambda session: bulk.export(session, self.dialect))

    async def absorb(self, snapshot: values.Snapshot) -> values.Absorbed:
        async def work(session: Session, _now: object) -> values.Absorbed:
            return await bulk.absorb(session, self.dialect, snapshot)

        try:
            return await self._write(work)
        except Conflict as conflict:
            if conflict.data["index"] != "games_one_active_per_channel":
                raise
            raise ImportRefused(reason="channel_taken") from None

    # --- transactions --------------------------------------------------------------------

    async def _read(self, work: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        """One consistent snapshot."""
        return await self._transaction(lambda session, _now: work(session), write=False)

    async def _execute(self, sql: str, params: dict[str, Any]) -> None:
        async def work(session: Session, _now: object) -> None:
            await session.execute_last(sql, params)

        await self._write(work)

    async def _write(
        self, work: Work[T], *, source: str | None = None, alongside: Hashable = None
    ) -> T:
        """One write transaction; an input that made a move on another connection meanwhile
        (its unique index refused this one) is named as AlreadyApplied."""
        try:
            return await self._transaction(work, write=True, alongside=alongside)
        except Conflict as conflict:
            if source is None or conflict.data["index"] != "moves_once_per_source":
                raise
            refused = await self._read(lambda session: game_rows.repeated(session, source))
            if refused is None:
                raise
            raise refused from None

    async def _transaction(self, work: Work[T], *, write: bool, alongside: Hashable = None) -> T:
        now = self.dialect.stamp(self._clock()) if write else None  # a read stores no time
        started = time.perf_counter()
        try:
            return await self.dialect.run(
                lambda session: work(session, now), write=write, alongside=alongside
            )
        except UnreadableGame as unreadable:
            self._tell_once(unreadable)
            raise
        finally:
            metrics.SINK.transaction(write, time.perf_counter() - started)

    def _tell_once(self, unreadable: UnreadableGame) -> None:
        """Log a game this version cannot read once, with why: every use of it meets it."""
        if unreadable.game_id in self._unreadable_told:
            return
        self._unreadable_told.add(unreadable.game_id)
        log.warning(
            "game %s in channel %s cannot be read by this version (%s); players are told, and "
            "its starter or a moderator can end it with /mastermind giveup",
            unreadable.game_id,
            unreadable.channel_id,
            unreadable.why,
        )
