"""Passing, the end of the game, and the score."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.geometry import REALM_OF
from pbem.rules.pieces import Side
from pbem.rules.realm.actions import BaseCreated, EnforcerImmobilised, GameEnded, Rearrangement
from pbem.rules.realm.position import Phase
from pbem.rules.realm.scoring import score
from pbem.rules.realm.turns import (
    apply_move,
    apply_pass,
    apply_rearrangement,
    begin_turn,
    finish_turn,
    has_legal_turn,
)
from tests.diagram import mv, play, position_from, render, sq

W, B = Side.WHITE, Side.BLACK


# -- passing -------------------------------------------------------------------------------
ONLY_BASES_FOR_WHITE = """
    . . . . . .
    . B . . b .
    . . . . . p
"""


def test_pass_when_no_legal_turn():
    """'A player with no legal turn passes'."""
    position = position_from(ONLY_BASES_FOR_WHITE)
    assert not has_legal_turn(position, W)
    assert has_legal_turn(position, B)
    after, events = apply_pass(position)
    assert events == []
    assert after.board == position.board
    assert after.to_move is B
    assert after.phase is Phase.PLAY
    assert after.ply == position.ply + 1


def test_no_pass_with_a_legal_turn():
    """A pass is 'only when the side has no legal turn'."""
    position = position_from(ONLY_BASES_FOR_WHITE, to_move=B)
    with pytest.raises(RuleError) as info:
        apply_pass(position)
    assert info.value.code == "turn.pass"
    assert "may not pass" in info.value.message


def test_a_rearrangement_is_a_legal_turn():
    """A boxed-in Power that could still be put on another square of its Realm has a turn."""
    position = position_from("""
        . . .
        u . .
        P u .
    """)
    assert has_legal_turn(position, W)
    assert refused_pass(position) == "turn.pass"


def test_a_mobile_enforcer_can_always_turn_round():
    """An Enforcer with no stop can still be rearranged to another facing."""
    position = position_from("""
        u u u
        u b u
        W u u
    """)
    assert has_legal_turn(position, W)
    # but the Black Enforcers, immobilised and with no empty square, have none
    assert not has_legal_turn(position, B)


def refused_pass(position) -> str:
    with pytest.raises(RuleError) as info:
        apply_pass(position)
    return info.value.code


# -- no legal turn for either side ---------------------------------------------------------------
# The b2 Realm is full but for c3; White's Enforcer comes down the c file into it, and both
# it and the Black Enforcer on c2 are immobilised. Then nobody can move or rearrange.
STUCK = """
    . . . . . . . . . . . .
    . . . . . . . B . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . B . . . . . . .
    . . . . . . . . . . . .
    . . S . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    u u . . . . . . . . . .
    u b e . . . . . . . . .
    u u u . . . . . . . . .
"""


def test_game_ends_and_is_scored_when_neither_side_has_a_legal_turn():
    """'if neither player has a legal turn, the game ends and is scored.'"""
    state, events = play(position_from(STUCK), mv("c6", "c3"))
    assert events == [
        EnforcerImmobilised(B, sq("c2"), own=False),
        EnforcerImmobilised(W, sq("c3"), own=True),
    ]
    after = finish_turn(state)
    assert after.phase is Phase.OVER, render(after)
    assert after.end == "no-legal-turn"
    assert after.result == "1-0"  # White controls h11 and e8, Black only b2
    with pytest.raises(RuleError) as info:
        begin_turn(after)
    assert info.value.code == "turn.game-over"


def test_game_goes_on_while_one_side_has_a_turn():
    """With one empty square left in the b2 Realm both sides can rearrange: no end."""
    position = position_from(STUCK.replace("    u u . .", "    u . . ."))
    state, _ = play(position, mv("c6", "c3"))
    after = finish_turn(state)
    assert after.phase is Phase.PLAY
    assert after.result is None
    assert after.to_move is B


def test_pass_into_a_position_where_nobody_can_move_ends_the_game():
    """A pass after which neither side has a legal turn ends the game, scored (here a draw)."""
    position = position_from("""
        . . . . . .
        . B . . b .
        . . . . . .
    """)
    after, _ = apply_pass(position)
    assert after.phase is Phase.OVER
    assert after.end == "no-legal-turn"
    assert after.result == "1/2-1/2"  # one Realm each, 8 Enforcers each in supply


# -- the last Base ------------------------------------------------------------------------
# White has created 11 Bases: 3 stand, Black captured 8. Black controls 5 Realms.
LAST_BASE = """
    . . . . . . . . . . . .
    . B . . B . . b . . b .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . b . . b . . b . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . B . . . P . . . . . .
    . . . . . P . . . . . .
"""


def test_game_ends_the_moment_the_last_base_is_created():
    """'The game ends the moment a player has created all his Bases (12 in the Featured
    Game). A Base counts as created once placed, whether it is still on the board or was
    captured. Nothing more is played, not even the rest of that turn.'"""
    position = position_from(LAST_BASE, captured=(0, 8))
    assert position.bases_created == (11, 5)
    state, events = play(position, mv("f2", "g2"))
    assert events[0] == BaseCreated(W, sq("h2"))
    assert events[1:] == [GameEnded("bases", "0-1")]  # Black still holds more Realms
    assert state.position.phase is Phase.OVER
    assert state.position.end == "bases"
    assert state.position.result == "0-1"
    assert score(state.position).realms == (4, 5)
    with pytest.raises(RuleError) as info:  # the second Power of the Dispersal never moves
        apply_move(state, mv("f1", "i1"))
    assert info.value.code == "turn.game-over"
    assert "ended earlier in this turn" in info.value.message
    assert finish_turn(state).phase is Phase.OVER


def test_game_goes_on_with_a_base_still_in_supply():
    """Only the Base that empties the supply ends the game; an 11th Base does not."""
    position = position_from(LAST_BASE, captured=(0, 7))
    assert position.bases_in_supply(W) == 2
    state, events = play(position, mv("f2", "g2"), mv("f1", "j1"))
    assert events == [  # the second Base is the 12th: only it ends the game
        BaseCreated(W, sq("h2")),
        BaseCreated(W, sq("k2")),
        GameEnded("bases", "1/2-1/2"),
    ]
    assert state.position.phase is Phase.OVER
    position = position_from(LAST_BASE, captured=(0, 6))
    state, events = play(position, mv("f2", "g2"), mv("f1", "j1"))
    assert not any(isinstance(e, GameEnded) for e in events)
    assert finish_turn(state).phase is Phase.PLAY


def test_nothing_is_played_after_the_end():
    """'Nothing more is played': no pass, Rearrangement or turn in a finished game."""
    position = position_from(LAST_BASE, captured=(0, 8))
    state, _ = play(position, mv("f2", "g2"))
    over = finish_turn(state)
    for attempt in (
        lambda: apply_pass(over),
        lambda: apply_rearrangement(over, Rearrangement(REALM_OF[sq("e2")], ())),
        lambda: begin_turn(over),
    ):
        with pytest.raises(RuleError) as info:
            attempt()
        assert info.value.code == "turn.game-over"


# -- scoring -----------------------------------------------------------------------------------
def test_more_realms_wins():
    """'the player controlling more Realms (own Base on the Center) wins' -- whatever the
    Enforcers: Black has more of them here."""
    position = position_from("""
        . . . . . .
        . B . . B .
        . . . . . .
        n . . . . .
        . b . . . .
        . . . . . .
    """, enforcers_created=(6, 1))
    s = score(position)
    assert s.realms == (2, 1)
    assert s.enforcers == (2, 8)
    assert s.result == "1-0"
    assert "White 2 Realms, Black 1" in s.describe()


def test_powers_do_not_control_a_realm():
    """Control is 'own Base on the Center': Powers in a Realm do not count."""
    position = position_from("""
        . . . . . .
        . b . . . P
        . . . . P P
    """)
    assert score(position).realms == (0, 1)
    assert score(position).result == "0-1"


def test_tie_broken_by_mobile_enforcers_on_the_board_plus_in_supply():
    """'Tie: more mobile Enforcers on the board plus Enforcers still in supply wins.'
    White: 2 mobile + 4 in supply (2 immobilised do not count); Black: 1 mobile + 6."""
    position = position_from("""
        . . . . . .
        . B . N b E
        U U . n . .
    """, enforcers_created=(4, 2))
    s = score(position)
    assert s.realms == (1, 1)
    assert s.enforcers == (6, 7)
    assert s.result == "0-1"
    assert "Enforcers (mobile + in supply) White 6, Black 7" in s.describe()


def test_draw_when_still_equal():
    """'Still equal: draw.' Captured Bases do not count (that is the tie-break variation)."""
    position = position_from("""
        . . . . . .
        . B . u b .
        N U . . . n
    """, captured=(3, 0))
    s = score(position)
    assert s.realms == (1, 1)
    assert s.enforcers == (7, 7)
    assert s.result == "1/2-1/2"
