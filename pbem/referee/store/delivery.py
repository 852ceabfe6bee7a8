"""What the referee keeps about delivery (issue 25): its HMAC secret, each mail's return
path, the bounces and who is unreachable, the mail held for him, unsubscribes, webhooks
and the calls queued for them, and the operator's once-only notices."""

from __future__ import annotations

import secrets
import time

from pbem.referee.store.engine import Connection, Row, insert_id, is_postgresql


# -- the referee's secret ---------------------------------------------------------------------
def secret(conn: Connection, name: str = "verp") -> bytes:
    """The named secret, made (32 random bytes) the first time it is asked for."""
    row = conn.execute("SELECT value FROM referee_secrets WHERE name = ?", (name,)).fetchone()
    if row is not None:
        return bytes.fromhex(row[0])
    value = secrets.token_bytes(32)
    conn.execute("INSERT OR IGNORE INTO referee_secrets (name, value) VALUES (?, ?)",
                 (name, value.hex()))
    row = conn.execute("SELECT value FROM referee_secrets WHERE name = ?", (name,)).fetchone()
    return bytes.fromhex(row[0])


# -- return paths and bounces -----------------------------------------------------------------
def set_return_path(conn: Connection, outbox_id: int, return_path: str,
                    token: str, held: bool) -> None:
    conn.execute(
        "UPDATE outbox SET return_path = ?, bounce_token = ?"
        + (", status = 'held'" if held else "") + " WHERE id = ?",
        (return_path, token, outbox_id))


def mail_by_token(conn: Connection, token: str) -> Row | None:
    return conn.execute(
        "SELECT id, message_id, recipient, kind, game_id, side, created_at FROM outbox "
        "WHERE bounce_token = ?", (token,)).fetchone()


def mail_by_message_id(conn: Connection, message_id: str) -> Row | None:
    return conn.execute(
        "SELECT id, message_id, recipient, kind, game_id, side, created_at FROM outbox "
        "WHERE message_id = ?", (message_id,)).fetchone()


def last_mail_to(conn: Connection, recipient: str) -> Row | None:
    return conn.execute(
        "SELECT id, message_id, recipient, kind, game_id, side, created_at FROM outbox "
        "WHERE recipient = ? AND status = 'sent' ORDER BY id DESC LIMIT 1",
        (recipient,)).fetchone()


def add_bounce(conn: Connection, email: str, outbox_id: int | None,
               message_row: int | None, hard: bool, status: str) -> None:
    conn.execute(
        "INSERT INTO bounces (at, email, outbox_id, message_id, hard, status) "
        "VALUES (?, ?, ?, ?, ?, ?)", (time.time(), email, outbox_id, message_row, int(hard),
                                      status))


def bounced_before(conn: Connection, outbox_id: int, hard: bool) -> bool:
    """Whether this mail's bounce (of this kind) was counted already: a second copy of a
    report, or a 'delayed' then a 'failed' for one mail, count once each."""
    return conn.execute("SELECT 1 FROM bounces WHERE outbox_id = ? AND hard = ?",
                        (outbox_id, int(hard))).fetchone() is not None


def reach_of(conn: Connection, email: str) -> Row | None:
    return conn.execute("SELECT * FROM reach WHERE email = ?", (email,)).fetchone()


def unreachable_since(conn: Connection, email: str) -> float | None:
    row = conn.execute("SELECT unreachable_since FROM reach WHERE email = ?",
                       (email,)).fetchone()
    return None if row is None or row[0] is None else float(row[0])


def count_soft(conn: Connection, email: str) -> int:
    """One more soft bounce in a row; how many now."""
    conn.execute("INSERT INTO reach (email, soft) VALUES (?, 1) ON CONFLICT(email) DO "
                 "UPDATE SET soft = reach.soft + 1", (email,))
    return int(conn.execute("SELECT soft FROM reach WHERE email = ?", (email,)).fetchone()[0])


def mark_unreachable(conn: Connection, email: str, since: float, reason: str) -> None:
    conn.execute(
        "INSERT INTO reach (email, soft, unreachable_since, reason) VALUES (?, 0, ?, ?) "
        "ON CONFLICT(email) DO UPDATE SET unreachable_since = excluded.unreachable_since, "
        "reason = excluded.reason, grace_told = 0", (email, since, reason))


def clear_reach(conn: Connection, email: str) -> None:
    conn.execute("DELETE FROM reach WHERE email = ?", (email,))


def grace_told(conn: Connection, email: str) -> None:
    conn.execute("UPDATE reach SET grace_told = 1 WHERE email = ?", (email,))


def unreachable(conn: Connection) -> list[Row]:
    return conn.execute("SELECT * FROM reach WHERE unreachable_since IS NOT NULL "
                        "ORDER BY email").fetchall()


def missed(conn: Connection, email: str, since: float) -> list[Row]:
    """The mail ``email`` did not get: what bounced since ``since`` (a little before, for the
    mail whose bounce marked him) and what was held while he was unreachable."""
    return conn.execute(
        "SELECT o.id, o.raw, o.kind, o.game_id, o.status FROM outbox o WHERE o.recipient = ? "
        "AND (o.status = 'held' OR o.id IN (SELECT outbox_id FROM bounces WHERE email = ? "
        "AND at >= ?)) ORDER BY o.id", (email, email, since)).fetchall()


def drop_held(conn: Connection, ids: list[int]) -> None:
    """Held mails sent again in one: they go no more."""
    for i in ids:
        conn.execute("UPDATE outbox SET status = 'resent' WHERE id = ? AND status = 'held'",
                     (i,))


# -- unsubscribes -----------------------------------------------------------------------------
def unsubscribe(conn: Connection, email: str, kind: str, game_id: int) -> bool:
    """True when this is news (the address got that mail until now)."""
    cur = conn.execute("INSERT OR IGNORE INTO unsubscribed (email, kind, game_id, at) "
                       "VALUES (?, ?, ?, ?)", (email, kind, game_id, time.time()))
    return cur.rowcount > 0


def unsubscribed(conn: Connection, email: str, kind: str, game_id: int) -> bool:
    return conn.execute(
        "SELECT 1 FROM unsubscribed WHERE email = ? AND kind = ? AND game_id IN (0, ?)",
        (email, kind, game_id)).fetchone() is not None


def subscribe_again(conn: Connection, email: str, kind: str) -> None:
    conn.execute("DELETE FROM unsubscribed WHERE email = ? AND kind = ?", (email, kind))


# -- webhooks ---------------------------------------------------------------------------------
def player_hook(conn: Connection, email: str) -> str | None:
    row = conn.execute("SELECT url FROM webhooks WHERE email = ?", (email,)).fetchone()
    return None if row is None else str(row[0])


def set_player_hook(conn: Connection, email: str, url: str | None) -> None:
    if url is None:
        conn.execute("DELETE FROM webhooks WHERE email = ?", (email,))
    else:
        conn.execute("INSERT INTO webhooks (email, url, set_at) VALUES (?, ?, ?) ON "
                     "CONFLICT(email) DO UPDATE SET url = excluded.url, set_at = "
                     "excluded.set_at", (email, url, time.time()))


def game_hook(conn: Connection, game_id: int) -> str | None:
    row = conn.execute("SELECT webhook FROM games WHERE id = ?", (game_id,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def set_game_hook(conn: Connection, game_id: int, url: str | None) -> None:
    conn.execute("UPDATE games SET webhook = ? WHERE id = ?", (url, game_id))


def queue_hook(conn: Connection, url: str, owner: str | None, game_id: int | None,
               event: str, body: str) -> int:
    new_id = insert_id(conn,
        "INSERT INTO hook_calls (url, owner, game_id, event, body, created_at) "
        "VALUES (?, ?, ?, ?, ?, ?)", (url, owner, game_id, event, body, time.time()))
    return new_id


def claim_hooks(conn: Connection, me: str, now: float, stale: float,
                everything: bool) -> list[Row]:
    """Take the calls due (all queued ones with ``everything``) and stale claims. On
    PostgreSQL, as the outbox's (``outbox.waiting``): each row locked until the caller's
    transaction ends, rows another host is claiming skipped."""
    sql = ("SELECT id FROM hook_calls WHERE (status = 'queued' AND (? = 1 OR "
           "coalesce(next_attempt_at, 0) <= ?)) OR (status = 'sending' AND claimed_at < ?) "
           "ORDER BY id")
    if is_postgresql(conn):
        sql += " FOR UPDATE SKIP LOCKED"
    rows = conn.execute(sql, (int(everything), now, now - stale)).fetchall()
    ids = [r[0] for r in rows]
    for i in ids:
        conn.execute("UPDATE hook_calls SET status = 'sending', claimed_by = ?, claimed_at = ?, "
                     "attempts = attempts + 1 WHERE id = ?", (me, now, i))
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    return conn.execute(f"SELECT * FROM hook_calls WHERE id IN ({marks}) ORDER BY id",
                        ids).fetchall()


def hook_sent(conn: Connection, call_id: int) -> None:
    conn.execute("UPDATE hook_calls SET status = 'sent', sent_at = ?, last_error = NULL, "
                 "claimed_by = NULL WHERE id = ?", (time.time(), call_id))


def hook_requeue(conn: Connection, call_id: int, error: str, at: float) -> None:
    conn.execute("UPDATE hook_calls SET status = 'queued', last_error = ?, claimed_by = NULL, "
                 "next_attempt_at = ? WHERE id = ?", (error, at, call_id))


def hook_failed(conn: Connection, call_id: int, error: str) -> None:
    conn.execute("UPDATE hook_calls SET status = 'failed', last_error = ?, claimed_by = NULL "
                 "WHERE id = ?", (error, call_id))


def drop_url_calls(conn: Connection, url: str) -> int:
    """A URL dropped for good: its other queued calls go too."""
    cur = conn.execute("UPDATE hook_calls SET status = 'failed', last_error = 'the webhook "
                       "was dropped' WHERE url = ? AND status = 'queued'", (url,))
    return cur.rowcount


def hook_calls(conn: Connection, game_id: int | None = None) -> list[Row]:
    if game_id is None:
        return conn.execute("SELECT * FROM hook_calls ORDER BY id").fetchall()
    return conn.execute("SELECT * FROM hook_calls WHERE game_id = ? ORDER BY id",
                        (game_id,)).fetchall()


# -- the operator's notices -------------------------------------------------------------------
def first_notice(conn: Connection, key: str, game_id: int | None) -> bool:
    """True the first time ``key`` is noticed (and records it), False ever after."""
    cur = conn.execute("INSERT OR IGNORE INTO operator_notices (key, game_id, at) "
                       "VALUES (?, ?, ?)", (key, game_id, time.time()))
    return cur.rowcount > 0
