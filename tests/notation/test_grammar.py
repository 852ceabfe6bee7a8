"""The grammar and the syntax objects: every form of notation.md, and where it stands.

Syntax objects leave spans out of equality, so each form is compared with the
objects it must give; spans are checked on their own, against the text itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lark import Lark

from pbem.errors import NotationError, Span
from pbem.notation.grammar import START_RULES, build_strict, parser
from pbem.notation.parse import parse_game, parse_movetext
from pbem.notation.syntax import (
    EntryText,
    EventText,
    GameText,
    ItemText,
    LabelText,
    ListMarkerText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    ResultText,
    SquareText,
    TurnText,
)
from pbem.records.reader import read_games, split_games

GAMES = Path(__file__).resolve().parents[2] / "games"
SAMPLE = GAMES / "sample-game-2002.realm"
WORKED = GAMES / "worked-example-2002.realm"


# -- small builders -------------------------------------------------------------------
def sq(name: str) -> SquareText:
    return SquareText(name)


def place(piece: str, square: str) -> PlacementText:
    return PlacementText(piece, sq(square))


def move(text: str, *events: EventText) -> MoveText:
    """``move("Pc10g10", base("h11"))``: piece letter, then two squares."""
    piece, rest = text[0], text[1:]
    # split the two squares: a file letter starts each
    second = next(i for i in range(2, len(rest)) if rest[i].isalpha())
    return MoveText(piece, (sq(rest[:second]), sq(rest[second:])), events or None)


def base(square: str) -> EventText:
    return EventText("", "B", sq(square))


def enf(square: str, facing: str) -> EventText:
    return EventText("", "E", sq(square), facing)


def capture(square: str) -> EventText:
    return EventText("x", "B", sq(square))


def immob(square: str) -> EventText:
    return EventText("x", "E", sq(square))


def turn(*actions, notes: tuple[str, ...] = ()) -> TurnText:
    return TurnText(tuple(actions), notes)


def entry(number: int, white: TurnText | None, black: TurnText | None = None, slash: bool = False):
    return EntryText(number, white, black, slash)


def items_of(text: str) -> tuple:
    return parse_movetext(text).items


def text_at(text: str, span: Span, length: int) -> str:
    """The ``length`` characters of ``text`` that start at ``span`` (1-based line and column)."""
    line = text.split("\n")[span.line - 1]
    return line[span.column - 1 : span.column - 1 + length]


# -- the grammar itself ---------------------------------------------------------------
def test_grammar_builds_in_lark_strict_mode():
    strict = build_strict()
    assert isinstance(strict, Lark)
    assert strict.options.strict is True
    # the strict parser reads the same language as the one in use
    for start in START_RULES:
        tree = strict.parse("1.Bh11 Bh2", start=start)
        assert tree.data == start


def test_strict_and_production_parsers_agree_on_the_sample_game():
    text = SAMPLE.read_text(encoding="utf-8")
    tree = build_strict().parse(text, start="game")
    entries = [t for t in tree.iter_subtrees() if t.data.endswith("entry")]
    # a run of set-up pairs is one token and one subtree: each pair (and its comma) an entry
    runs = [t for t in tree.iter_subtrees() if t.data == "placed_run"]
    pairs = sum(1 for t in runs for e in t.children[0].syntax if isinstance(e, tuple))
    # so is a run of whole entries: each entry, its number and a full stop, one of them
    runs = [t for t in tree.iter_subtrees() if t.data == "entry_run"]
    whole = sum(1 for t in runs for e in t.children[0].syntax if isinstance(e, tuple))
    assert len(entries) + pairs + whole == len(parse_game(text).entries) == 16


def test_the_parser_is_built_once():
    assert parser() is parser()


# -- set-up and moves ---------------------------------------------------------------------
def test_setup_placements_numbered_like_turns():
    assert items_of("1.Bh11 Bh2, 2.Be8 Be5") == (
        entry(1, turn(place("B", "h11")), turn(place("B", "h2"))),
        entry(2, turn(place("B", "e8")), turn(place("B", "e5"))),
    )


def test_power_placements():
    assert items_of("4.Pi10 Pg3") == (entry(4, turn(place("P", "i10")), turn(place("P", "g3"))),)


def test_power_move():
    (e,) = items_of("7.Pc10g10")
    assert e.white == turn(MoveText("P", (sq("c10"), sq("g10")), None))
    assert e.black is None


def test_enforcer_move():
    (e,) = items_of("8.Eg12g6")
    assert e.white.actions == (MoveText("E", (sq("g12"), sq("g6")), None),)


def test_move_without_parentheses_has_no_events_not_an_empty_tuple():
    (e,) = items_of("7.Pa1a4")
    assert e.white.actions[0].events is None


@pytest.mark.parametrize(
    ("written", "events"),
    [
        ("(Bh11)", (base("h11"),)),
        ("(Eg12S)", (enf("g12", "S"),)),
        ("(Eg12N)", (enf("g12", "N"),)),
        ("(Eg12E)", (enf("g12", "E"),)),
        ("(Eg12W)", (enf("g12", "W"),)),
        ("(xBb5)", (capture("b5"),)),
        ("(xEa7)", (immob("a7"),)),
        ("(xBk11,xEj12)", (capture("k11"), immob("j12"))),
        ("(xBb8,xEa7)", (capture("b8"), immob("a7"))),
        ("(xEa7,xEb7)", (immob("a7"), immob("b7"))),
    ],
)
def test_each_special_event(written, events):
    (e,) = items_of(f"11.Ed7a7{written}")
    (m,) = e.white.actions
    assert m == MoveText("E", (sq("d7"), sq("a7")), events)
    assert m.events == events


def test_events_keep_their_written_order():
    (e,) = items_of("13.Ef9f6(xEf6,xBe5)")
    assert e.white.actions[0].events == (immob("f6"), capture("e5"))


def test_rearrangement():
    (e,) = items_of("20.Rh5(Pg4,Pi6,Eg6N,Ei4U)")
    assert e.white == turn(
        RearrangementText(
            sq("h5"),
            (
                ItemText("P", sq("g4")),
                ItemText("P", sq("i6")),
                ItemText("E", sq("g6"), "N"),
                ItemText("E", sq("i4"), "U"),
            ),
        )
    )


def test_pass():
    (e,) = items_of("30.pass/pass")
    assert e == entry(30, turn(PassText()), turn(PassText()), slash=True)


def test_pass_needs_a_word_boundary():
    with pytest.raises(NotationError):
        parse_movetext("30.passed")


def test_turn_of_several_moves_separated_by_commas():
    (e,) = items_of("7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2),Pg3d3(Ed2N)")
    assert e == entry(
        7,
        turn(move("Pi10i6", base("h5")), move("Pc4g4", enf("i4", "W"))),
        turn(move("Pd6d1", base("e2")), move("Pg3d3", enf("d2", "N"))),
        slash=True,
    )


def test_comma_between_moves_of_one_turn_is_no_separator():
    (e,) = items_of("7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1")
    assert e.white.comma is None


@pytest.mark.parametrize(
    ("text", "slash"),
    [
        ("8.Pi6j6(Bk5)/Pd3a3(Bb2)", True),
        ("8.Pi6j6(Bk5) / Pd3a3(Bb2)", True),
        ("8.Pi6j6(Bk5)/\n Pd3a3(Bb2)", True),
        ("8.Pi6j6(Bk5) Pd3a3(Bb2)", False),
        ("8.Pi6j6(Bk5)\n\tPd3a3(Bb2)", False),
    ],
)
def test_entry_with_slash_or_white_space(text, slash):
    (e,) = items_of(text)
    assert e == entry(8, turn(move("Pi6j6", base("k5"))), turn(move("Pd3a3", base("b2"))), slash)
    assert e.slash is slash


def test_entry_ending_in_a_slash_has_no_black_turn():
    (e,) = items_of("8.Pi6j6/")
    assert e.black is None
    assert e.slash is True


def test_entry_with_an_explicit_black_turn_after_the_number_and_a_space():
    # the working spelling of a Black-only entry: "7. ..."
    (e,) = items_of("7. ...Pd6d1(Be2)")
    assert e == entry(7, None, turn(move("Pd6d1", base("e2"))))


@pytest.mark.parametrize("number", ["7...", "7…"])
def test_black_only_entry(number):
    (e,) = items_of(f"{number}Pd6d1(Be2),Pg3d3(Ed2N)")
    assert e == entry(7, None, turn(move("Pd6d1", base("e2")), move("Pg3d3", enf("d2", "N"))))


@pytest.mark.parametrize(
    ("written", "text"),
    [
        ("1-0", "1-0"),
        ("0-1", "0-1"),
        ("1/2-1/2", "1/2-1/2"),
        ("½-½", "1/2-1/2"),
        ("*", "*"),
        ("wins", "wins"),
        ("wins.", "wins"),
    ],
)
def test_results(written, text):
    items = items_of(f"16.Pe7e6(Be5) {written}")
    assert items[-1] == ResultText(text)
    assert isinstance(items[0], EntryText)


def test_a_result_alone():
    assert parse_movetext("*") == GameText(items=(ResultText("*"),))


def test_comments_before_the_first_entry_after_a_turn_and_after_the_result():
    game = parse_movetext("{ opening\n note } 7.Pa1a4 {good}/Pb1b4 {bad} 1-0 {fine}")
    assert game.notes == ("{ opening\n note }",)
    (e, r) = game.items
    assert e.white.notes == ("{good}",)
    assert e.black.notes == ("{bad}",)
    assert r == ResultText("1-0", ("{fine}",))


def test_figure_note_after_a_turn():
    (e,) = items_of("9.Pg9l9(Bk8)/ Pc9c10(Bb11)\n (Figure 6)")
    assert e.black == turn(move("Pc9c10", base("b11")), notes=("(Figure 6)",))


def test_figure_note_is_not_read_as_an_event_list():
    (e,) = items_of("9.Pg9l9 (Figure 6)")
    assert e.white.actions[0].events is None
    assert e.white.notes == ("(Figure 6)",)


def test_a_note_that_starts_like_an_event_is_an_event_list():
    with pytest.raises(NotationError):
        parse_movetext("9.Pg9l9 (Bh5 is next)")


@pytest.mark.parametrize("label", ["Set?up:", "Set-up:", "Play:"])
def test_labels(label):
    items = items_of(f"{label} 1.Bh11 Bh2")
    assert items == (LabelText(label), entry(1, turn(place("B", "h11")), turn(place("B", "h2"))))


@pytest.mark.parametrize("marker", ["-", "*", "•"])
def test_list_markers(marker):
    items = items_of(f"{marker} 10.Pf7f12(Be11)\n{marker} 11.Pj7j10")
    assert items == (
        ListMarkerText(marker),
        entry(10, turn(move("Pf7f12", base("e11")))),
        ListMarkerText(marker),
        entry(11, turn(move("Pj7j10"))),
    )


def test_a_star_before_a_number_is_a_list_marker_and_alone_a_result():
    assert items_of("* 10.Pa1a4 *") == (
        ListMarkerText("*"),
        entry(10, turn(move("Pa1a4"))),
        ResultText("*"),
    )


def test_labels_and_markers_are_not_notes():
    game = parse_movetext("{intro} Set?up: 1.Bh11 Bh2\n- 2.Be8 Be5")
    assert game.notes == ("{intro}",)


def test_stray_commas_are_kept_apart_from_meaning():
    text = "6.Pc4, Pc9,\n 7.Pi10i6(Bh5)"
    six, seven = items_of(text)
    assert six == entry(6, turn(place("P", "c4")), turn(place("P", "c9")))
    assert six.white.comma == Span(1, 6)
    assert six.black.comma == Span(1, 11)
    assert text_at(text, six.white.comma, 1) == ","
    assert seven.white.comma is None


def test_stray_comma_after_a_move_turn():
    (e, _) = items_of("15.Pc7e7(Ef7N)/Pl10l4(El6W), 16.Pe7e6(Be5)")
    assert e.black.comma == Span(1, 28)
    assert e.black.actions == (move("Pl10l4", enf("l6", "W")),)


@pytest.mark.parametrize(
    ("written", "squares"),
    [
        ("PL1L6", ("L1", "L6")),
        ("EI7a7", ("I7", "a7")),
        ("Pd1L1", ("d1", "L1")),
        ("PA1B2", ("A1", "B2")),
    ],
)
def test_upper_case_files_are_kept_as_written(written, squares):
    (e,) = items_of(f"11.{written}")
    (m,) = e.white.actions
    assert (m.frm.text, m.to.text) == squares


def test_upper_case_files_in_events_and_rearrangements():
    (e,) = items_of("15.Pl10l4(EI6W)/RK5(PL4,EI6W)")
    assert e.white.actions[0].events == (enf("I6", "W"),)
    rearr = e.black.actions[0]
    assert rearr.realm == sq("K5")
    assert rearr.items == (ItemText("P", sq("L4")), ItemText("E", sq("I6"), "W"))


def test_ten_is_not_one_then_zero():
    (e,) = items_of("1.Pa10a1")
    assert e.white.actions == (MoveText("P", (sq("a10"), sq("a1"))),)


def test_empty_game():
    assert parse_game("") == GameText()
    assert parse_game("  \n\t") == GameText()


def test_empty_movetext_is_an_error():
    # a player's email with no turn in it says nothing
    with pytest.raises(NotationError) as info:
        parse_movetext("  \n")
    assert info.value.code == "notation.end"


def test_movetext_alone_refuses_front_matter():
    with pytest.raises(NotationError):
        parse_movetext("---\ngame: x\n---\n1.Bh11")


# -- front matter and files of several games --------------------------------------------
def test_front_matter_becomes_headers():
    text = "---\ngame: Test\nwhite: Ann\nblack: Bob\nruleset: featured\n---\n1.Bh11 Bh2\n"
    game = parse_game(text)
    assert game.headers == {"game": "Test", "white": "Ann", "black": "Bob", "ruleset": "featured"}
    assert game.header_span == Span(1, 1)
    assert game.entries == (entry(1, turn(place("B", "h11")), turn(place("B", "h2"))),)


def test_empty_front_matter_is_no_headers():
    assert parse_game("---\n---\n1.Bh11").headers == {}


def test_front_matter_alone():
    game = parse_game("---\ngame: x\n---\n")
    assert game.headers == {"game": "x"}
    assert game.items == ()


MULTI = """\
---
game: One
---
1.Bh11 Bh2, 2.Be8 Be5
---
game: Two
white: Ann
---
{ second }
1.Bb11 Bh8, 2.Be8 Be5,
 3.Bh5 Bb2
1-0
---
game: Three
---
1.Bh2
"""


def test_several_games_in_one_file():
    sources = list(read_games(MULTI, "multi.realm"))
    assert [s.index for s in sources] == [0, 1, 2]
    assert [s.first_line for s in sources] == [1, 5, 13]
    assert all(s.error is None and s.path == "multi.realm" for s in sources)
    one, two, three = (s.game for s in sources)
    assert one.headers == {"game": "One"}
    assert two.headers == {"game": "Two", "white": "Ann"}
    assert three.headers == {"game": "Three"}
    assert two.notes == ("{ second }",)
    assert [e.number for e in two.entries] == [1, 2, 3]
    assert two.items[-1] == ResultText("1-0")
    assert three.entries == (entry(1, turn(place("B", "h2"))),)


def test_spans_in_a_later_game_count_lines_from_the_top_of_the_file():
    _, two, three = (s.game for s in read_games(MULTI))
    assert two.header_span == Span(5, 1)
    assert two.span == Span(10, 1)
    e1, e2, e3 = two.entries
    assert e1.span == Span(10, 1)
    assert e3.span == Span(11, 2)
    assert e3.white.actions[0].square.span == Span(11, 5)
    assert text_at(MULTI, e3.white.actions[0].square.span, 2) == "h5"
    assert e3.black.actions[0].span == Span(11, 8)
    assert text_at(MULTI, e3.black.actions[0].span, 3) == "Bb2"
    assert e2.black.comma == Span(10, 22)
    assert text_at(MULTI, e2.black.comma, 1) == ","
    assert two.items[-1].span == Span(12, 1)
    assert three.header_span == Span(13, 1)
    assert three.entries[0].white.actions[0].square.span == Span(16, 4)
    assert text_at(MULTI, three.entries[0].white.actions[0].square.span, 2) == "h2"


def test_movetext_before_the_first_front_matter_is_a_game_of_its_own():
    text = "1.Bh11\n---\ngame: B\n---\n1.Bh2\n"
    assert split_games(text) == [(1, "1.Bh11\n"), (2, "---\ngame: B\n---\n1.Bh2\n")]
    first, second = list(read_games(text))
    assert first.game.headers == {}
    assert first.game.header_span is None
    assert second.game.headers == {"game": "B"}
    assert second.game.entries[0].span == Span(5, 1)


def test_the_bundled_files_hold_one_game_each():
    for path in (SAMPLE, WORKED):
        (source,) = list(read_games(path.read_text(encoding="utf-8"), str(path)))
        assert source.error is None
        assert source.game.headers["game"] in ("Sample Game", "Worked Example")


# -- spans in the sample game ------------------------------------------------------------------
@pytest.fixture(scope="module")
def sample_text() -> str:
    return SAMPLE.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def sample(sample_text) -> GameText:
    return parse_game(sample_text)


def test_sample_game_items(sample):
    kinds = [type(i).__name__ for i in sample.items]
    assert kinds == (
        ["LabelText"]
        + ["EntryText"] * 9
        + ["ListMarkerText", "EntryText"] * 6
        + ["EntryText", "ResultText"]
    )
    assert [e.number for e in sample.entries] == list(range(1, 17))
    assert sample.items[-1] == ResultText("wins")
    assert sample.headers["result"] == "1-0"
    assert sample.headers["date"] == 2002


def test_sample_game_eleventh_entry(sample):
    eleven = sample.entries[10]
    assert eleven == entry(
        11,
        turn(move("Pj7j10", base("k11")), move("Pl9c9"), move("EI7a7", capture("b8"), immob("a7"))),
        turn(move("PL1L6"), move("Pc6j6"), move("Ec4j4", capture("k5"))),
        slash=True,
    )


def test_sample_game_notes(sample):
    assert sample.notes[0].startswith("{ The complete moves")
    assert sample.entries[8].black.notes == ("(Figure 6)",)
    assert sample.entries[11].black.notes == ("(Figure 7)",)


@pytest.mark.parametrize(
    ("where", "span", "text"),
    [
        (lambda g: g.items[0].span, Span(13, 1), "Set?up:"),
        (lambda g: g.entries[0].span, Span(13, 9), "1."),
        (lambda g: g.entries[5].white.comma, Span(13, 71), ","),
        (lambda g: g.entries[5].black.comma, Span(13, 76), ","),
        (lambda g: g.entries[6].span, Span(14, 2), "7."),
        (lambda g: g.entries[6].black.span, Span(14, 28), "Pd6d1"),
        (lambda g: g.entries[7].black.actions[2].to.span, Span(16, 22), "L1"),
        (lambda g: g.entries[8].white.actions[1].events[0].span, Span(17, 21), "Ei7W"),
        (lambda g: g.entries[8].white.actions[1].events[0].square.span, Span(17, 22), "i7"),
        (lambda g: g.items[10].span, Span(19, 1), "-"),
        (lambda g: g.entries[10].white.actions[2].frm.span, Span(20, 26), "I7"),
        (lambda g: g.entries[10].black.span, Span(21, 1), "PL1L6"),
        (lambda g: g.entries[10].black.actions[2].events[0].span, Span(21, 19), "xBk5"),
        (lambda g: g.entries[14].black.actions[0].events[0].square.span, Span(26, 26), "I6"),
        (lambda g: g.entries[15].span, Span(26, 32), "16."),
        (lambda g: g.items[-1].span, Span(26, 46), "wins."),
    ],
)
def test_sample_game_spans(sample, sample_text, where, span, text):
    found = where(sample)
    assert found == span
    assert text_at(sample_text, found, len(text)) == text


def test_sample_game_span_of_the_game_and_its_front_matter(sample):
    assert sample.header_span == Span(1, 1)
    assert sample.span == Span(13, 1)


def test_line_offset_shifts_lines_not_columns():
    game = parse_game("1.Bh11 Bh2", line_offset=40)
    e = game.entries[0]
    assert e.span == Span(41, 1)
    assert e.black.actions[0].square.span == Span(41, 9)
    # and the next parse starts from scratch
    assert parse_game("1.Bh11").entries[0].span == Span(1, 1)
