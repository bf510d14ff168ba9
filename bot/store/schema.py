"""The schema, as ONE ordered list of steps, each with its SQLite and its PostgreSQL text side
by side and numbered the same (`migrations.py` applies them). The store knows no mode by name:
a mode that adds columns of its own brings its steps in its record (`KindCodec.steps`, numbered
in this same sequence), and `steps()` merges them into the list.

SQLite's `PRAGMA user_version` and PostgreSQL's `mastermind_schema` count the steps a database
has had. Before the list was one, PostgreSQL counted its own four steps: a database that still
says so (`mastermind_schema.numbering` = 1) is read through `POSTGRES_BEFORE_ONE_LIST`.
A step's entry is SQL text, or (SQLite only) a function of the open session where SQLite's
ALTER TABLE cannot do the change. Never edit a released step's effect: append a new one.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from bot.store.dialect import Session

Statement = str | Callable[[Session], Awaitable[None]]
"""SQL, or a function that runs SQL on the migrating session (SQLite's table rebuilds)."""


@dataclass(frozen=True)
class Step:
    """One step of the schema: `number` in the one sequence, why it exists, and its text in
    each database's words (empty where that database needs nothing)."""

    number: int
    why: str
    sqlite: tuple[Statement, ...]
    postgres: tuple[str, ...]


MIGRATION_LOCK = 0x6D6D_6267  # "mmbg": pg_advisory_xact_lock key held while migrating

POSTGRES_BEFORE_ONE_LIST = {1: 3, 2: 3, 3: 4, 4: 5}
"""PostgreSQL's own step counts before the list was one, as steps of the one list: its first
step built what SQLite's first three did, its second the leases (step 6 here, which finds them
made), its third and fourth were steps 4 and 5."""

_GAMES_3 = (
    "id, format, kind, guild_id, channel_id, starter_id, pegs, colours, duplicates, "
    "max_guesses, solo, strategy, secret, status, winner_id, version, created_at, finished_at, "
    "last_move_at, board_channel_id, board_message_id, rendered_version"
)
"""The games columns as step 3 left them (what step 4 copies)."""

CHANNEL_GAMES = "status = 'active' AND reach <> 'private'"
"""The games that hold their channel (one active at a time): every running game but a private
one (each player's own)."""

SHARED_UNIQUE_INDEXES = frozenset({"games_one_active_per_channel", "moves_once_per_source"})
"""The unique indexes every database has; any other a write meets is a mode's own."""

_BY_LAST_MOVE = (
    "CREATE INDEX games_active_by_last_move ON games (last_move_at) WHERE status = 'active'"
)
_ONE_PER_CHANNEL = (
    f"CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) WHERE {CHANNEL_GAMES}"
)
_BY_GUILD = "CREATE INDEX games_by_guild ON games (guild_id, status)"
_BOARDS_BEHIND = "CREATE INDEX games_boards_behind ON games (id) WHERE rendered_version < version"
_MOVES_BY_PLAYER = "CREATE INDEX moves_by_player ON moves (player_id, game_id)"
_ONCE_PER_SOURCE = (
    "CREATE UNIQUE INDEX moves_once_per_source ON moves (source) WHERE source IS NOT NULL"
)
_SQLITE_APPEND_ONLY = (
    """
            CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
            BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
            """,
    """
            CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
            BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
            """,
)
"""SQLite's triggers that keep moves append-only (step 2 makes them, step 4 makes them anew);
indented as the steps first wrote them, since SQLite keeps a trigger's text as given."""


async def _unlist_kinds(session: Session) -> None:
    """SQLite cannot drop a CHECK in place: games is rebuilt from its own stored definition
    with every CHECK that names `kind` left out and `status` allowed 'draw', then its indexes
    are made anew (foreign keys are off while migrating, see SqliteDialect.migrating)."""
    (table,) = await session.fetch(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'"
    )
    indexes = await session.fetch(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' "
        "AND sql IS NOT NULL"
    )
    columns = ", ".join(row["name"] for row in await session.fetch("PRAGMA table_info(games)"))
    created = re.sub(r'^CREATE TABLE\s+"?games"?', "CREATE TABLE games_new", str(table["sql"]))
    created = without_kind_checks(created).replace("'abandoned')", "'abandoned', 'draw')")
    await session.execute(created)
    await session.execute(f"INSERT INTO games_new ({columns}) SELECT {columns} FROM games")
    await session.execute("DROP TABLE games")
    await session.execute("ALTER TABLE games_new RENAME TO games")
    for index in indexes:
        await session.execute(str(index["sql"]))


def without_kind_checks(table: str) -> str:
    """A CREATE TABLE without the CHECK constraints whose expression reads `kind` (a table
    constraint goes with the comma before it)."""
    out, at = [], 0
    for found in re.finditer(r"CHECK\s*\(", table):
        if found.start() < at:
            continue
        depth, end = 0, found.end() - 1
        for end in range(found.end() - 1, len(table)):
            depth += {"(": 1, ")": -1}.get(table[end], 0)
            if depth == 0:
                break
        if re.search(r"\bkind\b", table[found.end() : end]):
            start = found.start()
            before = table[at:start].rstrip()
            if before.endswith(","):
                start = at + len(before) - 1
            out.append(table[at:start])
            at = end + 1
    return "".join(out) + table[at:]


STEPS: tuple[Step, ...] = (
    Step(
        1,
        "games and their moves (PostgreSQL: as SQLite's step 3 has them, with meta)",
        sqlite=(
            """
            CREATE TABLE games (
                id          INTEGER PRIMARY KEY,
                format      INTEGER NOT NULL,
                kind        TEXT    NOT NULL CHECK (kind IN ('play', 'solve')),
                guild_id    INTEGER,
                channel_id  INTEGER NOT NULL,
                starter_id  INTEGER NOT NULL,
                pegs        INTEGER NOT NULL,
                colours     INTEGER NOT NULL,
                duplicates  INTEGER NOT NULL,
                max_guesses INTEGER NOT NULL,
                solo        INTEGER NOT NULL,
                strategy    TEXT,
                secret      TEXT,
                status      TEXT    NOT NULL
                    CHECK (status IN ('active', 'won', 'lost', 'solved', 'abandoned')),
                winner_id   INTEGER,
                version     INTEGER NOT NULL,
                created_at  TEXT    NOT NULL,
                finished_at TEXT,
                CHECK ((kind = 'play') = (secret IS NOT NULL))
            )
            """,
            "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) "
            "WHERE status = 'active'",
            _BY_GUILD,
            """
            CREATE TABLE moves (
                game_id    INTEGER NOT NULL REFERENCES games (id),
                move_no    INTEGER NOT NULL CHECK (move_no >= 1),
                kind       TEXT    NOT NULL
                    CHECK (kind IN ('guess', 'answer', 'undo', 'give_up', 'timeout')),
                player_id  INTEGER,
                code       TEXT,
                black      INTEGER,
                white      INTEGER,
                created_at TEXT    NOT NULL,
                PRIMARY KEY (game_id, move_no)
            ) WITHOUT ROWID
            """,
        ),
        postgres=(
            """
            CREATE TABLE games (
                id               BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                format           INTEGER NOT NULL,
                kind             TEXT    NOT NULL CHECK (kind IN ('play', 'solve')),
                guild_id         BIGINT,
                channel_id       BIGINT  NOT NULL,
                starter_id       BIGINT  NOT NULL,
                pegs             INTEGER NOT NULL,
                colours          INTEGER NOT NULL,
                duplicates       BOOLEAN NOT NULL,
                max_guesses      INTEGER NOT NULL,
                solo             BOOLEAN NOT NULL,
                strategy         TEXT,
                secret           TEXT,
                status           TEXT    NOT NULL
                    CHECK (status IN ('active', 'won', 'lost', 'solved', 'abandoned')),
                winner_id        BIGINT,
                version          INTEGER NOT NULL,
                created_at       TIMESTAMPTZ NOT NULL,
                finished_at      TIMESTAMPTZ,
                last_move_at     TIMESTAMPTZ NOT NULL,
                board_channel_id BIGINT,
                board_message_id BIGINT,
                -- The game version the board last showed; -1: never drawn, redraw at next start.
                rendered_version INTEGER NOT NULL DEFAULT -1,
                CHECK ((kind = 'play') = (secret IS NOT NULL))
            )
            """,
            "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) "
            "WHERE status = 'active'",
            _BY_GUILD,
            _BY_LAST_MOVE,
            _BOARDS_BEHIND,
            """
            CREATE TABLE moves (
                game_id    BIGINT  NOT NULL REFERENCES games (id),
                move_no    INTEGER NOT NULL CHECK (move_no >= 1),
                kind       TEXT    NOT NULL
                    CHECK (kind IN ('guess', 'answer', 'undo', 'give_up', 'timeout')),
                player_id  BIGINT,
                code       TEXT,
                black      INTEGER,
                white      INTEGER,
                created_at TIMESTAMPTZ NOT NULL,
                -- The interaction (or picker, or modal) that made the move: one move per input.
                source     TEXT,
                PRIMARY KEY (game_id, move_no)
            )
            """,
            _MOVES_BY_PLAYER,
            _ONCE_PER_SOURCE,
            """
            CREATE FUNCTION moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                RAISE EXCEPTION 'moves are append-only'
                    USING ERRCODE = 'integrity_constraint_violation';
            END
            $$
            """,
            "CREATE TRIGGER moves_no_update BEFORE UPDATE OR DELETE ON moves "
            "FOR EACH ROW EXECUTE FUNCTION moves_append_only()",
            "CREATE TRIGGER moves_no_truncate BEFORE TRUNCATE ON moves "
            "FOR EACH STATEMENT EXECUTE FUNCTION moves_append_only()",
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        ),
    ),
    Step(
        2,
        "expiry, the statistics index, key-value meta, append-only moves",
        sqlite=(
            "ALTER TABLE games ADD COLUMN last_move_at TEXT",
            """
            UPDATE games SET last_move_at = coalesce(
                (SELECT max(created_at) FROM moves WHERE moves.game_id = games.id), created_at)
            """,
            _BY_LAST_MOVE,
            _MOVES_BY_PLAYER,
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
            *_SQLITE_APPEND_ONLY,
        ),
        postgres=(),
    ),
    Step(
        3,
        "the board is a column of its game; every move names the input that made it",
        sqlite=(
            "ALTER TABLE games ADD COLUMN board_channel_id INTEGER",
            "ALTER TABLE games ADD COLUMN board_message_id INTEGER",
            # The game version the board last showed; -1: never drawn, redraw at the next start.
            "ALTER TABLE games ADD COLUMN rendered_version INTEGER NOT NULL DEFAULT -1",
            """
            UPDATE games SET
                board_channel_id = CAST(substr(m.value, 1, instr(m.value, ':') - 1) AS INTEGER),
                board_message_id = CAST(substr(m.value, instr(m.value, ':') + 1) AS INTEGER),
                rendered_version = CASE WHEN games.status = 'active' THEN -1 ELSE games.version END
            FROM meta AS m WHERE m.key = 'board:' || games.id
            """,
            "UPDATE games SET rendered_version = version WHERE board_message_id IS NULL",
            "DELETE FROM meta WHERE key LIKE 'board:%'",
            _BOARDS_BEHIND,
            # The interaction (or picker, or modal) that made a move: one move per input, ever.
            "ALTER TABLE moves ADD COLUMN source TEXT",
            _ONCE_PER_SOURCE,
        ),
        postgres=(),
    ),
    Step(
        4,
        "hard mode, hints, puzzles, boards reached only through interactions, more move kinds",
        # SQLite cannot change a CHECK in place: both tables are rebuilt (foreign keys are off
        # while migrating, see SqliteDialect.migrating) and their indexes and triggers made anew.
        sqlite=(
            """
            CREATE TABLE games_new (
                id               INTEGER PRIMARY KEY,
                format           INTEGER NOT NULL,
                kind             TEXT    NOT NULL,
                guild_id         INTEGER,
                channel_id       INTEGER NOT NULL,
                starter_id       INTEGER NOT NULL,
                pegs             INTEGER NOT NULL,
                colours          INTEGER NOT NULL,
                duplicates       INTEGER NOT NULL,
                max_guesses      INTEGER NOT NULL,
                solo             INTEGER NOT NULL,
                strategy         TEXT,
                secret           TEXT,
                status           TEXT    NOT NULL
                    CHECK (status IN ('active', 'won', 'lost', 'solved', 'abandoned')),
                winner_id        INTEGER,
                version          INTEGER NOT NULL,
                created_at       TEXT    NOT NULL,
                finished_at      TEXT,
                last_move_at     TEXT,
                board_channel_id INTEGER,
                board_message_id INTEGER,
                rendered_version INTEGER NOT NULL DEFAULT -1,
                hard             INTEGER NOT NULL DEFAULT 0,
                hints            INTEGER NOT NULL DEFAULT 0,
                reach            TEXT    NOT NULL DEFAULT 'channel'
                    CHECK (reach IN ('channel', 'interaction', 'private')),
                puzzle           INTEGER
            )
            """,
            f"INSERT INTO games_new ({_GAMES_3}) SELECT {_GAMES_3} FROM games",
            "DROP TABLE games",
            "ALTER TABLE games_new RENAME TO games",
            _ONE_PER_CHANNEL,
            _BY_GUILD,
            _BY_LAST_MOVE,
            _BOARDS_BEHIND,
            """
            CREATE TABLE moves_new (
                game_id    INTEGER NOT NULL REFERENCES games (id),
                move_no    INTEGER NOT NULL CHECK (move_no >= 1),
                kind       TEXT    NOT NULL CHECK (kind IN
                    ('guess', 'answer', 'undo', 'give_up', 'timeout', 'hint', 'join', 'start')),
                player_id  INTEGER,
                code       TEXT,
                black      INTEGER,
                white      INTEGER,
                created_at TEXT    NOT NULL,
                source     TEXT,
                PRIMARY KEY (game_id, move_no)
            ) WITHOUT ROWID
            """,
            "INSERT INTO moves_new SELECT game_id, move_no, kind, player_id, code, black, white, "
            "created_at, source FROM moves",
            "DROP TABLE moves",
            "ALTER TABLE moves_new RENAME TO moves",
            _MOVES_BY_PLAYER,
            _ONCE_PER_SOURCE,
            *_SQLITE_APPEND_ONLY,
        ),
        postgres=(
            "ALTER TABLE games DROP CONSTRAINT games_kind_check",
            "ALTER TABLE games DROP CONSTRAINT games_check",
            "ALTER TABLE games ADD COLUMN hard BOOLEAN NOT NULL DEFAULT false",
            "ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE games ADD COLUMN reach TEXT NOT NULL DEFAULT 'channel' "
            "CHECK (reach IN ('channel', 'interaction', 'private'))",
            "ALTER TABLE games ADD COLUMN puzzle INTEGER",
            "DROP INDEX games_one_active_per_channel",
            _ONE_PER_CHANNEL,
            "ALTER TABLE moves DROP CONSTRAINT moves_kind_check",
            "ALTER TABLE moves ADD CONSTRAINT moves_kind_check CHECK (kind IN "
            "('guess', 'answer', 'undo', 'give_up', 'timeout', 'hint', 'join', 'start'))",
        ),
    ),
    Step(
        6,
        "leases: which process runs a job that must run once (several processes share only "
        "PostgreSQL)",
        sqlite=(),
        postgres=(
            """
            CREATE TABLE IF NOT EXISTS leases (
                name       TEXT PRIMARY KEY,
                holder     TEXT NOT NULL,
                expires_at TIMESTAMPTZ NOT NULL
            )
            """,
        ),
    ),
    Step(
        7,
        "the schema lists no kinds (a new mode needs no migration), a game may end in a draw, "
        "and the games that hold their channel are the ones that are not private",
        sqlite=(
            _unlist_kinds,
            "DROP INDEX games_one_active_per_channel",
            _ONE_PER_CHANNEL,
        ),
        postgres=(
            "ALTER TABLE games DROP CONSTRAINT IF EXISTS games_kind_check",
            "ALTER TABLE games DROP CONSTRAINT IF EXISTS games_secret_check",
            "ALTER TABLE games DROP CONSTRAINT IF EXISTS games_puzzle_check",
            "ALTER TABLE games DROP CONSTRAINT games_status_check",
            "ALTER TABLE games ADD CONSTRAINT games_status_check "
            "CHECK (status IN ('active', 'won', 'lost', 'solved', 'abandoned', 'draw'))",
            "DROP INDEX games_one_active_per_channel",
            _ONE_PER_CHANNEL,
        ),
    ),
    Step(
        8,
        "every process hears of every game another process changes (the Activity's live "
        "boards in a cluster): a committed insert or new version of a game is a notification "
        "on the channel `mastermind_games`, `<game id>:<channel id>:<version>`; SQLite has one "
        "process only",
        sqlite=(),
        postgres=(
            """
            CREATE OR REPLACE FUNCTION mastermind_game_changed() RETURNS trigger AS $$
            BEGIN
                PERFORM pg_notify('mastermind_games',
                                  NEW.id || ':' || NEW.channel_id || ':' || NEW.version);
                RETURN NULL;
            END
            $$ LANGUAGE plpgsql
            """,
            "CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OF version ON games "
            "FOR EACH ROW EXECUTE FUNCTION mastermind_game_changed()",
        ),
    ),
)
"""The steps every database has, whatever modes the bot runs."""

_OWN: list[Step] = []


def register(steps: Iterable[Step]) -> None:
    """Add a mode's own steps (at import of `bot.modes.registry`, through `codec.register`)."""
    _OWN.extend(step for step in steps if step not in _OWN)


def steps() -> tuple[Step, ...]:
    """The one ordered list: the shared steps and every registered mode's, by number (the
    shared step first where a mode adds to the same number). Every number from 1 on is there."""
    merged = sorted(
        (*STEPS, *_OWN),
        key=lambda step: (step.number, step not in STEPS, _OWN.index(step) if step in _OWN else 0),
    )
    numbers = sorted({step.number for step in merged})
    if numbers != list(range(1, len(numbers) + 1)):
        raise RuntimeError(f"the schema's steps skip a number: {numbers}")
    return tuple(merged)


def newest() -> int:
    """How many steps the newest schema has."""
    return max(step.number for step in steps())
