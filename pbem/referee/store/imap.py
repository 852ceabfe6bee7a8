"""The IMAP source's marks (``imap_source``): per account, folder and UIDVALIDITY, the
highest UID below which every message is done with. They live in the store's database
but over a connection of their own, so that a mark never commits the referee's work (on
PostgreSQL too: a second connection to the same database)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from pbem.referee.store.engine import WRITE_LOCK, Connection, PostgresConnection, is_url

STATE_TABLE = """
CREATE TABLE IF NOT EXISTS imap_state(
    account TEXT NOT NULL,
    folder TEXT NOT NULL,
    uidvalidity INTEGER NOT NULL,
    last_uid INTEGER NOT NULL,
    PRIMARY KEY (account, folder, uidvalidity)
)
"""


def open_marks(target: Path | str) -> Connection:
    """The marks' own connection to the store's database (a path or a URL)."""
    if is_url(target):
        return PostgresConnection(str(target))
    return sqlite3.connect(target, timeout=60)


def ensure_marks(db: Connection) -> None:
    """The marks' table, made when it is missing (committed at once)."""
    if isinstance(db, PostgresConnection):
        if db.execute("SELECT to_regclass('imap_state') IS NOT NULL").fetchone()[0]:
            return  # made: no store lock (a poll never waits for another host's game)
        db.execute("BEGIN")
        db.execute("SELECT pg_advisory_xact_lock(?)", (WRITE_LOCK,))
        db.execute(STATE_TABLE.replace("INTEGER", "BIGINT"))
        db.execute("COMMIT")
        return
    db.execute(STATE_TABLE)
    db.commit()


def last_uid(db: Connection, account: str, folder: str, uidvalidity: int) -> int | None:
    row = db.execute(
        "SELECT last_uid FROM imap_state WHERE account = ? AND folder = ? AND uidvalidity = ?",
        (account, folder, uidvalidity),
    ).fetchone()
    return None if row is None else int(row[0])


def raise_mark(db: Connection, account: str, folder: str, uidvalidity: int,
               mark: int) -> None:
    """Move the mark up to ``mark`` (never down), committed at once."""
    if isinstance(db, PostgresConnection):  # autocommit: the statement is its transaction
        db.execute(
            "INSERT INTO imap_state(account, folder, uidvalidity, last_uid) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(account, folder, uidvalidity) "
            "DO UPDATE SET last_uid = greatest(imap_state.last_uid, excluded.last_uid)",
            (account, folder, uidvalidity, mark),
        )
        return
    with db:
        db.execute(
            "INSERT INTO imap_state(account, folder, uidvalidity, last_uid) "
            "VALUES (?, ?, ?, ?) ON CONFLICT(account, folder, uidvalidity) "
            "DO UPDATE SET last_uid = max(last_uid, excluded.last_uid)",
            (account, folder, uidvalidity, mark),
        )


def claim(db: Connection, account: str, folder: str, uidvalidity: int, uid: int) -> bool:
    """Whether this session may handle the message now. On PostgreSQL (several hosts
    polling one folder) a session lock of the database on the message
    (``pg_try_advisory_lock``): False while another host's session holds it, i.e. handles
    that message; held until ``release``, or until the session ends, so that a host that
    dies lets go of it by itself. On SQLite (one machine) always True, as before."""
    if not isinstance(db, PostgresConnection):
        return True
    row = db.execute("SELECT pg_try_advisory_lock(hashtextextended(?, 0))",
                     (_claim_key(account, folder, uidvalidity, uid),)).fetchone()
    return bool(row[0])


def release(db: Connection, account: str, folder: str, uidvalidity: int, uid: int) -> None:
    """Let go of ``claim``'s lock, once the message is flagged done on the server."""
    if isinstance(db, PostgresConnection):
        db.execute("SELECT pg_advisory_unlock(hashtextextended(?, 0))",
                   (_claim_key(account, folder, uidvalidity, uid),))


def _claim_key(account: str, folder: str, uidvalidity: int, uid: int) -> str:
    return f"pbem-imap\n{account}\n{folder}\n{uidvalidity}\n{uid}"
