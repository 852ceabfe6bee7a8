"""Oriental Realm, rule by rule (numbered as on the project's rules page,
docs/games/oriental.md): a positive and a negative case each, as small diagrams."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.move_turns import GameEnded, Placement
from pbem.rules.oriental.pieces import MANDARIN
from pbem.rules.oriental.position import Phase, Position, initial_position
from pbem.rules.oriental.rules import OrientalRules
from pbem.rules.oriental.turns import (
    Move,
    Surrounded,
    apply_move,
    apply_pass,
    apply_placement,
    begin_turn,
    finish_turn,
    has_legal_turn,
)
from pbem.rules.oriental.warning import threatened_groups, warnings
from pbem.rules.pieces import Kind, Side
from tests.family_diagram import board_from, sq, sqs

W, B = Side.WHITE, Side.BLACK


def pos(diagram: str, to_move: Side = W, origin: str = "a1", **kw: object) -> Position:
    return Position(board=board_from(diagram, origin), to_move=to_move, **kw)  # type: ignore[arg-type]


def move(text: str) -> Move:
    """``"d4d6"`` -> Move."""
    cut = 2 if text[2].isalpha() else 3
    return Move(sq(text[:cut]), sq(text[cut:]))


def play(position: Position, *moves: str):
    state = begin_turn(position)
    events = []
    for m in moves:
        state, ev = apply_move(state, move(m))
        events.extend(ev)
    return state, events


def refused(position: Position, *moves: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(position, *moves)
    return info.value


# -- 1. a turn: one or more pieces out of one Realm, straight lines over empty squares ---------
OPEN = """
. . . . . .
. . . E . .
. . . E E .
. . . . . .
. . . . . .
. . e . . e
"""  # White Mandarins on d5, d4, e4: all three in the e5 Realm


def test_1_several_pieces_of_one_realm_move_in_order():
    state, events = play(pos(OPEN), "d4d1", "e4e6", "d5f5")
    after = finish_turn(state)
    assert events == [] and after.to_move is B
    assert all(after.board[sq(s)] == MANDARIN[W] for s in ("d1", "e6", "f5"))


def test_1_a_piece_may_cross_a_center_and_stop_on_one():
    assert finish_turn(play(pos(OPEN), "d5i5")[0]).board[sq("i5")] is not None
    assert finish_turn(play(pos(OPEN), "e4e5")[0]).board[sq("e5")] is not None


def test_1_pieces_from_another_realm_are_refused():
    board = """
    . . . E . .
    . . . . . .
    . . . . . .
    . . . E . .
    . . . . . .
    """
    err = refused(pos(board), "d2d3", "d5d6")
    assert err.code == "turn.one-realm"
    assert "did not stand in the e2 Realm" in err.message


def test_1_a_piece_moves_at_most_once():
    assert refused(pos(OPEN), "d4a4", "a4a1").code == "turn.moved-once"
    # a piece that arrives on a square of the Realm is not one that stood there
    assert refused(pos(OPEN), "d4d2", "d5d4", "d4f4").code == "turn.moved-once"


def test_1_lines_are_straight_and_never_pass_a_piece():
    assert refused(pos(OPEN), "d4e6").code == "move.line"
    assert refused(pos(OPEN), "d4d4").code == "move.line"
    err = refused(pos(OPEN), "d4d6")
    assert (err.code, err.message) == (
        "move.blocked", "the Mandarin cannot pass d5: a piece stands there"
    )
    assert refused(pos(OPEN), "d4e4").message == (
        "the Mandarin cannot stop on e4: a piece stands there"
    )


def test_1_a_turn_moves_at_least_one_piece():
    with pytest.raises(RuleError) as info:
        finish_turn(begin_turn(pos(OPEN)))
    assert info.value.code == "turn.empty"


# -- 2. pinning and the Emperor's release ----------------------------------------------------
PINNED = """
. . . e . .
. . e E e .
. . . . . .
. . . . . .
"""  # window a1: the White Mandarin on d3 stands between the Black c3 and e3


def test_2_a_pinned_mandarin_cannot_move():
    err = refused(pos(PINNED), "d3d1")
    assert err.code == "move.pinned"
    assert err.message == (
        "the Mandarin on d3 is pinned by e3 and c3, and your Emperor is not next to it"
    )


def test_2_pinned_north_and_south_too():
    board = """
    . . . e . .
    . . e E . .
    . . . e . .
    """  # window a4: d5 between d6 and d4
    assert "pinned by d6 and d4" in refused(pos(board, origin="a4"), "d5f5").message


def test_2_one_enemy_beside_or_two_at_a_corner_do_not_pin():
    board = """
    . . . e . .
    . . . E e .
    . . . . . .
    . . . . . .
    """
    assert finish_turn(play(pos(board), "d3d1")[0]).board[sq("d1")] is not None


def test_2_pinning_pieces_may_be_pinned_themselves():
    board = """
    . . . . . .
    . E e E e .
    . . . . . .
    """  # window a2: White c3? no: b3 E, c3 e, d3 E, e3 e: d3 pinned by c3 and e3 (c3 pinned)
    assert refused(pos(board, origin="a2"), "d3d1").code == "move.pinned"


def test_2_the_emperor_beside_releases_a_pinned_mandarin():
    board = """
    . . . . . .
    . . e E e .
    . . . P . .
    . . . . . .
    """
    assert finish_turn(play(pos(board), "d3d6")[0]).board[sq("d6")] is not None


def test_2_the_emperor_is_never_pinned():
    board = """
    . . . e . .
    . . e P e .
    . . . . . .
    . . . . . .
    """
    assert finish_turn(play(pos(board), "d3d1")[0]).board[sq("d1")] is not None


def test_2_pins_are_judged_when_each_move_begins():
    before = """
    . . . . . .
    . . e E e .
    . . . . . P
    . . . . . .
    """  # f2 Emperor and d3 Mandarin both stand in the e2 Realm
    state, _ = play(pos(before), "f2d2", "d3d6")  # the Emperor comes first: released
    assert finish_turn(state).board[sq("d6")] is not None
    beside = """
    . . . . . .
    . . e E e .
    . . . P . .
    . . . . . .
    """
    assert refused(pos(beside), "d2f2", "d3d6").code == "move.pinned"  # it left first


# -- 3 and 4. surrounding, and the win the moment it happens ---------------------------------------
def test_3_4_a_single_piece_surrounded_in_the_open():
    board = """
    . . . E . .
    . . E e E .
    . . . . . .
    . . . E . .
    . . . . . .
    """  # window a1, rank 5 on top: Black d4; White d5 c4 e4, and d2 comes to d3
    state, events = play(pos(board), "d2d3")
    assert events == [Surrounded(W, (sq("d4"),)), GameEnded("surrounded", "1-0")]
    after = finish_turn(state)
    assert (after.phase, after.result, after.surrounded) == (Phase.OVER, "1-0", (sq("d4"),))


def test_3_4_the_board_edge_counts():
    corner = """
    E . .
    e . E
    """  # window a1: Black a1 in the corner; White a2; c1 -> b1 closes it
    assert play(pos(corner), "c1b1")[1][0] == Surrounded(W, (sq("a1"),))


def test_3_4_a_connected_group_is_surrounded():
    board = """
    . E E . .
    E e e E .
    . E . . .
    . . E . .
    """  # Black b3 c3 (one group); c1 -> c2 takes its last empty neighbour
    assert play(pos(board), "c1c2")[1][0] == Surrounded(W, sqs("b3 c3"))


def test_3_4_one_empty_neighbour_is_enough_to_live():
    board = """
    . E E . .
    E e e . .
    . E . . .
    . . E . .
    """  # d3 is empty: c1 -> c2 surrounds nothing
    state, events = play(pos(board), "c1c2")
    assert events == [] and finish_turn(state).phase is Phase.PLAY


def test_4_the_rest_of_the_turn_is_not_played():
    board = """
    . . . E . .
    . . E e E .
    . . . . . .
    . . . E E .
    """  # d1 and e1 both stand in the e2 Realm; d1 -> d2 wins
    state, events = play(pos(board), "d1d2")
    assert isinstance(events[-1], GameEnded)
    with pytest.raises(RuleError) as info:
        apply_move(state, move("e1e2"))
    assert info.value.code == "turn.game-over"


# -- 5. the pass and the draw ----------------------------------------------------------------------
def test_5_a_side_with_no_legal_turn_passes_and_the_other_moves_on():
    blocked = """
    e E .
    E . .
    """  # window a11: the Black a12 Mandarin has no empty square beside it
    position = pos(blocked, to_move=B, origin="a11")
    assert not has_legal_turn(position, B)
    after, _ = apply_pass(position)
    assert after.to_move is W and after.phase is Phase.PLAY


def test_5_a_side_that_can_move_may_not_pass():
    with pytest.raises(RuleError) as info:
        apply_pass(pos(OPEN))
    assert info.value.code == "turn.pass"


def _ring() -> Position:
    """Pieces of alternating colours all round the edge: every one is pinned or boxed in."""
    edge = [sq(f + "1") for f in "abcdefghijkl"] + [sq("l" + str(r)) for r in range(2, 13)]
    edge += [sq(f + "12") for f in "kjihgfedcba"] + [sq("a" + str(r)) for r in range(11, 1, -1)]
    board = [None] * 144
    for i, s in enumerate(edge):
        board[s] = MANDARIN[i % 2]
    return Position(board=tuple(board), to_move=B)


def test_5_neither_side_can_move_is_a_draw():
    position = _ring()
    assert not has_legal_turn(position, W) and not has_legal_turn(position, B)
    after, _ = apply_pass(position)
    assert (after.phase, after.result, after.end) == (Phase.OVER, "1/2-1/2", "no-legal-turn")


# -- 6. the warning option -------------------------------------------------------------------------
ONE_MOVE = """
. . . E . .
. . E e . .
. . . E . .
. . . . . .
. . . . E .
"""  # Black d4 has one empty neighbour, e4; White e1 -> e4 would close it


def test_6_a_group_that_one_turn_would_surround_is_named():
    position = pos(ONE_MOVE, to_move=B, ruleset=OrientalRules(warning=True))
    assert threatened_groups(position, B) == [(sq("d4"),)]
    assert warnings(position) == [(sq("d4"),)]


def test_6_a_threat_built_by_two_moves_from_one_realm():
    board = """
    . . . . . .
    . . . . . E
    . . E e . E
    . . . E . .
    . . . . . .
    """  # window a2: Black d4 needs d5 and e4; White f5, f4 (e5 Realm): f4e4 then f5d5
    assert threatened_groups(pos(board, to_move=B, origin="a2"), B) == [(sq("d4"),)]


def test_6_pieces_of_two_realms_are_no_threat():
    board = """
    . . . . . . .
    . . . . . . E
    . . E e . E .
    . . . E . . .
    . . . . . . .
    """  # the same, but g5 stands in the h5 Realm: one turn cannot bring both
    assert threatened_groups(pos(board, to_move=B, origin="a2"), B) == []


def test_6_no_warning_without_the_option_or_without_a_threat():
    assert warnings(pos(ONE_MOVE, to_move=B)) == []
    assert warnings(pos(OPEN, to_move=B, ruleset=OrientalRules(warning=True))) == []


# -- 7. set-up by placement ------------------------------------------------------------------------
def test_7_placement_one_piece_per_realm_any_square_then_white_moves():
    position = initial_position(OrientalRules(setup="placement"))
    assert position.phase is Phase.SETUP
    squares = ["a1", "d1", "g1", "j1", "a4", "d4", "g4", "j4",
               "a7", "d7", "g7", "j7", "a10", "d10", "g10", "j10"]
    for i, name in enumerate(squares):
        kind = Kind.POWER if i in (4, 5) else Kind.ENFORCER
        position, _ = apply_placement(position, Placement(kind, sq(name)))
    assert position.phase is Phase.PLAY and position.to_move is W and position.ply == 16


def test_7_placement_refuses_a_realm_that_holds_a_piece():
    position = initial_position(OrientalRules(setup="placement"))
    position, _ = apply_placement(position, Placement(Kind.ENFORCER, sq("a1")))
    with pytest.raises(RuleError) as info:
        apply_placement(position, Placement(Kind.ENFORCER, sq("c3")))
    assert info.value.code == "setup.realm-taken"
    assert "the b2 Realm already holds a piece (on a1)" in info.value.message


def test_7_placement_one_emperor_and_seven_mandarins():
    position = initial_position(OrientalRules(setup="placement"))
    position, _ = apply_placement(position, Placement(Kind.POWER, sq("a1")))
    position, _ = apply_placement(position, Placement(Kind.ENFORCER, sq("d1")))
    with pytest.raises(RuleError) as info:
        apply_placement(position, Placement(Kind.POWER, sq("g1")))
    assert "placed his Emperor already" in info.value.message


def test_standard_setup_is_the_reconstructed_opening():
    position = initial_position()
    assert position.phase is Phase.PLAY
    assert position.board[sq("e2")].kind is Kind.POWER  # type: ignore[union-attr]
    assert position.board[sq("e11")].kind is Kind.POWER  # type: ignore[union-attr]
    assert sum(p is not None for p in position.board) == 16
