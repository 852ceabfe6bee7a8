"""Spans handed out again by line and column are the spans asked for, and the kept ones stay
bounded however long or many the lines."""

from __future__ import annotations

from pbem.errors import Span
from pbem.notation.parse import parse_movetext
from pbem.notation.spans import MAX_COLUMNS, MAX_KEPT, MAX_ROWS, kept, row, span_on


def _span(line: int, column: int) -> Span:
    kept = row(line)
    return kept.get(column) or span_on(kept, line, column)


def test_a_kept_span_is_the_span_of_its_line_and_column():
    first = _span(7, 12)
    assert first == Span(7, 12) and type(first) is Span
    assert _span(7, 12) is first  # made once
    assert _span(7, 13) == Span(7, 13) and _span(8, 12) == Span(8, 12)


def test_the_kept_spans_are_bounded():
    for line in range(10**6, 10**6 + MAX_ROWS * 2):  # one span on each of many lines
        _span(line, 1)
    assert kept() <= MAX_ROWS
    for column in range(1, MAX_COLUMNS * 2):
        assert _span(3, column) == Span(3, column)
    assert len(row(3)) <= MAX_COLUMNS


def test_the_kept_spans_are_bounded_in_all_over_wide_lines():
    """Many lines of many columns each: each row and the number of rows stay in their
    bounds, and so does the total, far below rows times columns."""
    for line in range(2 * 10**6, 2 * 10**6 + MAX_KEPT // 1000 + 10):
        for column in range(1, 2001):
            _span(line, column)
        assert kept() <= MAX_KEPT
    assert _span(5, 5) == Span(5, 5)


def test_games_on_the_same_lines_get_their_own_columns():
    one = parse_movetext("7.Pi10i6(Bh5)/Pd6d1(Be2)\n")
    two = parse_movetext("7.Pc1i1(Bh9)/Pd6d1(Be2)\n")
    moves = [e.white.actions[0] for e in (one.entries[0], two.entries[0])]
    assert [m.squares[1].span for m in moves] == [Span(1, 7), Span(1, 6)]
    assert [m.events[0].span for m in moves] == [Span(1, 10), Span(1, 9)]
