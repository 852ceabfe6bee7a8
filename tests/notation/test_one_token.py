"""A move with its event list right after it is one token (issue 15, speed): read the same
as the list written apart, with every event and square at its own column."""

from __future__ import annotations

import pytest

from pbem.errors import NotationError, Span
from pbem.notation.lexer import lex
from pbem.notation.parse import parse_movetext


def _refused_at(text: str, message: str, column: int) -> None:
    """``text`` is refused with ``message`` at ``column``, as it was token by token."""
    with pytest.raises(NotationError) as caught:
        parse_movetext(text)
    assert message in caught.value.message
    assert caught.value.span.column == column


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


def test_the_sample_game_has_one_token_per_packed_turn():
    text = "7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2),Pg3d3(Ed2N)"
    types = [t.type for t in lex(text)]
    assert types == ["FULL_ENTRY"]


@pytest.mark.parametrize(
    "packed",
    [
        "Pi10i6(Bh5),Pc4g4(Ei4W)",
        "Pi6j6(Bk5),Pg4g9(Bh8),Ei4d4",
        "Pa1a2,Eb2b5e5(xEc7,+Ea4)",
        "Eh8h11off,Pc4g4(Ei4W)",
    ],
)
def test_a_packed_turn_reads_as_its_moves_token_by_token(packed):
    """One token, or several: the same moves, events and every square at its column."""
    together = parse_movetext(f"7.{packed}").entries[0].white
    apart = parse_movetext(f"7.{packed.replace(',', ' ,').replace('(', ' (')}").entries[0].white
    assert together == apart
    assert "MOVE_RUN" in [t.type for t in lex(f"7.{packed} {{a note}}")]  # the turn open
    assert [t.type for t in lex(f"7.{packed}")] == ["WHITE_ONLY"]  # the text ends: all one
    line = f"7.{packed}"
    for move in together.actions:
        assert line[move.span.column - 1 :].startswith(move.piece + move.squares[0].text)
        for square in move.squares:
            assert line[square.span.column - 1 :].startswith(square.text)
        for event in move.events or ():
            assert line[event.square.span.column - 1 :].startswith(event.square.text)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        # the last move's events written apart still belong to it
        ("7.Pi10i6(Bh5),Pc4g4 (Ei4W)", None, None),
        # a broken event inside: read token by token, so the error points into it
        ("7.Pa1a2,Pb1b2(Bz9)", "'z9' is not a square", 16),
        ("7.Pa1a2,Pb1b2(Ei4Z)", "expected a direction", 18),
        ("7.Pa1a2,Pb1b2(Bh5", "expected ',' or ')'", 18),
    ],
)
def test_a_packed_turn_that_is_not_quite_packed_reads_token_by_token(text, message, column):
    if message is None:
        turn = parse_movetext(text).entries[0].white
        assert [len(m.events or ()) for m in turn.actions] == [1, 1]
        return
    _refused_at(text, message, column)


@pytest.mark.parametrize(
    "entry", ["7.Pg5g9(Bh8)/\nPc5c2", "7.Pa1a2,Pg5g9(Bh8)/", "12.Eh8h11off/ Pc5c2(Bb2),Pd1d2"]
)
def test_a_number_white_turn_and_slash_are_one_token_read_as_written_apart(entry):
    packed = parse_movetext(entry).entries[0]
    spaced = parse_movetext(entry.replace(".", ". ", 1).replace("/", " / ")).entries[0]
    assert packed == spaced and packed.slash
    assert next(iter(lex(entry))).type in ("WHITE_HALF", "ENTRY_APART")  # Black apart
    assert packed.span == Span(1, 1)
    for move in packed.white.actions:
        assert entry[move.span.column - 1 :].startswith(move.piece + move.squares[0].text)
        for square in move.squares:
            assert entry[square.span.column - 1 :].startswith(square.text)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        ("7.Pg5g9(Bh8)//Pc5c2", "unexpected '/'", 14),
        ("7.Pg5g9(Bz8)/Pc5c2", "'z8' is not a square", 10),
        ("7.Pg5g9x/Pa1a2", "cannot read 'x/Pa1a2' here", 8),
    ],
)
def test_a_broken_white_half_is_read_token_by_token(text, message, column):
    _refused_at(text, message, column)


@pytest.mark.parametrize(
    "text",
    ["1.Bh11 Bh2, 2.Be8 Be5,", "4.Pi10\tPg3, {White starts}", "1.Bh11 Bh2, (Figure 1) 2.Be8 Be5"],
)
def test_a_set_up_pair_and_its_comma_are_one_token_read_as_written_apart(text):
    packed = parse_movetext(text).entries[0]
    assert lex(text).__next__().type in ("PLACED_PAIR", "PLACED_RUN")
    apart = parse_movetext(text.replace(".", ". ", 1).replace(",", " ,", 1)).entries[0]
    assert packed == apart
    assert packed.black.comma is not None
    assert text[packed.black.comma.column - 1] == ","
    for turn in (packed.white, packed.black):
        (placement,) = turn.actions
        assert text[placement.span.column - 1 :].startswith(placement.piece + placement.square.text)
        assert text[placement.square.span.column - 1 :].startswith(placement.square.text)


def test_after_a_set_up_pair_the_error_offers_only_what_can_follow():
    """Token by token, LALR offered a move or '/' there too, which could not stand."""
    with pytest.raises(NotationError) as caught:
        parse_movetext("1.Bh11 Bh2, ,2.Be8")
    assert caught.value.message == (
        "unexpected ',': expected a move number like '7.' or a result (1-0, 0-1, 1/2-1/2, *)"
    )
    assert caught.value.span.column == 13


@pytest.mark.parametrize(
    "entry",
    [
        "7.Pg5g9(Bh8)/Pc5c2",
        "8.Pa1a2,Pg5g9(Bh8)/Pc5c2(Bb2),Pd1d2",
        "9.Pa1a2/Pb1b2, Pc1c2 (Bh5)",  # Black's turn goes on after the token
        "10.Pa1a2/Pb1b2,Pc1c2 (Bh5)",  # an event list apart: the token ends sooner
        "11.Pa1a2/Pb1b2c3 (Bh5)",  # a move is never cut short
        "12.Pa1a2/Pb1b2.\n{a note}",
        "13.Pa1a2/Pb1b2(Bh5)(Figure 6)",
    ],
)
def test_a_whole_packed_entry_is_read_as_written_apart(entry):
    packed = parse_movetext(entry).entries[0]
    spaced = parse_movetext(
        entry.replace(".", ". ", 1).replace("/", " / ").replace(",", " , ").replace("(", " (")
    ).entries[0]
    assert packed == spaced
    for turn in (packed.white, packed.black):
        for move in turn.actions:
            assert entry[move.span.column - 1 :].startswith(move.piece + move.squares[0].text)
            for square in (*move.squares, *(e.square for e in move.events or ())):
                assert entry[square.span.column - 1 :].startswith(square.text)
    if "FULL_ENTRY" in [t.type for t in lex(entry)]:
        assert packed.span == Span(1, 1)


def test_the_generated_records_entries_are_one_token_in_all():
    types = [t.type for t in lex("8.Pc7c3/Pa2a12(Bb11)\n9.Pc3c7(Ec9W)/Pa12a8\n")]
    assert types == ["ENTRY_RUN"]
    assert [t.type for t in lex("8.Pc7c3/Pa2a12(Bb11)\n")] == ["FULL_ENTRY"]


def test_after_a_whole_entry_the_error_offers_what_may_follow_black_s_move():
    with pytest.raises(NotationError) as caught:
        parse_movetext("7.Pa1a2/Pb1b2 / Pc1c2")
    assert caught.value.message == (
        "unexpected '/': expected a move number like '7.', ',' or a result "
        "(1-0, 0-1, 1/2-1/2, *)"
    )
    assert caught.value.span.column == 15


@pytest.mark.parametrize(
    "rearrangement", ["Re2(Pf1)", "Rb8(Ea9N,Pa8,Pb9)", "Rh5(Pg4,Eg6N;Pi6,Ei4U)", "Rh5(Eg6)"]
)
def test_a_rearrangement_is_one_token_read_as_written_apart(rearrangement):
    line = f"12.Pd1d12(Ee12S)/{rearrangement}"
    packed = parse_movetext(line).entries[0].black.actions[0]
    spaced = parse_movetext(
        line.replace("(", " ( ").replace(",", " , ").replace(";", " ; ").replace(")", " )")
    ).entries[0].black.actions[0]
    assert packed == spaced
    assert [t.type for t in lex(line)] == ["WHITE_HALF", "REALM_LIST"]
    assert line[packed.span.column - 1 :].startswith("R" + packed.realm.text)
    assert line[packed.realm.span.column - 1 :].startswith(packed.realm.text)
    for item in (*packed.items, *packed.opponent):
        written = item.piece + item.square.text + (item.facing or "")
        assert line[item.span.column - 1 :].startswith(written)
        assert line[item.square.span.column - 1 :].startswith(item.square.text)


@pytest.mark.parametrize(
    ("text", "message", "column"),
    [
        # a Base among the items: read token by token, the error names it at its column
        ("5.Pa1a2/Rb8(Pa8,Bb9)", "Bb9 cannot be rearranged", 17),
        ("5.Pa1a2/Rb8(Ea9Z)", "expected a direction", 16),
        ("5.Pa1a2/Rb8(Pa8,,Pb9)", "unexpected ','", 17),
        ("5.Pa1a2/Rb8(Pa8", "expected ',' or ')'", 16),
    ],
)
def test_a_rearrangement_that_is_not_quite_packed_reads_token_by_token(text, message, column):
    _refused_at(text, message, column)


@pytest.mark.parametrize(
    ("entry", "first"),
    [
        ("13.Rb8(Ea9N,Pa8,Pb9)/Pc7c3", "FULL_ENTRY"),
        ("13.Rb8(Ea9N)/Rh5(Pg4)", "WHITE_HALF"),
        ("13.Rb8(Pa8)/pass", "WHITE_HALF"),
        ("13.Rb8(Pa8)/Pc7c3(Bb2),Pd1d2", "FULL_ENTRY"),
    ],
)
def test_an_entry_opened_by_a_packed_rearrangement_is_read_as_written_apart(entry, first):
    packed = parse_movetext(entry).entries[0]
    spaced = parse_movetext(
        entry.replace(".", ". ", 1).replace("/", " / ").replace("(", " ( ").replace(",", " , ")
    ).entries[0]
    assert packed == spaced and packed.slash
    assert next(iter(lex(entry))).type == first
    assert packed.span == Span(1, 1)
    (realm,) = packed.white.actions
    assert packed.white.span == realm.span == Span(1, 4)
    assert entry[realm.realm.span.column - 1 :].startswith(realm.realm.text)
    for item in realm.items:
        assert entry[item.square.span.column - 1 :].startswith(item.square.text)


def test_an_unexpected_entry_opened_by_a_rearrangement_is_quoted_by_its_number():
    with pytest.raises(NotationError) as caught:
        parse_movetext("18.Pa1a2/Rb8(Pa8\n19.Rb11(Pc11)/Pf3j3")
    assert caught.value.message == "unexpected '19.': expected ',' or ')'"
    assert caught.value.span == Span(2, 1)


@pytest.mark.parametrize(
    "line",
    [
        "1.Bb11 Bh2, 2.Bk8 Bb8, 3.Be5 Bk11, 4.Pl9 Pj10, 5.Pd4 Pc8, 6.Pa11 Pi3",
        "1.Bh11 Bh2,\t2.Be8 Be5, {a note} 3.Bb5 Bk8,",
        "1.Bh11 Bh2, 2.Be8 Be5, (Figure 1)\n3.Bb5 Bk8, 4.Pi10 Pg3",
    ],
)
def test_a_run_of_set_up_pairs_is_one_token_read_as_pairs_written_apart(line):
    packed = parse_movetext(line).entries
    spaced = parse_movetext(line.replace(", ", " , ").replace(",\t", " ,\t")).entries
    assert packed == spaced
    assert lex(line).__next__().type == "PLACED_RUN"
    assert [e.number for e in packed] == list(range(1, len(packed) + 1))
    lines = line.split("\n")
    for entry in packed:
        text = lines[entry.span.line - 1]
        assert text[entry.span.column - 1 :].startswith(f"{entry.number}.")
        for turn in (entry.white, entry.black):
            (placement,) = turn.actions
            at = text[placement.span.column - 1 :]
            assert at.startswith(placement.piece + placement.square.text)
            assert text[placement.square.span.column - 1 :].startswith(placement.square.text)
        if entry.black.comma is not None:
            assert text[entry.black.comma.column - 1] == ","


def test_notes_after_a_run_of_set_up_pairs_belong_to_its_last_pair():
    entries = parse_movetext("1.Bh11 Bh2, 2.Be8 Be5, {both Bases} (Figure 1)").entries
    assert [e.black.notes for e in entries] == [(), ("{both Bases}", "(Figure 1)")]


def test_an_unexpected_run_of_set_up_pairs_is_quoted_by_its_first_pair():
    with pytest.raises(NotationError) as caught:
        parse_movetext("7.Pa1a2/Rb8(Pa8\n1.Bh11 Bh2, 2.Be8 Be5,")
    assert caught.value.message == "unexpected '1.Bh11 Bh2,': expected ',' or ')'"
    assert caught.value.span == Span(2, 1)


@pytest.mark.parametrize("end", ["\n", " \t\n", "\r\n"])
def test_whole_entries_on_their_lines_are_one_token_and_the_next_line_reads_as_before(end):
    text = f"8.Pc7c3/Pa2a12(Bb11){end}9.Pc3c7(Ec9W)/Pa12a8{end}{{a note}}"
    tokens = list(lex(text))
    assert [t.type for t in tokens] == ["ENTRY_RUN", "COMMENT"]
    assert [(t.line, t.column) for t in tokens] == [(1, 1), (3, 1)]
    first, second = parse_movetext(text).entries
    assert second.span == Span(2, 1)
    assert second.black.notes == ("{a note}",)
    (move,) = first.black.actions
    assert [e.square.text for e in move.events] == ["b11"]


def test_an_unexpected_whole_entry_is_quoted_without_the_end_of_its_line():
    with pytest.raises(NotationError) as caught:
        parse_movetext("7.Pa1a2/Rb8(Pa8\n8.Pc7c3/Pa2a12(Bb11)\n")
    assert caught.value.message == "unexpected '8.Pc7c3/Pa2a12(Bb11)': expected ',' or ')'"


def test_list_markers_before_whole_entries_join_their_run_and_keep_their_place():
    text = "- 10.Pa1a2/\nPb1b2\n- 11.Pc1c2/Pd1d2 (Figure 7)\n- 12.Pe1e2/Pf1f2"
    assert [t.type for t in lex(text)] == ["ENTRY_RUN"]  # the note too (see below)
    items = parse_movetext(text).items
    assert [type(i).__name__ for i in items] == [
        "ListMarkerText", "EntryText", "ListMarkerText", "EntryText", "ListMarkerText",
        "EntryText",
    ]
    assert [i.span for i in items[::2]] == [Span(1, 1), Span(3, 1), Span(4, 1)]
    assert [i.span for i in items[1::2]] == [Span(1, 3), Span(3, 3), Span(4, 3)]
    assert items[3].black.notes == ("(Figure 7)",)
    assert items[1].black.actions[0].span == Span(2, 1)


@pytest.mark.parametrize(
    "text",
    ["6.Pc4, Pc9,\n 7.Pi10i6(Bh5)", "5.Pf7 Pd6, 6.Pc4, Pc9,", "6.Pc4,Pc9, 7.Pa1a2/Pb1b2",
     "6.Bc4,\tBc9, 7.Pa1a2"],
)
def test_a_set_up_pair_with_white_s_comma_is_packed_where_an_entry_or_the_end_follows(text):
    """The sample game's ``6.Pc4, Pc9,``: one token with the pairs before it, read as
    its five tokens written apart, White's comma kept at its column."""
    assert lex(text).__next__().type in ("PLACED_PAIR", "PLACED_RUN")
    packed = parse_movetext(text).entries
    apart = parse_movetext(text.replace("6.", "6. ").replace("c4,", "c4 ,")).entries
    assert packed == apart
    six = next(e for e in packed if e.number == 6)
    assert six.white.comma is not None and text[six.white.comma.column - 1] == ","
    assert six.black.comma is not None and text[six.black.comma.column - 1] == ","


@pytest.mark.parametrize("after", [" /", " (Bh5)", " ]", " 7", " ;", " xBb5", " {c} /"])
def test_a_set_up_pair_with_white_s_comma_is_read_token_by_token_before_anything_else(after):
    """Written apart, Black's turn is open after ``6.Pc4, Pc9,``; what may follow it
    there is more than may follow an entry, and an error's words say so."""
    text = "6.Pc4, Pc9," + after
    assert lex(text).__next__().type == "MOVENUM"
    with pytest.raises(NotationError) as packed:
        parse_movetext(text)
    with pytest.raises(NotationError) as apart:
        parse_movetext("6. Pc4, Pc9," + after)
    assert packed.value.message == apart.value.message


def test_an_unexpected_set_up_pair_with_white_s_comma_is_quoted_by_its_number():
    with pytest.raises(NotationError) as caught:
        parse_movetext("7... 6.Pc4, Pc9, 8.Pa1 Pb2,")  # one token: Black's turn expected
    assert caught.value.message.startswith("unexpected '6.': expected a move like")
    assert caught.value.span == Span(1, 6)


@pytest.mark.parametrize(
    ("notes", "read"),
    [(" (Figure 6) ", ("(Figure 6)",)), ("\n (Figure 6)\n", ("(Figure 6)",)),
     (" (Figure 6),\n", ("(Figure 6)",)), (" (a) (b) ", ("(a)", "(b)")),
     (" (a)\n\n(b). ", ("(a)", "(b)"))],
)
def test_notes_between_whole_entries_are_in_their_run_and_black_s_turn_before_them(notes, read):
    """``9...Pa3a12(Ec12S)\n (Figure 6)\n- 10.Pf7f12...`` (the sample game): the run goes on
    over the notes, read as the tokens written apart would be."""
    text = f"7.Pa1a2/Pb1b2{notes}8.Pc1c2/ Pd1d2\n9.Pe1e2/Pf1f2"
    (token,) = lex(text)
    assert token.type == "ENTRY_RUN"
    packed = parse_movetext(text)
    apart = parse_movetext(text.replace(".P", ". P"))  # no entry packed: token by token
    assert "ENTRY_RUN" not in [t.type for t in lex(text.replace(".P", ". P"))]
    assert packed == apart
    seven = packed.entries[0]
    assert seven.black.notes == read
    assert [text.split("\n")[s.line - 1][s.column - 1] for s in seven.black.note_spans] == [
        "("
    ] * len(read)
    assert packed.entries[1].span.line == notes.count("\n") + 1


@pytest.mark.parametrize("after", ["8.Pc1c2/ Xyz", "8.Pc1c2", "1-0", "8...Pd1d2", "(Bh5)"])
def test_notes_not_followed_by_a_whole_entry_end_the_run_before_them(after):
    text = f"7.Pa1a2/Pb1b2 (Figure 6) {after}"
    types = [t.type for t in lex(text)]
    assert types[:2] == ["FULL_ENTRY", "PAREN_NOTE"]


@pytest.mark.parametrize(
    "text",
    ["16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5)", "16.Pa1a2,Pb1b2(Bc3) 1-0",
     "16.Rh5(Pg4,Eg6N)\n17.Pa1a2/Pb1b2", "16.Pe7e6 0-1", "16.Eh8h11off 17...Pa1a2"],
)
def test_white_s_turn_alone_is_one_token_where_the_entry_ends(text):
    """The sample game's last entry, ``16.Pe7e6(Be5) wins.``: White's turn and no slash,
    read as its tokens written apart."""
    assert lex(text).__next__().type == "WHITE_ONLY"
    packed = parse_movetext(text)
    apart = parse_movetext(text.replace(".", ". ", 1))
    assert "WHITE_ONLY" not in [t.type for t in lex(text.replace(".", ". ", 1))]
    assert packed == apart
    (entry, *_) = packed.entries
    assert entry.black is None and not entry.slash and entry.span == Span(1, 1)
    assert text[entry.white.actions[0].span.column - 1 :].startswith(text[3:6])


@pytest.mark.parametrize(
    "after", [" Pa1a2", " (Bh5)", ",", " /", " {c}", " !", " winsome", " 1", " *", " - 17.Pa1a2"]
)
def test_white_s_turn_alone_is_read_token_by_token_where_more_may_follow(after):
    """Written apart, White's turn is open there (Black's turn, a note, an event list or a
    mark may follow, and an error's words list them)."""
    assert lex("16.Pe7e6" + after).__next__().type == "MOVENUM"


def test_an_unexpected_white_turn_alone_is_quoted_by_its_number():
    with pytest.raises(NotationError) as caught:
        parse_movetext("7... 16.Pe7e6(Be5) wins.")
    assert caught.value.message.startswith("unexpected '16.': expected a move like")
