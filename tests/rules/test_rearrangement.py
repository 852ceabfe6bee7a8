"""Rearrangement: all own Powers and Enforcers of one Realm put back on its squares."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.geometry import REALM_OF, Direction
from pbem.rules.pieces import Side, enforcer, power
from pbem.rules.realm.actions import Rearrangement
from pbem.rules.realm.position import Phase, Position
from pbem.rules.realm.turns import apply_pass, apply_rearrangement, finish_turn
from tests.diagram import assert_board, mv, play, position_from, render, sq

W, B = Side.WHITE, Side.BLACK


def rearrangement(realm: str, items: str, side: Side = W) -> Rearrangement:
    """``rearrangement("b2", "Pc2 Ea2W Eb3U")``, as in the notation ``Rb2(Pc2,Ea2W,Eb3U)``."""
    placements = []
    for item in items.split():
        if item[0] == "P":
            placements.append((sq(item[1:]), power(side)))
        else:
            facing = None if item[-1] == "U" else Direction[item[-1]]
            placements.append((sq(item[1:-1]), enforcer(side, facing)))
    return Rearrangement(REALM_OF[sq(realm)], tuple(placements))


def refused(position: Position, action: Rearrangement) -> RuleError:
    with pytest.raises(RuleError) as info:
        apply_rearrangement(position, action)
    return info.value


# the b2 Realm: White Power a1, Enforcers c3 (North) and c1 (immobilised), White Base on
# the Center, a Black Power on a3
B2 = """
    p . N
    . B .
    P . U
"""


def test_rearrangement_puts_back_every_own_power_and_enforcer():
    """'the mover picks up all of its own Powers and Enforcers in one Realm and puts them
    back on squares of that Realm (not the Center; Bases stay).'"""
    after, events = apply_rearrangement(position_from(B2), rearrangement("b2", "Pc2 Ea2W Eb3U"))
    assert events == []
    assert_board(after, """
        p U .
        W B P
        . . .
    """)
    assert after.to_move is B
    assert after.ply == 1


def test_rearrangement_makes_no_special_event():
    """'No special events': a Power put back beside an empty Center creates no Base."""
    position = position_from("""
        . . .
        . . .
        P . .
    """)
    after, events = apply_rearrangement(position, rearrangement("b2", "Pc3"))
    assert events == []
    assert after.board[sq("b2")] is None
    assert after.bases_created == (0, 0)


@pytest.mark.parametrize("items", ["Pc2 Ea2W", "Pc2 Eb3U", "Ea2W Eb3U", "Pc2 Ea2W Eb3W"])
def test_rearrangement_must_put_back_exactly_the_realms_own_pieces(items):
    """'picks up all of its own Powers and Enforcers ... and puts them back': no piece left
    out, none changed."""
    exc = refused(position_from(B2), rearrangement("b2", items))
    assert exc.code == "rearrange.pieces"
    assert "puts back exactly those" in exc.message


def test_rearrangement_cannot_add_a_piece():
    """A Rearrangement puts back the pieces it picked up, and no more."""
    exc = refused(position_from(B2), rearrangement("b2", "Pc2 Pa2 Ea1W Eb3U"))
    assert exc.code == "rearrange.pieces"
    assert "1 Power and 1 mobile Enforcer and 1 immobilised Enforcer" in exc.message


def test_rearrangement_not_on_the_center():
    """'(not the Center; ...)'"""
    exc = refused(position_from(B2), rearrangement("b2", "Pb2 Ea2W Eb3U"))
    assert exc.code == "rearrange.center"
    assert "b2 is the Center" in exc.message


def test_rearrangement_stays_in_its_realm():
    """'puts them back on squares of that Realm'."""
    exc = refused(position_from(B2), rearrangement("b2", "Pd1 Ea2W Eb3U"))
    assert exc.code == "rearrange.outside"
    assert "d1 is not in the b2 Realm" in exc.message


def test_enemy_pieces_stay_where_they_are():
    """Only the mover's pieces are picked up: the Black Power on a3 keeps its square."""
    exc = refused(position_from(B2), rearrangement("b2", "Pa3 Ea2W Eb3U"))
    assert exc.code == "rearrange.occupied"
    assert "stays where it is" in exc.message


def test_the_opponents_pieces_are_not_rearranged():
    """The mover rearranges 'its own' pieces (moving the opponent's is a variation)."""
    action = rearrangement("b2", "Pc2 Ea2W Eb3U")
    action = Rearrangement(action.realm, (*action.placements, (sq("b1"), power(B))))
    exc = refused(position_from(B2), action)
    assert exc.code == "rearrange.opponent"


def test_two_pieces_cannot_share_a_square():
    """Each piece put back needs a square of its own."""
    exc = refused(position_from(B2), rearrangement("b2", "Pc2 Ec2W Eb3U"))
    assert exc.code == "rearrange.twice"


@pytest.mark.parametrize("facing", ["E", "S", "W"])
def test_a_mobile_enforcer_may_take_any_facing(facing):
    """'Mobile Enforcers may take any facing' -- even the opposite of its old point, on the
    same square; that alone changes the position."""
    after, _ = apply_rearrangement(position_from(B2), rearrangement("b2", f"Pa1 Ec3{facing} Ec1U"))
    assert after.board[sq("c3")] == enforcer(W, Direction[facing]), render(after)


def test_an_immobilised_enforcer_stays_immobilised():
    """'... immobilised ones stay immobilised' (it may change square, not state)."""
    for items in ("Pa1 Ec3N Ec1E", "Pa1 Ec3U Ec1U"):
        exc = refused(position_from(B2), rearrangement("b2", items))
        assert exc.code == "rearrange.pieces", items
    after, _ = apply_rearrangement(position_from(B2), rearrangement("b2", "Pa1 Ec3N Ea2U"))
    assert after.board[sq("a2")] == enforcer(W, None)
    assert after.board[sq("c1")] is None


def test_the_position_must_change():
    """'The position must change.'"""
    exc = refused(position_from(B2), rearrangement("b2", "Pa1 Ec3N Ec1U"))
    assert exc.code == "rearrange.unchanged"
    assert "must change the position" in exc.message


def test_swapping_two_powers_changes_nothing():
    """'The position must change': exchanging two like pieces leaves it as it was."""
    position = position_from("""
        . . P
        . . .
        P . .
    """)
    exc = refused(position, rearrangement("b2", "Pc3 Pa1"))
    assert exc.code == "rearrange.unchanged"


def test_nothing_to_rearrange():
    """A Realm without own Powers or Enforcers cannot be rearranged."""
    exc = refused(position_from(B2), rearrangement("e2", ""))
    assert exc.code == "rearrange.nothing"
    exc = refused(position_from(B2), Rearrangement(REALM_OF[sq("e5")], ()))
    assert exc.code == "rearrange.nothing"
    assert "no Power or Enforcer in the e5 Realm" in exc.message


def test_black_rearranges_its_own_pieces():
    """Black rearranges Black's pieces, and then White is to move."""
    after, _ = apply_rearrangement(position_from(B2, to_move=B), rearrangement("b2", "Pa2", B))
    assert after.board[sq("a2")] == power(B)
    assert after.board[sq("a3")] is None
    assert after.to_move is W


def test_no_rearrangement_during_setup():
    """Rearrangement is a turn of play, not of set-up."""
    exc = refused(position_from(B2, phase=Phase.SETUP), rearrangement("b2", "Pc2 Ea2W Eb3U"))
    assert exc.code == "turn.setup"


# -- three in a row --------------------------------------------------------------------------
# White: Power a1 and Enforcer c3 in the b2 Realm, a Power on d1 in the e2 Realm.
# Black: an Enforcer on l12 that walks down the l file, one Realm a turn.
LIMIT = """
    . . . . . . . . . . . s
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . N . . . . . . . . .
    . . . . . . . . . . . .
    P . . P . . . . . . . .
"""
B2_ONE = rearrangement("b2", "Pa2 Ec3N")
B2_TWO = rearrangement("b2", "Pa1 Ec3N")
B2_THREE = rearrangement("b2", "Pa3 Ec3N")
E2 = rearrangement("e2", "Pd3")


def black_moves(position: Position) -> Position:
    frm = next(s for s in ("l12", "l9", "l6", "l3") if position.board[sq(s)] is not None)
    to = {"l12": "l9", "l9": "l6", "l6": "l3", "l3": "l1"}[frm]
    state, _ = play(position, mv(frm, to))
    return finish_turn(state)


def white_turns(*actions) -> Position:
    """White's turns (a Rearrangement, or a Move as a one-piece Dispersal), each answered
    by Black; the position with White to move after them."""
    position = position_from(LIMIT)
    for action in actions:
        if isinstance(action, Rearrangement):
            position, _ = apply_rearrangement(position, action)
        else:
            state, _ = play(position, action)
            position = finish_turn(state)
        position = black_moves(position)
    assert position.to_move is W
    return position


def test_third_rearrangement_of_a_realm_in_a_row_is_refused():
    """'A player may not rearrange the same Realm on three of his turns in a row.'"""
    position = white_turns(B2_ONE, B2_TWO)
    exc = refused(position, B2_THREE)
    assert exc.code == "rearrange.limit"
    assert "three turns in a row" in exc.message


def test_two_rearrangements_of_a_realm_in_a_row_are_allowed():
    """The limit bites only on the third turn in a row."""
    position = white_turns(B2_ONE)
    after, _ = apply_rearrangement(position, B2_TWO)
    assert after.board[sq("a1")] == power(W)


def test_rearranging_another_realm_in_between_resets_the_count():
    """'the same Realm on three of his turns in a row': b2, e2, b2, b2 is allowed."""
    position = white_turns(B2_ONE, E2, B2_TWO)
    after, _ = apply_rearrangement(position, B2_THREE)
    assert after.board[sq("a3")] == power(W)


def test_a_normal_turn_in_between_resets_the_count():
    """A Dispersal in between breaks the run: b2, move, b2, b2 is allowed."""
    position = white_turns(B2_ONE, mv("d1", "g1"), B2_TWO)
    after, _ = apply_rearrangement(position, B2_THREE)
    assert after.board[sq("a3")] == power(W)


def test_another_realm_is_open_while_one_is_at_the_limit():
    """The limit is per Realm: another Realm may be rearranged."""
    position = white_turns(B2_ONE, B2_TWO)
    after, _ = apply_rearrangement(position, E2)
    assert after.board[sq("d3")] == power(W)


def test_the_opponents_turns_do_not_count_toward_the_limit():
    """Only 'his' turns count: Black's moves between White's do not reset White's count,
    and White's Rearrangements do not count against Black."""
    position = white_turns(B2_ONE, B2_TWO)
    assert refused(position, B2_THREE).code == "rearrange.limit"
    black = position_from(LIMIT, to_move=B, rearranged=((REALM_OF[sq("b2")], 2), (-1, 0)))
    after, _ = apply_rearrangement(black, rearrangement("k11", "El12W", B))
    assert after.board[sq("l12")] == enforcer(B, Direction.W)


# White's only piece is a Power boxed into the a1 corner; it rearranged b2 twice already.
BOXED = """
    . . . . . . . . . . . p
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    . . . . . . . . . . . .
    u . . . . . . . . . . .
    P u . . . . . . . . . .
"""
AT_LIMIT = ((REALM_OF[sq("b2")], 2), (-1, 0))


def black_moves_p(position: Position) -> Position:
    state, _ = play(position, mv("l12", "l9"))
    return finish_turn(state)


def test_a_pass_counts_as_a_turn_for_the_limit():
    """With b2 barred by the limit and no move, White passes; the pass is one of his turns,
    so on the next he may rearrange b2 again."""
    position = position_from(BOXED, rearranged=AT_LIMIT)
    assert refused(position, rearrangement("b2", "Pc3")).code == "rearrange.limit"
    passed, events = apply_pass(position)
    assert events == []
    assert passed.to_move is B
    assert passed.board == position.board
    position = black_moves_p(passed)
    after, _ = apply_rearrangement(position, rearrangement("b2", "Pc3"))
    assert after.board[sq("c3")] == power(W)


def test_no_pass_while_a_rearrangement_is_open():
    """Below the limit the Rearrangement is a legal turn, so White may not pass."""
    position = position_from(BOXED, rearranged=((REALM_OF[sq("b2")], 1), (-1, 0)))
    with pytest.raises(RuleError) as info:
        apply_pass(position)
    assert info.value.code == "turn.pass"
