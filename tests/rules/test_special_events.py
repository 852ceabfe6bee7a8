"""Special events: after each stop at most one happens; they are compulsory.

Most diagrams are a window of the b2 and e2 Realms (files a-f, ranks 1-3, from a1):
a piece starts on c2 in the b2 Realm and stops on d2 in the e2 Realm.
"""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.geometry import Direction
from pbem.rules.pieces import Side
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Move,
)
from pbem.rules.realm.position import Position
from tests.diagram import assert_board, mv, play, position_from, render, sq

W, B = Side.WHITE, Side.BLACK


def stop(position: Position, move: Move):
    """The position after one move, and its events."""
    state, events = play(position, move)
    return state.position, events


def refused(position: Position, move: Move) -> RuleError:
    with pytest.raises(RuleError) as info:
        play(position, move)
    return info.value


# -- a Power stops: Base created ----------------------------------------------------------
def test_power_creates_a_base_on_the_empty_center():
    """'Base created if R's Center is empty, no enemy Power is in R, and the mover has a
    Base in supply.'"""
    position = position_from("""
        . . . . . .
        . . P . . .
        . . . . . .
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCreated(W, sq("e2"))]
    assert_board(after, """
        . . . . . .
        . . . P B .
        . . . . . .
    """)
    assert after.bases_created == (1, 0)
    assert after.bases_in_supply(W) == 11


def test_base_created_beside_a_friendly_power_and_an_enemy_enforcer():
    """Only an enemy Power stops it (not a friendly Power, not an enemy Enforcer)."""
    position = position_from("""
        . . . . . s
        . . P . . .
        . . . . . P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCreated(W, sq("e2"))]
    assert after.board[sq("e2")] == position_from("B").board[0]


def test_no_base_where_an_enemy_power_stands():
    """'... no enemy Power is in R': the Black Power on f1 prevents the Base."""
    position = position_from("""
        . . . . . .
        . . P . . .
        . . . . . p
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.board[sq("e2")] is None, render(after)
    assert after.bases_created == (0, 0)


def test_black_power_creates_a_black_base():
    """Base creation works the same for Black, from Black's supply."""
    position = position_from("""
        . . . . . .
        . . p . . .
        . . . . . .
    """, to_move=B)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCreated(B, sq("e2"))]
    assert after.bases_created == (0, 1)


def test_no_base_and_no_enforcer_with_an_empty_supply():
    """'... and the mover has a Base in supply.' With all 12 created nothing happens."""
    position = position_from("""
        . . . . . .
        . . P . . .
        . . . . . .
    """, bases_created=(12, 0))
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.board[sq("e2")] is None
    exc = refused(position, mv("c2", "d2", create="d1N"))
    assert exc.code == "event.no-enforcer"
    assert "not controlled by White" in exc.message


def test_a_stop_that_creates_a_base_creates_no_enforcer():
    """Base creation comes first ('Otherwise Enforcer created ...')."""
    position = position_from("""
        . . . . . .
        . . P . . .
        . . . . . .
    """)
    exc = refused(position, mv("c2", "d2", create="d1N"))
    assert exc.code == "event.base-not-enforcer"
    assert "creates a Base on e2" in exc.message


def test_power_in_an_enemy_realm_creates_nothing():
    """An enemy Base on the Center: neither a Base nor an Enforcer is created."""
    position = position_from("""
        . . . . . .
        . . P . b .
        . . . . . .
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert_board(after, """
        . . . . . .
        . . . P b .
        . . . . . .
    """)


# -- a Power stops: Enforcer created -----------------------------------------------------------
OWN_REALM = """
    . . . . . .
    . . P . B .
    . . . . . .
"""


def test_power_in_own_realm_must_say_where_the_enforcer_goes():
    """'Enforcer created if R's Center holds the mover's own Base, no mobile Enforcer of
    either side is in R, ...: the mover chooses the square and the facing.' Events are
    compulsory, so a Move without the choice is refused and the options listed."""
    exc = refused(position_from(OWN_REALM), mv("c2", "d2"))
    assert exc.code == "event.enforcer-choice"
    assert "where it goes and which way it points" in exc.message
    empty = ["d1", "e1", "f1", "f2", "d3", "e3", "f3"]
    assert set(exc.options) == {f"E{s}{d}" for s in empty for d in "NESW"}
    assert "Ed2N" not in exc.options  # the Power stands there
    assert "Ee2N" not in exc.options  # the Base's Center


def test_power_in_own_realm_creates_the_chosen_enforcer():
    """The Enforcer goes where the mover chose, pointing the chosen way, from supply."""
    after, events = stop(position_from(OWN_REALM), mv("c2", "d2", create="f3S"))
    assert events == [EnforcerCreated(W, sq("f3"), Direction.S)]
    assert_board(after, """
        . . . . . S
        . . . P B .
        . . . . . .
    """)
    assert after.enforcers_created == (1, 0)
    assert after.enforcers_in_supply(W) == 7


def test_created_enforcer_goes_on_an_empty_square_of_the_realm():
    """The chosen square must be an empty square of R (not outside, not the Center, not the
    Power's)."""
    for bad in ("c1N", "e2N", "d2N"):
        exc = refused(position_from(OWN_REALM), mv("c2", "d2", create=bad))
        assert exc.code == "event.enforcer-square", bad
        assert "empty square of the e2 Realm" in exc.message
        assert "Ef3S" in exc.options


@pytest.mark.parametrize("token", ["N", "s"])
def test_no_enforcer_created_beside_a_mobile_enforcer(token):
    """'... no mobile Enforcer of either side is in R'."""
    position = position_from(OWN_REALM.replace(". . . . . .", f". . . . . {token}", 1))
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.enforcers_created == position.enforcers_created
    exc = refused(position, mv("c2", "d2", create="d1N"))
    assert exc.code == "event.no-enforcer"
    assert "a mobile Enforcer stands in the e2 Realm" in exc.message


def test_enforcer_created_beside_immobilised_enforcers_only():
    """'Immobilised Enforcers ... do not count as "mobile Enforcers".'"""
    position = position_from("""
        . . . U . u
        . . P . B .
        . . . . . .
    """)
    after, events = stop(position, mv("c2", "d2", create="d1E"))
    assert events == [EnforcerCreated(W, sq("d1"), Direction.E)]
    assert_board(after, """
        . . . U . u
        . . . P B .
        . . . E . .
    """)


def test_no_enforcer_created_without_one_in_supply():
    """'... the mover has an Enforcer in supply'."""
    position = position_from(OWN_REALM, enforcers_created=(8, 0))
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.enforcers_created == (8, 0)
    exc = refused(position, mv("c2", "d2", create="d1N"))
    assert exc.code == "event.no-enforcer"
    assert "no Enforcer left in supply" in exc.message


def test_no_enforcer_created_in_a_full_realm():
    """'... and R has an empty square.'"""
    position = position_from("""
        . . . U u p
        . . P . B u
        . . . U u P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.enforcers_created == position.enforcers_created
    exc = refused(position, mv("c2", "d2", create="d1N"))
    assert exc.code == "event.no-enforcer"
    assert "no empty square" in exc.message


def test_a_power_never_immobilises():
    """Immobilisation follows an Enforcer's stop, never a Power's."""
    exc = refused(position_from(OWN_REALM), mv("c2", "d2", create="d1N", immobilise="d1"))
    assert exc.code == "event.power-immobilise"


# -- an Enforcer stops: immobilisation ------------------------------------------------------------
def test_enforcer_immobilises_the_enemy_enforcer_and_itself():
    """'Immobilisation if R holds one or more mobile enemy Enforcers ... The mover is
    immobilised too, unless its side has more Powers in R than the enemy.'"""
    position = position_from("""
        . . . . . s
        . . E . . .
        . . . . . .
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [
        EnforcerImmobilised(B, sq("f3"), own=False),
        EnforcerImmobilised(W, sq("d2"), own=True),
    ]
    assert_board(after, """
        . . . . . u
        . . . U . .
        . . . . . .
    """)


def test_enforcer_stays_mobile_when_its_powers_outnumber_the_enemys():
    """'The mover is immobilised too, unless its side has more Powers in R than the enemy'
    (2 to 1)."""
    position = position_from("""
        . . . . . s
        . . E . . .
        . . . p P P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [EnforcerImmobilised(B, sq("f3"), own=False)]
    assert after.board[sq("d2")] == position_from("E").board[0]
    assert after.board[sq("f3")] == position_from("u").board[0]


@pytest.mark.parametrize("powers", [". . . p . P", ". . . p p P", ". . . . . p"])
def test_enforcer_immobilised_too_with_equal_or_fewer_powers(powers):
    """Equal or fewer Powers: the mover is immobilised with its target."""
    position = position_from(f"""
        . . . . . s
        . . E . . .
        {powers}
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert EnforcerImmobilised(W, sq("d2"), own=True) in events
    assert after.board[sq("d2")] == position_from("U").board[0]


TWO_TARGETS = """
    . . . . . s
    . . E . . .
    . . . . n .
"""


def test_choice_required_among_several_enemy_enforcers():
    """'the mover chooses one and it is immobilised'."""
    exc = refused(position_from(TWO_TARGETS), mv("c2", "d2"))
    assert exc.code == "event.immobilise-choice"
    assert "the record must say which" in exc.message
    assert sorted(exc.options) == ["xEe1", "xEf3"]


def test_only_the_chosen_enemy_enforcer_is_immobilised():
    """One enemy Enforcer is immobilised, the chosen one; the other stays mobile."""
    after, events = stop(position_from(TWO_TARGETS), mv("c2", "d2", immobilise="e1"))
    assert events == [
        EnforcerImmobilised(B, sq("e1"), own=False),
        EnforcerImmobilised(W, sq("d2"), own=True),
    ]
    assert_board(after, """
        . . . . . s
        . . . U . .
        . . . . u .
    """)


@pytest.mark.parametrize("target", ["d1", "d2", "a1"])
def test_chosen_enforcer_must_be_a_mobile_enemy_one_in_the_realm(target):
    """The choice must name one of R's mobile enemy Enforcers."""
    exc = refused(position_from(TWO_TARGETS), mv("c2", "d2", immobilise=target))
    assert exc.code == "event.immobilise-target"
    assert "are on e1, f3" in exc.message


def test_immobilised_enemy_enforcers_are_not_immobilised_again():
    """Only mobile enemy Enforcers are targets; with none, nothing happens here."""
    position = position_from("""
        . . . . . u
        . . E . . .
        . . . . . .
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.board[sq("d2")] == position_from("E").board[0]
    exc = refused(position, mv("c2", "d2", immobilise="f3"))
    assert exc.code == "event.no-enemy-enforcer"


def test_an_enforcer_never_creates():
    """Only Powers create: an Enforcer in an empty Realm makes no Base."""
    position = position_from("""
        . . . . . .
        . . E . . .
        . . . . . .
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.board[sq("e2")] is None
    exc = refused(position, mv("c2", "d2", create="d1N"))
    assert exc.code == "event.enforcer-create"


# -- an Enforcer stops: capture -----------------------------------------------------------------
def test_capture_by_one_power_immobilises_the_capturer():
    """'Capture if R's Center holds an enemy Base and the mover's side has more Powers in R
    than the enemy: the Base is removed and kept by the capturer. If the Power margin is
    exactly one, the mover is immobilised'."""
    position = position_from("""
        . . . . . .
        . . E . b .
        . . . . . P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCaptured(W, sq("e2")), EnforcerImmobilised(W, sq("d2"), own=True)]
    assert_board(after, """
        . . . . . .
        . . . U . .
        . . . . . P
    """)
    assert after.captured == (1, 0)
    assert after.bases_created == position.bases_created  # a capture creates nothing


@pytest.mark.parametrize("powers", [". . . . P P", ". . p P P P"])
def test_capture_by_two_or_more_keeps_the_capturer_mobile(powers):
    """'if two or more, it stays mobile.'"""
    position = position_from(f"""
        . . . . . .
        . . E . b .
        {powers}
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCaptured(W, sq("e2"))]
    assert after.board[sq("d2")] == position_from("E").board[0]
    assert after.board[sq("e2")] is None
    assert after.captured == (1, 0)


@pytest.mark.parametrize("powers", [". . . . p P", ". . . . . .", ". . . p p P"])
def test_no_capture_without_more_powers(powers):
    """'the mover's side has more Powers in R than the enemy': equal or none is not enough."""
    position = position_from(f"""
        . . . . . .
        . . E . b .
        {powers}
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.board[sq("e2")] == position.board[sq("e2")]
    assert after.captured == (0, 0)


def test_no_capture_while_a_mobile_enemy_enforcer_stands_there():
    """'No capture happens on this stop': immobilisation instead, the Base stays."""
    position = position_from("""
        . . . . . .
        . . E . b .
        . . . n P P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [EnforcerImmobilised(B, sq("d1"), own=False)]
    assert_board(after, """
        . . . . . .
        . . . E b .
        . . . u P P
    """)
    assert after.captured == (0, 0)


def test_capture_past_an_immobilised_enemy_enforcer():
    """An immobilised enemy Enforcer does not guard the Base."""
    position = position_from("""
        . . . . . .
        . . E . b .
        . . . u P P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCaptured(W, sq("e2"))]
    assert after.board[sq("e2")] is None


def test_no_capture_of_an_own_base():
    """Capture takes an enemy Base only."""
    position = position_from("""
        . . . . . .
        . . E . B .
        . . . . P P
    """)
    after, events = stop(position, mv("c2", "d2"))
    assert events == []
    assert after.board[sq("e2")] == position.board[sq("e2")]


def test_black_captures_a_white_base():
    """Capture works the same for Black; the capture is counted for Black."""
    position = position_from("""
        . . . . . .
        . . e . B .
        . . . . p .
    """, to_move=B)
    after, events = stop(position, mv("c2", "d2"))
    assert events == [BaseCaptured(B, sq("e2")), EnforcerImmobilised(B, sq("d2"), own=True)]
    assert after.captured == (0, 1)
