"""The board: 12 x 12 squares, 16 Realms of 3 x 3, Centers, names, directions."""

from __future__ import annotations

import pytest

from pbem.rules.geometry import (
    BORDER_SQUARES,
    CENTER,
    EXITS,
    IS_CENTER,
    LINES,
    RAYS,
    REALM_COLUMN,
    REALM_OF,
    REALM_ROW,
    REALM_SQUARES,
    REALMS,
    SQUARES,
    Direction,
    direction_between,
    is_square_name,
    path_between,
    realm_name,
    square_name,
)
from pbem.rules.pieces import Side, base, enforcer, power
from tests.diagram import board_from, position_from, render_board, sq

CENTER_NAMES = {f + r for f in "behk" for r in ("2", "5", "8", "11")}


def test_board_is_12_by_12_with_files_a_to_l_and_ranks_1_to_12():
    """'12 x 12 squares. Files a-l left to right, ranks 1-12 bottom to top.'"""
    assert len(SQUARES) == 144
    assert square_name(0) == "a1"
    assert square_name(11) == "l1"
    assert square_name(132) == "a12"
    assert square_name(143) == "l12"
    assert sq("h11") == 10 * 12 + 7


@pytest.mark.parametrize("name", ["m1", "a0", "a13", "A1", "h", "11"])
def test_names_off_the_board_are_not_squares(name):
    """Only files a-l (lower case) and ranks 1-12 name squares."""
    assert not is_square_name(name)
    with pytest.raises(KeyError):
        sq(name)


def test_sixteen_realms_of_nine_squares_partition_the_board():
    """'16 Realms of 3 x 3 squares.'"""
    assert len(REALMS) == 16
    assert all(len(REALM_SQUARES[r]) == 9 for r in REALMS)
    every = sorted(s for r in REALMS for s in REALM_SQUARES[r])
    assert every == list(SQUARES)


@pytest.mark.parametrize(
    ("squares", "realm"),
    [
        (["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"], "b2"),
        (["g10", "h10", "i10", "g11", "h11", "i11", "g12", "h12", "i12"], "h11"),
        (["j12", "l10", "k11"], "k11"),
        (["d4", "f6", "e5"], "e5"),
    ],
)
def test_realm_of_a_square(squares, realm):
    """The squares of a 3 x 3 block are in the Realm named by its middle square."""
    for name in squares:
        assert realm_name(REALM_OF[sq(name)]) == realm, name


@pytest.mark.parametrize(("a", "b"), [("c3", "d3"), ("c3", "c4"), ("i10", "j10"), ("g9", "g10")])
def test_neighbours_across_a_realm_edge_are_in_different_realms(a, b):
    """Realm edges fall after files c, f, i and ranks 3, 6, 9."""
    assert REALM_OF[sq(a)] != REALM_OF[sq(b)]


def test_centers_are_b_e_h_k_by_2_5_8_11():
    """'A Realm's middle square is its Center: b e h k x 2 5 8 11.'"""
    assert {square_name(c) for c in CENTER} == CENTER_NAMES
    assert {square_name(s) for s in SQUARES if IS_CENTER[s]} == CENTER_NAMES
    for r in REALMS:
        assert REALM_OF[CENTER[r]] == r


@pytest.mark.parametrize("name", ["a1", "c3", "d4", "g10", "h10", "l12", "h12"])
def test_other_squares_are_not_centers(name):
    """Border squares, and squares on the board edge, are not Centers."""
    assert not IS_CENTER[sq(name)]


def test_realms_are_named_by_their_center():
    """'A Realm is named by its Center ("the h11 Realm").'"""
    assert {realm_name(r) for r in REALMS} == CENTER_NAMES
    assert realm_name(0) == "b2"
    assert realm_name(15) == "k11"
    assert realm_name(REALM_OF[sq("i10")]) == "h11"


def test_border_squares_are_the_eight_others():
    """'The other 8 squares are its Border squares.'"""
    for r in REALMS:
        assert len(BORDER_SQUARES[r]) == 8
        assert CENTER[r] not in BORDER_SQUARES[r]
        assert set(BORDER_SQUARES[r]) | {CENTER[r]} == set(REALM_SQUARES[r])


def test_rows_and_columns_of_realms():
    """Realms form a 4 x 4 grid: the set-up restriction speaks of its rows and columns."""
    h11, k11, h2, b2 = (REALM_OF[sq(n)] for n in ("h11", "k11", "h2", "b2"))
    assert REALM_ROW[h11] == REALM_ROW[k11] == 3
    assert REALM_COLUMN[h11] == REALM_COLUMN[h2] == 2
    assert REALM_ROW[h11] != REALM_ROW[h2]
    assert REALM_COLUMN[h2] != REALM_COLUMN[b2]


@pytest.mark.parametrize(
    ("frm", "to", "direction"),
    [("e5", "e12", Direction.N), ("e5", "l5", Direction.E), ("e5", "e1", Direction.S),
     ("e5", "a5", Direction.W)],
)
def test_compass_directions(frm, to, direction):
    """'North is toward rank 12, South toward rank 1, East toward file l, West toward a.'"""
    assert direction_between(sq(frm), sq(to)) is direction
    assert RAYS[sq(frm)][direction][-1] == sq(to)
    assert direction.opposite.opposite is direction
    assert direction.opposite is not direction


@pytest.mark.parametrize(("frm", "to"), [("e5", "f6"), ("a1", "l12"), ("a1", "b3"), ("e5", "e5")])
def test_no_direction_off_the_straight_lines(frm, to):
    """Only N, E, S and W lines: diagonals and other offsets have no direction."""
    assert direction_between(sq(frm), sq(to)) is None
    assert path_between(sq(frm), sq(to)) is None


def test_path_lists_passed_squares_then_the_stop():
    """A move's path is every square it passes, then the square it stops on."""
    assert [square_name(s) for s in path_between(sq("a2"), sq("d2"))] == ["b2", "c2", "d2"]
    assert [square_name(s) for s in path_between(sq("h11"), sq("h8"))] == ["h10", "h9", "h8"]


def test_diagrams_put_rank_12_on_top_and_file_a_on_the_left():
    """The test diagrams read as the board does (a check on the shared helper)."""
    board = board_from("""
        b . N
        . . .
        P . u
    """, origin="g10")
    assert board[sq("g12")] == base(Side.BLACK)
    assert board[sq("i12")] == enforcer(Side.WHITE, Direction.N)
    assert board[sq("g10")] == power(Side.WHITE)
    assert board[sq("i10")] == enforcer(Side.BLACK, None)
    assert sum(p is not None for p in board) == 4
    assert render_board(board).splitlines()[0] == "12 . . . . . . b . N . . ."
    position = position_from("b . N\n. . .\nP . u", origin="g10", captured=(2, 0))
    assert position.bases_created == (0, 1 + 2)  # Black created the 2 White captured
    assert position.enforcers_created == (1, 1)
    with pytest.raises(ValueError):
        board_from("P P", origin="l1")  # the window would leave the board


def test_lines_hold_the_direction_and_the_squares_between_of_every_straight_line():
    """``LINES``: one entry for every two squares in a line, none for any other pair."""
    for frm in SQUARES:
        for to in SQUARES:
            line = LINES.get(frm * 144 + to)
            d = direction_between(frm, to)
            if d is None:
                assert line is None, (square_name(frm), square_name(to))
                continue
            path = path_between(frm, to)
            assert path is not None
            assert line == (d, path[:-1])
    assert LINES[sq("c4") * 144 + sq("c7")] == (Direction.N, (sq("c5"), sq("c6")))
    assert sq("c4") * 144 + sq("d5") not in LINES


def test_exits_run_to_the_first_square_outside_the_realm_which_is_never_a_center():
    """``EXITS``: what a piece passes before it can first stop in another Realm."""
    for s in SQUARES:
        for d in Direction:
            path = EXITS[s][d]
            ray = RAYS[s][d]
            assert path == ray[: len(path)]
            outside = [x for x in ray if REALM_OF[x] != REALM_OF[s]]
            if not outside:
                assert path == ()
                continue
            assert path[-1] == outside[0] and not IS_CENTER[path[-1]]
            assert all(REALM_OF[x] == REALM_OF[s] for x in path[:-1])
    assert EXITS[sq("b2")][Direction.N] == (sq("b3"), sq("b4"))
    assert EXITS[sq("a1")][Direction.W] == ()
