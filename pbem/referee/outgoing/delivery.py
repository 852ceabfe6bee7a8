"""Delivery of queued mail, after the transaction that queued it has committed.

A row is claimed (``sending``, with who claimed it and when) in a short
transaction before it is sent, so two processes never send the same mail; it is
marked ``sent`` right after the server (or the Maildir) has it. Each mail fails
alone: a final refusal (``550`` no such user, ``552`` too big) marks it ``failed``
with the server's words, logs it in its game and tells the operator; a temporary
one puts it back to ``queued`` until a delay that doubles with each attempt, and
after ``limits.delivery_attempts`` it is given up the same way. The mails behind a
failed one go on (over a new connection if the old one broke); only a server that
cannot be reached at all stops the run. ``pbem flush`` retries every queued mail at
once, whatever its delay.
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
import ssl
import time
from dataclasses import dataclass, field
from pathlib import Path

from pbem.referee.config.home import Config, SmtpSettings
from pbem.referee.outgoing.compose import Outgoing
from pbem.referee.outgoing.limits import Limits, load_limits
from pbem.referee.outgoing.posting import envelope_of, post
from pbem.referee.outgoing.retry import ConnectFailed, Verdict, judge, retry_delay
from pbem.referee.store import games, read_transaction, transaction
from pbem.referee.store import outbox as store_outbox
from pbem.referee.store.engine import Connection, Row
from pbem.referee.store.faults import fault_point

#: a claim older than this is taken over even if its process may still be alive
STALE_CLAIM_SECONDS = 600.0


@dataclass
class Delivery:
    sent: int = 0
    #: mails that failed for now and stay queued
    failed: int = 0
    errors: list[str] = field(default_factory=list)
    #: mails given up in this run (refused for good, or out of attempts), in words
    given_up: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The run in one line, as ``pbem flush`` prints it."""
        given_up = f", {len(self.given_up)} given up" if self.given_up else ""
        return f"{self.sent} sent, {self.failed} still queued{given_up}"


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


def claim(conn: Connection, limit: int | None = None,
          everything: bool = False) -> list[Row]:
    """Take the rows this process will deliver: queued ones whose retry time has come (all
    queued ones with ``everything``), and dead claims."""
    me, now = _me(), time.time()
    with read_transaction(conn):  # the rows' own locks on PostgreSQL, not the write lock
        ids = [
            r["id"] for r in store_outbox.waiting(conn)
            if (r["status"] == "queued" and (everything or (r["next_attempt_at"] or 0) <= now))
            or (r["status"] == "sending" and _claim_is_dead(r["claimed_by"], r["claimed_at"]))
        ]
        if limit is not None:
            ids = ids[:limit]
        store_outbox.claim(conn, ids, me, now)
    if not ids:
        return []
    return store_outbox.mails(conn, ids)


def _mark_sent(conn: Connection, sent: list[int]) -> None:
    if not sent:
        return
    with read_transaction(conn):  # rows this process claimed: no one else writes them
        store_outbox.mark_sent(conn, sent, time.time())


def _mark_failed(conn: Connection, config: Config, limits: Limits,
                 failed: list[tuple[Row, Verdict]], result: Delivery) -> None:
    """Back to the queue with a retry time, or given up: logged, and the operator told."""
    if not failed:
        return
    now = time.time()
    with transaction(conn):
        for row, verdict in failed:
            attempts = int(row["attempts"])
            if not verdict.permanent and attempts < limits.delivery_attempts:
                store_outbox.requeue(conn, row["id"], verdict.words,
                             now + retry_delay(attempts, limits))
                result.failed += 1
                result.errors.append(f"{row['recipient']}: {verdict.words}")
                continue
            words = verdict.words if verdict.permanent else (
                f"gave up after {attempts} attempts: {verdict.words}")
            store_outbox.give_up(conn, row["id"], words)
            said = f"the {row['kind']} mail to {row['recipient']} was not delivered: {words}"
            result.given_up.append(said)
            if row["game_id"] is not None:
                games.log(conn, row["game_id"], "delivery-failed", said, at=now)
            if limits.operator and row["kind"] != "operator":
                _tell_operator(conn, config, limits.operator, row, said)


def _tell_operator(conn: Connection, config: Config, operator: str,
                   row: Row, said: str) -> None:
    game = f"game {row['game_id']}: " if row["game_id"] is not None else ""
    text = (f"The referee gave up a mail.\n\n{said}\n\nIts Message-ID was "
            f"{row['message_id']}; `pbem show {row['game_id'] or 'GAME'} --log` lists it. "
            "The player has not received it: tell them another way, or fix the address "
            "and start again.\n")
    out = Outgoing("operator", operator, f"Realm referee: {game}a mail was not delivered",
                   text, game_id=row["game_id"])
    post(conn, config, out, None)


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
            try:
                self.smtp = self._connect()
            except (smtplib.SMTPException, OSError, ssl.SSLError) as exc:
                raise ConnectFailed(exc) from exc
        return_path, raw = envelope_of(raw)
        self.smtp.sendmail(return_path or self.envelope_from, [recipient], raw)

    def close(self) -> None:
        if self.smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self.smtp.quit()
            self.smtp = None

    def drop(self) -> None:
        """Forget a broken connection: the next mail opens a new one."""
        if self.smtp is not None:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                self.smtp.close()
            self.smtp = None


def deliver(conn: Connection, config: Config, outbox_path: Path,
            everything: bool = False) -> Delivery:
    """Send what is due (with ``everything``: all that is queued). Each mail fails alone."""
    limits = load_limits(config)
    result = Delivery()
    rows = claim(conn, everything=everything)
    if not rows:
        return result
    failed: list[tuple[Row, Verdict]] = []
    sent: list[int] = []  # Maildir deliveries, marked together at the end
    sink: MaildirSink | SmtpSink | None = None
    try:
        sink = SmtpSink(config.smtp, config.address) if config.smtp is not None else (
            MaildirSink(outbox_path))
        for n, row in enumerate(rows):
            try:
                sink.send(row["message_id"], row["recipient"], bytes(row["raw"]))
            except Exception as exc:  # every failure is this mail's alone, or the server's
                verdict = judge(exc)
                failed.append((row, verdict))
                if isinstance(exc, ConnectFailed):  # nothing can go now: all wait
                    failed.extend((r, verdict) for r in rows[n + 1 :])
                    break
                if verdict.reconnect and isinstance(sink, SmtpSink):
                    sink.drop()
                continue
            fault_point("after-send")
            result.sent += 1
            if isinstance(sink, SmtpSink):
                _mark_sent(conn, [row["id"]])  # at once: the resend window is this one mail
            else:
                sent.append(row["id"])  # Maildir delivery is idempotent: mark them together
    except Exception as exc:  # the sink itself (an outbox that is no folder): all wait
        done = {r["id"] for r, _ in failed} | set(sent) | _sent_ids(conn, rows)
        verdict = Verdict(False, False, f"{type(exc).__name__}: {exc}")
        failed.extend((r, verdict) for r in rows if r["id"] not in done)
    finally:
        if sink is not None:
            sink.close()
        _mark_sent(conn, sent)
        _mark_failed(conn, config, limits, failed, result)
    return result


def _sent_ids(conn: Connection, claimed: list[Row]) -> set[int]:
    return store_outbox.sent_among(conn, [r["id"] for r in claimed])
