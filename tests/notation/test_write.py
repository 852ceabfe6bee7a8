"""Numbering turns into entries: the one pairing every writer of records uses."""

from pbem.notation.format import entry_line, format_movetext
from pbem.notation.parse import parse_movetext
from pbem.notation.write import counted, entries, entry_of, game_text
from pbem.rules.pieces import Side

W, B = Side.WHITE, Side.BLACK


def test_black_joins_white_of_the_same_number() -> None:
    assert entries([(7, W, "a"), (7, B, "b")]) == [(7, "a", "b")]


def test_black_of_another_number_stands_alone() -> None:
    # a record that goes on at Black's turn 8 after White's turn 7
    assert entries([(7, W, "a"), (8, B, "b")]) == [(7, "a", None), (8, None, "b")]


def test_white_after_white_closes_the_entry() -> None:
    assert entries([(1, W, "a"), (2, W, "b"), (2, B, "c")]) == [(1, "a", None), (2, "b", "c")]


def test_a_lone_black_turn_first() -> None:
    assert entries([(11, B, "x"), (12, W, "y")]) == [(11, None, "x"), (12, "y", None)]


def test_entry_of_one_turn() -> None:
    assert entry_of(3, W, "t") == (3, "t", None)
    assert entry_of(3, B, "t") == (3, None, "t")


def test_counted_numbers_alternating_turns() -> None:
    turns = [(W, "a"), (B, "b"), (W, "c"), (W, "d"), (B, "e")]
    assert [n for n, _, _ in counted(turns)] == [1, 1, 2, 3, 3]
    assert [n for n, _, _ in counted([(B, "a"), (B, "b")], first_entry=5)] == [5, 6]


def test_entry_line_layout() -> None:
    assert entry_line(7, "Pa1a2", "Pb1b2") == "7.Pa1a2/Pb1b2"
    assert entry_line(1, "Bh11", "Bh2", setup=True) == "1.Bh11 Bh2"
    assert entry_line(7, "Pa1a2", None) == "7.Pa1a2"
    assert entry_line(7, None, "Pb1b2") == "7...Pb1b2"
    assert entry_line(7, "", None) + "x" == "7.x"


def test_game_text_round_trips_through_the_writer() -> None:
    text = "1.Bh11 Bh2\n2.Pc4g4/Pi10i6"
    game = parse_movetext(text)
    turns = [
        (side, turn)
        for e in game.items
        for side, turn in ((W, e.white), (B, e.black))
        if turn is not None
    ]
    written = game_text(turns, result="*")
    assert format_movetext(written).startswith("1.Bh11 Bh2")
    assert "2.Pc4g4/Pi10i6" in format_movetext(written)
