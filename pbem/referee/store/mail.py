"""Mail in the store: every message received (with what became of it), the failures, and
the outbox rows the referee's replies are queued in (delivery itself is ``outbox``)."""

from __future__ import annotations

import sqlite3
import time

from pbem.errors import PbemError
from pbem.referee.store.engine import Connection, insert_id
from pbem.referee.store.schema import transaction


def handled_before(conn: Connection, message_id: str, mail_digest: str) -> bool:
    """Whether this very mail was handled (not refused) before: the same Message-ID *and*
    the same digest (``dedupe.digest``), so that a stranger's mail with a turn's
    Message-ID does not drop the turn, and a refused mail sent again is read again. Rows
    from before digests were kept (``digest IS NULL``) match on the Message-ID alone."""
    return conn.execute(
        "SELECT 1 FROM messages WHERE message_id = ? AND outcome NOT IN ('refused', 'pending') "
        "AND (digest = ? OR digest IS NULL) LIMIT 1",
        (message_id, mail_digest),
    ).fetchone() is not None


def add_message(conn: Connection, message_id: str, mail_digest: str, sender: str,
                subject: str, raw: bytes) -> int | None:
    """Keep a message as it came, before deciding what it means; its row id. None when the
    very mail was handled before (``handled_before``), or is kept already but for a refusal
    (the unique key ``messages_once``): two hosts taking one mail at once, the second waits
    for the first's commit and finds it."""
    if handled_before(conn, message_id, mail_digest):
        return None
    row = conn.execute(
        "INSERT OR IGNORE INTO messages (message_id, digest, received_at, sender, subject, raw,"
        " outcome) VALUES (?, ?, ?, ?, ?, ?, 'pending') RETURNING id",
        (message_id, mail_digest, time.time(), sender, subject, raw),
    ).fetchone()
    return None if row is None else int(row[0])


def set_outcome(conn: Connection, row: int, outcome: str, reason: str | None,
                game_id: int | None, side: str | None) -> None:
    conn.execute(
        "UPDATE messages SET outcome = ?, reason = ?, game_id = ?, side = ? WHERE id = ?",
        (outcome, reason, game_id, side, row),
    )


def add_failure(conn: Connection, message_id: str, error: str) -> None:
    conn.execute("INSERT INTO failures (message_id, at, error) VALUES (?, ?, ?)",
                 (message_id, time.time(), error))


def record_failure(conn: Connection, message_id: str, exc: Exception) -> None:
    """Keep why a message could not be handled, in a transaction of its own; best effort:
    a store that cannot take it either leaves the caller's error to be told."""
    try:
        with transaction(conn):
            add_failure(conn, message_id, f"{type(exc).__name__}: {exc}")
    except (sqlite3.Error, PbemError):
        pass


def queue(conn: Connection, message_id: str, game_id: int | None, side: str | None,
          reply_to_row: int | None, recipient: str, kind: str, raw: bytes,
          answer: str | None = None) -> int:
    """One mail for the outbox; delivered after the commit. ``answer`` is 'keyed' or
    'stranger' for an answer to a mail (the rate limits count those), else None."""
    new_id = insert_id(conn,
        "INSERT INTO outbox (message_id, game_id, side, reply_to_message, recipient, kind, "
        "raw, created_at, answer) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (message_id, game_id, side, reply_to_row, recipient, kind, raw, time.time(), answer),
    )
    return new_id


def answers_since(conn: Connection, since: float, *, recipient: str | None = None,
                  game_id: int | None = None, stranger: bool = False) -> int:
    """How many answers were queued after ``since``: to ``recipient``, about ``game_id``,
    only the strangers' (``stranger``), or all (the rate limits, ``ratelimit``)."""
    where = ["created_at > ?"]
    args: list[object] = [since]
    where.append("answer = 'stranger'" if stranger else "answer IS NOT NULL")
    if recipient is not None:
        where.append("recipient = ?")
        args.append(recipient)
    if game_id is not None:
        where.append("game_id = ?")
        args.append(game_id)
    sql = "SELECT count(*) FROM outbox WHERE " + " AND ".join(where)
    return int(conn.execute(sql, args).fetchone()[0])


def answers_of_kind_since(conn: Connection, since: float, recipient: str,
                          kind: str) -> list[bytes]:
    """The raw mails of the answers of ``kind`` queued to ``recipient`` after ``since`` (at
    most a day's rate limit of them): the same answer again is a mail loop (``ratelimit``)."""
    return [bytes(r[0]) for r in conn.execute(
        "SELECT raw FROM outbox WHERE created_at > ? AND answer IS NOT NULL AND recipient = ? "
        "AND kind = ?", (since, recipient, kind))]


def game_history(conn: Connection, game_id: int) -> list[tuple[float, str]]:
    """Everything that happened to a game, as (time, line): ``pbem show --log``."""
    entries: list[tuple[float, str]] = []
    for r in conn.execute("SELECT * FROM messages WHERE game_id = ?", (game_id,)):
        entries.append((r["received_at"], f"received {r['message_id']} from {r['sender']}: "
                        f"{r['outcome']}" + (f": {r['reason']}" if r["reason"] else "")))
    for r in conn.execute(
        "SELECT f.* FROM failures f WHERE f.game_id = ? OR f.message_id IN "
        "(SELECT message_id FROM messages WHERE game_id = ?)", (game_id, game_id)
    ):
        entries.append((r["at"], f"FAILED {r['message_id']}: {r['error']}"))
    for r in conn.execute("SELECT * FROM outbox WHERE game_id = ?", (game_id,)):
        state = r["status"]
        if r["last_error"]:
            state += f" (attempt {r['attempts']}: {r['last_error']})"
        entries.append((r["created_at"], f"mail {r['kind']} to {r['recipient']} "
                        f"{r['message_id']}: {state}"))
    for r in conn.execute("SELECT * FROM game_log WHERE game_id = ?", (game_id,)):
        entries.append((r["at"], f"{r['kind']}: {r['text']}"))
    return sorted(entries, key=lambda e: e[0])
