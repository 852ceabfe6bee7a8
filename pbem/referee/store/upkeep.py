"""The store looked after as a whole: ``check`` (``pbem store check``: the engine's own
integrity check, then the references and the turns' order, on either engine) and
``copy_store`` (``pbem store copy --to URL``: a club's SQLite store into an empty
PostgreSQL database, then every table compared row by row).

The check reads every row of every table, so it also finds damage that no transaction
ever read (a page SQLite never visited since it was written, a table PostgreSQL cannot
scan), not only what the referee's last run stumbled over."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem.referee.store.engine import Connection, PostgresConnection, StoreError
from pbem.referee.store.imap import ensure_marks
from pbem.referee.store.schema import MIGRATIONS, transaction

#: every table of the store, each after the tables it refers to (the order a copy fills
#: them in), with its key (the order rows are compared in)
TABLES: tuple[tuple[str, str], ...] = (
    ("games", "id"), ("players", "game_id, side"), ("messages", "id"),
    ("turns", "game_id, seq"), ("outbox", "id"), ("failures", "id"), ("game_log", "id"),
    ("accounts", "email"), ("challenges", "id"), ("observers", "game_id, email"),
    ("held_reports", "id"), ("rollbacks", "id"), ("said", "id"),
    ("conditions", "game_id, side"), ("referee_secrets", "name"), ("reach", "email"),
    ("bounces", "id"), ("unsubscribed", "email, kind, game_id"), ("webhooks", "email"),
    ("hook_calls", "id"), ("operator_notices", "key"), ("tournaments", "id"),
    ("tournament_entries", "tournament_id, number"),
    ("tournament_boards", "tournament_id, division, round, white"),
    ("imap_state", "account, folder, uidvalidity"),
)

#: (table, column, the table and column it refers to): the references the schema declares
REFERENCES: tuple[tuple[str, str, str, str], ...] = (
    ("players", "game_id", "games", "id"), ("turns", "game_id", "games", "id"),
    ("turns", "message_id", "messages", "id"), ("messages", "game_id", "games", "id"),
    ("outbox", "game_id", "games", "id"), ("outbox", "reply_to_message", "messages", "id"),
    ("game_log", "game_id", "games", "id"), ("challenges", "game_id", "games", "id"),
    ("observers", "game_id", "games", "id"), ("held_reports", "game_id", "games", "id"),
    ("rollbacks", "game_id", "games", "id"), ("said", "game_id", "games", "id"),
    ("conditions", "game_id", "games", "id"), ("bounces", "outbox_id", "outbox", "id"),
    ("bounces", "message_id", "messages", "id"), ("hook_calls", "game_id", "games", "id"),
    ("tournament_entries", "tournament_id", "tournaments", "id"),
    ("tournament_boards", "tournament_id", "tournaments", "id"),
    ("tournament_boards", "game_id", "games", "id"),
)

_IDENTITY = ("games", "messages", "outbox", "failures", "game_log", "challenges",
             "held_reports", "rollbacks", "said", "bounces", "hook_calls", "tournaments")


def tables_of(conn: Connection) -> set[str]:
    """The tables the store's database holds."""
    if isinstance(conn, PostgresConnection):
        return {r[0] for r in conn.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = current_schema()")}
    return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def check(conn: Connection) -> list[str]:
    """What is wrong with the store, in words; empty when nothing is."""
    problems: list[str] = []
    if isinstance(conn, PostgresConnection):
        for table, key in TABLES:  # every row read: a damaged page or index shows here
            if table in tables_of(conn):
                try:
                    conn.execute(f"SELECT count(*), md5(string_agg(t::text, '' ORDER BY {key}))"
                                 f" FROM {table} t").fetchone()
                except StoreError as exc:
                    problems.append(f"table {table} cannot be read: {exc.message}")
    else:
        try:
            for (said,) in conn.execute("PRAGMA integrity_check").fetchall():
                if said != "ok":
                    problems.append(f"SQLite's integrity check: {said}")
            for row in conn.execute("PRAGMA foreign_key_check").fetchall():
                problems.append(f"table {row[0]} row {row[1]} refers to a missing {row[2]}")
        except Exception as exc:  # a damaged file: the error is the finding
            return [f"SQLite cannot read the store: {exc}"]
    if problems:
        return problems
    applied = {r[0] for r in conn.execute("SELECT name FROM schema_migrations")}
    missing = [name for name, _ in MIGRATIONS if name not in applied]
    if missing:
        problems.append(f"migrations not applied: {', '.join(missing)}")
    for table, column, target, key in REFERENCES:
        count = conn.execute(
            f"SELECT count(*) FROM {table} t WHERE t.{column} IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM {target} x WHERE x.{key} = t.{column})").fetchone()[0]
        if count:
            problems.append(f"{count} row(s) of {table} refer to a missing {target} "
                            f"({column})")
    for game_id, turns, top in conn.execute(
        "SELECT g.id, count(t.seq), max(t.seq) FROM games g LEFT JOIN turns t "
        "ON t.game_id = g.id GROUP BY g.id ORDER BY g.id"
    ).fetchall():
        if turns and (int(top) != int(turns) - 1):
            problems.append(f"game {game_id}: its turns are not numbered 0 to {turns - 1}")
    return problems


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)


def _rows(conn: Connection, table: str, key: str, columns: list[str]) -> Any:
    return conn.execute(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {key}")


def _columns(conn: Connection, table: str) -> list[str]:
    if isinstance(conn, PostgresConnection):
        return [r[0] for r in conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = ? ORDER BY ordinal_position", (table,))]
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]


def _value(value: Any) -> Any:
    return bytes(value) if isinstance(value, memoryview) else value


def digest(conn: Connection, table: str, key: str, columns: list[str]) -> tuple[int, str]:
    """(rows, sha256 of every row's values in key order): what a copy is compared by."""
    h = hashlib.sha256()
    count = 0
    for row in _rows(conn, table, key, columns):
        count += 1
        h.update(repr(tuple(_value(v) for v in row)).encode("utf-8"))
    return count, h.hexdigest()


def copy_store(source: Connection, target: Connection,
               progress: Callable[[str, int], None] | None = None) -> Copied:
    """Copy every row of ``source`` into ``target`` (a new store: no game, no mail in it),
    in one transaction of the target's, then compare each table: a difference undoes
    nothing but raises, so the old store stays the one in use."""
    have = tables_of(source)
    unknown = have - {t for t, _ in TABLES} - {"schema_migrations", "sqlite_sequence"}
    if unknown:
        raise StoreError(f"the store has tables this pbem does not know: "
                         f"{', '.join(sorted(unknown))}; upgrade pbem first")
    if target.execute("SELECT 1 FROM games LIMIT 1").fetchone() or target.execute(
            "SELECT 1 FROM messages LIMIT 1").fetchone():
        raise StoreError("the target store is not empty (it has games or mail): a copy goes "
                         "only into a new store")
    if "imap_state" in have:
        ensure_marks(target)
    copied = Copied()
    with transaction(target):
        for table, key in TABLES:
            if table not in have:
                continue
            columns = [c for c in _columns(source, table) if c in set(_columns(target, table))]
            marks = ", ".join("?" * len(columns))
            insert = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
            count = 0
            for row in _rows(source, table, key, columns):
                target.execute(insert, tuple(_value(v) for v in row))
                count += 1
            copied.rows[table] = count
            if progress is not None:
                progress(table, count)
        if isinstance(target, PostgresConnection):
            for table in _IDENTITY:  # new rows go on after the copied ones
                target.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"coalesce((SELECT max(id) FROM {table}), 0) + 1, false)")
    for table, key in TABLES:
        if table not in have:
            continue
        columns = [c for c in _columns(source, table) if c in set(_columns(target, table))]
        if digest(source, table, key, columns) != digest(target, table, key, columns):
            raise StoreError(f"the copy of table {table} differs from the original")
    return copied
