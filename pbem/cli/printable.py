"""Text from mail made safe for a terminal: no escape sequences, no hidden characters.

A Message-ID, a subject or an address is written by whoever sent the mail; printed
raw, ``\\x1b]0;...`` retitles the operator's terminal and ``\\x1b[2J`` clears it.
Every such text that ``pbem`` prints goes through :func:`printable`: control
characters (C0, DEL, C1), bidirectional overrides and other format characters are
shown as ``\\xNN`` / ``\\uNNNN`` escapes, so the operator sees that they were there.
"""

from __future__ import annotations

import unicodedata


def _shown(c: str) -> str:
    code = ord(c)
    if c == "\t":
        return " "
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, keep_newlines: bool = False) -> str:
    """``text`` with every character a terminal would not simply print escaped."""
    if text.isprintable():
        return text
    out = []
    for c in text:
        if c.isprintable() or (keep_newlines and c == "\n"):
            out.append(c)
        elif c == " " or unicodedata.category(c) == "Zs":
            out.append(" ")
        else:
            out.append(_shown(c))
    return "".join(out)
