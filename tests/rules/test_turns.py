"""Turns: Dispersal, Concentration, one move per piece, events in order."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.geometry import Direction
from pbem.rules.pieces import Side, base, enforcer
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
)
from pbem.rules.realm.position import Phase
from pbem.rules.realm.turns import apply_move, begin_turn, finish_turn
from tests.diagram import assert_board, mv, play, position_from, render, sq

W, B = Side.WHITE, Side.BLACK


def refused_at_last(position, *moves) -> tuple[RuleError, object]:
    """Play all but the last move, then check the last is refused; the error and the
    state it was refused in."""
    state, _ = play(position, *moves[:-1])
    saved = state
    with pytest.raises(RuleError) as info:
        apply_move(state, moves[-1])
    assert state == saved
    return info.value, state


# the six Realms b2 e2 h2 / b5 e5 h5 (files a-i, ranks 1-6)
TWO_IN_E5 = """
    . . . . . . . . .
    . . . P . P . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_dispersal_from_one_realm_to_several():
    """'Dispersal: one or more of the mover's mobile pieces, all standing in the same Realm
    S at the start of the turn, each move out of S, to one or several Realms.'"""
    state, events = play(position_from(TWO_IN_E5), mv("d5", "a5"), mv("f5", "i5"))
    assert events == [BaseCreated(W, sq("b5")), BaseCreated(W, sq("h5"))]
    after = finish_turn(state)
    assert_board(after, "P B . . . . . B P", origin="a5")
    assert after.to_move is B
    assert after.ply == 1


def test_a_single_move_is_a_dispersal():
    """'A turn that moves a single piece is a Dispersal.'"""
    state, _ = play(position_from(TWO_IN_E5), mv("d5", "d9"))
    after = finish_turn(state)
    assert after.to_move is B
    assert after.board[sq("d9")] is not None


ACROSS = """
    . . . . . P
    . . . . . .
    . . . . . .
    . . . . . .
    P . . . . .
    . . . . . .
"""


def test_concentration_from_several_realms_into_one():
    """'Concentration: two or more of the mover's pieces, each starting outside Realm T,
    all stop in T. They may start in different Realms.' Each stop has its own event: the
    first Power creates the e2 Base, so the second creates an Enforcer."""
    state, events = play(position_from(ACROSS), mv("a2", "d2"), mv("f6", "f1", create="d3N"))
    assert events == [BaseCreated(W, sq("e2")), EnforcerCreated(W, sq("d3"), Direction.N)]
    assert_board(finish_turn(state), """
        . . . . . .
        . . . . . .
        . . . . . .
        . . . N . .
        . . . P B .
        . . . . . P
    """)


def test_a_turn_that_is_neither_is_refused():
    """A turn is 'exactly one of' Dispersal or Concentration: from b2 and e5 to e2 and h5."""
    exc, state = refused_at_last(position_from(ACROSS), mv("a2", "d2"), mv("f6", "i6"))
    assert exc.code == "turn.dispersal-or-concentration"
    assert "out of one Realm (Dispersal) or into one Realm (Concentration)" in exc.message
    assert state.position.board[sq("f6")] is not None  # the refused move did not happen


def test_a_third_piece_cannot_break_a_dispersal():
    """Every piece of a Dispersal starts in S: a piece from b2 cannot join one from e5."""
    position = position_from("""
        . . . . . . . . .
        . . . P . P . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . P . . . . . .
    """)
    exc, _ = refused_at_last(position, mv("d5", "a5"), mv("f5", "i5"), mv("c1", "c4"))
    assert exc.code == "turn.dispersal-or-concentration"


def test_a_concentration_cannot_take_a_piece_out_of_its_target():
    """Each piece of a Concentration starts outside T: f1 started in e2, so leaving it
    to h2 after a2 went into e2 is neither kind of turn."""
    position = position_from("""
        . . . . . . . . .
        P . . . . . . . .
        . . . . . P . . .
    """)
    exc, _ = refused_at_last(position, mv("a2", "d2"), mv("f1", "g1"))
    assert exc.code == "turn.dispersal-or-concentration"


def test_a_piece_moves_at_most_once_per_turn():
    """'In one turn a piece moves at most once'."""
    exc, _ = refused_at_last(position_from(ACROSS), mv("a2", "d2"), mv("d2", "d5"))
    assert exc.code == "turn.moved-once"
    assert "a piece moves at most once" in exc.message


def test_two_pieces_may_each_move_once():
    """Several pieces may move in a turn, each once, each with its event."""
    state, _ = play(position_from(TWO_IN_E5), mv("d5", "d1"), mv("f5", "f1", create="e3E"))
    assert state.moves == 2
    assert state.position.board[sq("e3")] == enforcer(W, Direction.E)


OWN_REALM = """
    . . . . . p
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . . . . .
    . . P . B .
    . . . . . .
"""


def test_an_enforcer_created_this_turn_waits_for_the_next():
    """'only pieces that stood on the board when the turn began may move in it (an
    Enforcer created during the turn waits for the next).'"""
    position = position_from(OWN_REALM)
    exc, _ = refused_at_last(position, mv("c2", "d2", create="d3N"), mv("d3", "d6"))
    assert exc.code == "turn.moved-once"
    assert "this turn" in exc.message
    assert "until the next" in exc.message
    # next turn it may move
    state, _ = play(position, mv("c2", "d2", create="d3N"))
    after_black = finish_turn(play(finish_turn(state), mv("f9", "i9"))[0])
    assert after_black.to_move is W
    state, _ = play(after_black, mv("d3", "d6"))
    assert state.position.board[sq("d6")] == enforcer(W, Direction.N), render(state.position)


def test_a_piece_immobilised_during_the_turn_cannot_move_later_in_it():
    """'A piece immobilised during the turn can no longer move that turn.' (The only own
    piece a turn can immobilise is a mover, which has moved already; the immobilisation
    is what the error names.)"""
    position = position_from("""
        . . . . . s
        . . E . . .
        . . . . . .
    """)
    exc, state = refused_at_last(position, mv("c2", "d2"), mv("d2", "d5"))
    assert state.position.board[sq("d2")] == enforcer(W, None)
    assert exc.code == "move.immobilised"
    assert "immobilised and cannot move" in exc.message


ORDER = """
    . . . . . P
    . . . . . .
    . . . . . .
    . . . . . .
    . . E . b .
    . . . . . .
"""


def test_events_follow_each_piece_power_first_enables_the_capture():
    """'After each piece stops, before the next piece moves, at most one special event
    happens.' With the Power in first, the Enforcer counts one Power to none: capture."""
    state, events = play(position_from(ORDER), mv("f6", "f1"), mv("c2", "d2"))
    assert events == [BaseCaptured(W, sq("e2")), EnforcerImmobilised(W, sq("d2"), own=True)]
    assert state.position.board[sq("e2")] is None
    assert state.position.captured == (1, 0)


def test_events_follow_each_piece_enforcer_first_captures_nothing():
    """Same pieces, other order: the Enforcer stops beside no Power, and the Power that
    follows creates nothing in the enemy's Realm."""
    state, events = play(position_from(ORDER), mv("c2", "d2"), mv("f6", "f1"))
    assert events == []
    assert state.position.board[sq("e2")] == base(B)
    assert state.position.board[sq("d2")] == enforcer(W, Direction.E)
    assert state.position.captured == (0, 0)


def test_a_turn_moves_at_least_one_piece():
    """A Dispersal or Concentration moves 'one or more' pieces."""
    with pytest.raises(RuleError) as info:
        finish_turn(begin_turn(position_from(TWO_IN_E5)))
    assert info.value.code == "turn.empty"


def test_black_moves_after_white_and_white_after_black():
    """Turns alternate; on White's turn Black's pieces do not move."""
    state, _ = play(position_from(TWO_IN_E5.replace("P . P", "P . p")), mv("d5", "d9"))
    after = finish_turn(state)
    assert after.to_move is B
    state, events = play(after, mv("f5", "f1"))
    assert events == [BaseCreated(B, sq("e2"))]
    assert finish_turn(state).to_move is W
    with pytest.raises(RuleError) as info:
        play(after, mv("d9", "d12"))
    assert info.value.code == "move.not-own"


def test_no_turn_once_the_game_is_over():
    """Nothing is played in a finished game."""
    position = position_from(TWO_IN_E5, phase=Phase.OVER)
    with pytest.raises(RuleError) as info:
        begin_turn(position)
    assert info.value.code == "turn.game-over"
