"""An incoming message, read once into what the referee needs to decide about it.

Never raises on a malformed header: a broken address or date gives an empty
value, and the message is then refused or ignored with a reason, not a crash.
"""

from __future__ import annotations

import email
import email.errors
import email.header
import email.policy
import hashlib
import re
from dataclasses import dataclass
from email.message import Message
from email.utils import getaddresses, parseaddr

from pbem.referee.extract import Body, extract_body

# compat32 keeps odd headers as strings instead of raising on them
_POLICY = email.policy.compat32


@dataclass(frozen=True, slots=True)
class Incoming:
    raw: bytes
    message_id: str
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
    try:
        parts = email.header.decode_header(str(value))
        return str(email.header.make_header(parts)).strip()
    except (UnicodeError, LookupError, email.errors.HeaderParseError, ValueError):
        return str(value).strip()


_MSGID = re.compile(r"<[^<>\s]+>")


def _ids(value: str) -> list[str]:
    return _MSGID.findall(value)


def _automatic(msg: Message, sender: str) -> str | None:
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    for name in ("X-Autoreply", "X-Autorespond"):
        if msg.get(name):
            return f"{name} header"
    return_path = _header(msg, "Return-Path")
    if return_path.strip() in ("<>", "") and msg.get("Return-Path") is not None:
        return "null sender (a bounce)"
    if not sender:
        return "no sender address"
    local = sender.split("@", 1)[0]
    if local in ("mailer-daemon", "postmaster", "noreply", "no-reply", "donotreply"):
        return f"sent by {local}"
    if msg.get_content_type() == "multipart/report":
        return "a delivery report"
    return None


def read_message(raw: bytes) -> Incoming:
    msg = email.message_from_bytes(raw, policy=_POLICY)
    name, addr = parseaddr(_header(msg, "From"))
    sender = addr.strip().lower() if "@" in addr else ""
    ids = _ids(_header(msg, "Message-ID"))
    message_id = ids[0] if ids else "sha256:" + hashlib.sha256(raw).hexdigest()
    refs = _ids(_header(msg, "In-Reply-To")) + list(reversed(_ids(_header(msg, "References"))))
    seen: list[str] = []
    for r in refs:
        if r not in seen:
            seen.append(r)
    recipients = []
    for field_name in ("Delivered-To", "X-Original-To", "To", "Cc", "Envelope-To"):
        for value in msg.get_all(field_name) or []:
            for _, a in getaddresses([str(value)]):
                if "@" in a:
                    recipients.append(a.strip().lower())
    return Incoming(
        raw=raw,
        message_id=message_id,
        sender=sender,
        sender_name=name.strip(),
        subject=_header(msg, "Subject"),
        recipients=tuple(recipients),
        references=tuple(seen),
        automatic=_automatic(msg, sender),
        body=extract_body(msg),
        message=msg,
    )


def looks_like_mail(raw: bytes) -> bool:
    """Whether ``raw`` starts with a header block (the least an RFC 5322 message has)."""
    head = raw.lstrip()[:2000].split(b"\n", 1)[0]
    if head.startswith(b"From "):  # an mbox "From " line before the headers
        return True
    return re.match(rb"^[!-9;-~]+:", head) is not None
