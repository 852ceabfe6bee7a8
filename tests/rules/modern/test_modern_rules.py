"""Modern Realm, rule by rule (numbered as on the project's rules page,
docs/games/modern.md): a positive and a negative case each, as small diagrams.

Diagrams are windows from a1 unless they say otherwise; rank 1 is the bottom line.
White's Target Realms are Black's half (Centers on ranks 8 and 11).
"""

from __future__ import annotations

import re

import pytest

from pbem.errors import RuleError
from pbem.rules.geometry import REALM_OF
from pbem.rules.modern.lines import Realms, lines_by_realm, lines_from
from pbem.rules.modern.pieces import AGENT, HQ
from pbem.rules.modern.position import Phase, Position, initial_position
from pbem.rules.modern.rules import ModernRules
from pbem.rules.modern.turns import (
    Dislodged,
    HQPlaced,
    Move,
    apply_move,
    apply_pass,
    apply_placement,
    begin_turn,
    finish_turn,
    has_legal_turn,
)
from pbem.rules.move_turns import GameEnded, Placement
from pbem.rules.pieces import Kind, Side
from tests.family_diagram import board_from, sq

W, B = Side.WHITE, Side.BLACK


def pos(diagram: str, to_move: Side = W, origin: str = "a1", **kw: object) -> Position:
    return Position(board=board_from(diagram, origin), to_move=to_move, **kw)  # type: ignore[arg-type]


def mv(text: str, hq: str | None = None, x: str | None = None) -> Move:
    """``"c4d4d6"`` -> Move from c4 turning on d4 to d6; ``hq``/``x``: the written events."""
    squares = [sq(s) for s in re.findall(r"[a-l]1[0-2]|[a-l][1-9]", text)]
    return Move(
        squares[0], squares[-1], tuple(squares[1:-1]),
        None if hq is None else sq(hq), None if x is None else sq(x),
    )


def play(position: Position, *moves: Move):
    state = begin_turn(position)
    events = []
    for m in moves:
        state, ev = apply_move(state, m)
        events.extend(ev)
    return state, events


def done(position: Position, *moves: Move) -> Position:
    return finish_turn(play(position, *moves)[0])


def refused(position: Position, *moves: Move, finish: bool = False) -> RuleError:
    with pytest.raises(RuleError) as info:
        state, _ = play(position, *moves)
        if finish:
            finish_turn(state)
    return info.value


# -- 1. a turn moves out every mobile piece of one Realm -----------------------------------------
TWO = """
. . . . . .
. E . . . .
E . . . . .
. . . . . .
. . . . . .
. . . . . .
"""  # White Agents on b5 (the Center) and a4


def test_1_every_mobile_piece_of_the_realm_moves_out():
    after = done(pos(TWO), mv("b5e5"), mv("a4a1"))
    assert after.board[sq("e5")] == AGENT[W] and after.board[sq("a1")] == AGENT[W]
    assert after.to_move is B


def test_1_a_piece_left_behind_that_could_leave_is_refused():
    err = refused(pos(TWO), mv("a4a2"), finish=True)
    assert err.code == "turn.incomplete"
    assert err.message == (
        "the Agent on b5 could still leave the b5 Realm: a Modern turn moves out every mobile piece"
    )


def test_1_a_piece_that_cannot_leave_stays():
    boxed = """
    . . . . . .
    e E . . . .
    E e . . . .
    e . . . . .
    . . . . . .
    . . . . . .
    """  # a4 is boxed in by a5, b4 and a3 (Black); b5 leaves, a4 cannot
    after = done(pos(boxed), mv("b5e5"))
    assert after.board[sq("a4")] == AGENT[W]


def test_1_each_piece_ends_outside_the_realm_and_pieces_come_from_it():
    assert refused(pos(TWO), mv("b5c5")).code == "move.leave"
    other = """
    . . . . . .
    . E . . . .
    . . . . . .
    . . . . . .
    . E . . . .
    . . . . . .
    """
    err = refused(pos(other), mv("b5e5"), mv("b2e2"))
    assert err.code == "turn.one-realm"


def test_1_mobility_is_judged_at_the_start_of_the_turn():
    board = """
    . . . . . .
    e e . . . .
    E . E . . .
    . . . . . .
    . . . . . .
    . . . . . .
    """  # b5 Realm: Black a6, b5 (Center); White a4, c4: 2 to 2, both White Agents mobile
    # after a4 leaves, c4 alone would be outnumbered, but it must still move out
    err = refused(pos(board), mv("a4a1"), finish=True)
    assert err.code == "turn.incomplete" and "c4" in err.message
    after = done(pos(board), mv("a4a1"), mv("c4f4"))
    assert after.board[sq("f4")] == AGENT[W]


def test_1_a_turn_moves_at_least_one_piece():
    with pytest.raises(RuleError) as info:
        finish_turn(begin_turn(pos(TWO)))
    assert info.value.code == "turn.empty"


# -- 2. lines: never past a piece, never into the enemy Counter-Agent's Realm, forced stops -------
def test_2_a_line_never_passes_a_piece():
    board = """
    . . . . . .
    . . . . . .
    . . . . . e
    . . . . . .
    . . . . . .
    . . . . . E
    . . . . . .
    . . . . . .
    . . . . . .
    """  # White f4, Black f7 (window a1, rank 9 on top)
    err = refused(pos(board), mv("f4f9"))
    assert err.message == "the Agent cannot pass f7: a piece stands there"
    assert done(pos(board), mv("f4i4")).board[sq("i4")] == AGENT[W]


def test_2_the_enemy_counter_agents_realm_is_closed():
    board = """
    . . . . . . . . p
    . . . . . . . . .
    . . . E . . . . .
    """  # window a4: White d4; Black Counter-Agent on i6 (h5 Realm)
    err = refused(pos(board, origin="a4"), mv("d4g4"))
    assert err.code == "move.closed"
    assert "Black's Counter-Agent stands in it" in err.message
    free = board.replace("p", ".")
    assert done(pos(free, origin="a4"), mv("d4j4")).board[sq("j4")] == AGENT[W]


def test_2_a_realm_whose_center_an_enemy_agent_holds_forces_a_stop():
    board = """
    . . . . . . . . .
    . . . . . . . e .
    . . . E . . . . .
    """  # window a4: Black Agent on h5, the Center of the h5 Realm (White's half)
    position = pos(board, origin="a4")
    err = refused(position, mv("d4j4"))
    assert err.code == "move.forced-stop"
    assert err.message == "the Agent must stop in the h5 Realm: an enemy Agent holds its Center"
    for stop in ("g4", "h4", "i4"):
        assert done(position, mv("d4" + stop)).board[sq(stop)] == AGENT[W]


def test_2_an_enemy_hq_forces_a_stop_too_and_is_never_taken():
    board = """
    . . . . . . . . .
    . . . . . . . b .
    . . . E . . . . .
    """  # window a1: Black HQ on h2 (a Realm of White's half that Black captured)
    position = pos(board)
    assert refused(position, mv("d1j1")).code == "move.forced-stop"
    after = done(position, mv("d1i1"))
    assert after.board[sq("h2")] == HQ[B] and after.supply == (8, 8)


# -- 3. turning -----------------------------------------------------------------------------------
TURN = """
. . . . . .
. . . . E .
. . P . . .
. . . . . .
"""  # window a3: White Counter-Agent c4 (b5 Realm), White Agent e5 (the e5 Realm's Center)


def test_3_one_turn_in_a_realm_whose_center_a_friendly_piece_holds():
    after = done(pos(TURN, origin="a3"), mv("c4d4d6"))
    assert after.board[sq("d6")] is not None and after.board[sq("c4")] is None


def test_3_no_turn_where_the_center_is_not_friendly():
    bare = TURN.replace("E", ".")
    assert refused(pos(bare, origin="a3"), mv("c4d4d6")).code == "move.turn-realm"


def test_3_no_turn_in_the_start_realm():
    assert refused(pos(TURN, origin="a3"), mv("c4c5f5")).code == "move.turn-start"


def test_3_one_turn_per_realm_and_right_angles_only():
    assert refused(pos(TURN, origin="a3"), mv("c4d4d6f6")).code == "move.turn-twice"
    assert refused(pos(TURN, origin="a3"), mv("c4d4f4")).code == "move.turn-angle"


def test_3_a_move_never_enters_a_realm_twice():
    board = """
    . . . . . .
    . . . . E .
    . . P . . .
    . . . . . .
    . E . . E .
    . . . . . .
    """  # window a1: White b2 and e2 Centers too: turns on d4, d3 and b3 lead back into b5
    err = refused(pos(board), mv("c4d4d3b3b4"))
    assert err.code == "move.realm-twice"
    assert "enter the b5 Realm a second time at b4" in err.message
    after = done(pos(board), mv("c4d4d3b3"))
    assert after.board[sq("b3")] is not None


def test_3_pieces_may_stop_on_vacant_centers_outside_the_targets():
    board = """
    . E .
    """  # window a3: an Agent on b3 goes up to the vacant b5 Center
    assert done(pos(board, origin="a3"), mv("b3b5")).board[sq("b5")] == AGENT[W]


# -- 4. mobility -----------------------------------------------------------------------------------
OUTNUMBERED = """
e e . . . .
E e . . . .
. . . . . .
"""  # window a7 (the b8 Realm, a Target of White): Black holds b8 and has 3 to White's 1


def test_4_an_outnumbered_agent_under_an_enemy_center_is_immobile():
    err = refused(pos(OUTNUMBERED, origin="a7"), mv("a8a4"))
    assert err.code == "move.immobile"
    assert "Black holds the b8 Center and has more pieces in that Realm (3 to 1)" in err.message


def test_4_the_counter_agent_is_always_mobile():
    board = OUTNUMBERED.replace("E", "P")
    assert done(pos(board, origin="a7"), mv("a8a4")).board[sq("a4")] is not None


def test_4_an_agent_is_mobile_when_its_side_is_not_outnumbered():
    board = """
    . . . . . .
    E e . . . .
    E . . . . .
    """  # 2 to 1: both White Agents are mobile (and both must leave)
    after = done(pos(board, origin="a7"), mv("a7a4"), mv("a8a5"))
    assert after.board[sq("a5")] == AGENT[W]


# -- 5. capture of a Target Realm -----------------------------------------------------------------
def test_5_a_vacant_target_center_is_captured_on_the_first_square():
    board = """
    . . .
    . . .
    . . .
    . . .
    . E .
    . . .
    """  # window a4: White b5 -> b7, the first square of the b8 Realm
    state, events = play(pos(board, origin="a4"), mv("b5b7", hq="b8"))
    assert events == [HQPlaced(W, sq("b8"))]
    after = finish_turn(state)
    assert after.board[sq("b8")] == HQ[W] and after.board[sq("b7")] is None
    assert after.supply == (7, 8)
    err = refused(pos(board, origin="a4"), mv("b5b9"))
    assert err.code == "capture.ends"
    assert err.message == (
        "the Agent captures the b8 Realm on entering it at b7: its move ends there"
    )


def test_5_the_counter_agent_captures_an_enemy_held_center_at_once():
    board = """
    . . .
    . e .
    . . .
    . . .
    . P .
    . . .
    """  # window a4: Black Agent on b8
    state, events = play(pos(board, origin="a4"), mv("b5b7", hq="b8", x="a9"))
    assert events == [HQPlaced(W, sq("b8")), Dislodged(B, sq("b8"), sq("a9"))]
    after = finish_turn(state)
    assert after.board[sq("a9")] == AGENT[B] and after.board[sq("b8")] == HQ[W]
    err = refused(pos(board, origin="a4"), mv("b5b7"))
    assert err.code == "dislodge.choice" and "(xEa9)" in err.message


def test_5_an_agent_captures_an_enemy_held_center_with_a_majority():
    board = """
    . . .
    . e .
    E . .
    . . .
    . . .
    . E .
    . . .
    """  # window a3: White a7 already in the b8 Realm; b4 -> b7 makes 2 to 1
    # (the family's example Eb5b7(Bb8,xEa9) with the Agent from b4)
    state, events = play(pos(board, origin="a3"), mv("b4b7", hq="b8", x="a9"))
    assert events[0] == HQPlaced(W, sq("b8"))
    lone = board.replace("E . .", ". . .")
    state, events = play(pos(lone, origin="a3"), mv("b4b7"))
    assert events == []  # 1 to 1: the Agent stops in the Realm, nothing is captured
    assert finish_turn(state).board[sq("b7")] == AGENT[W]


def test_5_an_agent_must_stop_in_an_enemy_held_target_realm():
    board = """
    . . .
    . e e
    . . .
    . . .
    E . .
    """  # window a5: Black b8 Center and c8; White a5
    assert refused(pos(board, origin="a5"), mv("a5a10")).code == "move.forced-stop"
    assert done(pos(board, origin="a5"), mv("a5a7")).board[sq("a7")] == AGENT[W]


def test_5_a_realm_with_ones_own_hq_is_never_captured_again_and_pieces_turn_in_it():
    board = """
    . . . . . .
    . B . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . P . . . .
    """  # window a4: White HQ on b8; the Counter-Agent turns on b7 towards e8's Realm
    _, events = play(pos(board, origin="a4", supply=(7, 8)), mv("b4b7d7", hq="e8"))
    assert events == [HQPlaced(W, sq("e8"))]
    _, events = play(pos(board, origin="a4", supply=(7, 8)), mv("b4b7c7"))
    assert events == []


def test_5_the_dislodged_piece_may_take_the_square_the_capturer_left():
    board = """
    e e e
    e e e
    e . e
    . . .
    . . .
    . P .
    """  # window a4: the b8 Realm full but b7; the Counter-Agent captures at b7
    _, events = play(pos(board, origin="a4"), mv("b4b7", hq="b8"))  # the only square
    assert events[1] == Dislodged(B, sq("b8"), sq("b7"))


def test_5_written_events_must_match():
    board = """
    . . .
    . . .
    . . .
    . . .
    . E .
    . . .
    """
    position = pos(board, origin="a4")
    assert refused(position, mv("b5b7", hq="a9")).code == "capture.hq-square"
    assert refused(position, mv("b5b7", hq="b8", x="a9")).code == "dislodge.none"
    assert refused(position, mv("b5e5", hq="e5")).code == "capture.none"


# -- 6. HQs never move -----------------------------------------------------------------------------
def test_6_hqs_never_move():
    board = """
    . . .
    . B .
    . . .
    """
    position = pos(board, origin="a7")
    err = refused(position, mv("b8b10"))
    assert (err.code, err.message) == ("move.hq", "the HQ on b8 cannot move: HQs never move")


# -- 7. the pass and the draw ----------------------------------------------------------------------
STUCK = """
. . .
B . .
. . .
. . .
. . .
. e .
"""  # window a4: White has only an HQ (a8); Black has an Agent on b4


def test_7_a_side_that_cannot_move_passes_and_the_other_moves_on():
    position = pos(STUCK, origin="a4")
    assert not has_legal_turn(position, W)
    after, _ = apply_pass(position)
    assert after.to_move is B and after.phase is Phase.PLAY


def test_7_a_side_that_can_move_may_not_pass():
    with pytest.raises(RuleError) as info:
        apply_pass(pos(STUCK, to_move=B, origin="a4"))
    assert info.value.code == "turn.pass"


def test_7_neither_side_can_move_is_a_draw():
    only_hqs = STUCK.replace("e", "b")
    after, _ = apply_pass(pos(only_hqs, origin="a4"))
    assert (after.phase, after.result) == (Phase.OVER, "1/2-1/2")


# -- 8. winning on all eight Target Centers --------------------------------------------------------
def test_8_the_eighth_target_center_wins_at_once():
    hqs = {sq(c): HQ[W] for c in ("e8", "h8", "k8", "b11", "e11", "h11", "k11")}
    board = [None] * 144
    for s, p in hqs.items():
        board[s] = p
    board[sq("b5")] = AGENT[W]
    board[sq("a4")] = AGENT[W]
    position = Position(board=tuple(board), supply=(1, 8))
    state, events = play(position, mv("b5b7", hq="b8"))
    assert events[-1] == GameEnded("targets", "1-0")
    with pytest.raises(RuleError) as info:
        apply_move(state, mv("a4a1"))
    assert info.value.code == "turn.game-over"
    after = finish_turn(state)  # a4 is left behind: the game is over
    assert after.phase is Phase.OVER and after.result == "1-0"


def test_8_seven_target_centers_do_not_win():
    hqs = ("e8", "h8", "k8", "b11", "e11", "h11")
    board = [None] * 144
    for c in hqs:
        board[sq(c)] = HQ[W]
    board[sq("b5")] = AGENT[W]
    board[sq("l1")] = AGENT[B]
    state, events = play(Position(board=tuple(board), supply=(2, 8)), mv("b5b7", hq="b8"))
    assert not any(isinstance(e, GameEnded) for e in events)
    assert finish_turn(state).phase is Phase.PLAY


# -- 9. listing by destination Realm -----------------------------------------------------------
def test_9_lines_are_listed_per_realm_with_counts_and_a_cap():
    position = initial_position()
    realms = Realms(position.board, W)
    groups = lines_by_realm(realms, sq("b5"), cap=2)
    total = sum(1 for _ in lines_from(realms, sq("b5")))
    assert total > 1000  # thousands of lines for one opening piece
    assert sum(g.count for g in groups) == total
    assert all(len(g.examples) <= 2 for g in groups)
    assert all(REALM_OF[line.to] == g.realm for g in groups for line in g.examples)


def test_9_a_piece_with_no_line_lists_nothing():
    boxed = """
    e . .
    E e .
    e . .
    """  # window a3: a4 boxed by a5, b4, a3
    realms = Realms(board_from(boxed, "a3"), W)
    assert lines_by_realm(realms, sq("a4")) == []


# -- set-up -------------------------------------------------------------------------------------
def test_standard_setup_and_placement():
    position = initial_position()
    assert position.board[sq("e2")].kind is Kind.POWER  # type: ignore[union-attr]
    assert position.supply == (8, 8)
    placing = initial_position(ModernRules(setup="placement"))
    centers_w = ["b2", "e2", "h2", "k2", "b5", "e5", "h5", "k5"]
    centers_b = ["b8", "e8", "h8", "k8", "b11", "e11", "h11", "k11"]
    for i in range(8):
        kind = Kind.POWER if i == 3 else Kind.ENFORCER
        placing, _ = apply_placement(placing, Placement(kind, sq(centers_w[i])))
        placing, _ = apply_placement(placing, Placement(kind, sq(centers_b[i])))
    assert placing.phase is Phase.PLAY and placing.to_move is W


def test_placement_only_on_vacant_centers_of_ones_half():
    placing = initial_position(ModernRules(setup="placement"))
    with pytest.raises(RuleError) as info:
        apply_placement(placing, Placement(Kind.ENFORCER, sq("b8")))
    assert info.value.code == "setup.square"
    with pytest.raises(RuleError):
        apply_placement(placing, Placement(Kind.ENFORCER, sq("a1")))
