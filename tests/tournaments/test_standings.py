"""Scores, Sonneborn-Berger, direct encounter and the withdrawal rule on small tables
worked out by hand."""

from __future__ import annotations

from fractions import Fraction

from pbem.tournaments.standings import Board, Entrant, compute, format_points


def _people(n: int, withdrawn: int | None = None) -> list[Entrant]:
    return [Entrant(i, f"P{i}", 2000 - i, withdrawn=i == withdrawn) for i in range(1, n + 1)]


def test_sonneborn_berger_and_the_marks() -> None:
    # 1 beats 2, 2 beats 3 on time, 3 draws 1
    boards = [Board(1, 1, 1, 2, 11, "1-0"), Board(2, 1, 2, 3, 12, "1-0", "time"),
              Board(3, 1, 3, 1, 13, "1/2-1/2")]
    rows = compute(_people(3), boards)
    assert [(r.number, r.points, r.sonneborn_berger) for r in rows] == [
        (1, Fraction(3, 2), Fraction(1) + Fraction(1, 4)),  # 1 x 1 (P2) + 1/2 x 1/2 (P3)
        (2, Fraction(1), Fraction(1, 2)),                   # 1 x 1/2 (P3)
        (3, Fraction(1, 2), Fraction(3, 4)),                # 1/2 x 3/2 (P1)
    ]
    cells = {(r.number, c.opponent): c.text for r in rows for c in r.cells}
    assert cells[(2, 3)] == "+" and cells[(3, 2)] == "-" and cells[(1, 3)] == "½"


def test_direct_encounter_then_rating() -> None:
    # 1 and 2 draw; each beats 3; 2 beats 1 in the return game: 2 ahead by direct
    # encounter with equal points and SB? 2: 1/2+1+1 = 2.5; 1: 1/2+1+0 = 1.5: no tie.
    # A true tie: 1 and 2 both beat 3 and draw each other: rating decides (1 is higher)
    boards = [Board(1, 1, 1, 2, 1, "1/2-1/2"), Board(2, 1, 1, 3, 2, "1-0"),
              Board(3, 1, 2, 3, 3, "1-0")]
    rows = compute(_people(3), boards)
    assert [r.number for r in rows] == [1, 2, 3]
    assert rows[0].direct == rows[1].direct == Fraction(1, 2)
    rated_low_first = [Entrant(1, "P1", 1500), Entrant(2, "P2", 1900), Entrant(3, "P3", 1)]
    assert [r.number for r in compute(rated_low_first, boards)] == [2, 1, 3]


def test_a_withdrawal_before_half_strikes_every_game() -> None:
    # four players, 3 withdrew after one game of three: his games count for nobody
    boards = [Board(1, 1, 1, 3, 1, "0-1"), Board(2, 1, 3, 2, 2, "0-1", "withdrawn"),
              Board(3, 1, 4, 3, 3, "1-0", "withdrawn"), Board(1, 2, 2, 4, 4, "1-0")]
    rows = {r.number: r for r in compute(_people(4, withdrawn=3), boards)}
    assert rows[1].points == 0 and rows[3].points == 0 and rows[2].points == 1
    assert [c.text for c in rows[1].cells] == ["(0)"]
    assert rows[3].played == 0
    # after two games of three played it stands: the third is a forfeit that counts
    boards[1] = Board(2, 1, 3, 2, 2, "1-0")
    rows = {r.number: r for r in compute(_people(4, withdrawn=3), boards)}
    assert rows[1].points == 0 and rows[3].points == 2 and rows[4].points == 1
    assert [c.text for c in rows[4].cells if c.opponent == 3] == ["+"]


def test_format_points() -> None:
    assert [format_points(Fraction(n, 2)) for n in range(4)] == ["0", "½", "1", "1½"]
    assert format_points(Fraction(5, 4)) == "1.25"
