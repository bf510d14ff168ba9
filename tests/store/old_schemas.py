"""The schemas as released before the migration list was one, kept verbatim to build the
databases those bots left behind and check that they upgrade: SQLite's five steps (its
`PRAGMA user_version` counted them) and PostgreSQL's four (`mastermind_schema.version`)."""

from __future__ import annotations

_GAMES_3 = (
    "id, format, kind, guild_id, channel_id, starter_id, pegs, colours, duplicates, "
    "max_guesses, solo, strategy, secret, status, winner_id, version, created_at, finished_at, "
    "last_move_at, board_channel_id, board_message_id, rendered_version"
)
"""The games columns as schema 3 had them (what migration 4 copies)."""

# MIGRATIONS[n] takes the schema from version n to n + 1 (PRAGMA user_version), in one
# transaction. Never edit a released entry: append a new one.
SQLITE: tuple[tuple[str, ...], ...] = (
    (  # 1: games and their moves
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
        "CREATE INDEX games_by_guild ON games (guild_id, status)",
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
    (  # 2: expiry, statistics index, key-value meta, append-only moves
        "ALTER TABLE games ADD COLUMN last_move_at TEXT",
        """
        UPDATE games SET last_move_at = coalesce(
            (SELECT max(created_at) FROM moves WHERE moves.game_id = games.id), created_at)
        """,
        "CREATE INDEX games_active_by_last_move ON games (last_move_at) WHERE status = 'active'",
        "CREATE INDEX moves_by_player ON moves (player_id, game_id)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        """
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
        """,
        """
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
        """,
    ),
    (  # 3: the board is a column of its game; every move names the input that made it
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
        "CREATE INDEX games_boards_behind ON games (id) WHERE rendered_version < version",
        # The interaction (or picker, or modal) that made a move: one move per input, ever.
        "ALTER TABLE moves ADD COLUMN source TEXT",
        "CREATE UNIQUE INDEX moves_once_per_source ON moves (source) WHERE source IS NOT NULL",
    ),
    (  # 4: daily and race games, hard mode, hints, boards reached only through interactions
        # SQLite cannot change a CHECK in place: both tables are rebuilt (foreign keys are off
        # while migrating, see SqliteDialect.migrating) and their indexes and triggers made anew.
        """
        CREATE TABLE games_new (
            id               INTEGER PRIMARY KEY,
            format           INTEGER NOT NULL,
            kind             TEXT    NOT NULL CHECK (kind IN ('play', 'solve', 'daily', 'race')),
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
            puzzle           INTEGER,
            CHECK ((kind = 'solve') = (secret IS NULL)),
            CHECK ((kind = 'daily') = (puzzle IS NOT NULL))
        )
        """,
        f"INSERT INTO games_new ({_GAMES_3}) SELECT {_GAMES_3} FROM games",
        "DROP TABLE games",
        "ALTER TABLE games_new RENAME TO games",
        "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) "
        "WHERE status = 'active' AND kind <> 'daily'",
        "CREATE UNIQUE INDEX games_one_daily_per_player ON games (starter_id, puzzle) "
        "WHERE kind = 'daily'",
        "CREATE INDEX games_by_guild ON games (guild_id, status)",
        "CREATE INDEX games_active_by_last_move ON games (last_move_at) WHERE status = 'active'",
        "CREATE INDEX games_boards_behind ON games (id) WHERE rendered_version < version",
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
        "CREATE INDEX moves_by_player ON moves (player_id, game_id)",
        "CREATE UNIQUE INDEX moves_once_per_source ON moves (source) WHERE source IS NOT NULL",
        """
        CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
        """,
        """
        CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'moves are append-only'); END
        """,
    ),
    (  # 5: a race's clock: when its lobby closes and when it ends (unix seconds)
        "ALTER TABLE games ADD COLUMN lobby_until INTEGER",
        "ALTER TABLE games ADD COLUMN race_until INTEGER",
        "CREATE INDEX games_active_races ON games (id) WHERE kind = 'race' AND status = 'active'",
    ),
)

POSTGRES: tuple[tuple[str, ...], ...] = (
    (  # 1: games, moves and meta, as SQLite's schema 3 has them
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
            -- The game version the board last showed; -1: never drawn, redraw at the next start.
            rendered_version INTEGER NOT NULL DEFAULT -1,
            CHECK ((kind = 'play') = (secret IS NOT NULL))
        )
        """,
        "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) "
        "WHERE status = 'active'",
        "CREATE INDEX games_by_guild ON games (guild_id, status)",
        "CREATE INDEX games_active_by_last_move ON games (last_move_at) WHERE status = 'active'",
        "CREATE INDEX games_boards_behind ON games (id) WHERE rendered_version < version",
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
        "CREATE INDEX moves_by_player ON moves (player_id, game_id)",
        "CREATE UNIQUE INDEX moves_once_per_source ON moves (source) WHERE source IS NOT NULL",
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
    (  # 2: leases: which process runs a job that must run once (see bot/store/leases.py)
        """
        CREATE TABLE leases (
            name       TEXT PRIMARY KEY,
            holder     TEXT NOT NULL,
            expires_at TIMESTAMPTZ NOT NULL
        )
        """,
    ),
    (  # 3: daily and race games, hard mode, hints, boards reached only through interactions
        "ALTER TABLE games DROP CONSTRAINT games_kind_check",
        "ALTER TABLE games ADD CONSTRAINT games_kind_check "
        "CHECK (kind IN ('play', 'solve', 'daily', 'race'))",
        "ALTER TABLE games DROP CONSTRAINT games_check",
        "ALTER TABLE games ADD CONSTRAINT games_secret_check "
        "CHECK ((kind = 'solve') = (secret IS NULL))",
        "ALTER TABLE games ADD COLUMN hard BOOLEAN NOT NULL DEFAULT false",
        "ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE games ADD COLUMN reach TEXT NOT NULL DEFAULT 'channel' "
        "CHECK (reach IN ('channel', 'interaction', 'private'))",
        "ALTER TABLE games ADD COLUMN puzzle INTEGER",
        "ALTER TABLE games ADD CONSTRAINT games_puzzle_check "
        "CHECK ((kind = 'daily') = (puzzle IS NOT NULL))",
        "DROP INDEX games_one_active_per_channel",
        "CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id) "
        "WHERE status = 'active' AND kind <> 'daily'",
        "CREATE UNIQUE INDEX games_one_daily_per_player ON games (starter_id, puzzle) "
        "WHERE kind = 'daily'",
        "ALTER TABLE moves DROP CONSTRAINT moves_kind_check",
        "ALTER TABLE moves ADD CONSTRAINT moves_kind_check CHECK (kind IN "
        "('guess', 'answer', 'undo', 'give_up', 'timeout', 'hint', 'join', 'start'))",
    ),
    (  # 4: a race's clock: when its lobby closes and when it ends (unix seconds)
        "ALTER TABLE games ADD COLUMN lobby_until BIGINT",
        "ALTER TABLE games ADD COLUMN race_until BIGINT",
        "CREATE INDEX games_active_races ON games (id) WHERE kind = 'race' AND status = 'active'",
    ),
)
