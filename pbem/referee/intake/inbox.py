"""An incoming message, read once into what the referee needs to decide about it.

Never raises on a malformed header: a broken address or date gives an empty
value, and the message is then refused or ignored with a reason, not a crash.
"""

from __future__ import annotations

import email
import email.errors
import email.header
import email.parser
import email.policy
import re
from email.message import Message
from email.utils import getaddresses

from pbem.referee.intake.autoreply import automatic
from pbem.referee.intake.dedupe import digest
from pbem.referee.intake.extract import Body, extract_body
from pbem.referee.intake.sender import read_sender
from pbem.rules.values import frozen

# compat32 keeps odd headers as strings instead of raising on them
_POLICY = email.policy.compat32
#: a header is read up to this many characters (a subject longer than this is cut), so
#: that no header decoder ever works on megabytes
MAX_HEADER = 4000


@frozen
class Incoming:
    raw: bytes
    message_id: str
    #: the mail's digest (``dedupe.digest``): with the Message-ID, what makes it the same mail
    digest: str
    sender: str  # the From address, lower case; "" when there is none
    sender_name: str
    subject: str
    recipients: tuple[str, ...]  # To, Cc, Delivered-To, X-Original-To
    references: tuple[str, ...]  # In-Reply-To then References, newest first
    #: why this message must never be answered (auto-reply, bounce, list), or None
    automatic: str | None
    body: Body
    message: Message


def _header(msg: Message, name: str) -> str:
    value = msg.get(name)
    if value is None:
        return ""
    value = str(value)[:MAX_HEADER]
    try:
        parts = email.header.decode_header(value)
        return str(email.header.make_header(parts)).strip()
    except (UnicodeError, LookupError, email.errors.HeaderParseError, ValueError):
        return str(value).strip()


#: printable ASCII only: an id with control characters (escape sequences) is no id
_MSGID = re.compile(r"<[!-;=?-~]{1,250}>")


def _ids(value: str) -> list[str]:
    return _MSGID.findall(value)


def _parse(raw: bytes) -> tuple[Message, Body | None]:
    """The message, and its body when the structure is too deep to read (MIME parts nested
    hundreds deep exhaust the parser's recursion): then the headers alone, and no body."""
    try:
        return email.message_from_bytes(raw, policy=_POLICY), None
    except RecursionError:
        msg = email.parser.BytesHeaderParser(policy=_POLICY).parsebytes(raw)
        return msg, Body("", (), "none", "the mail's parts are nested too deep to read")


def read_message(raw: bytes) -> Incoming:
    msg, body = _parse(raw)
    found = read_sender([str(v) for v in msg.get_all("From") or []])
    sender, name = found.address, found.name
    if body is None:
        try:
            body = extract_body(msg)
        except RecursionError:
            body = Body("", (), "none", "the mail's parts are nested too deep to read")
    ids = _ids(_header(msg, "Message-ID"))
    mail_digest = digest(raw)
    message_id = ids[0] if ids else "sha256:" + mail_digest
    subject = _header(msg, "Subject")
    refs = _ids(_header(msg, "In-Reply-To")) + list(reversed(_ids(_header(msg, "References"))))
    seen: list[str] = []
    for r in refs:
        if r not in seen:
            seen.append(r)
    recipients = []
    for field_name in ("Delivered-To", "X-Original-To", "To", "Cc", "Envelope-To"):
        for value in msg.get_all(field_name) or []:
            for _, a in getaddresses([str(value)[:MAX_HEADER]]):
                if "@" in a:
                    recipients.append(a.strip().lower())
    return Incoming(
        raw=raw,
        message_id=message_id,
        digest=mail_digest,
        sender=sender,
        sender_name=name,
        subject=subject,
        recipients=tuple(recipients),
        references=tuple(seen),
        automatic=automatic(msg, sender, subject, found.problem),
        body=body,
        message=msg,
    )


def looks_like_mail(raw: bytes) -> bool:
    """Whether ``raw`` starts with a header block (the least an RFC 5322 message has)."""
    head = raw.lstrip()[:2000].split(b"\n", 1)[0]
    if head.startswith(b"From "):  # an mbox "From " line before the headers
        return True
    return re.match(rb"^[!-9;-~]+:", head) is not None
