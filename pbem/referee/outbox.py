"""Delivery of queued mail, after the transaction that queued it has committed.

A row is claimed (``sending``, with who claimed it and when) in a short
transaction before it is sent, so two processes never send the same mail; it is
marked ``sent`` right after the server (or the Maildir) has it. A failed
delivery goes back to ``queued`` with its error and is retried by the next run.
Maildir delivery is idempotent (the file name comes from the Message-ID), so a
crash between delivery and marking never makes a second copy; over SMTP that
window is a few milliseconds wide, and a resent mail has the same Message-ID.
"""

from __future__ import annotations

import contextlib
import hashlib
import mailbox
import os
import smtplib
import socket
import sqlite3
import ssl
import time
from dataclasses import dataclass, field
from pathlib import Path

from pbem.referee.faults import fault_point
from pbem.referee.home import Config, SmtpSettings
from pbem.referee.store import transaction

#: a claim older than this is taken over even if its process may still be alive
STALE_CLAIM_SECONDS = 600.0


@dataclass
class Delivery:
    sent: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)


def _me() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _claim_is_dead(claimed_by: str | None, claimed_at: float | None) -> bool:
    if claimed_by is None or claimed_at is None:
        return True
    if time.time() - claimed_at > STALE_CLAIM_SECONDS:
        return True
    host, _, pid = claimed_by.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return int(pid) == os.getpid()


def claim(conn: sqlite3.Connection, limit: int | None = None) -> list[sqlite3.Row]:
    """Take the rows this process will deliver: queued ones, and dead claims."""
    me, now = _me(), time.time()
    with transaction(conn):
        rows = conn.execute(
            "SELECT id, claimed_by, claimed_at, status FROM outbox "
            "WHERE status IN ('queued', 'sending') ORDER BY id"
        ).fetchall()
        ids = [
            r["id"] for r in rows
            if r["status"] == "queued" or _claim_is_dead(r["claimed_by"], r["claimed_at"])
        ]
        if limit is not None:
            ids = ids[:limit]
        for i in ids:
            conn.execute(
                "UPDATE outbox SET status = 'sending', claimed_by = ?, claimed_at = ?, "
                "attempts = attempts + 1 WHERE id = ?",
                (me, now, i),
            )
    if not ids:
        return []
    marks = ",".join("?" * len(ids))
    return conn.execute(
        f"SELECT id, message_id, recipient, raw FROM outbox WHERE id IN ({marks}) ORDER BY id",
        ids,
    ).fetchall()


def _mark(conn: sqlite3.Connection, sent: list[int], failed: list[tuple[int, str]]) -> None:
    if not sent and not failed:
        return
    now = time.time()
    with transaction(conn):
        for i in sent:
            conn.execute(
                "UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL, "
                "claimed_by = NULL WHERE id = ?",
                (now, i),
            )
        for i, error in failed:
            conn.execute(
                "UPDATE outbox SET status = 'queued', last_error = ?, claimed_by = NULL "
                "WHERE id = ?",
                (error, i),
            )


class MaildirSink:
    """``$PBEM_HOME/outbox`` as a Maildir; one file per Message-ID, written once."""

    def __init__(self, path: Path):
        self.path = path
        mailbox.Maildir(str(path), create=True)  # makes tmp/ new/ cur/

    def _name(self, message_id: str) -> str:
        digest = hashlib.sha256(message_id.encode()).hexdigest()[:24]
        return f"pbem-{digest}.{socket.gethostname().replace('/', '_').replace(':', '_')}"

    def delivered(self, message_id: str) -> bool:
        name = self._name(message_id)
        if (self.path / "new" / name).exists():
            return True
        return any(p.name.split(":")[0] == name for p in (self.path / "cur").glob(name + "*"))

    def send(self, message_id: str, recipient: str, raw: bytes) -> None:
        if self.delivered(message_id):
            return
        name = self._name(message_id)
        tmp = self.path / "tmp" / f"{name}.{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(raw.replace(b"\r\n", b"\n"))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, self.path / "new" / name)
        except FileExistsError:
            pass  # another process delivered it a moment ago
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()

    def close(self) -> None:
        pass


class SmtpSink:
    """One SMTP session for a batch: STARTTLS or TLS, and AUTH (LOGIN/PLAIN) when configured."""

    def __init__(self, settings: SmtpSettings, envelope_from: str):
        self.settings = settings
        self.envelope_from = envelope_from
        self.smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        s = self.settings
        try:
            context = ssl.create_default_context(cafile=s.ca_file)
        except (OSError, ssl.SSLError) as exc:
            raise OSError(f"cannot use smtp.ca_file {s.ca_file}: {exc}") from None
        smtp: smtplib.SMTP
        if s.ssl:
            smtp = smtplib.SMTP_SSL(s.host, s.port, timeout=s.timeout, context=context)
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        smtp.ehlo()
        if s.starttls:
            smtp.starttls(context=context)
            smtp.ehlo()
        if s.username:
            smtp.login(s.username, s.password or "")
        return smtp

    def send(self, message_id: str, recipient: str, raw: bytes) -> None:
        if self.smtp is None:
            self.smtp = self._connect()
        self.smtp.sendmail(self.envelope_from, [recipient], raw)

    def close(self) -> None:
        if self.smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self.smtp.quit()
            self.smtp = None


def deliver(conn: sqlite3.Connection, config: Config, outbox_path: Path) -> Delivery:
    """Send everything queued; what fails stays queued with its error."""
    result = Delivery()
    rows = claim(conn)
    if not rows:
        return result
    sink: MaildirSink | SmtpSink
    if config.smtp is not None:
        sink = SmtpSink(config.smtp, config.address)
    else:
        sink = MaildirSink(outbox_path)
    sent: list[int] = []
    failed: list[tuple[int, str]] = []
    try:
        for row in rows:
            try:
                sink.send(row["message_id"], row["recipient"], bytes(row["raw"]))
            except (smtplib.SMTPException, OSError, ssl.SSLError) as exc:
                error = f"{type(exc).__name__}: {exc}"
                failed.append((row["id"], error))
                result.errors.append(f"{row['recipient']}: {error}")
                if isinstance(exc, smtplib.SMTPRecipientsRefused | smtplib.SMTPDataError):
                    continue
                # the connection is gone: the rest waits for the next run
                failed.extend((r["id"], error) for r in rows[rows.index(row) + 1 :])
                break
            fault_point("after-send")
            sent.append(row["id"])
            if config.smtp is not None:
                _mark(conn, [row["id"]], [])  # shrink the resend window to this one mail
                sent.pop()
                result.sent += 1
    finally:
        sink.close()
        result.sent += len(sent)
        result.failed = len(failed)
        _mark(conn, sent, failed)
    return result
