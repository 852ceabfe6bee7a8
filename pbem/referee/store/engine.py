"""The two engines the store runs on, behind one code path: SQLite (the default, Python's
``sqlite3`` as it always was) and PostgreSQL (``psycopg`` 3, ``pip install
'pbem[postgresql]'``), for several referee hosts on one database.

Every statement is written once, in the SQL both engines speak, with ``?`` marks; on
PostgreSQL ``PostgresConnection.execute`` turns the few SQLite spellings left into
PostgreSQL's (``?`` -> ``%s``, ``INSERT OR IGNORE`` -> ``ON CONFLICT DO NOTHING``,
``group_concat`` -> ``string_agg``), once per distinct statement (cached). Why a thin layer
over DB-API rather than SQLAlchemy Core: the referee's ~110 statements are plain SQL that
already run unchanged on both engines but for those spellings; the SQLite path stays the
very ``sqlite3`` calls it was (not a statement slower), and psycopg is the one new
dependency, optional. A PostgreSQL error becomes a ``StoreError`` whose code says what
the caller can do: ``store.unreachable`` (wait and retry: ``pbem mail --mta`` exits 75),
``store.retry`` (a serialization failure or deadlock: the work is tried again), ``store``.
"""

from __future__ import annotations

import functools
import os
import re
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any, Protocol

from pbem.errors import PbemError


class StoreError(PbemError):
    """The store cannot be opened, read or written."""

    code = "store"


class Escalate(StoreError):
    """A ``GAMES`` transaction found work beyond the games it locks: it is undone and
    done again with the whole store locked (``schema.retried``)."""

    code = "store.whole"


class Row(Protocol):
    """A row of either engine: by position or by column name (``sqlite3.Row``'s way)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> list[str]: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


#: how long a statement waits for a lock (the write lock, a row) before it fails: SQLite's
#: busy timeout (schema.BUSY_TIMEOUT_MS)
LOCK_TIMEOUT_MS = 60_000

#: the store's one lock on PostgreSQL (``pg_advisory_xact_lock``), held by the database
#: itself for every host at once. Work that spans games or players (a new game, a
#: challenge, a tournament's round, an account, a bounce, a migration) takes it exclusively:
#: SQLite's ``BEGIN IMMEDIATE``. Work on one game (a player's mail, the clock's tick of a
#: game) takes it shared, and the game's own lock (``GAME_LOCKS``, game id) exclusively:
#: hosts work on different games at once, never on one game at once.
WRITE_LOCK = 0x70626D
#: the first key of a game's lock (two-key advisory locks: a key space of their own)
GAME_LOCKS = 0x70626D

#: the scopes of a write transaction: ``whole`` (the store's lock exclusively) and
#: ``games`` (the store's lock shared, each game's lock as the work reads the game)
WHOLE, GAMES = "whole", "games"

#: tables a ``games`` transaction writes under a game's lock (the game's own rows)
GAME_TABLES = frozenset({"games", "players", "turns", "said", "conditions", "rollbacks",
                         "game_log", "observers"})
#: tables a ``games`` transaction may add rows to at any time: each row is its own (a mail
#: kept once by its unique key, a reply queued, a report held, a hook's call, a failure)
OWN_ROWS = frozenset({"messages", "outbox", "held_reports", "hook_calls", "failures"})
#: the tables a ``games`` transaction writes without touching what games or players share
UNSHARED = GAME_TABLES | OWN_ROWS
#: every other table (accounts, reach, bounces, challenges, tournaments, ...) is shared by
#: games or players: a ``games`` transaction that changes a row of one is done again with
#: the whole store locked (``Escalate``)

_WRITE = re.compile(r"\s*(INSERT(?: OR \w+)? INTO|UPDATE|DELETE FROM)\s+(\w+)", re.IGNORECASE)


@functools.lru_cache(maxsize=1024)
def written_table(sql: str) -> tuple[str, str] | None:
    """(verb, table) of a statement that writes ('INSERT INTO', 'INSERT OR IGNORE INTO',
    'UPDATE', 'DELETE FROM'), else None."""
    m = _WRITE.match(sql)
    return None if m is None else (" ".join(m.group(1).upper().split()), m.group(2).lower())


class PostgresRow:
    """``sqlite3.Row`` for psycopg: by index, by name, ``keys()``, ``dict(row)``."""

    __slots__ = ("_names", "_values")

    def __init__(self, names: dict[str, int], values: Sequence[Any]):
        self._names = names
        self._values = values

    def __getitem__(self, key: int | str) -> Any:
        if isinstance(key, str):
            return self._values[self._names[key]]
        return self._values[key]

    def keys(self) -> list[str]:
        return list(self._names)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PostgresRow):
            return self.keys() == other.keys() and tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._values))

    def __repr__(self) -> str:
        return f"PostgresRow({dict(zip(self._names, self._values, strict=True))!r})"


def _row_factory(cursor: Any) -> Any:
    names = {c.name: i for i, c in enumerate(cursor.description or ())}
    return lambda values: PostgresRow(names, values)


_QUOTED = re.compile(r"('(?:[^']|'')*')")


@functools.lru_cache(maxsize=1024)
def to_postgresql(sql: str) -> str:
    """A statement in SQLite's spelling, in PostgreSQL's (see the module's docstring)."""
    parts = _QUOTED.split(sql)
    for i in range(0, len(parts), 2):  # outside string literals
        parts[i] = parts[i].replace("%", "%%").replace("?", "%s")
    for i in range(1, len(parts), 2):
        parts[i] = parts[i].replace("%", "%%")
    out = "".join(parts)
    out = re.sub(r"\bgroup_concat\(", "string_agg(", out)
    if re.match(r"\s*INSERT OR IGNORE INTO\b", out):
        out = re.sub(r"INSERT OR IGNORE INTO", "INSERT INTO", out, count=1)
        m = re.search(r"\bRETURNING\b", out)
        if m:
            out = out[:m.start()] + "ON CONFLICT DO NOTHING " + out[m.start():]
        else:
            out = out.rstrip().rstrip(";") + " ON CONFLICT DO NOTHING"
    return out


def _as_store_error(exc: Exception, what: str) -> StoreError:
    import psycopg
    from psycopg import errors

    if isinstance(exc, errors.LockNotAvailable):
        return StoreError(f"{what}: cannot lock the store: another host held it for "
                          f"{LOCK_TIMEOUT_MS // 1000} seconds")
    # a unique key another host's committed work took meanwhile (two hosts made one
    # account at once, say) is such a collision too: done again, the work finds that row
    if isinstance(exc, (errors.SerializationFailure, errors.DeadlockDetected,
                        errors.UniqueViolation)):
        return StoreError(f"{what}: another host's work collided with this one "
                          f"({type(exc).__name__}); try again", code="store.retry")
    if isinstance(exc, psycopg.OperationalError):
        return StoreError(f"{what}: the database cannot be reached: "
                          f"{str(exc).strip() or type(exc).__name__}", code="store.unreachable")
    return StoreError(f"{what}: {str(exc).strip() or type(exc).__name__}")


class PostgresConnection:
    """A psycopg connection that answers the referee the way ``sqlite3.Connection`` does
    (``execute`` -> a cursor with ``fetchone``, ``fetchall``, iteration, ``rowcount``),
    autocommit between the store's explicit transactions."""

    engine = "postgresql"

    def __init__(self, url: str):
        self.url = url
        self._raw: Any = None
        #: the running write transaction's scope (``WHOLE``, ``GAMES``), None outside one or
        #: in a transaction that locks only rows (``read_transaction``)
        self.scope: str | None = None
        #: the games whose locks this ``GAMES`` transaction holds (their lock keys)
        self.games_held: set[int] = set()
        #: why this ``GAMES`` transaction must be done again with the whole store locked
        #: (it never commits then, even if a caller caught the ``Escalate``)
        self.needs_whole: str | None = None
        self._open()

    def begin(self, scope: str | None) -> None:
        """``BEGIN`` and the store's lock for ``scope`` (None: no lock but the rows')."""
        self.execute("BEGIN")
        self.scope, self.games_held, self.needs_whole = scope, set(), None
        if scope == WHOLE:
            self.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
        elif scope == GAMES:
            self.execute("SELECT pg_advisory_xact_lock_shared(?)", (WRITE_LOCK,))

    def ended(self) -> None:
        self.scope, self.games_held = None, set()

    def lock_game(self, game_id: int) -> None:
        """Inside a ``GAMES`` transaction: the game's lock, held until the transaction
        ends, taken before the game is read (so the read sees the last commit). Games are
        locked in the order of their keys (no two hosts wait for each other); a game
        below one already held means the whole store instead (``Escalate``)."""
        if self.scope != GAMES:
            return
        lock = int(game_id) & 0x7FFFFFFF
        if lock in self.games_held:
            return
        if self.games_held and lock < max(self.games_held):
            self.escalate(f"game {game_id} after game {max(self.games_held)}")
        self.execute("SELECT pg_advisory_xact_lock(CAST(? AS integer), CAST(? AS integer))",
                      (GAME_LOCKS, lock))
        self.games_held.add(lock)

    def escalate(self, why: str) -> None:
        self.needs_whole = why
        raise Escalate(f"the work needs the whole store locked: {why}")

    def _open(self) -> None:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        password = os.environ.get("PBEM_STORE_PASSWORD") or None
        try:
            # the URL's own options (a search_path, say) kept, the lock timeout added, and
            # every commit durable before the referee says so (a server set to
            # synchronous_commit=off would lose acknowledged turns when it crashes)
            given = str(conninfo_to_dict(self.url).get("options") or "")
            self._raw = psycopg.connect(self.url, autocommit=True, row_factory=_row_factory,
                                        connect_timeout=10, password=password,
                                        application_name="pbem",
                                        options=f"{given} -c lock_timeout={LOCK_TIMEOUT_MS} "
                                                "-c synchronous_commit=on")
        except psycopg.Error as exc:
            raise _as_store_error(exc, f"cannot open the store {redact(self.url)}") from None

    @property
    def broken(self) -> bool:
        return bool(self._raw is None or self._raw.closed or self._raw.broken)

    def reopen_if_broken(self) -> None:
        """A dropped connection is opened anew, between transactions only (inside one the
        work is lost anyway and its error goes up)."""
        if self.broken:
            self._open()

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        return bool(self._raw.info.transaction_status != TransactionStatus.IDLE)

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any:
        import psycopg

        # SQLite keeps a bool as 0 or 1: the same here, where the columns are integers
        values = tuple(int(p) if isinstance(p, bool) else p for p in parameters)
        written = written_table(sql) if self.scope == GAMES else None
        if written is not None:
            verb, table = written
            if table in GAME_TABLES and (not self.games_held or
                                         (table == "games" and verb == "INSERT INTO")):
                self.escalate(f"{verb} {table} beyond the games it locked")
            if verb == "INSERT INTO" and table not in UNSHARED:
                # a new shared row for sure: before it takes an id that the undone
                # attempt would leave as a gap (challenge 2 would become challenge 3)
                self.escalate(f"{verb} {table}, shared by games or players")
        try:
            cursor = self._raw.execute(to_postgresql(sql), values)
        except psycopg.Error as exc:
            raise _as_store_error(exc, "the store") from None
        if written is not None and written[1] not in UNSHARED and cursor.rowcount > 0:
            self.escalate(f"{written[0]} {written[1]}, shared by games or players")
        return cursor

    def script(self, sql: str) -> None:
        """Several statements without parameters (a migration's DDL)."""
        import psycopg

        try:
            self._raw.execute(sql)
        except psycopg.Error as exc:
            raise _as_store_error(exc, "the store") from None

    def close(self) -> None:
        if self._raw is not None:
            self._raw.close()


#: a connection to the store, of either engine
Connection = sqlite3.Connection | PostgresConnection

#: what a failing statement may raise, on either engine, besides ``StoreError``
DB_ERRORS: tuple[type[Exception], ...] = (sqlite3.Error, StoreError)


def lock_game(conn: Connection, game_id: int) -> None:
    """Before a game is read inside a ``GAMES`` transaction: its lock (PostgreSQL; SQLite
    holds the whole store already)."""
    if isinstance(conn, PostgresConnection):
        conn.lock_game(game_id)


def is_postgresql(conn: Connection) -> bool:
    return isinstance(conn, PostgresConnection)


def is_url(target: object) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def redact(url: str) -> str:
    """The URL without a password, for messages."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


def has_password(url: str) -> bool:
    return redact(url) != url or re.search(r"[?&]password=", url) is not None


# -- DDL ------------------------------------------------------------------------------------
_CREATE = re.compile(r"CREATE TABLE (?:IF NOT EXISTS )?(\w+)")


def postgresql_ddl(sql: str) -> list[str]:
    """A migration's SQLite DDL as PostgreSQL statements: 64-bit integers, identity keys,
    double precision times, bytea; a table made before the tables it refers to."""
    sql = re.sub(r"--[^\n]*", "", sql)
    sql = re.sub(r"\bINTEGER PRIMARY KEY\b",
                 "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY", sql)
    sql = re.sub(r"\bINTEGER\b", "BIGINT", sql)
    sql = re.sub(r"\bREAL\b", "DOUBLE PRECISION", sql)
    sql = re.sub(r"\bBLOB\b", "BYTEA", sql)
    statements = [s.strip() for s in sql.split(";") if s.strip()]
    made = {m.group(1) for s in statements if (m := _CREATE.match(s))}
    ordered: list[str] = []
    done: set[str] = set()
    pending = list(statements)
    while pending:
        pick = pending[0]  # a cycle: as written
        for s in pending:
            m = _CREATE.match(s)
            needs = set(re.findall(r"(?:REFERENCES|\bON|ALTER TABLE) (\w+)", s)) & made
            if needs <= done | ({m.group(1)} if m else set()):
                pick = s
                break
        ordered.append(pick)
        pending.remove(pick)
        if (m := _CREATE.match(pick)) is not None:
            done.add(m.group(1))
    return ordered


def insert_id(conn: Connection, sql: str, parameters: Sequence[Any] = ()) -> int:
    """Run an INSERT into a table with an ``id`` key; the new row's id (SQLite's
    ``lastrowid``, PostgreSQL's ``RETURNING id``)."""
    if isinstance(conn, PostgresConnection):
        return int(conn.execute(sql + " RETURNING id", parameters).fetchone()[0])
    return int(conn.execute(sql, parameters).lastrowid or 0)
