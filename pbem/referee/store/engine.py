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


class Row(Protocol):
    """A row of either engine: by position or by column name (``sqlite3.Row``'s way)."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> list[str]: ...

    def __iter__(self) -> Iterator[Any]: ...

    def __len__(self) -> int: ...


#: how long a statement waits for a lock (the write lock, a row) before it fails: SQLite's
#: busy timeout (schema.BUSY_TIMEOUT_MS)
LOCK_TIMEOUT_MS = 60_000

#: the one lock every write transaction takes on PostgreSQL (``pg_advisory_xact_lock``):
#: SQLite's ``BEGIN IMMEDIATE`` for every host at once, held by the database itself, so
#: that the referee's units of work see each other exactly as they do on SQLite
WRITE_LOCK = 0x70626D


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
    if isinstance(exc, (errors.SerializationFailure, errors.DeadlockDetected)):
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
        self._open()

    def _open(self) -> None:
        import psycopg
        from psycopg.conninfo import conninfo_to_dict

        password = os.environ.get("PBEM_STORE_PASSWORD") or None
        try:
            # the URL's own options (a search_path, say) kept, the lock timeout added
            given = str(conninfo_to_dict(self.url).get("options") or "")
            self._raw = psycopg.connect(self.url, autocommit=True, row_factory=_row_factory,
                                        connect_timeout=10, password=password,
                                        application_name="pbem",
                                        options=f"{given} -c lock_timeout={LOCK_TIMEOUT_MS}")
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
        try:
            return self._raw.execute(to_postgresql(sql), values)
        except psycopg.Error as exc:
            raise _as_store_error(exc, "the store") from None

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
