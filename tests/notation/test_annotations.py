"""Annotations in the notation (issue 27, part 5): marks right after an action, comments
and variations after a turn; carried in the syntax objects with their spans, written
back by format."""

from __future__ import annotations

import pytest

from pbem.errors import NotationError, Span
from pbem.notation.format import format_movetext
from pbem.notation.parse import parse_movetext

TEXT = ("7.Pi10i6(Bh5)!,Pc4g4(Ei4W)?! {Strong.} [7.Pa1a2 {meh} [7.Pb1b2!!] 7...Pc1c2]"
        "/Pd6d1(Be2) 8.Bh2?")


def test_marks_comments_and_variations_are_carried_with_their_spans():
    (seven, eight) = parse_movetext(TEXT).entries
    white = seven.white
    assert [(m.mark, m.action) for m in white.marks] == [("!", 0), ("?!", 1)]
    assert [m.span for m in white.marks] == [Span(1, 14), Span(1, 27)]
    assert white.notes == ("{Strong.}",) and white.note_spans == (Span(1, 30),)
    (variation,) = white.variations
    assert variation.text == "[7.Pa1a2 {meh} [7.Pb1b2!!] 7...Pc1c2]"
    assert variation.span == Span(1, 40)
    inner = variation.game.entries[0].white
    assert inner.notes == ("{meh}",)
    assert inner.variations[0].game.entries[0].white.marks[0].mark == "!!"
    assert seven.black is not None and not seven.black.marks
    assert eight.white is not None and eight.white.marks[0].mark == "?"


def test_a_variation_is_no_event_list_and_no_note():
    """Square brackets are free in the notation: '(...)' stays events or a note."""
    game = parse_movetext("7.Pa1a2 (Bh5) [7.Pb1b2] (Figure 6)")
    white = game.entries[0].white
    assert white.actions[0].events is not None
    assert white.notes == ("(Figure 6)",) and len(white.variations) == 1


def test_format_writes_annotations_back_and_reads_the_same():
    game = parse_movetext(TEXT)
    text = format_movetext(game)
    assert "7.Pi10i6(Bh5)!,Pc4g4(Ei4W)?! {Strong.} [7.Pa1a2 {meh} [7.Pb1b2!!] 7...Pc1c2]" in text
    assert parse_movetext(text) == game


@pytest.mark.parametrize("mark", ["!", "?", "!!", "??", "!?", "?!"])
def test_every_mark_reads(mark):
    assert parse_movetext(f"1.Bh11{mark} Bh2").entries[0].white.marks[0].mark == mark


def test_a_long_comment_reads_whole():
    comment = "{" + "a long note " * 5000 + "}"
    (entry,) = parse_movetext(f"1.Pa1a2 {comment}").entries
    assert entry.white.notes == (comment,)


def test_three_marks_are_no_mark():
    with pytest.raises(NotationError) as caught:
        parse_movetext("1.Pa1a2!!!")
    assert caught.value.span.column == 10
