"""Who sent a mail: the ``From`` address, read from the raw header before anything is decoded.

The address decides whose turn a mail may be, so it is read from the header's own
structure (quoted strings, comments, the one ``<angle-addr>``), and only then is the
display name decoded. An encoded word (``=?utf-8?q?...?=``) therefore stays part of
the name and can never become the address; a display name with an unbalanced ``(``
does not swallow the address; and anything that could be read two ways (two
mailboxes, two angle addresses, a control character such as NUL, a quoted local
part) gives no sender at all, so the mail is ignored with a reason rather than
credited to someone else.
"""

from __future__ import annotations

import contextlib
import email.errors
import email.header

from pbem.rules.values import frozen

#: characters a local part or domain may hold besides letters and digits (RFC 5322 atext)
_ATEXT = set("!#$%&'*+-/=?^_`{|}~.")
#: longer From headers are not read (an address is at most 254 characters)
MAX_FROM = 2000


@frozen
class Sender:
    address: str  # lower case; "" when the header cannot be read one way only
    name: str  # the display name, decoded, printable; may be ""
    problem: str | None = None  # why there is no address


def _unfold(value: str) -> str:
    return value.replace("\r\n", "\n").replace("\n ", " ").replace("\n\t", " ")


def _has_control(text: str) -> bool:
    return any((ord(c) < 32 and c != "\t") or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF
               for c in text)


def _valid_address(addr: str) -> bool:
    local, at, domain = addr.rpartition("@")
    if not at or not local or not domain or "@" in local or len(addr) > 254:
        return False
    if local.startswith(".") or local.endswith(".") or ".." in local:
        return False
    for c in local:
        if not (c.isalnum() or c in _ATEXT or ord(c) > 127):
            return False
    labels = domain.split(".")
    return all(
        label and all(c.isalnum() or c == "-" or ord(c) > 127 for c in label)
        for label in labels
    )


def _scan(value: str, comments: bool) -> tuple[list[str], list[str], bool, bool]:
    """The angle addresses and the plain text outside quotes and comments, and whether a
    quoted string or a comment is left open at the end, and whether a mailbox separator
    (``,`` ``;`` ``:``) stands outside them."""
    angles: list[str] = []
    outside: list[str] = []
    depth = 0
    quoted = False
    escaped = False
    separator = False
    i = 0
    n = len(value)
    while i < n:
        c = value[i]
        if escaped:
            escaped = False
        elif c == "\\" and (quoted or depth):
            escaped = True
        elif quoted:
            if c == '"':
                quoted = False
        elif depth:
            if c == "(":
                depth += 1
            elif c == ")":
                depth -= 1
        elif c == '"':
            quoted = True
            outside.append("\x00")  # a quoted string: never part of an address we accept
        elif c == "(" and comments:
            depth = 1
            outside.append(" ")
        elif c == "<":
            end = value.find(">", i + 1)
            if end < 0:
                return angles, outside, True, separator
            angles.append(value[i + 1 : end])
            outside.append(" ")
            i = end
        elif c in ",;:":
            separator = True
        else:
            outside.append(c)
        i += 1
    return angles, outside, quoted or depth > 0, separator


def _display_name(head: str) -> str:
    """The decoded display name (the text before the angle address): quotes and encoded
    words undone, control characters dropped."""
    head = head.strip()
    if head.startswith('"') and head.endswith('"') and len(head) >= 2:
        head = head[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    with contextlib.suppress(UnicodeError, LookupError, email.errors.HeaderParseError,
                             ValueError):
        head = str(email.header.make_header(email.header.decode_header(head)))
    return " ".join("".join(c if c.isprintable() else " " for c in head).split())[:200]


def read_sender(values: list[str]) -> Sender:
    """The sender of a mail from its ``From`` header values (raw, not decoded)."""
    if len(values) != 1:
        return Sender("", "", "no From header" if not values else "more than one From header")
    value = _unfold(str(values[0]))
    if len(value) > MAX_FROM:
        return Sender("", "", "the From header is too long")
    if _has_control(value):
        return Sender("", "", "a control character in the From header")
    angles, outside, unbalanced, separator = _scan(value, comments=True)
    if unbalanced:  # an unclosed "(" or quote: read it again with "(" as a plain character
        angles, outside, unbalanced, separator = _scan(value, comments=False)
        if unbalanced:
            return Sender("", "", "an unclosed quote or bracket in the From header")
    if separator:
        return Sender("", "", "more than one address in the From header")
    if len(angles) > 1:
        return Sender("", "", "more than one <address> in the From header")
    if angles:
        address = angles[0].strip()
        name = _display_name(value[: value.rfind(f"<{angles[0]}>")])
    else:
        address = "".join(outside).strip()
        name = ""
    if not _valid_address(address):
        return Sender("", name, "the From address cannot be read")
    return Sender(address.lower(), name)
