"""Names that go into mail headers, subjects and reports: one line of printable text.

A game's title or a player's name is written into a Subject header, a text board's
title and a terminal. A line break (including U+0085, U+2028, U+2029), a control
character or a bidirectional override would break the header or change what a
reader sees, so such a name is refused where it is given, never found out later
while a mail is being written.
"""

from __future__ import annotations

import unicodedata

#: the longest name; a Subject line stays readable
MAX_LABEL = 200

#: Unicode categories that have no place in a one-line name: controls (C0, C1, NUL,
#: U+0085), line and paragraph separators, surrogates
_REFUSED_CATEGORIES = frozenset({"Cc", "Zl", "Zp", "Cs"})

#: characters that reorder the text around them
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def label_problem(text: str) -> str | None:
    """Why ``text`` cannot be a name, in plain words; None if it can."""
    if not text.strip():
        return "is empty"
    if len(text) > MAX_LABEL:
        return f"is longer than {MAX_LABEL} characters"
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES or char in _BIDI_CONTROLS:
            what = unicodedata.name(char, "a control character")
            return f"must be one line of printable text (it holds U+{ord(char):04X}, {what})"
    return None
