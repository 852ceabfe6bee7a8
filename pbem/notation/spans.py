"""Spans shared by line and column while records are parsed.

A record's syntax objects carry hundreds of spans, and records lay out alike (entries at
the margin of the same lines, moves at the same columns), so a span already made for a
line and column is handed out again: spans are immutable tuples, and the same value.
The kept spans are bounded: a row is cleared past ``MAX_COLUMNS`` columns, all rows past
``MAX_ROWS`` lines or ``MAX_KEPT`` spans in all (rows times columns alone would allow 16
million, a gigabyte, over an archive of wide lines).
"""

from __future__ import annotations

from pbem.errors import Span, new_span

MAX_ROWS = 4096
MAX_COLUMNS = 4096
MAX_KEPT = 1 << 18

_ROWS: dict[int, dict[int, Span]] = {}
#: spans made since the rows were last cleared (an upper bound of those kept)
_made = 0


def row(line: int) -> dict[int, Span]:
    """The spans kept for ``line``, by column; read them with ``row.get(column) or
    span_on(row, line, column)``."""
    found = _ROWS.get(line)
    if found is None:
        if len(_ROWS) >= MAX_ROWS:
            _ROWS.clear()
        found = _ROWS[line] = {}
    return found


def span_on(spans: dict[int, Span], line: int, column: int) -> Span:
    """``Span(line, column)``, kept in ``spans`` (``row(line)``) for the next time."""
    global _made
    _made += 1
    if _made > MAX_KEPT:
        _ROWS.clear()
        spans.clear()
        _made = 1
    elif len(spans) >= MAX_COLUMNS:
        spans.clear()
    made = spans[column] = new_span((line, column, None, None))
    return made


def kept() -> int:
    """How many spans are kept now, over every line."""
    return sum(len(spans) for spans in _ROWS.values())
