"""Orders out of an email body, whatever the mail program did to it.

The body is chosen (``text/plain`` preferred, HTML turned into text otherwise),
decoded (any transfer encoding; any charset, with fallbacks for wrong or unknown
ones), and then cut down to what the player wrote: quoted lines (``>``), quote
headers (``On ... wrote:``), everything after a signature (``-- ``), an Outlook
``-----Original Message-----`` block or a forwarded message. Every kept line
remembers its line number in the decoded body, so a refusal can say "line 3,
column 14" of what the player actually typed.
"""

from __future__ import annotations

import re
from email.message import Message

from pbem.referee.intake.html_text import html_to_text
from pbem.rules.values import frozen


@frozen
class BodyLine:
    #: 1-based line number in the player's own text (the lines he wrote, from his first
    #: words on: what is quoted above or between them does not count, issue 23.9)
    number: int
    text: str


@frozen
class Body:
    #: the whole decoded text, as chosen (plain, or HTML made text)
    text: str
    #: the lines the player wrote (quotes, signature and forwarded parts cut)
    lines: tuple[BodyLine, ...]
    source: str  # "text/plain", "text/html" or "none"
    charset_note: str | None = None


_FALLBACK_CHARSETS = ("utf-8", "cp1252", "latin-1")


def decode_part(part: Message) -> tuple[str, str | None]:
    """The part's text, and a note when its charset was wrong or unknown."""
    payload = part.get_payload(decode=True)
    if payload is None:
        raw = part.get_payload()
        payload = raw.encode("utf-8", "replace") if isinstance(raw, str) else b""
    assert isinstance(payload, bytes)
    charset = part.get_content_charset() or "us-ascii"
    try:
        return payload.decode(charset), None
    except LookupError:
        note = f"unknown charset {charset!r}"
    except UnicodeDecodeError:
        note = f"text not valid in its charset {charset!r}"
    for fallback in _FALLBACK_CHARSETS:
        try:
            return payload.decode(fallback), f"{note}; read as {fallback}"
        except UnicodeDecodeError:
            continue
    return payload.decode("utf-8", "replace"), note  # pragma: no cover - latin-1 never fails


def _is_attachment(part: Message) -> bool:
    return (part.get("Content-Disposition") or "").strip().lower().startswith("attachment")


def choose_part(msg: Message) -> tuple[Message | None, str]:
    """The first inline ``text/plain`` part, else the first ``text/html`` part.

    Forwarded messages (``message/rfc822``) are not entered: what the player wrote
    is around them, not inside them.
    """
    plain = html_part = None
    stack: list[Message] = [msg]
    while stack:
        part = stack.pop(0)
        ctype = part.get_content_type()
        if part.is_multipart():
            if ctype == "message/rfc822":
                continue
            stack[0:0] = [p for p in part.get_payload() if isinstance(p, Message)]
            continue
        if _is_attachment(part):
            continue
        if ctype == "text/plain" and plain is None:
            plain = part
        elif ctype == "text/html" and html_part is None:
            html_part = part
    if plain is not None:
        return plain, "text/plain"
    if html_part is not None:
        return html_part, "text/html"
    return None, "none"


_QUOTE_HEADER_START = re.compile(r"^\s*On\s.*\d", re.I)
#: a quote header is one short line; longer lines are never one
_QUOTE_HEADER_MAX = 500


def is_quote_header(line: str) -> bool:
    """``On ... wrote:``, ``Le ... a écrit :``, ``Am ... schrieb ...:``, ``... wrote:``.

    Plain string tests, not a pattern: each look at the line is linear in its length
    (a pattern with two ``.*`` took minutes on one long line)."""
    text = line.strip().lower()
    if len(text) > _QUOTE_HEADER_MAX or not text.endswith(":"):
        return False
    if text.endswith("wrote:"):
        return text == "wrote:" or not (text[-7].isalnum() or text[-7] == "_")
    first = text.split(None, 1)[0] if text else ""
    if first == "le" and text[:-1].rstrip().endswith("a écrit"):
        return True
    return first == "am" and " schrieb" in text
_STOP = re.compile(
    r"^\s*(-{2,}\s*Original Message\s*-{2,}|-{2,}\s*Forwarded message\s*-{2,}|"
    r"Begin forwarded message:|_{10,}\s*$|-{5,}\s*Forwarded by)",
    re.I,
)
_OUTLOOK_HEADER = re.compile(r"^\s*(From|Sent|To|Subject|Date):\s", re.I)


def player_lines(text: str) -> list[BodyLine]:
    """The lines the player wrote, numbered as his own text (quotes not counted)."""
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[BodyLine] = []
    skip_next_wrote = False
    for i, line in enumerate(raw, start=1):
        stripped = line.rstrip()
        if stripped in ("--", "-- ") or line == "-- ":
            break  # signature
        if _STOP.match(stripped):
            break
        if (
            _OUTLOOK_HEADER.match(stripped)
            and kept
            and not kept[-1].text.strip()
            and i < len(raw)
            and any(_OUTLOOK_HEADER.match(x) for x in raw[i : i + 3])
        ):
            break  # an unquoted header block of an Outlook reply
        if stripped.lstrip().startswith(">"):
            continue
        if skip_next_wrote:
            skip_next_wrote = False
            if stripped.endswith("wrote:"):
                continue
        if is_quote_header(stripped):
            continue
        if _QUOTE_HEADER_START.match(stripped) and i < len(raw):
            nxt = raw[i].strip()
            if nxt.endswith("wrote:") and not nxt.startswith(">"):
                skip_next_wrote = True
                continue
        if not kept and not stripped.strip():
            continue  # blank lines before his first words are not his text's lines
        # numbered as the player's own text: quoted lines and quote headers do not count
        kept.append(BodyLine(len(kept) + 1, stripped))
    return kept


def extract_body(msg: Message) -> Body:
    part, source = choose_part(msg)
    if part is None:
        return Body("", (), source)
    text, note = decode_part(part)
    if source == "text/html":
        text = html_to_text(text)
    return Body(text, tuple(player_lines(text)), source, note)
