"""Look-alike letters in a written move, resolved against the position.

Every reading of the squares is judged by the rules; a repair stands only where exactly
one is legal. Readings the rules refuse before any event (no own movable piece on the
start square, no straight line, the stop occupied) are not played out at all, which
must change nothing: the same reading stands, the same readings are listed when more
than one is legal, and the error of the squares as written is the one reported.

Diagrams: files a-l, the window's bottom rank is rank 1 (see ``tests.diagram``).
"""

from __future__ import annotations

import pytest

from pbem.errors import AmbiguousReading, RuleError
from pbem.notation.parse import parse_movetext
from pbem.rules.realm.resolve import resolve_move
from pbem.rules.realm.turns import begin_turn
from pbem.rules.written import MoveText, format_action
from tests.diagram import position_from, sq

#   rank 4: White Powers on i4 and l4 (the h5 and k5 Realms); nothing else
BOTH = """
. . . . . . . . P . . P
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
"""
#   rank 4: a White Power on l4 only
ELL = """
. . . . . . . . . . . P
. . . . . . . . . . . .
. . . . . . . . . . . .
. . . . . . . . . . . .
"""
#   ELL with a White Base on k2, the Center of the Realm of l1
BASED = """
. . . . . . . . . . . P
. . . . . . . . . . . .
. . . . . . . . . . B .
. . . . . . . . . . . .
"""


def written(text: str) -> MoveText:
    entry = parse_movetext("20." + text).items[0]
    action = entry.white.actions[0]
    assert isinstance(action, MoveText)
    return action


def play(diagram: str, text: str):
    state = begin_turn(position_from(diagram, bases_created=(6, 6), powers_placed=(6, 6)))
    return state, resolve_move(state, written(text))


def test_the_one_legal_reading_stands_and_its_note_quotes_the_squares_as_written():
    # I4 may be i4 or l4, I1 i1 or l1: only l4-l1 is a legal move (no piece on i4,
    # and l4 to i1 is no straight line)
    _, (after, resolved) = play(ELL, "PI4I1(Bk2)")
    assert resolved.action.frm == sq("l4") and resolved.action.to == sq("l1")
    (warning,) = resolved.warnings
    assert warning.code == "repair.square"
    assert warning.message == "read 'PI4I1(Bk2)' as 'Pl4l1(Bk2)'"
    assert warning.notes == ("there is no piece on i4",)
    assert after.position.board[sq("k2")] is not None  # the Base it created


def test_two_legal_readings_are_listed_in_reading_order():
    with pytest.raises(AmbiguousReading) as caught:
        play(BOTH, "PI4I1")
    assert caught.value.readings == ("Pi4i1", "Pl4l1")


def test_a_plain_i_that_is_illegal_is_read_as_l_with_the_refusal_as_its_note():
    # i4 is written plainly and holds nothing; l4 holds the Power
    _, (_, resolved) = play(ELL, "Pi4i1")
    assert format_action(resolved.canonical()) == "Pl4l1(Bk2)"
    assert resolved.warnings[0].notes == ("there is no piece on i4",)


def test_with_no_legal_reading_the_error_is_that_of_the_squares_as_written():
    # l4 to l5 stays in the k5 Realm, and i4 holds nothing: every reading is illegal
    with pytest.raises(RuleError) as caught:
        play(ELL, "Pl4l5")
    assert caught.value.code == "move.same-realm"
    assert caught.value.message.startswith("the Power on l4 cannot stop on l5")


def test_an_event_refused_under_every_reading_is_refused_as_first_read():
    # the stop on l1 creates a Base on k2; the Base is written on 'I2', read i2 first
    # (then l2): neither is what the rules make happen
    with pytest.raises(RuleError) as caught:
        play(ELL, "Pl4l1(BI2)")
    assert caught.value.code == "event.mismatch"
    assert caught.value.message == (
        "the record says (Bi2), but the rules give (Bk2) after Pl4l1"
    )


def test_a_look_alike_event_square_is_read_into_the_realm_of_the_stop():
    # the stop on l1 creates an Enforcer in the k2 Realm; 'I3' is read i3 first, which
    # is outside that Realm (never tried), then l3, inside it: that reading stands
    _, (after, resolved) = play(BASED, "Pl4l1(EI3W)")
    assert format_action(resolved.canonical()) == "Pl4l1(El3W)"
    (warning,) = resolved.warnings
    assert warning.message == "read 'Pl4l1(EI3W)' as 'Pl4l1(El3W)'"
    assert warning.notes[0].startswith("the record says (Ei3W), but the created Enforcer")
    assert after.position.board[sq("l3")] is not None


def test_a_plain_event_square_outside_the_realm_of_the_stop_is_read_as_l_inside_it():
    # i3, written plainly, is outside the k2 Realm: refused as written; l3 is legal
    _, (_, resolved) = play(BASED, "Pl4l1(Ei3W)")
    assert format_action(resolved.canonical()) == "Pl4l1(El3W)"
    assert resolved.warnings[0].code == "repair.square"
