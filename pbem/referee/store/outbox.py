"""The outbox's rows as delivery sees them: which are waiting, claiming them for one
process, and what became of each (sent, back in the queue, given up). Queuing a mail is
``mail.queue``; the sending itself, and the decisions, are ``pbem.referee.outgoing.delivery``."""

from __future__ import annotations

from pbem.referee.store.engine import Connection, Row, is_postgresql


def waiting(conn: Connection) -> list[Row]:
    """Rows queued or being sent, with their claims and retry times, oldest first. On
    PostgreSQL each row is locked until the caller's transaction ends, and rows another
    host is claiming right now are skipped (``FOR UPDATE SKIP LOCKED``): two hosts that
    flush at once take different mails, neither waits for the other."""
    sql = ("SELECT id, claimed_by, claimed_at, status, next_attempt_at FROM outbox "
           "WHERE status IN ('queued', 'sending') ORDER BY id")
    if is_postgresql(conn):
        sql += " FOR UPDATE SKIP LOCKED"
    return conn.execute(sql).fetchall()


def claim(conn: Connection, ids: list[int], me: str, now: float) -> None:
    """Mark rows as being sent by ``me`` (one more attempt each)."""
    for i in ids:
        conn.execute(
            "UPDATE outbox SET status = 'sending', claimed_by = ?, claimed_at = ?, "
            "attempts = attempts + 1 WHERE id = ?",
            (me, now, i),
        )


def mails(conn: Connection, ids: list[int]) -> list[Row]:
    """What delivery needs of each row: the mail itself, its recipient, kind and game."""
    marks = ",".join("?" * len(ids))
    return conn.execute(
        "SELECT id, message_id, recipient, raw, kind, game_id, attempts FROM outbox "
        f"WHERE id IN ({marks}) ORDER BY id",
        ids,
    ).fetchall()


def mark_sent(conn: Connection, ids: list[int], now: float) -> None:
    for i in ids:
        conn.execute(
            "UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL, "
            "claimed_by = NULL WHERE id = ?",
            (now, i),
        )


def requeue(conn: Connection, row_id: int, error: str, next_attempt_at: float) -> None:
    """Back to the queue after a failure for now, until ``next_attempt_at``."""
    conn.execute(
        "UPDATE outbox SET status = 'queued', last_error = ?, claimed_by = NULL, "
        "next_attempt_at = ? WHERE id = ?",
        (error, next_attempt_at, row_id),
    )


def give_up(conn: Connection, row_id: int, error: str) -> None:
    conn.execute(
        "UPDATE outbox SET status = 'failed', last_error = ?, claimed_by = NULL WHERE id = ?",
        (error, row_id),
    )


def sent_among(conn: Connection, ids: list[int]) -> set[int]:
    """Which of these rows are marked sent."""
    marks = ",".join("?" * len(ids))
    return {r[0] for r in conn.execute(
        f"SELECT id FROM outbox WHERE status = 'sent' AND id IN ({marks})", ids)}
