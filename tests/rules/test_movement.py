"""Moving a piece: straight lines, empty paths, Centers, Realms, Enforcer facings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.errors import RuleError
from pbem.rules.geometry import DIRECTIONS, RAYS, SQUARES, Direction, square_name
from pbem.rules.pieces import ALL_PIECES, Side, enforcer, power
from pbem.rules.realm.actions import BaseCreated
from pbem.rules.realm.movement import check_path, stops
from pbem.rules.realm.position import EMPTY_BOARD, Phase, Position
from tests.diagram import assert_board, mv, play, position_from, render, sq

W, B = Side.WHITE, Side.BLACK


def refused(position: Position, frm: str, to: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(position, mv(frm, to))
    return info.value


# the e5 Realm (d4-f6) and its neighbours, in a 9 x 9 window from a1
LONE_POWER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . P . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize(
    ("to", "realm"), [("f9", "e8"), ("i6", "h5"), ("f1", "e2"), ("a6", "b5"), ("f7", "e8")]
)
def test_power_moves_in_a_straight_line_north_east_south_or_west(to, realm):
    """'A Power moves in a straight line N, E, S or W, one or more squares.'"""
    state, events = play(position_from(LONE_POWER), mv("f6", to))
    after = state.position
    assert after.board[sq(to)] == power(W), render(after)
    assert after.board[sq("f6")] is None
    assert events == [BaseCreated(W, sq(realm))]


@pytest.mark.parametrize("to", ["g7", "d8", "i9", "a1"])
def test_power_does_not_move_off_the_straight_lines(to):
    """'in a straight line N, E, S or W': no diagonal or crooked moves."""
    exc = refused(position_from(LONE_POWER), "f6", to)
    assert exc.code == "move.straight-line"
    assert "straight line" in exc.message


def test_path_must_be_empty():
    """'Every square it passes ... must be empty': a Power cannot jump the a3 Power."""
    position = position_from("""
        . . .
        . . .
        . . .
        p . .
        . . .
        P . .
    """)
    exc = refused(position, "a1", "a5")
    assert exc.code == "move.blocked"
    assert "cannot pass a3" in exc.message
    assert "Black Power there blocks the way" in exc.message


@pytest.mark.parametrize("token", ["U", "u"])
def test_immobilised_enforcers_block_movement(token):
    """'Immobilised Enforcers stay where they are and block movement.'"""
    position = position_from(f"""
        . . . . . .
        P . {token} . . .
        . . . . . .
    """)
    exc = refused(position, "a2", "d2")
    assert exc.code == "move.blocked"
    assert "immobilised Enforcer there blocks the way" in exc.message


def test_stop_square_must_be_empty():
    """'... and the square it stops on must be empty'."""
    position = position_from("""
        . . .
        p . .
        . . .
        . . .
        P . .
    """)
    exc = refused(position, "a1", "a4")
    assert exc.code == "move.occupied"
    assert "cannot stop on a4" in exc.message
    state, _ = play(position, mv("a1", "d1"))
    assert_board(state.position, """
        . . . . . .
        p . . . . .
        . . . . . .
        . . . . B .
        . . . P . .
    """)


def test_may_pass_over_a_vacant_center():
    """'it may pass over a vacant Center': a2 to d2 crosses the empty b2."""
    position = position_from("""
        . . . . . .
        P . . . . .
        . . . . . .
    """)
    state, events = play(position, mv("a2", "d2"))
    assert_board(state.position, """
        . . . . . .
        . . . P B .
        . . . . . .
    """)
    assert events == [BaseCreated(W, sq("e2"))]


def test_may_not_pass_over_an_occupied_center():
    """A Base on the b2 Center blocks the way like any piece."""
    position = position_from("""
        . . . . . .
        P b . . . .
        . . . . . .
    """)
    exc = refused(position, "a2", "d2")
    assert exc.code == "move.blocked"
    assert "cannot pass b2" in exc.message


@pytest.mark.parametrize("to", ["e2", "b2"])
def test_may_not_stop_on_any_center(to):
    """'... but may not stop on any Center' (even a vacant one)."""
    position = position_from("""
        . . . . . .
        P . . . . .
        . . . . . .
    """)
    exc = refused(position, "a2", to)
    assert exc.code == "move.center"
    assert "no piece may stop on a Center" in exc.message


@pytest.mark.parametrize("to", ["a3", "a2", "c1"])
def test_must_stop_in_a_different_realm(to):
    """'It must stop in a different Realm from the one it started in.'"""
    exc = refused(position_from("P . . . . ."), "a1", to)
    assert exc.code == "move.same-realm"
    assert "different Realm" in exc.message
    assert "b2 Realm" in exc.message


def test_leaving_the_realm_by_one_square_is_enough():
    """'a different Realm': the first square over the edge will do."""
    state, _ = play(position_from("P . . . . ."), mv("a1", "a4"))
    assert state.position.board[sq("a4")] == power(W)
    state, _ = play(position_from(". . P . . ."), mv("c1", "d1"))
    assert state.position.board[sq("d1")] == power(W)


# -- Enforcers ---------------------------------------------------------------------
TARGET = {Direction.N: "f9", Direction.E: "i6", Direction.S: "f1", Direction.W: "a6"}


@pytest.mark.parametrize("facing", DIRECTIONS)
@pytest.mark.parametrize("way", DIRECTIONS)
def test_enforcer_moves_forward_or_a_quarter_turn_never_backwards(facing, way):
    """'An Enforcer moves like a Power, in the direction it points or a quarter-turn from
    it (never the opposite way), and afterwards points the way it moved.'"""
    board = list(EMPTY_BOARD)
    board[sq("f6")] = enforcer(W, facing)
    position = Position(board=tuple(board), phase=Phase.PLAY)
    to = TARGET[way]
    if way is facing.opposite:
        exc = refused(position, "f6", to)
        assert exc.code == "move.enforcer-backwards"
        assert "never moves opposite to its point" in exc.message
    else:
        state, events = play(position, mv("f6", to))
        assert state.position.board[sq(to)] == enforcer(W, way), render(state.position)
        assert state.position.board[sq("f6")] is None
        assert events == []  # an Enforcer creates nothing


def test_black_enforcer_turns_to_the_way_it_moved():
    """A Black Enforcer pointing South turns West by moving West, and cannot go North."""
    position = position_from("""
        . . . . s .
        . . . . . .
        . . . . . .
    """, origin="d7", to_move=B)
    state, _ = play(position, mv("h9", "a9"))
    assert state.position.board[sq("a9")] == enforcer(B, Direction.W)
    assert refused(position, "h9", "h12").code == "move.enforcer-backwards"


def test_immobilised_enforcer_cannot_move():
    """'An immobilised Enforcer cannot move.'"""
    exc = refused(position_from(LONE_POWER.replace("P", "U")), "f6", "f9")
    assert exc.code == "move.immobilised"
    assert "immobilised and cannot move" in exc.message


def test_bases_never_move():
    """'Bases never move.'"""
    position = position_from(". . .\n. B .\n. . .")
    exc = refused(position, "b2", "b5")
    assert exc.code == "move.base"
    assert "Bases never move" in exc.message


@pytest.mark.parametrize("token", ["p", "n", "s"])
def test_cannot_move_the_opponents_piece(token):
    """A player moves only his own pieces."""
    exc = refused(position_from(LONE_POWER.replace("P", token)), "f6", "f9")
    assert exc.code == "move.not-own"
    assert "it is White's turn" in exc.message


def test_black_moves_its_own_piece_on_its_turn():
    """On Black's turn Black's pieces move."""
    state, _ = play(position_from(LONE_POWER.replace("P", "p"), to_move=B), mv("f6", "f9"))
    assert state.position.board[sq("f9")] == power(B)


def test_nothing_to_move_on_an_empty_square():
    """A move starts from a square holding a piece."""
    exc = refused(position_from(LONE_POWER), "f7", "f9")
    assert exc.code == "move.no-piece"


# -- the move generator agrees with the checks ----------------------------------------
boards = st.dictionaries(
    st.sampled_from(list(SQUARES)), st.sampled_from(ALL_PIECES), min_size=1, max_size=40
)


@settings(max_examples=80, derandomize=True, deadline=None)
@given(boards, st.data())
def test_stops_are_exactly_the_moves_check_path_allows(pieces, data):
    """``stops`` (used to look for legal turns) lists every legal stop and no other."""
    board = list(EMPTY_BOARD)
    for s, p in pieces.items():
        board[s] = p
    board = tuple(board)
    frm = data.draw(st.sampled_from(sorted(pieces)))
    piece = board[frm]
    if not piece.mobile:
        return
    legal = set()
    for d in DIRECTIONS:
        for to in RAYS[frm][d]:
            try:
                check_path(board, piece, frm, to)
            except RuleError:
                continue
            legal.add(to)
    assert set(stops(board, piece, frm)) == legal, (square_name(frm), piece)
