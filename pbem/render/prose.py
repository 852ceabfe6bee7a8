"""Prose folded for plain-text mail without breaking a phrase (issue 23, item 10).

``textwrap`` breaks a line at whatever space comes last before the margin, so a score
with its tie-break read "Enforcers (mobile + in supply) White 8," on one line and
"Black 8" on the next, and a verdict "White wins 1-0, with" / "8 Realms to Black's 7".
Here a line that does not fit is first cut where its clauses end (after "; " or at
the end of a sentence) and the clauses are packed onto lines whole; only a clause wider
than the line is folded at its words, and then never inside a bracket, so
"(mobile + in supply)" stays on one line.
"""

from __future__ import annotations

import textwrap

__all__ = ["clauses", "fill"]

#: a character no mail text holds, standing for a space that must not break
_KEEP = "\x1f"
#: a bracket longer than this may fold inside
_BRACKET = 48


def clauses(text: str) -> list[str]:
    """``text`` cut after each "; " and each sentence's end ('. ', '! ', '? '), outside
    brackets, the cutting marks kept with the clause they end; a scan, linear in the text."""
    out: list[str] = []
    start = depth = 0
    for i in range(len(text) - 1):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")" and depth:
            depth -= 1
        elif not depth and text[i] in ";.!?" and text[i + 1] == " ":
            if text[i] == "." and i > 0 and text[i - 1].isdigit() and i + 2 < len(text) \
                    and text[i + 2].isdigit():
                continue  # '1. 2' is not a sentence's end
            out.append(text[start:i + 1])
            start = i + 2
    out.append(text[start:])
    return [c for c in (c.strip(" ") for c in out) if c]


def _bracketed_kept(text: str) -> str:
    """The spaces inside a short bracket ("(mobile + in supply)", closed within
    ``_BRACKET`` characters) made unbreakable (``_KEEP``); an unclosed or long bracket (a
    player's comment) folds as any text."""
    out = list(text)
    i = text.find("(")
    while i != -1:
        end = text.find(")", i, i + _BRACKET)
        if end == -1:
            i = text.find("(", i + 1)
            continue
        for j in range(i, end):
            if out[j] == " ":
                out[j] = _KEEP
        i = text.find("(", end)
    return "".join(out)


def _words(text: str, width: int, first: str, rest: str) -> list[str]:
    lines = textwrap.wrap(_bracketed_kept(text), width, initial_indent=first,
                          subsequent_indent=rest, break_long_words=False,
                          break_on_hyphens=False)
    return [line.replace(_KEEP, " ") for line in lines] or [first.rstrip()]


def fill(text: str, width: int = 78, first: str = "", rest: str | None = None) -> str:
    """``text`` in lines of at most ``width`` characters (a word longer than that stays
    whole): as it is when it fits, else its clauses packed whole onto lines, a clause too
    long for a line folded at its words outside brackets. ``first`` starts the first
    line, ``rest`` (default: as many spaces) the others."""
    rest = " " * len(first) if rest is None else rest
    if len(first) + len(text) <= width:
        return first + text
    lines: list[str] = []
    current = ""
    for clause in clauses(text):
        lead = first if not lines and not current else rest
        if current and len(current) + 1 + len(clause) <= width:
            current += " " + clause
            continue
        if current:
            lines.append(current)
            lead = rest
        if len(lead) + len(clause) <= width:
            current = lead + clause
        else:
            folded = _words(clause, width, lead, rest)
            lines.extend(folded[:-1])
            current = folded[-1]
    if current:
        lines.append(current)
    return "\n".join(lines)
