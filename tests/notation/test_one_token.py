"""A move with its event list right after it is one token (issue 15, speed): read the same
as the list written apart, with every event and square at its own column."""

from __future__ import annotations

import pytest

from pbem.errors import Span
from pbem.notation.grammar import parser
from pbem.notation.parse import parse_movetext


def _move(text: str):
    (entry,) = parse_movetext(text).entries
    assert entry.white is not None
    return entry.white.actions[0]


@pytest.mark.parametrize(
    "events", ["(Bh5)", "(Ei4W)", "(xBb8,xEa7)", "(+Ea4)", "(Bb8,xEc7,+Ea4)"]
)
def test_the_event_list_in_the_token_reads_as_written_apart(events):
    together = _move(f"7.Pi10i6{events}")
    apart = _move(f"7.Pi10i6 {events}")
    assert together == apart  # spans aside
    line = f"7.Pi10i6{events}"
    for event in together.events:
        written = f"{event.prefix}{event.piece}{event.square.text}{event.facing or ''}"
        assert line[event.span.column - 1 :].startswith(written)
        assert line[event.square.span.column - 1 :].startswith(event.square.text)
        assert event.span.line == 1


def test_a_multi_square_move_with_events_is_one_token():
    move = _move("7.Eb2b5e5(xEc7,+Ea4)")
    assert [s.text for s in move.squares] == ["b2", "b5", "e5"]
    assert [(e.prefix, e.piece, e.square.text) for e in move.events] == [
        ("x", "E", "c7"), ("+", "E", "a4"),
    ]
    assert move.events[1].square.span == Span(1, 18)


def test_the_sample_game_has_one_token_per_move_with_its_events():
    text = "7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2),Pg3d3(Ed2N)"
    types = [t.type for t in parser().lex(text)]
    assert types.count("MOVE_EVENTS") == 4 and "LPAR" not in types
