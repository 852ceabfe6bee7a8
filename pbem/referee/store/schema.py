"""The referee's store: games, players, turns with snapshots, messages, outbox.

On SQLite (the default), WAL mode and a busy timeout let several ``pbem mail`` processes
share the file; every incoming message is handled inside one ``BEGIN IMMEDIATE``
transaction (writers queue up, none sees another's half-done work). On PostgreSQL
(``store: postgresql://...`` in config.yaml, several hosts on one database) a write
transaction takes the database's advisory store lock for the same effect across hosts
(``engine.WRITE_LOCK``); work on one game takes it shared and that game's own lock, so
that hosts work on different games at once (``transaction``). Schema changes are named
migrations recorded in ``schema_migrations``, the same steps on both engines, each
applied in one transaction.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from pbem.referee.store.engine import (
    GAMES,
    WHOLE,
    Connection,
    Escalate,
    PostgresConnection,
    StoreError,
    is_url,
    postgresql_ddl,
    redact,
)

T = TypeVar("T")

BUSY_TIMEOUT_MS = 60_000

#: (name, SQL). Append only: a released migration is never edited.
#: A migration that rebuilds a table runs with foreign keys off (SQLite's way to alter a
#: table that others refer to), and the references are checked before it commits.
MIGRATIONS: tuple[tuple[str, str], ...] = (
    (
        "0001-games-turns-messages-outbox",
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            ruleset TEXT NOT NULL,
            ruleset_options TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'playing',   -- playing | over
            result TEXT,                              -- 1-0 | 0-1 | 1/2-1/2
            end_reason TEXT,                          -- bases | no-legal-turn | resigned | ...
            record TEXT NOT NULL,                     -- the canonical record (.realm text)
            offer TEXT,                               -- a pending offer: 'end:w', 'draw:b'
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL
        );
        CREATE TABLE players (
            game_id INTEGER NOT NULL REFERENCES games(id),
            side TEXT NOT NULL CHECK (side IN ('w', 'b')),
            email TEXT NOT NULL,
            name TEXT NOT NULL,
            token TEXT NOT NULL,
            PRIMARY KEY (game_id, side)
        );
        CREATE INDEX players_email ON players(email);
        CREATE TABLE turns (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,                     -- 0: the start position
            label TEXT NOT NULL,                      -- '11w', or 'start' for seq 0
            notation TEXT NOT NULL,                   -- canonical, numbered: '11.Pj7j10(Bk11)'
            snapshot TEXT NOT NULL,                   -- pbem.records.snapshot JSON
            message_id INTEGER REFERENCES messages(id),
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        );
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            message_id TEXT NOT NULL UNIQUE,          -- Message-ID, or sha256: of the raw bytes
            received_at REAL NOT NULL,
            game_id INTEGER REFERENCES games(id),
            side TEXT,
            sender TEXT,
            subject TEXT,
            raw BLOB NOT NULL,
            outcome TEXT NOT NULL,   -- accepted | refused | info | unknown-sender | ignored
            reason TEXT
        );
        CREATE INDEX messages_game ON messages(game_id);
        CREATE TABLE outbox (
            id INTEGER PRIMARY KEY,
            message_id TEXT NOT NULL UNIQUE,          -- the Message-ID of the mail we send
            game_id INTEGER REFERENCES games(id),
            side TEXT,
            reply_to_message INTEGER REFERENCES messages(id),
            recipient TEXT NOT NULL,
            kind TEXT NOT NULL,                       -- invitation | report | refusal | ...
            raw BLOB NOT NULL,
            status TEXT NOT NULL DEFAULT 'queued',    -- queued | sending | sent
            claimed_by TEXT,
            claimed_at REAL,
            attempts INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            created_at REAL NOT NULL,
            sent_at REAL
        );
        CREATE INDEX outbox_status ON outbox(status);
        CREATE INDEX outbox_game ON outbox(game_id);
        CREATE TABLE failures (
            id INTEGER PRIMARY KEY,
            message_id TEXT NOT NULL,                 -- not unique: a retry may fail again
            game_id INTEGER,
            at REAL NOT NULL,
            error TEXT NOT NULL
        );
        CREATE TABLE game_log (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            at REAL NOT NULL,
            kind TEXT NOT NULL,
            text TEXT NOT NULL
        );
        """,
    ),
    (
        "0002-clock-accounts-challenges-observers-digest",
        """
        -- a game's time control and clock (pbem.referee.clock JSON); NULL: no clock
        ALTER TABLE games ADD COLUMN clock_settings TEXT;
        ALTER TABLE games ADD COLUMN clock_state TEXT;
        -- one row per address the referee knows: its key for player-level commands
        CREATE TABLE accounts (
            email TEXT PRIMARY KEY,
            token TEXT NOT NULL,
            vacations TEXT NOT NULL DEFAULT '{"vacations": []}',  -- VacationBook JSON
            digest INTEGER NOT NULL DEFAULT 0,        -- 1: turn reports held for a daily digest
            digest_sent_on TEXT,                      -- the UTC day of the last digest
            created_at REAL NOT NULL
        );
        CREATE TABLE challenges (
            id INTEGER PRIMARY KEY,
            challenger TEXT NOT NULL,
            challenged TEXT NOT NULL,
            ruleset TEXT NOT NULL,
            clock TEXT,                               -- clock.format_settings text, or NULL
            status TEXT NOT NULL DEFAULT 'open',      -- open | accepted | declined | withdrawn
            game_id INTEGER REFERENCES games(id),
            created_at REAL NOT NULL,
            decided_at REAL
        );
        CREATE INDEX challenges_open ON challenges(status, challenged);
        CREATE TABLE observers (
            game_id INTEGER NOT NULL REFERENCES games(id),
            email TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, email)
        );
        -- turn reports held for a player's (or observer's) daily digest
        CREATE TABLE held_reports (
            id INTEGER PRIMARY KEY,
            email TEXT NOT NULL,
            game_id INTEGER NOT NULL REFERENCES games(id),
            subject TEXT NOT NULL,
            text TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        CREATE INDEX held_reports_email ON held_reports(email);
        """,
    ),
    (
        "0003-display-names-and-time-zones",
        """
        -- what a player said by mail: 'name Alice Archer', 'timezone Europe/Paris'
        ALTER TABLE accounts ADD COLUMN display_name TEXT;
        ALTER TABLE accounts ADD COLUMN timezone TEXT;
        """,
    ),
    (
        "0004-outbox-retry-times",
        """
        -- when a mail that failed for now is tried again (NULL: at once); a mail refused
        -- for good, or out of attempts, has status 'failed'
        ALTER TABLE outbox ADD COLUMN next_attempt_at REAL;
        """,
    ),
    (
        "0005-messages-digest-not-unique",
        """
        -- a Message-ID is the sender's choice: the same one may come with another mail.
        -- A mail is the same when its Message-ID and its digest (pbem.referee.intake.dedupe) are.
        CREATE TABLE messages_new (
            id INTEGER PRIMARY KEY,
            message_id TEXT NOT NULL,                 -- Message-ID, or sha256: of the mail
            digest TEXT,                              -- NULL for mails from before 0005
            received_at REAL NOT NULL,
            game_id INTEGER REFERENCES games(id),
            side TEXT,
            sender TEXT,
            subject TEXT,
            raw BLOB NOT NULL,
            outcome TEXT NOT NULL,   -- accepted | refused | info | unknown-sender | ignored
            reason TEXT
        );
        INSERT INTO messages_new (id, message_id, received_at, game_id, side, sender, subject,
                                  raw, outcome, reason)
            SELECT id, message_id, received_at, game_id, side, sender, subject, raw, outcome,
                   reason FROM messages;
        DROP TABLE messages;
        ALTER TABLE messages_new RENAME TO messages;
        CREATE INDEX messages_game ON messages(game_id);
        CREATE INDEX messages_message_id ON messages(message_id);
        """,
    ),
    (
        "0006-outbox-answers",
        """
        -- 'keyed' or 'stranger' for an answer to a mail (refusal, reply), NULL for other
        -- mail: the rate limits count these (pbem.referee.outgoing.ratelimit)
        ALTER TABLE outbox ADD COLUMN answer TEXT;
        CREATE INDEX outbox_recipient_time ON outbox(recipient, created_at);
        CREATE INDEX outbox_answer_time ON outbox(answer, created_at);
        """,
    ),
    (
        "0007-rollbacks-and-messages",

        """
        -- what a rollback (or an accepted takeback) removed, for `pbem rollback --undo`
        CREATE TABLE rollbacks (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            at REAL NOT NULL,
            seq INTEGER NOT NULL,                     -- the last entry kept
            turns TEXT NOT NULL,                      -- JSON: the removed rows of turns
            record TEXT NOT NULL,                     -- the game before the rollback
            offer TEXT,
            status TEXT NOT NULL,
            result TEXT,
            end_reason TEXT,
            clock_state TEXT,
            why TEXT NOT NULL,
            undone_at REAL
        );
        CREATE INDEX rollbacks_game ON rollbacks(game_id);
        -- what players said to each other ('say ...'), after the entry seq; a comment
        -- in the record
        CREATE TABLE said (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            side TEXT NOT NULL CHECK (side IN ('w', 'b')),
            text TEXT NOT NULL,
            at REAL NOT NULL
        );
        CREATE INDEX said_game ON said(game_id);
        """,
    ),
    (
        "0009-ratings-rated-and-finished-at",
        """
        -- issue 14: a game is rated unless made unrated (pbem new --unrated, challenge ...
        -- unrated, rated: false in config); finished_at: when it ended, the order the
        -- ratings fold games in (NULL while in play, again NULL when a rollback reopens it)
        ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
        ALTER TABLE games ADD COLUMN finished_at REAL;
        UPDATE games SET finished_at = updated_at WHERE status = 'over';
        ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 1;
        """,
    ),
    (
        "0010-conditional-turns",
        """
        -- a player's standing conditional turns ('if THEIR-TURN then MY-TURN'), secret:
        -- read only to match the opponent's next turn and to answer 'conditions'
        CREATE TABLE conditions (
            game_id INTEGER NOT NULL REFERENCES games(id),
            side TEXT NOT NULL CHECK (side IN ('w', 'b')),
            from_seq INTEGER NOT NULL,                -- the entry the opponent replies to
            conditions TEXT NOT NULL,                 -- JSON: pbem.referee.turns.conditions trees
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, side)
        );
        """,
    ),
    (
        "0011-delivery-bounces-unsubscribes-webhooks",
        """
        -- issue 25. The referee's own secrets (the HMAC key of bounce and unsubscribe
        -- addresses): kept in the home, with the store, never in a mail
        CREATE TABLE referee_secrets (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
        -- each mail's return path (VERP: referee+bounce-TOKEN@), the envelope sender
        ALTER TABLE outbox ADD COLUMN return_path TEXT;
        ALTER TABLE outbox ADD COLUMN bounce_token TEXT;
        CREATE INDEX outbox_bounce ON outbox(bounce_token);
        -- an address whose mail bounces: soft bounces in a row; unreachable since when
        CREATE TABLE reach (
            email TEXT PRIMARY KEY,
            soft INTEGER NOT NULL DEFAULT 0,
            unreachable_since REAL,
            reason TEXT,
            grace_told INTEGER NOT NULL DEFAULT 0
        );
        -- every bounce matched to a mail of ours
        CREATE TABLE bounces (
            id INTEGER PRIMARY KEY,
            at REAL NOT NULL,
            email TEXT NOT NULL,
            outbox_id INTEGER REFERENCES outbox(id),
            message_id INTEGER REFERENCES messages(id),
            hard INTEGER NOT NULL,
            status TEXT NOT NULL
        );
        -- List-Unsubscribe: the kind of mail (digest | reminder | observer) an address
        -- no longer gets, for one game (observer, reminder) or all (game_id 0)
        CREATE TABLE unsubscribed (
            email TEXT NOT NULL,
            kind TEXT NOT NULL,
            game_id INTEGER NOT NULL DEFAULT 0,
            at REAL NOT NULL,
            PRIMARY KEY (email, kind, game_id)
        );
        -- webhooks: a player's own ('notify webhook URL'), and a game's (the organiser's)
        CREATE TABLE webhooks (
            email TEXT PRIMARY KEY,
            url TEXT NOT NULL,
            set_at REAL NOT NULL
        );
        ALTER TABLE games ADD COLUMN webhook TEXT;
        -- the calls to make, after the commit, retried like mail; owner: the player whose
        -- hook it is (told by mail when it fails for good), NULL for the organiser's
        CREATE TABLE hook_calls (
            id INTEGER PRIMARY KEY,
            url TEXT NOT NULL,
            owner TEXT,
            game_id INTEGER REFERENCES games(id),
            event TEXT NOT NULL,
            body TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'queued',    -- queued | sending | sent | failed
            attempts INTEGER NOT NULL DEFAULT 0,
            next_attempt_at REAL,
            claimed_by TEXT,
            claimed_at REAL,
            last_error TEXT,
            created_at REAL NOT NULL,
            sent_at REAL
        );
        CREATE INDEX hook_calls_status ON hook_calls(status);
        -- notices to the referee's operator, each sent (or logged) once: its key
        CREATE TABLE operator_notices (
            key TEXT PRIMARY KEY,
            game_id INTEGER,
            at REAL NOT NULL
        );
        """,
    ),
    (
        "0012-tournaments",
        """
        -- issue 26: events of many games. A tournament's entries, then its schedule: each
        -- board a game of the referee's (or a bye); the results are the games' own
        CREATE TABLE tournaments (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            ruleset TEXT NOT NULL,                    -- a preset's name
            format TEXT NOT NULL,                     -- round-robin | double-round-robin | swiss
            rounds INTEGER,                           -- a Swiss event's number of rounds
            division_size INTEGER,                    -- a round robin's largest division
            clock TEXT,                               -- clock.format_settings text, or NULL
            rated INTEGER NOT NULL DEFAULT 1,
            public_delay INTEGER,                     -- turns the site holds back, or NULL
            ends_at REAL,                             -- after it, the organiser adjudicates
            webhook TEXT,                             -- where the event's news is posted
            status TEXT NOT NULL DEFAULT 'entries',   -- entries | running | finished
            created_at REAL NOT NULL,
            started_at REAL,
            finished_at REAL
        );
        CREATE TABLE tournament_entries (
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
            number INTEGER NOT NULL,                  -- the order of entry, from 1
            email TEXT NOT NULL,
            name TEXT,                                -- the name given with the entry
            rating REAL,                              -- the rating at the start (seeding)
            division INTEGER,                         -- from 1, set at the start
            seed INTEGER,                             -- the starting number in the division
            withdrawn_at REAL,
            PRIMARY KEY (tournament_id, number),
            UNIQUE (tournament_id, email)
        );
        CREATE TABLE tournament_boards (
            tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
            division INTEGER NOT NULL,
            round INTEGER NOT NULL,
            board INTEGER NOT NULL,                   -- 0: a bye
            white INTEGER NOT NULL,                   -- seeds in the division
            black INTEGER,                            -- NULL: a bye
            game_id INTEGER UNIQUE REFERENCES games(id),
            PRIMARY KEY (tournament_id, division, round, white)
        );
        CREATE INDEX tournament_boards_game ON tournament_boards(game_id);
        """,
    ),
    (
        "0013-game-versions-and-mail-once",
        """
        -- issue 28: several hosts work on different games at once (PostgreSQL). A game's
        -- row version: every write of the row adds one, and a unit's first write is
        -- conditional on the version it read (games.claim), so an update lost between two
        -- hosts is found, and done again
        ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
        -- a mail is kept once (its Message-ID and digest), but for a refused one, read
        -- again when sent again: two hosts cannot both take one mail
        CREATE UNIQUE INDEX messages_once ON messages(message_id, digest)
            WHERE outcome <> 'refused';
        """,
    ),
)



#: a step whose SQLite spelling rebuilds a table (SQLite's only way to drop a constraint)
#: is, on PostgreSQL, the ALTER TABLE that does the same
POSTGRESQL_STEPS: dict[str, str] = {
    "0005-messages-digest-not-unique": """
        ALTER TABLE messages ADD COLUMN digest TEXT;
        ALTER TABLE messages DROP CONSTRAINT messages_message_id_key;
        CREATE INDEX messages_message_id ON messages(message_id);
    """,
}


def connect(target: Path | str, *, create: bool = False) -> Connection:
    """Open the store (autocommit: transactions are explicit) and bring its schema up to date:
    a SQLite file's path, or a ``postgresql://`` URL (``Home.store_target``).

    Only ``pbem init`` passes ``create``: a store that is missing or empty (0 bytes) is
    refused, never silently made anew, since a new store knows no games and would answer
    every player "this address plays no game" while the real games wait elsewhere.
    """
    if is_url(target):
        return _connect_postgresql(str(target), create=create)
    path = Path(target)
    if not create:
        _check_exists(path)
    try:
        conn = sqlite3.connect(
            str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
        )
        conn.row_factory = sqlite3.Row
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
        # a new store is empty; another program's database is never written into
        if "schema_migrations" not in names and (names or not create):
            conn.close()
            raise StoreError(
                f"{path} is not a pbem store (it has no schema): the referee does not "
                "write into it; restore the store from a backup, or move it away and run "
                "`pbem init` for a new one", code="store.missing",
            )
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn)
    except sqlite3.Error as exc:
        why = _unwritable(path)
        raise StoreError(f"cannot open the store {path}: {why or exc}") from None
    return conn


def _connect_postgresql(url: str, *, create: bool) -> PostgresConnection:
    conn = PostgresConnection(url)
    try:
        names = {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()")}
        if "schema_migrations" not in names and (names or not create):
            raise StoreError(
                f"{redact(url)} is not a pbem store (it has no schema): the referee does not "
                "write into it; `pbem init --store URL` makes the schema in an empty database",
                code="store.missing",
            )
        migrate(conn)
    except BaseException:
        conn.close()
        raise
    return conn


def _unwritable(path: Path) -> str | None:
    """Why SQLite cannot write beside the store, in words, or None. Even a command that
    only reads (``games``, ``show``) must: the store is in WAL mode, and SQLite keeps its
    ``-wal`` and ``-shm`` journal files in the store's folder."""
    folder = path.parent
    journal = "SQLite needs to write its journal (-wal, -shm files) beside the store, even to read"
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return None
    if read_only:
        return f"the folder {folder} is on a read-only file system: {journal}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable by this user: {journal}"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return f"the store {path} is not readable and writable by this user: {journal}"
    return None


def _check_exists(path: Path) -> None:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise StoreError(
            f"there is no store at {path}: the referee never creates one by itself (only "
            "`pbem init` does); restore it from a backup, or check $PBEM_HOME",
            code="store.missing",
        ) from None
    except OSError as exc:
        raise StoreError(f"cannot open the store {path}: {exc.strerror or exc}") from None
    if size == 0:
        raise StoreError(
            f"the store {path} is empty (0 bytes): the referee does not start a new one in "
            "its place; restore it from a backup (or remove it and run `pbem init`)",
            code="store.missing",
        )


def applied_migrations(conn: Connection) -> list[str]:
    if isinstance(conn, PostgresConnection):
        made = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()[0]
        if not made:  # the store's lock only then: a host starting never waits for a game
            with transaction(conn):  # two hosts starting at once: one makes the table
                conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                             "(name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION)")
    else:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, "
            "applied_at REAL)"
        )
    return [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]


def migrate(conn: Connection) -> list[str]:
    """Apply the migrations not yet applied, each in its own transaction; their names."""
    done = set(applied_migrations(conn))
    applied = []
    for name, sql in MIGRATIONS:
        if name in done:
            continue
        if isinstance(conn, PostgresConnection):
            with transaction(conn):
                if conn.execute(
                    "SELECT 1 FROM schema_migrations WHERE name = ?", (name,)
                ).fetchone():
                    continue
                for statement in postgresql_ddl(POSTGRESQL_STEPS.get(name, sql)):
                    conn.script(statement)
                conn.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                    (name, time.time()),
                )
            applied.append(name)
            continue
        rebuild = "DROP TABLE" in sql
        if rebuild:
            conn.execute("PRAGMA foreign_keys = OFF")  # a no-op inside a transaction
        try:
            with transaction(conn):
                # another process may have applied it while we waited for the lock
                if conn.execute(
                    "SELECT 1 FROM schema_migrations WHERE name = ?", (name,)
                ).fetchone():
                    continue
                for statement in _statements(sql):
                    conn.execute(statement)
                if rebuild and conn.execute("PRAGMA foreign_key_check").fetchone():
                    raise StoreError(f"migration {name} would break the store's references")
                conn.execute(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)",
                    (name, time.time()),
                )
        finally:
            if rebuild:
                conn.execute("PRAGMA foreign_keys = ON")
        applied.append(name)
    return applied


def _statements(sql: str) -> Iterator[str]:
    """The statements of a script (``executescript`` would commit: not inside a migration)."""
    current = ""
    for line in sql.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            yield current
            current = ""
    if current.strip():
        yield current


@contextlib.contextmanager
def transaction(conn: Connection, scope: str = WHOLE) -> Iterator[Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``; any exception rolls everything back. On
    PostgreSQL: ``BEGIN`` and the store's lock, held until the commit: exclusively
    (``WHOLE``, SQLite's way), or shared with each game's own lock taken as the work reads
    the game (``GAMES``: ``lock_game``; work beyond those games raises ``Escalate``, and
    ``retried`` does it again with the whole store locked). SQLite always locks it whole."""
    if isinstance(conn, PostgresConnection):
        with _pg_transaction(conn, scope):
            yield conn
        return
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot lock the store: {exc}") from None
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    try:
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        raise StoreError(f"cannot commit to the store: {exc}") from None


#: how often ``retried`` runs a unit of work when the store undid its transaction for a
#: reason of its own (PostgreSQL: a dropped connection, a serialization failure, a deadlock)
STORE_ATTEMPTS = 3
RETRIED = frozenset({"store.retry", "store.unreachable"})


def retried(conn: Connection, work: Callable[[], T], scope: str = WHOLE) -> T:
    """``work()`` inside one ``transaction`` of ``scope``; run again from the start (a new
    transaction, the connection opened anew when it dropped) when the store undid it by
    itself, up to ``STORE_ATTEMPTS`` times, and with the whole store locked when a
    ``GAMES`` transaction found work beyond its games (``Escalate``: not counted). On
    SQLite no error is of those kinds: one run, as before."""
    attempt = 1
    while True:
        try:
            with transaction(conn, scope):
                return work()
        except StoreError as exc:
            if exc.code == Escalate.code and scope == GAMES:
                scope = WHOLE
                continue
            if exc.code not in RETRIED or attempt >= STORE_ATTEMPTS:
                raise
            time.sleep(0.2 * attempt)
            attempt += 1


@contextlib.contextmanager
def read_transaction(conn: Connection) -> Iterator[Connection]:
    """A transaction without the store's lock, for work that locks only the rows it takes
    (``SELECT ... FOR UPDATE SKIP LOCKED``: the outbox's claims) on PostgreSQL; on
    SQLite the same as ``transaction``."""
    if isinstance(conn, PostgresConnection):
        with _pg_transaction(conn, None):
            yield conn
        return
    with transaction(conn):
        yield conn


@contextlib.contextmanager
def _pg_transaction(conn: PostgresConnection, scope: str | None) -> Iterator[None]:
    conn.reopen_if_broken()
    try:
        try:
            conn.begin(scope)
            yield
            if conn.needs_whole is not None:  # an Escalate some caller caught: never commit
                raise Escalate(f"the work needs the whole store locked: {conn.needs_whole}")
        except BaseException:
            with contextlib.suppress(StoreError):
                if not conn.broken:
                    conn.execute("ROLLBACK")
            raise
        try:
            conn.execute("COMMIT")
        except StoreError as exc:
            with contextlib.suppress(StoreError):
                if not conn.broken:
                    conn.execute("ROLLBACK")
            raise StoreError(f"cannot commit to the store: {exc}", code=exc.code) from None
    finally:
        conn.ended()


@contextlib.contextmanager
def savepoint(conn: Connection, name: str) -> Iterator[Connection]:
    """A part of the caller's transaction that an exception undoes alone (and re-raises):
    the rest of the transaction stands."""
    conn.execute(f"SAVEPOINT {name}")
    try:
        yield conn
    except BaseException:
        with contextlib.suppress(sqlite3.Error, StoreError):  # an error may have ended it
            conn.execute(f"ROLLBACK TO {name}")
            conn.execute(f"RELEASE {name}")
        raise
    conn.execute(f"RELEASE {name}")
