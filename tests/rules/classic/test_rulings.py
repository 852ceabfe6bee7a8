"""Classic Realm, ruling by ruling: a positive and a negative case each, as diagrams.

Windows: ``origin="a4"`` puts the bottom-left token on a4, so a 6-wide, 6-high window
shows the b5, e5, b8 and e8 Realms (Centers b5 e5 b8 e8). A far Black piece on k11
keeps Black in the game where a test does not want a win.
"""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.classic.actions import Dislodged, GameEnded, Placement, Refilled
from pbem.rules.classic.legal import legal_moves, legal_moves_from
from pbem.rules.classic.position import Phase, initial_position
from pbem.rules.classic.ruleset import CLASSIC_RULES
from pbem.rules.classic.turns import (
    apply_move,
    apply_pass,
    apply_placement,
    begin_turn,
    finish_turn,
)
from pbem.rules.geometry import CENTER, SQUARE_NAMES, parse_square
from pbem.rules.pieces import Kind, Side
from tests.center_diagram import (
    B,
    W,
    assert_board,
    mv,
    play,
    position_from,
    sq,
    with_pieces,
)


def _all_squares() -> list[str]:
    return list(SQUARE_NAMES)


def with_far_black(diagram: str, origin: str = "a4", **kw: object):
    """The diagram's window (origin a4) plus a Black Enforcer on k11."""
    return with_pieces(position_from(diagram, origin=origin, **kw), k11="e")


def refused(position, *moves, code: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(position, *moves)
    assert info.value.code == code, info.value.message
    return info.value


# -- 1. Move: only from a Center, to an adjacent Center, jumping the Border ------------------
ONE = """
. . . . . .   # 9
. . . . . .   # 8
. . . . . .   # 7
. E . . . .   # 6: a White piece on the Border square b6
E E E . E .   # 5: b5 and e5 Centers held; a5, c5 Border pieces
. . . . . .   # 4
"""


def test_1_a_piece_jumps_the_border_to_an_adjacent_center():
    pos = with_far_black(ONE)
    after, events = play(pos, mv("b5b8", refill="a5"))
    assert after.board[sq("b8")] is not None and after.to_move is B
    assert events == [Refilled(W, after.board[sq("b8")].kind, sq("a5"), sq("b5"), True)]


def test_1_a_border_piece_never_moves_and_a_move_goes_to_an_adjacent_center():
    pos = with_far_black(ONE)
    err = refused(pos, mv("b6b8"), code="move.from-border")
    assert "only a piece on a Center moves: b6 is a Border square" in err.message
    err = refused(pos, mv("b5b11", refill="a5"), code="move.adjacent")
    assert "from b5 the adjacent Centers are b8, e5, b2" in err.message
    refused(pos, mv("e5e8"), mv("e8h8"), code="turn.one-move")


# -- 2. Continuing through friendly Centers -------------------------------------------------
TWO = """
. . . . . .   # 9
. E . . E .   # 8: b8 and e8 friendly
. . . . . .   # 7
. . . . . .   # 6
. E . . . .   # 5: the mover on b5
. . . . . .   # 4
"""


def test_2_a_move_landing_on_a_friend_goes_on_and_may_turn():
    pos = with_far_black(TWO)
    after, _ = play(pos, mv("b5b8b11"))
    assert after.board[sq("b11")] is not None and after.board[sq("b5")] is None
    after, _ = play(pos, mv("b5b8e8h8"))  # turns East at b8
    assert after.board[sq("h8")] is not None
    paths = {m.path for m in legal_moves_from(pos, sq("b5"))}
    assert tuple(map(parse_square, ("b5", "b8", "e8", "e5"))) in paths


def test_2_no_stop_on_a_friend_no_return_no_second_landing_no_going_past_a_stop():
    pos = with_far_black(TWO)
    err = refused(pos, mv("b5b8"), code="move.go-on")
    assert "b8 holds a friendly piece" in err.message and "b11" in err.message
    refused(pos, mv("b5b8b5"), code="move.return")
    refused(pos, mv("b5e5e8"), code="move.stop")  # e5 is vacant: the move ends there
    ring = with_far_black("""
    . . . . . . . . .   # 8
    . E . . E . . . .   # 8
    . . . . . . . . .   # 7
    . . . . . . . . .   # 6
    . E . . E . . E .   # 5: h5 moves round the ring e5 e8 b8 b5 and back to e5
    . . . . . . . . .   # 4
    """)
    err = refused(ring, mv("h5e5e8b8b5e5"), code="move.twice")
    assert err.message == "a move never lands twice on the same Center: e5"


# -- 3. Dislodging ---------------------------------------------------------------------------
THREE = """
. . . . . .   # 9
. e . . . .   # 8: a Black piece on the Center b8
e . e . . .   # 7: Black Border pieces a7 c7
. . . . . .   # 6
. E . . . .   # 5
. . . . . .   # 4
"""


def test_3_the_enemy_is_dunked_onto_the_border_square_the_mover_chooses():
    pos = with_far_black(THREE)
    after, events = play(pos, mv("b5b8", dislodge="b7"))
    assert_board(with_pieces(after, k11="."), """
    . . . . . .   # 9
    . E . . . .   # 8: the mover took b8
    e e e . . .   # 7: a7, c7 and the dunked piece on b7
    . . . . . .
    . . . . . .   # 5: left
    . . . . . .
    """, origin="a4")
    assert isinstance(events[0], Dislodged) and events[0].to == sq("b7")


def test_3_dislodging_needs_a_vacant_border_square_named_when_there_is_a_choice():
    pos = with_far_black(THREE)
    err = refused(pos, mv("b5b8", dislodge="a7"), code="dislodge.square")
    assert "a7 is not a vacant Border square of the b8 Realm" in err.message
    err = refused(pos, mv("b5b8"), code="dislodge.choose")
    assert err.message.endswith(
        "one of b7, a8, c8, a9, b9, c9: write (xEb7), (xEa8), (xEc8), (xEa9), (xEb9) or (xEc9)"
    )
    refused(pos, mv("b5e5", dislodge="d4"), code="dislodge.none")


def test_3_a_forced_dislodging_may_be_left_out_and_comes_back_filled_in():
    pos = with_far_black("""
    e e e . . .
    e e . . . .
    e e e . . .
    . . . . . .
    . E . . . .
    . . . . . .
    """)
    state, _, done = apply_move(begin_turn(pos), mv("b5b8"))
    assert done.dislodge == sq("c8")
    assert state.position.board[sq("c8")].side is B


# -- 4 and 10. Full Realms ---------------------------------------------------------------------
FULL = """
e e e . . .   # 9
e e e . E .   # 8: the b8 Realm is full (nine Black pieces); e8 is friendly
e e e . . .   # 7
. . . . . .   # 6
. E . . E .   # 5
. . . . . .   # 4
"""


def test_4_the_center_piece_of_a_full_realm_may_move_out():
    pos = with_far_black(FULL, to_move=B)
    after, _ = play(pos, mv("b8b5", refill="a7", dislodge="a4"))
    assert after.board[sq("b5")].side is B and after.board[sq("b8")].side is B


def test_4_a_full_realm_cannot_be_landed_on():
    pos = with_far_black(FULL)
    err = refused(pos, mv("b5b8"), code="move.full-realm")
    assert err.message == "b8 cannot be entered: its Realm is full (nine pieces)"


def test_10_a_continuing_move_may_not_land_on_a_full_realm_even_a_friendly_one():
    eight = with_far_black("""
    . E E . . .   # 9
    E E E . E .   # 8: White holds b8 (eight pieces in its Realm) and e8
    E E e . . .   # 7
    """, origin="a7")
    # not full: e8 may go on over the friend on b8, to b5
    after, _ = play(eight, mv("e8b8b5"))
    assert after.board[sq("b5")].side is W
    full = with_pieces(eight, a9="E")  # the ninth piece
    assert not any(m.path[:2] == (sq("e8"), sq("b8")) for m in legal_moves(full))
    err = refused(full, mv("e8b8b5"), code="move.full-realm")
    assert err.message == "b8 cannot be entered: its Realm is full (nine pieces)"


# -- 5. Rescue ---------------------------------------------------------------------------------
RESCUE = """
. . . . . .   # 9
. . . . . .   # 8
. . e . . .   # 7
. . E . . .   # 6: White Border pieces c6 and a4, a Black one c4
. E . . . .   # 5
E . e . . .   # 4
"""


def test_5_leaving_a_center_rescues_one_of_the_owners_border_pieces_the_mover_chooses():
    pos = with_far_black(RESCUE)
    after, events = play(pos, mv("b5e5", refill="c6"))
    assert after.board[sq("b5")].side is W and after.board[sq("c6")] is None
    assert after.board[sq("a4")].side is W  # the other stays in the water
    assert events[0] == Refilled(W, events[0].kind, sq("c6"), sq("b5"), True)


def test_5_the_rescue_is_compulsory_names_the_candidates_and_rescues_only_own_pieces():
    pos = with_far_black(RESCUE)
    err = refused(pos, mv("b5e5"), code="rescue.choose")
    assert err.message == (
        "the piece leaving b5 must rescue one of a4, c6: write (+Ea4) or (+Ec6)"
    )
    assert err.options == ("(+Ea4)", "(+Ec6)")
    refused(pos, mv("b5e5", refill="c4"), code="rescue.square")
    lone = with_far_black("""
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . E . . . .
    . . . . . .
    """)
    err = refused(lone, mv("b5e5", refill="a4"), code="rescue.none")
    assert "has none of its own pieces on its Border squares" in err.message


def test_5_a_single_rescue_may_be_left_out_and_is_filled_in():
    pos = with_far_black("""
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . E . . . .
    E . e . . .
    """)
    state, _, done = apply_move(begin_turn(pos), mv("b5e5"))
    assert done.refill == sq("a4") and state.position.board[sq("b5")].side is W


# -- 6. A move must be completable -----------------------------------------------------------------
def test_6_a_path_through_a_friend_with_no_way_on_is_not_a_move():
    pos = with_far_black("""
    e e e . . .   # 9: the b8 Realm full
    e e e . . .   # 8
    e e e . . .   # 7
    . . . e e e   # 6: the e5 Realm full
    . E . e e e   # 5: White on b5: its ways on (b8, e5) are both full
    . . . e e e   # 4
    . . . . . .   # 3
    . E . . . .   # 2: the mover on b2
    . . . . . .   # 1
    """, origin="a1")
    assert not any(m.frm == sq("b2") and len(m.path) > 2 and m.path[1] == sq("b5")
                   for m in legal_moves(pos))
    err = refused(pos, mv("b2b5"), code="move.go-on")
    assert "no way on from b5, and a move must be completable" in err.message
    # and positively: b2 still moves East
    after, _ = play(pos, mv("b2e2"))
    assert after.board[sq("e2")] is not None


# -- 7. Winning, passing, drawing -----------------------------------------------------------------
def test_7_dunking_the_last_enemy_piece_on_a_center_wins_at_once():
    pos = position_from("""
    . . . . . .
    . e . . . .
    . . e . . .
    . . . . . .
    . E . . . .
    . . . . . .
    """, origin="a4")
    after, events = play(pos, mv("b5b8", dislodge="a7"))
    assert after.phase is Phase.OVER and after.result == "1-0" and after.end == "dunked"
    assert events[-1] == GameEnded("dunked", "1-0")


def test_7_the_game_goes_on_while_an_enemy_piece_holds_a_center():
    after, _ = play(with_far_black(THREE), mv("b5b8", dislodge="b7"))
    assert after.phase is Phase.PLAY and after.result is None


def test_7_a_side_with_no_legal_move_passes_and_may_pass_only_then():
    # White's only Center piece sits on b2 with b5 and e2 Realms full of Black
    pos = with_far_black("""
    e e e . . .   # 6
    e e e . . .   # 5
    e e e . . .   # 4
    . . . e e e   # 3
    . E . e e e   # 2
    . . . e e e   # 1
    """, origin="a1", to_move=W)
    assert legal_moves(pos) == []
    after, _ = apply_pass(pos)
    assert after.to_move is B and after.phase is Phase.PLAY
    with pytest.raises(RuleError) as info:
        apply_pass(after)
    assert info.value.code == "turn.pass"


def test_7_the_game_is_drawn_when_neither_side_can_move():
    pos = position_from("""
    e e e . . .   # 6
    e e e . . .
    e e e . . .
    . . . e e e   # 3
    . E . e e e   # 2: White stuck on b2
    . . . e e e   # 1
    """, origin="a1", to_move=W)
    # Black's Center pieces b5 and e2 can move to b8, e5, h2: not a draw
    after, _ = apply_pass(pos)
    assert after.phase is Phase.PLAY
    # every Realm full (Black everywhere but White's b2): nobody can move
    stuck = with_pieces(pos, **{n: "e" for n in _all_squares() if n != "b2"})
    after, events = apply_pass(stuck)
    assert after.phase is Phase.OVER and after.result == "1/2-1/2" and after.end == "no-move"
    assert events == [GameEnded("no-move", "1/2-1/2")]


# -- 8. setup: placement ------------------------------------------------------------------------
def test_8_placement_fills_the_sixteen_centers_and_black_moves_first():

    pos = initial_position(CLASSIC_RULES.with_options({"setup": "placement"}))
    assert pos.phase is Phase.SETUP and pos.to_move is W and pos.turn_label() == "1w"
    for c in CENTER:
        pos, _ = apply_placement(pos, Placement(Kind.ENFORCER, c))
    assert pos.phase is Phase.PLAY and pos.to_move is B
    assert pos.turn_label() == "9b"
    move = legal_moves(pos)[0]
    after, _ = play(pos, move)
    assert after.turn_label() == "10w"


def test_8_placement_only_on_vacant_centers_and_no_move_before_it_ends():

    pos = initial_position(CLASSIC_RULES.with_options({"setup": "placement"}))
    with pytest.raises(RuleError) as info:
        apply_placement(pos, Placement(Kind.ENFORCER, sq("a1")))
    assert info.value.code == "setup.square" and "a1 is a Border square" in info.value.message
    pos, _ = apply_placement(pos, Placement(Kind.ENFORCER, sq("b2")))
    with pytest.raises(RuleError) as info:
        apply_placement(pos, Placement(Kind.ENFORCER, sq("b2")))
    assert "b2 already holds a piece" in info.value.message
    with pytest.raises(RuleError) as info:
        begin_turn(pos)
    assert info.value.code == "turn.setup"


# -- 9. double_moves ----------------------------------------------------------------------------
DOUBLE = CLASSIC_RULES.with_options({"double_moves": True})


def _regular(pos):
    return play(pos, legal_moves(pos)[0])[0]


def test_9_black_may_double_on_his_third_turn_then_white_after_two_more_of_his_own():

    pos = initial_position(DOUBLE)
    for _ in range(4):  # W, B, W, B
        pos = _regular(pos)
    pos = _regular(pos)  # White's third
    assert pos.to_move is B and pos.double == (B, 2)
    state, _, _ = apply_move(begin_turn(pos), legal_moves(pos)[0])
    state, _, _ = apply_move(state, legal_moves(state.position)[0])
    pos, _ = finish_turn(state)
    assert pos.double == (W, 0)
    pos = _regular(_regular(pos))  # W, B
    pos = _regular(_regular(pos))  # W, B: White has had two regular turns since
    state, _, _ = apply_move(begin_turn(pos), legal_moves(pos)[0])
    state, _, _ = apply_move(state, legal_moves(state.position)[0])
    assert finish_turn(state)[0].double == (B, 0)


def test_9_no_double_move_too_early_out_of_turn_or_without_the_option():

    pos = initial_position(DOUBLE)
    pos = _regular(_regular(_regular(pos)))  # W, B, W: Black's second turn next
    state, _, _ = apply_move(begin_turn(pos), legal_moves(pos)[0])
    with pytest.raises(RuleError) as info:
        apply_move(state, legal_moves(state.position)[0])
    assert info.value.code == "double.not-yet" and "1 more regular turn" in info.value.message
    pos = _regular(pos)  # Black's second
    state, _, _ = apply_move(begin_turn(pos), legal_moves(pos)[0])  # White: not his
    with pytest.raises(RuleError) as info:
        apply_move(state, legal_moves(state.position)[0])
    assert info.value.code == "double.alternate"
    plain = initial_position(CLASSIC_RULES)
    state, _, _ = apply_move(begin_turn(plain), legal_moves(plain)[0])
    with pytest.raises(RuleError) as info:
        apply_move(state, legal_moves(state.position)[0])
    assert info.value.code == "turn.one-move"


def test_9_a_pass_is_a_regular_turn_and_a_win_on_the_first_move_ends_the_game():
    pos = position_from("""
    . . . . . .
    . e . . . .
    . . e . . .
    . . . . . .
    . E . . E .
    . . . . . .
    """, origin="a4", ruleset=DOUBLE, double=(W, 2))
    state, _, _ = apply_move(begin_turn(pos), mv("b5b8", dislodge="a7"))
    assert state.over
    with pytest.raises(RuleError) as info:
        apply_move(state, mv("e5e8"))
    assert info.value.code == "turn.game-over"
    stuck = position_from("""
    e e e . . .
    e e e . . .
    e e e . . .
    . . . e e e
    . E . e e e
    . . . e e e
    """, origin="a1", ruleset=DOUBLE, double=(W, 1))
    stuck = with_pieces(stuck, k11="e")
    after, _ = apply_pass(stuck)
    assert after.double == (W, 2)


def test_the_standard_setup_is_eight_a_side_on_the_centers_of_their_own_half():

    pos = initial_position(CLASSIC_RULES)
    white = {n for n in ("b2", "e2", "h2", "k2", "b5", "e5", "h5", "k5")}
    black = {n for n in ("b8", "e8", "h8", "k8", "b11", "e11", "h11", "k11")}
    for name in white:
        assert pos.board[sq(name)].side is Side.WHITE
    for name in black:
        assert pos.board[sq(name)].side is Side.BLACK
    assert sum(p is not None for p in pos.board) == 16
