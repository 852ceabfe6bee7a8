"""Medieval Realm, ruling by ruling: a positive and a negative case each, as diagrams.

Tokens: ``E e`` are Men, ``P p`` Dukes (White, Black). White moves North.
"""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.classic.actions import GameEnded, MovedOff, Placement, Refilled
from pbem.rules.classic.legal import legal_moves, legal_moves_from
from pbem.rules.classic.position import Phase, initial_position
from pbem.rules.classic.ruleset import CLASSIC_RULES
from pbem.rules.classic.turns import apply_move, apply_pass, apply_placement, begin_turn
from pbem.rules.medieval.variant import MEDIEVAL_RULES
from pbem.rules.pieces import Kind
from tests.center_diagram import B, W, mv, play, position_from, sq, with_pieces


def medieval(diagram: str, origin: str = "a4", **kw: object):
    """A Medieval position from the diagram, with a far White and Black Man each
    (k2 and k11, which nothing here disturbs)."""
    pos = position_from(diagram, origin=origin, ruleset=MEDIEVAL_RULES, **kw)
    return with_pieces(pos, k2="E", k11="e")


def refused(position, *moves, code: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(position, *moves)
    assert info.value.code == code, info.value.message
    return info.value


# -- 1. Dukes step any way; Men only forward or sideways -----------------------------------
def test_1_a_man_steps_forward_or_sideways_a_duke_any_way():
    pos = medieval("""
    . . . . . .   # 6
    . E . . P .   # 5: a White Man on b5, a White Duke on e5
    . . . . . .   # 4
    """)
    ends = {m.path[-1] for m in legal_moves_from(pos, sq("b5"))}
    # forward to b8; sideways onto the friendly Duke on e5 and on from it, forward or
    # sideways: never back to b2 or e2
    assert ends == {sq("b8"), sq("e8"), sq("h5")}
    duke = {m.path[-1] for m in legal_moves_from(pos, sq("e5"))}
    assert duke == {sq("e8"), sq("h5"), sq("e2"), sq("b8"), sq("b2")}


def test_1_a_man_never_steps_back_not_even_in_a_continuing_move():
    pos = medieval("""
    . . . . . .   # 6
    . e . . . .   # 5: a Black Man on b5 (Black moves South)
    . . . . . .   # 4
    """, to_move=B)
    err = refused(pos, mv("b5b8"), code="move.direction")
    assert err.message == "a Man moves only forward or sideways: b8 is behind b5"
    pos = medieval("""
    . . . . . .   # 9
    . E . . . .   # 8: a White Man on b8
    . . . . . .
    . . . . . .
    . E . . E .   # 5: White Men on b5 and e5
    . . . . . .
    """)
    # e5 -> b5 (friend) -> b2 would step back in its second step
    err = refused(pos, mv("e5b5b2"), code="move.direction")
    assert err.message == "a Man moves only forward or sideways: b2 is behind b5"


# -- 2. Enemy Dukes and full Realms block ---------------------------------------------------
def test_2_no_piece_lands_on_a_realm_whose_center_holds_an_enemy_duke():
    pos = medieval("""
    . . . . . .   # 9
    . p . . . .   # 8: a Black Duke on b8
    . . . . . .
    . . . . . .
    . E . . . .   # 5
    . . . . . .
    """)
    err = refused(pos, mv("b5b8"), code="move.enemy-duke")
    assert err.message.startswith("b8 cannot be entered: an enemy Duke holds it")
    assert all(m.path[-1] != sq("b8") for m in legal_moves(pos))


def test_2_a_friendly_duke_is_landed_on_and_passed_and_an_enemy_man_dislodged():
    pos = medieval("""
    . . . . . .   # 9
    . P . . e .   # 8: a White Duke on b8, a Black Man on e8
    . . . . . .
    . . . . . .
    . E . . . .   # 5
    . . . . . .
    """)
    after, _ = play(pos, mv("b5b8e8", dislodge="d7"))
    assert after.board[sq("e8")].kind is Kind.ENFORCER and after.board[sq("d7")].side is B
    refused(pos, mv("b5b8"), code="move.go-on")


def test_2_no_piece_lands_on_or_passes_through_a_full_realm():
    pos = medieval("""
    . . . . . .   # 9
    E P E . . .   # 8: the b8 Realm, White Duke on its Center, full
    E E E . . .
    . . . . . .
    . E . . . .   # 5
    . . . . . .
    """, origin="a4")
    full = with_pieces(pos, a9="E", b9="E", c9="E")
    err = refused(full, mv("b5b8b11"), code="move.full-realm")
    assert err.message == "b8 cannot be entered: its Realm is full (nine pieces)"
    after, _ = play(pos, mv("b5b8b11"))  # eight pieces: passable
    assert after.board[sq("b11")] is not None


# -- 3. Replacement: the opponent's Border piece takes the Center left ---------------------
REPLACE = """
. . . . . .   # 6
e E . . . .   # 5: a White Man on b5; a Black Man on a5; White's own on c4
. . E . . .   # 4
"""


def test_3_the_opponents_border_piece_goes_onto_the_center_left():
    pos = medieval(REPLACE)
    after, events = play(pos, mv("b5b8"))
    assert after.board[sq("b5")].side is B and after.board[sq("a5")] is None
    assert after.board[sq("c4")].side is W
    assert events[0] == Refilled(B, Kind.ENFORCER, sq("a5"), sq("b5"), False)
    assert legal_moves_from(pos, sq("b5"))[0].refill == sq("a5")


def test_3_replacement_never_takes_the_movers_own_piece_and_a_choice_is_named():
    pos = medieval(REPLACE)
    err = refused(pos, mv("b5b8", refill="c4"), code="replace.square")
    assert "must replace one of a5: write (+Ea5)" in err.message
    two = with_pieces(pos, a6="e")
    err = refused(two, mv("b5b8"), code="replace.choose")
    assert err.message == (
        "the piece leaving b5 must replace one of a5, a6: write (+Ea5) or (+Ea6)"
    )


# -- 4. Moving off from the far row ----------------------------------------------------------
FAR = """
. . . . . . . . .   # 12
. . . . . . . E .   # 11: a White Man on h11 (the far row)
e . . . . . . . .   # 10: a Black Man on a10
. . . . . . . . .
. E . . . . . E .   # 8: White Men on b8 and h8
. . . . . . . . .   # 7
"""


def test_4_a_piece_moves_off_from_the_far_row_alone_or_after_landing_on_a_friend():
    pos = medieval(FAR, origin="a7")
    after, events = play(pos, mv("h11off"))
    assert after.off == (1, 0) and after.board[sq("h11")] is None
    assert MovedOff(W, Kind.ENFORCER, sq("h11")) in events
    after, _ = play(pos, mv("h8h11off"))
    assert after.off == (1, 0) and after.board[sq("h11")] is not None
    assert after.board[sq("h8")] is None
    sideways = {m.path[-1] for m in legal_moves_from(pos, sq("h11"))}
    assert sideways == {sq("e11"), sq("k11"), sq("h11")}  # sideways, or off (h11 itself)
    # moving off the start Center is leaving it: the replacement applies
    with_black = with_pieces(pos, g10="e")
    after, events = play(with_black, mv("h11off"))
    assert after.board[sq("h11")].side is B
    assert isinstance(events[0], Refilled)


def test_4_only_the_far_row_moves_off_and_only_after_a_friend_or_from_the_start():
    pos = medieval(FAR, origin="a7")
    err = refused(pos, mv("b8off"), code="move.off-row")
    assert "b8 is not on White's far row" in err.message
    refused(pos, mv("b8b11off"), code="move.stop")  # b11 vacant: the move ends there
    black = medieval(FAR, origin="a7", to_move=B)
    err = refused(black, mv("k11off"), code="move.off-row")
    assert "b2, e2, h2, k2" in err.message

    classic = position_from(FAR, origin="a7", ruleset=CLASSIC_RULES)
    refused(with_pieces(classic, k11="e"), mv("h11off"), code="move.off")


# -- 5. No move: pass; neither: draw ------------------------------------------------------------
def test_5_a_side_without_a_move_passes_and_the_other_goes_on():
    pos = position_from("""
    . . .   # 6
    E . .   # 5: White's only piece is dislodged
    . . .
    """, origin="a4", ruleset=MEDIEVAL_RULES)
    pos = with_pieces(pos, k11="e")
    with pytest.raises(RuleError):
        apply_pass(with_pieces(pos, b5="E"))
    after, events = apply_pass(pos)
    assert after.to_move is B and after.phase is Phase.PLAY and events == []


def test_5_neither_side_can_move_draws():
    pos = position_from("""
    . . .
    E . e   # 5: both dislodged
    . . .
    """, origin="a4", ruleset=MEDIEVAL_RULES)
    after, events = apply_pass(pos)
    assert after.phase is Phase.OVER and after.result == "1/2-1/2"
    assert events == [GameEnded("no-move", "1/2-1/2")]


# -- 6. Winning; six Duke turns draw ------------------------------------------------------------
def test_6_the_first_side_with_all_eight_off_wins():
    pos = medieval(FAR, origin="a7", off=(7, 0))
    pos = with_pieces(pos, b8=".", h8=".", k2=".")
    after, events = play(pos, mv("h11off"))
    assert after.result == "1-0" and after.end == "off"
    assert events[-1] == GameEnded("off", "1-0")
    not_yet = medieval(FAR, origin="a7", off=(6, 0))
    after, _ = play(not_yet, mv("h11off"))
    assert after.phase is Phase.PLAY


def test_6_six_turns_in_a_row_of_dukes_only_draw_and_a_man_or_a_pass_breaks_the_run():
    pos = medieval("""
    . . . . . .   # 9
    . . . . p .   # 8: a Black Duke on e8
    . . . . . .
    . . . . . .
    . P . . . .   # 5: a White Duke on b5
    . . . . . .
    """, run=5)
    after, events = play(pos, mv("b5b2"))
    assert after.result == "1/2-1/2" and after.end == "dukes"
    assert events[-1] == GameEnded("dukes", "1/2-1/2")
    after, _ = play(pos, mv("k2k5"))  # a Man moves: the run is broken
    assert after.phase is Phase.PLAY and after.run == 0
    four = medieval("""
    . . .
    . P .
    . . .
    """, run=4)
    after, _ = play(four, mv("b5b2"))
    assert after.phase is Phase.PLAY and after.run == 5


def test_the_standard_setup_has_the_dukes_on_e2_h2_and_e11_h11():
    pos = initial_position(MEDIEVAL_RULES)
    dukes = sorted(s for s, p in enumerate(pos.board) if p is not None and p.kind is Kind.POWER)
    assert dukes == sorted(sq(n) for n in ("e2", "h2", "e11", "h11"))
    assert sum(p is not None for p in pos.board) == 16


def test_placement_is_on_the_vacant_centers_of_the_own_half_and_white_moves_first():
    pos = initial_position(MEDIEVAL_RULES.with_options({"setup": "placement"}))
    with pytest.raises(RuleError) as info:
        apply_placement(pos, Placement(Kind.ENFORCER, sq("b8")))
    assert "b8 is not in White's own half" in info.value.message
    white = ["b2", "e2", "h2", "k2", "b5", "e5", "h5", "k5"]
    black = ["b8", "e8", "h8", "k8", "b11", "e11", "h11", "k11"]
    for i in range(8):
        kind = Kind.POWER if i < 2 else Kind.ENFORCER
        pos, _ = apply_placement(pos, Placement(kind, sq(white[i])))
        pos, _ = apply_placement(pos, Placement(kind, sq(black[i])))
    assert pos.phase is Phase.PLAY and pos.to_move is W and pos.turn_label() == "9w"
    state = begin_turn(pos)
    apply_move(state, legal_moves(pos)[0])


# -- decisions where the rules are silent ------------------------------------------------------
def test_a_win_on_the_sixth_duke_turn_in_a_row_is_a_win_not_a_draw():
    pos = medieval("""
    . . .   # 12
    . P .   # 11: White's last piece, a Duke, on h11
    . . .   # 10
    """, origin="g10", off=(7, 0), run=5)
    pos = with_pieces(pos, k2=".")
    after, events = play(pos, mv("h11off"))
    assert after.result == "1-0" and after.end == "off"
    assert events[-1] == GameEnded("off", "1-0")


def test_placement_places_each_kind_only_as_often_as_the_side_has_it():
    pos = initial_position(MEDIEVAL_RULES.with_options({"setup": "placement"}))
    pos, _ = apply_placement(pos, Placement(Kind.POWER, sq("b2")))
    pos, _ = apply_placement(pos, Placement(Kind.POWER, sq("b8")))
    pos, _ = apply_placement(pos, Placement(Kind.POWER, sq("e2")))
    pos, _ = apply_placement(pos, Placement(Kind.ENFORCER, sq("e8")))
    with pytest.raises(RuleError) as info:
        apply_placement(pos, Placement(Kind.POWER, sq("h2")))
    assert info.value.code == "setup.none-left"
    assert info.value.message == "White has placed all its Dukes"
