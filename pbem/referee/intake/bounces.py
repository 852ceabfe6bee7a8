"""Reading a bounce: which address failed, for good or for now, and which mail it was.

A delivery status notification (RFC 3464: ``multipart/report`` with a
``message/delivery-status`` part, what Postfix, Gmail, Exchange and modern Exim send) is
read field by field: ``Action: failed`` or a 5.x.x ``Status`` is a hard bounce (a full
mailbox too: 5.2.2), ``Action: delayed`` or 4.x.x a soft one; the returned message's
headers (``message/rfc822`` or ``text/rfc822-headers``) give the Message-ID of our mail.
The older, non-standard forms (Exim's plain text, qmail, Yahoo, Exchange 2003, ...) are
left to ``flufl.bounce``, which knows them. An out-of-office reply is no bounce, even if it
comes to the bounce address: nothing recognises a failed recipient in it.
Nothing in a bounce is ever answered; this module only reads.
"""

from __future__ import annotations

import re
from email.message import Message

from pbem.rules.values import frozen

#: how much of one report is read (a bounce that quotes a whole mail is still small here)
MAX_PARTS = 20
_STATUS = re.compile(r"\b([245])\.(\d{1,3})\.(\d{1,3})\b")
_SMTP_CODE = re.compile(r"\b([245])\d\d\b")
_ID = re.compile(r"<[!-;=?-~]{1,250}>")


@frozen
class Bounce:
    hard: bool
    #: the failed addresses, lower case, as the report names them
    recipients: tuple[str, ...]
    #: the enhanced status code (``5.2.2``), or the kind of bounce in words
    status: str
    #: the Message-ID of the mail that bounced, when the report quotes it
    original_id: str | None
    #: the server's words, for the log (cut short)
    diagnostic: str = ""


def _text(value: object, limit: int = 300) -> str:
    return " ".join(str(value or "").split())[:limit]


def _address(value: str) -> str:
    """``rfc822; bob@example.org`` -> ``bob@example.org``."""
    value = value.split(";", 1)[-1].strip().strip("<>").strip()
    return value.lower() if "@" in value else ""


def _parts(msg: Message) -> list[Message]:
    found: list[Message] = []
    for part in msg.walk():
        found.append(part)
        if len(found) >= MAX_PARTS * 3:
            break
    return found


def _original_id(parts: list[Message]) -> str | None:
    for part in parts:
        kind = part.get_content_type()
        if kind == "message/rfc822":
            payload = part.get_payload()
            inner = payload[0] if isinstance(payload, list) and payload else None
            if isinstance(inner, Message):
                ids = _ID.findall(str(inner.get("Message-ID", ""))[:1000])
                if ids:
                    return ids[0]
        elif kind == "text/rfc822-headers":
            text = _decoded(part)
            m = re.search(rb"(?im)^message-id:\s*(<[!-;=?-~]{1,250}>)", text[:20000])
            if m:
                return m.group(1).decode("ascii", "replace")
    return None


def _dsn_blocks(parts: list[Message]) -> list[Message] | None:
    for part in parts:
        if part.get_content_type() == "message/delivery-status":
            payload = part.get_payload()
            if isinstance(payload, list):
                return [b for b in payload[:MAX_PARTS] if isinstance(b, Message)]
            return []
    return None


def _from_dsn(blocks: list[Message], original: str | None) -> Bounce | None:
    hard: list[str] = []
    soft: list[str] = []
    status = diagnostic = ""
    for block in blocks[1:]:  # the first block is about the reporting server
        recipient = _address(str(block.get("Final-Recipient") or block.get(
            "Original-Recipient") or ""))
        action = _text(block.get("Action")).lower()
        code = _STATUS.search(_text(block.get("Status")))
        if not recipient or action in ("delivered", "relayed", "expanded"):
            continue
        if action == "failed":
            failed = True
        elif action == "delayed":
            failed = False
        elif code is not None and code.group(1) in "45":
            failed = code.group(1) == "5"
        else:
            continue
        (hard if failed else soft).append(recipient)
        if not status or failed:
            status = code.group(0) if code else ("5.0.0" if failed else "4.0.0")
            diagnostic = _text(block.get("Diagnostic-Code"))
    if not hard and not soft:
        return None
    return Bounce(bool(hard), tuple(hard or soft), status, original, diagnostic)


def read_bounce(msg: Message) -> Bounce | None:
    """The bounce this mail reports, or None when it reports none (a person's mail, an
    out-of-office reply, a read receipt)."""
    parts = _parts(msg)
    original = _original_id(parts)
    blocks = _dsn_blocks(parts)
    if blocks is not None:
        found = _from_dsn(blocks, original)
        if found is not None:
            return found
    return _from_flufl(msg, original)


def _from_flufl(msg: Message, original: str | None) -> Bounce | None:
    from flufl.bounce import all_failures  # imported only for a mail that may be a bounce

    try:
        temporary, permanent = all_failures(msg)
    except Exception:  # a detector that trips on a broken mail: no bounce recognised
        return None
    hard = sorted({a.decode("utf-8", "replace").strip("<>").lower() for a in permanent})
    soft = sorted({a.decode("utf-8", "replace").strip("<>").lower() for a in temporary})
    hard = [a for a in hard if "@" in a]
    soft = [a for a in soft if "@" in a]
    if not hard and not soft:
        return None
    words = _diagnostic(msg)
    code = _STATUS.search(words)
    status = code.group(0) if code else ("5.0.0" if hard else "4.0.0")
    return Bounce(bool(hard), tuple(hard or soft), status, original, words)


def _diagnostic(msg: Message) -> str:
    """The first line of the report's text that carries an SMTP code, for the log."""
    for part in _parts(msg):
        if part.get_content_type() != "text/plain":
            continue
        text = _decoded(part)[:20000].decode("utf-8", "replace")
        for line in text.splitlines():
            if _STATUS.search(line) or _SMTP_CODE.search(line):
                return _text(line)
        break
    return ""


def _decoded(part: Message) -> bytes:
    """A part's body with its transfer encoding undone; b"" where it has none (a
    multipart's ``get_payload(decode=True)`` is None)."""
    data = part.get_payload(decode=True)
    return data if isinstance(data, bytes) else b""
