"""A refused move names the legal moves of that piece, when there are few (or none)."""

from __future__ import annotations

import pytest

from pbem.rules.realm.game import ALTERNATIVES
from tests.records.test_corrupted import corrupt, replay_of


def test_a_blocked_enforcer_is_told_its_only_move():
    replay = replay_of(corrupt(("Ed2c2", "Ed2a2")))
    e = replay.error
    assert (e.code, e.turn, e.action) == ("move.blocked", "8b", "Ed2a2")
    assert e.options == ("Ed2c2",)


def test_the_alternatives_respect_the_turn_so_far():
    """After Pf7f12 (out of the e8 Realm), the Enforcer on d4 may only join the e11 Realm."""
    replay = replay_of(corrupt(("Ed4d10", "Ed4a4")))
    e = replay.error
    assert (e.code, e.turn) == ("turn.dispersal-or-concentration", "10w")
    assert e.options == ("Ed4d10", "Ed4d11", "Ed4d12")


def test_every_alternative_is_legal_in_the_record():
    replay = replay_of(corrupt(("Ed4d10", "Ed4a4")))
    for option in replay.error.options:
        fixed = replay_of(corrupt(("Ed4d10", option)))
        assert "10w" in [t.label for t in fixed.turns], option


def test_a_piece_with_no_legal_move_is_said_to_have_none():
    replay = replay_of(corrupt(("Pc4g4(Ei4W)", "Pf7f1")))
    e = replay.error
    assert e.code == "turn.dispersal-or-concentration"
    assert e.message.endswith("; the Power on f7 has no legal move now")
    assert e.options == ()


def test_many_alternatives_are_not_listed():
    replay = replay_of(corrupt(("Pi10i6(Bh5)", "Pi10h10(Bh5)")))
    e = replay.error
    assert e.code == "move.same-realm"
    assert e.options == ()
    assert "legal move" not in e.message
    assert ALTERNATIVES == 12


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("Pi10i6(Bh5)", "Pg3g4", "move.not-own"),  # not the mover's piece
        ("Pi10i6(Bh5)", "Ph11h10", "move.base"),  # a Base never moves
    ],
)
def test_no_alternatives_for_a_piece_the_mover_cannot_move(old, new, code):
    e = replay_of(corrupt((old, new))).error
    assert e.code == code
    assert e.options == ()
    assert "legal move" not in e.message


def test_the_rules_own_choices_are_kept():
    e = replay_of(corrupt(("Pc4g4(Ei4W)", "Pc4g4"))).error
    assert e.code == "event.enforcer-choice"
    assert len(e.options) == 6 * 4 and "Ei4W" in e.options


def test_a_wrong_event_lists_the_moves_with_their_events():
    e = replay_of(corrupt(("Ed2c2", "Ed2c2(xBb2)"))).error
    assert e.code == "event.mismatch"
    assert e.options == ("Ed2c2",)
