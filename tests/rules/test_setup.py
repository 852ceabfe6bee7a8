"""Set-up of the Featured Game: Bases on Centers, then Powers on Border squares."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.geometry import CENTER, square_name
from pbem.rules.pieces import Kind, Side, base, power
from pbem.rules.realm.actions import BaseCreated, Placement
from pbem.rules.realm.position import Phase, Position, initial_position
from pbem.rules.realm.ruleset import Ruleset
from pbem.rules.realm.setup import apply_placement, legal_base_realms
from pbem.rules.realm.turns import begin_turn
from tests.diagram import render, sq

W, B = Side.WHITE, Side.BLACK
KINDS = {"B": Kind.BASE, "P": Kind.POWER}
#: the article's sample game: 1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9
SAMPLE_BASES = "Bh11 Bh2 Be8 Be5 Bb5 Bb8"
SAMPLE_POWERS = "Pi10 Pg3 Pf7 Pd6 Pc4 Pc9"


def placement(text: str) -> Placement:
    return Placement(KINDS[text[0]], sq(text[1:]))


def place(position: Position, texts: str) -> Position:
    """Apply placements written like ``"Bh11 Bh2 Pi10"``, alternately."""
    for text in texts.split():
        position, _ = apply_placement(position, placement(text))
    return position


def refused(position: Position, text: str) -> RuleError:
    with pytest.raises(RuleError) as info:
        apply_placement(position, placement(text))
    return info.value


# -- Bases -------------------------------------------------------------------------
def test_white_places_the_first_base_then_black():
    """'Players alternately place one Base ..., White first.'"""
    start = initial_position()
    assert start.phase is Phase.SETUP
    assert start.to_move is W
    after, events = apply_placement(start, placement("Bh11"))
    assert after.board[sq("h11")] == base(W)
    assert events == [BaseCreated(W, sq("h11"))]
    assert after.to_move is B
    assert after.bases_created == (1, 0)


def test_placements_alternate_so_the_next_base_is_blacks():
    """Alternation: a second placement in a row is the other side's, never White's again."""
    after = place(initial_position(), "Bh11 Bh2")
    assert after.board[sq("h2")] == base(B)
    assert after.bases_created == (1, 1)
    assert after.to_move is W


def test_base_goes_on_the_center_of_a_vacant_realm():
    """'place one Base on the Center of any vacant Realm'."""
    after = place(initial_position(), "Bk2")
    assert after.board[sq("k2")] == base(W)


@pytest.mark.parametrize("name", ["g11", "h10", "a1", "l12"])
def test_base_not_on_a_border_square(name):
    """A Base is placed only on a Center."""
    exc = refused(initial_position(), "B" + name)
    assert exc.code == "setup.base-center"
    assert "is not one" in exc.message


def test_base_not_in_an_occupied_realm():
    """The Realm must be vacant: Black cannot place on White's h11."""
    position = place(initial_position(), "Bh11")
    exc = refused(position, "Bh11")
    assert exc.code == "setup.base-vacant"
    assert "not vacant" in exc.message
    assert position.board[sq("h11")] == base(W)


@pytest.mark.parametrize("name", ["h8", "h5", "h2", "b11", "e11", "k11"])
def test_base_not_in_the_same_row_or_column_of_realms_as_own_earlier_base(name):
    """'A Base may not go in the same row or column of Realms as a Base that the same
    player placed before.'"""
    position = place(initial_position(), "Bh11 Bk2")
    exc = refused(position, "B" + name)
    assert exc.code == "setup.row-column"
    assert "same row or column" in exc.message


@pytest.mark.parametrize("name", ["b8", "e8", "e5", "b2", "e2"])
def test_base_allowed_outside_own_rows_and_columns(name):
    """Realms in another row and column of Realms are open (b8 shares nothing with h11)."""
    position = place(initial_position(), "Bh11 Bk2")
    after = place(position, "B" + name)
    assert after.board[sq(name)] == base(W)


def test_restriction_ignores_the_opponents_bases():
    """Only Bases 'that the same player placed before' restrict: Black may share h11's row."""
    after = place(initial_position(), "Bh11 Bk11 Be8")
    assert after.board[sq("k11")] == base(B)
    # but Black's own k11 now bars Black's k2
    assert refused(after, "Bk2").code == "setup.row-column"


def test_restriction_lapses_when_no_vacant_center_satisfies_it():
    """'Where no vacant Center satisfies this (possible only with 4 set-up Bases), it lapses
    for that placement'. White's b2, e5, h8 leave only k11, which Black has taken."""
    rs = Ruleset(setup_bases=4, powers=4)
    position = place(initial_position(rs), "Bb2 Bk11 Be5 Bb5 Bh8 Be2")
    vacant = [r for r in range(16) if position.board[CENTER[r]] is None]
    assert len(vacant) == 10
    assert legal_base_realms(position, W) == vacant
    after = place(position, "Bb11")  # column of b2, row of k11: allowed now
    assert after.board[sq("b11")] == base(W), render(after)
    # Black's k11, b5, e2 leave only h8, which White holds: it lapses for Black too
    after = place(after, "Bh2")
    assert after.board[sq("h2")] == base(B)
    assert after.bases_created == (4, 4)


def test_restriction_holds_with_four_bases_while_a_center_satisfies_it():
    """The restriction holds 'for as long as possible': k11 is still free, so b8 is barred."""
    rs = Ruleset(setup_bases=4, powers=4)
    position = place(initial_position(rs), "Bb2 Bh2 Be5 Bk5 Bh8 Bb11")
    exc = refused(position, "Bb8")
    assert exc.code == "setup.row-column"
    assert [square_name(CENTER[r]) for r in legal_base_realms(position, W)] == ["k11"]
    assert place(position, "Bk11").board[sq("k11")] == base(W)


# -- Powers ------------------------------------------------------------------------
def test_powers_only_after_all_setup_bases():
    """'Then players alternately place one Power': not before every set-up Base is down."""
    position = place(initial_position(), "Bh11 Bh2 Be8 Be5 Bb5")
    exc = refused(position, "Pa3")  # Black still owes a Base
    assert exc.code == "setup.order"
    assert "all set-up Bases are placed before the Powers" in exc.message


def test_no_base_once_the_setup_bases_are_down():
    """After each side's 3 set-up Bases come the Powers, not a fourth Base."""
    position = place(initial_position(), SAMPLE_BASES)
    exc = refused(position, "Bk2")
    assert exc.code == "setup.order"
    assert "must place a Power" in exc.message


def test_white_places_the_first_power_on_a_border_square_of_an_own_base_realm():
    """'place one Power on any empty Border square of a Realm holding their own Base ...,
    White first.'"""
    position = place(initial_position(), SAMPLE_BASES)
    assert position.to_move is W
    after = place(position, "Pi10")
    assert after.board[sq("i10")] == power(W)
    assert after.powers_placed == (1, 0)
    assert after.to_move is B


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("h11", "is a Center"),
        ("g3", "holds none"),  # Black's h2 Realm
        ("k12", "holds none"),  # a vacant Realm
    ],
)
def test_power_not_outside_the_border_of_own_base_realms(name, phrase):
    """'any empty Border square of a Realm holding their own Base': not a Center, not an
    enemy or vacant Realm."""
    position = place(initial_position(), SAMPLE_BASES)
    exc = refused(position, "P" + name)
    assert exc.code == "setup.power-square"
    assert phrase in exc.message


def test_power_not_on_an_occupied_square():
    """The Border square must be empty."""
    position = place(initial_position(), SAMPLE_BASES + " Pi10 Pg3 Pf7 Pd6 Pc4")
    exc = refused(position, "Pg3")  # Black's own Power stands there
    assert exc.code == "setup.power-square"
    assert "g3 is not empty" in exc.message


def test_at_most_one_power_per_own_base_realm():
    """'at most one Power per such Realm'."""
    position = place(initial_position(), SAMPLE_BASES + " Pi10 Pg3")
    exc = refused(position, "Pg12")  # h11 Realm holds White's i10 already
    assert exc.code == "setup.power-square"
    assert "already holds a White Power" in exc.message
    assert place(position, "Pf7").board[sq("f7")] == power(W)


def test_extra_powers_go_to_any_own_base_realm_once_each_holds_one():
    """'If a side has more Powers than set-up Bases, its extra Powers go, after each of its
    Realms holds one, on a Border square of any Realm holding its own Base.' (4 Powers)"""
    rs = Ruleset(powers=4)
    position = place(initial_position(rs), SAMPLE_BASES + " " + SAMPLE_POWERS)
    assert position.phase is Phase.SETUP
    after = place(position, "Pg12")  # second White Power in the h11 Realm
    assert after.board[sq("g12")] == power(W)
    assert refused(after, "Pa1").code == "setup.power-square"  # still not in a vacant Realm


def test_play_begins_after_the_last_power_with_white_to_move():
    """The phase becomes play after the last Power; 'White is the first player'."""
    position = place(initial_position(), SAMPLE_BASES + " " + SAMPLE_POWERS)
    assert position.phase is Phase.PLAY
    assert position.to_move is W
    assert position.powers_placed == (3, 3)
    assert position.ply == 12
    assert begin_turn(position).position is position
    exc = refused(position, "Pa1")
    assert exc.code == "setup.over"


def test_no_turn_is_played_before_the_last_power():
    """Play begins only when the set-up is complete."""
    position = place(initial_position(), SAMPLE_BASES + " Pi10 Pg3 Pf7 Pd6 Pc4")
    assert position.phase is Phase.SETUP
    assert position.to_move is B
    with pytest.raises(RuleError) as info:
        begin_turn(position)
    assert info.value.code == "turn.setup"
