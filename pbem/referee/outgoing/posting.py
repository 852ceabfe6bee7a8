"""Putting one mail in the outbox, finished: its return path, its signature, and held back
when its recipient's mail bounces.

Every mail the referee queues goes through ``post``, so every one gets the same treatment
(the mailer's reports and answers, the operator's notices, delivery's own warnings):

- a Message-ID on the referee's domain, fixed now (a retry is the same mail);
- its own return path, ``referee+bounce-TOKEN@`` (``returns``), the envelope sender and
  the ``Return-Path`` of the copy kept in the outbox Maildir, so a bounce names the mail;
- ``List-Unsubscribe`` for the kinds of mail a player may stop (digests, reminders,
  observers' copies), a ``mailto:`` that only works for its recipient;
- a DKIM signature when ``dkim:`` is configured (``signing``);
- ``held`` instead of ``queued`` while the recipient is unreachable (``reach``): mail to a
  mailbox that bounces harms the referee's name with the big providers, and what he
  missed is sent again in one mail when he writes.
"""

from __future__ import annotations

from pbem.referee.config.home import Config
from pbem.referee.intake.returns import bounce_address, bounce_token, unsubscribe_address
from pbem.referee.outgoing.compose import Outgoing, build_mail, new_message_id
from pbem.referee.outgoing.signing import sign
from pbem.referee.store import delivery, mail
from pbem.referee.store.engine import Connection


def finish(config: Config, raw: bytes, return_path: str) -> bytes:
    """Signed (when configured), with the Return-Path on top (never signed: the receiving
    server writes its own)."""
    if config.dkim is not None:
        raw = sign(raw, config.dkim)
    return f"Return-Path: <{return_path}>\r\n".encode() + raw


def post(conn: Connection, config: Config, out: Outgoing, row: int | None,
         answer: str | None = None) -> int:
    """Queue ``out`` (in the caller's transaction); its outbox row."""
    secret = delivery.secret(conn)
    message_id = new_message_id(config, out.game_id)
    unsubscribe = None
    if out.listed is not None:
        unsubscribe = unsubscribe_address(secret, config.local_part, config.domain, out.listed,
                                          out.game_id or 0, out.recipient)
    token = bounce_token(secret, message_id)
    return_path = bounce_address(config.local_part, config.domain, token)
    raw = finish(config, build_mail(config, out, message_id, unsubscribe), return_path)
    outbox_id = mail.queue(conn, message_id, out.game_id, out.side, row, out.recipient,
                           out.kind, raw, answer)
    held = (out.kind != "operator"
            and delivery.unreachable_since(conn, out.recipient) is not None)
    delivery.set_return_path(conn, outbox_id, return_path, token, held)
    return outbox_id


def envelope_of(raw: bytes) -> tuple[str | None, bytes]:
    """The return path written on top of a queued mail, and the mail without that line
    (what goes over SMTP: the receiving server writes the Return-Path itself)."""
    if raw.startswith(b"Return-Path: <"):
        line, _, rest = raw.partition(b"\r\n")
        return line[len(b"Return-Path: <"):].rstrip(b">").decode("ascii", "replace"), rest
    return None, raw
