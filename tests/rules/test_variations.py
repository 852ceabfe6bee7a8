"""Every variation: the rule it changes, with and without it (board diagrams).

Windows from a1 show the bottom row of Realms: b2 (files a-c), e2 (d-f), h2 (g-i).
"""

from __future__ import annotations

import pytest

from pbem.errors import RuleError, RulesetError
from pbem.rules.geometry import REALM_OF, Direction
from pbem.rules.pieces import Kind, Side, base, enforcer, power
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerImmobilised,
    EnforcerRemobilised,
    Placement,
    PowerSacrificed,
    Rearrangement,
    Sacrifice,
)
from pbem.rules.realm.endings import end_by_agreement
from pbem.rules.realm.movement import stops
from pbem.rules.realm.position import Phase, initial_position
from pbem.rules.realm.ruleset import FEATURED, Ruleset
from pbem.rules.realm.scoring import score
from pbem.rules.realm.setup import apply_placement, legal_base_realms
from pbem.rules.realm.turns import (
    apply_move,
    apply_rearrangement,
    apply_sacrifice,
    begin_turn,
    finish_turn,
    has_legal_turn,
)
from tests.diagram import assert_board, mv, play, position_from, sq

W, B = Side.WHITE, Side.BLACK


def rules(**options: object) -> Ruleset:
    return FEATURED.with_options(options)


# -- numbers of pieces -------------------------------------------------------------------
@pytest.mark.parametrize("bases", [11, 12, 13])
def test_the_game_ends_when_the_last_of_the_rulesets_bases_is_created(bases):
    rs = rules(bases=bases)
    position = position_from(
        """
        . . . . . .
        . . P . . .
        . . . . . .
        """,
        ruleset=rs,
        bases_created=(bases - 1, 3),
    )
    state, events = play(position, mv("c2", "d2"))
    assert BaseCreated(W, sq("e2")) in events
    assert state.over
    # one Base fewer created: the same stop does not end the game
    position = position_from(
        "P", origin="c2", ruleset=rs, bases_created=(bases - 2, 3)
    )
    state, _ = play(position, mv("c2", "d2"))
    assert not state.over


@pytest.mark.parametrize("enforcers", [4, 9])
def test_no_enforcer_is_created_once_the_rulesets_enforcers_are_all_out(enforcers):
    diagram = """
        . . . . . .
        . . P . B .
        . . . . . .
    """
    rs = rules(enforcers=enforcers)
    last = position_from(diagram, ruleset=rs, enforcers_created=(enforcers - 1, 0))
    _, events = play(last, mv("c2", "d2", create="d1N"))
    assert len(events) == 1
    none_left = position_from(diagram, ruleset=rs, enforcers_created=(enforcers, 0))
    _, events = play(none_left, mv("c2", "d2"))
    assert events == []


@pytest.mark.parametrize(
    "options, word",
    [
        ({"bases": 10}, "from 11 to 13"),
        ({"bases": 14}, "from 11 to 13"),
        ({"enforcers": 3}, "from 4 to 9"),
        ({"enforcers": 10}, "from 4 to 9"),
        ({"powers": 5}, "from 3 to 4"),
        ({"setup_bases": 2}, "from 3 to 4"),
        ({"bases": "12"}, "whole number"),
        ({"checkpoint": "yes"}, "true or false"),
        ({"checkpoint": 1}, "true or false"),
    ],
)
def test_an_option_out_of_range_names_the_option_the_value_and_what_is_allowed(options, word):
    with pytest.raises(RulesetError) as info:
        rules(**options)
    (option, value), = options.items()
    assert repr(option) in info.value.message
    assert repr(value) in info.value.message
    assert word in info.value.message


def test_an_unknown_option_is_named_with_the_options_there_are():
    with pytest.raises(RulesetError) as info:
        rules(checkpoints=True)
    assert "'checkpoints'" in info.value.message
    assert "checkpoint" in info.value.message
    assert info.value.code == "ruleset.unknown-option"


def test_four_setup_bases_need_four_powers():
    with pytest.raises(RulesetError) as info:
        Ruleset(setup_bases=4, powers=3)
    assert info.value.code == "ruleset.combination"
    Ruleset(setup_bases=4, powers=4)
    Ruleset(setup_bases=3, powers=4)


def test_options_round_trip_and_name_their_differences():
    rs = rules(checkpoint=True, bases=13)
    assert Ruleset(**rs.options()) == rs
    assert rs.differences() == {"checkpoint": True, "bases": 13}
    assert "checkpoint" in rs.name


# -- free placement ------------------------------------------------------------------------
def _after_placing(ruleset: Ruleset, *centers: str):
    position = initial_position(ruleset)
    for name in centers:
        position, _ = apply_placement(position, Placement(base(W).kind, sq(name)))
    return position


def test_free_placement_lets_a_base_share_a_row_of_realms():
    position = _after_placing(rules(free_placement=True), "b2", "k11")
    after, _ = apply_placement(position, Placement(base(W).kind, sq("e2")))  # b2's row
    assert after.board[sq("e2")] == base(W)
    assert len(legal_base_realms(position, W)) == 14


def test_without_free_placement_the_row_is_refused():
    position = _after_placing(FEATURED, "b2", "k11")
    with pytest.raises(RuleError) as info:
        apply_placement(position, Placement(base(W).kind, sq("e2")))
    assert info.value.code == "setup.row-column"


# -- checkpoint ----------------------------------------------------------------------------
CHECKPOINT = """
    . . . . . . . . .
    . . . . b . . . .
    P . . . . . . . .
"""


def test_checkpoint_stops_a_piece_in_the_first_enemy_realm_it_enters():
    position = position_from(CHECKPOINT, ruleset=rules(checkpoint=True))
    with pytest.raises(RuleError) as info:
        play(position, mv("a1", "g1"))
    assert info.value.code == "move.checkpoint"
    assert "e2 Realm" in info.value.message
    state, _ = play(position, mv("a1", "f1"))  # any square of that Realm along the line
    assert state.position.board[sq("f1")] == power(W)
    east = [s for s in stops(position.board, power(W), sq("a1"), True) if s < sq("a2")]
    assert east == [sq("d1"), sq("e1"), sq("f1")]


def test_without_checkpoint_a_piece_runs_past_an_enemy_realm():
    position = position_from(CHECKPOINT)
    _, events = play(position, mv("a1", "g1"))
    assert events == [BaseCreated(W, sq("h2"))]
    assert sq("g1") in stops(position.board, power(W), sq("a1"))


def test_checkpoint_ignores_the_realm_a_piece_starts_in_and_friendly_realms():
    position = position_from(
        """
        . . . . . . . . .
        . b . . B . . . .
        P . . . . . . . .
        """,
        ruleset=rules(checkpoint=True),
    )
    state, _ = play(position, mv("a1", "g1"))  # leaves an enemy Realm, crosses its own
    assert state.position.board[sq("g1")] == power(W)


# -- exclusive creation --------------------------------------------------------------------
def test_exclusive_creation_needs_the_realm_free_of_other_powers():
    crowded = """
        . . . . . P
        . . P . . .
        . . . . . .
    """
    position = position_from(crowded, ruleset=rules(exclusive_creation=True))
    _, events = play(position, mv("c2", "d2"))
    assert events == []  # a friendly Power is there: no Base
    _, events = play(position_from(crowded), mv("c2", "d2"))
    assert events == [BaseCreated(W, sq("e2"))]  # the Featured Game minds only enemy Powers
    alone = position_from(
        "P", origin="c2", ruleset=rules(exclusive_creation=True)
    )
    _, events = play(alone, mv("c2", "d2"))
    assert events == [BaseCreated(W, sq("e2"))]


# -- replacement ---------------------------------------------------------------------------
CAPTURE = """
    . . . . . .
    . . E . b .
    . . . . . P
"""


def test_replacement_puts_the_capturers_base_on_the_captured_center():
    position = position_from(CAPTURE, ruleset=rules(replacement=True))
    state, events = play(position, mv("c2", "d2"))
    assert events == [
        BaseCaptured(W, sq("e2")),
        EnforcerImmobilised(W, sq("d2"), own=True),
        BaseCreated(W, sq("e2")),
    ]
    assert_board(state.position, """
        . . . . . .
        . . . U B .
        . . . . . P
    """)
    assert state.position.captured == (1, 0)
    assert state.position.bases_created[W] == position.bases_created[W] + 1


def test_without_replacement_the_center_stays_empty():
    state, events = play(position_from(CAPTURE), mv("c2", "d2"))
    assert BaseCreated(W, sq("e2")) not in events
    assert state.position.board[sq("e2")] is None


def test_a_replacement_that_is_the_last_base_ends_the_game():
    position = position_from(CAPTURE, ruleset=rules(replacement=True), bases_created=(11, 1))
    state, _ = play(position, mv("c2", "d2"))
    assert state.over and state.position.end == "bases"


# -- second player moves first ---------------------------------------------------------------
def _setup_done(ruleset: Ruleset):
    position = initial_position(ruleset)
    for name in ("b2", "b11", "e5", "e8", "h11", "k5", "a1", "a10", "d4", "d7", "g10", "j4"):
        kind = Kind.BASE if position.ply < 6 else Kind.POWER
        position, _ = apply_placement(position, Placement(kind, sq(name)))
    return position


def test_second_player_moves_first_after_setup():
    position = _setup_done(rules(second_player_first=True))
    assert position.phase is Phase.PLAY
    assert position.to_move is B
    assert position.turn_label() == "7b"
    featured = _setup_done(FEATURED)
    assert featured.to_move is W and featured.turn_label() == "7w"


# -- rearranging the opponent's pieces --------------------------------------------------------
OPEN = """
    p . N
    . B .
    P . .
"""


def _open_rearrangement() -> Rearrangement:
    return Rearrangement(
        REALM_OF[sq("b2")],
        (
            (sq("c1"), power(W)),
            (sq("a3"), enforcer(W, Direction.E)),
            (sq("a1"), power(B)),
        ),
    )


def test_open_rearrangement_moves_the_opponents_pieces_too():
    position = position_from(OPEN, ruleset=rules(rearrange_opponent=True))
    after, events = apply_rearrangement(position, _open_rearrangement())
    assert events == []
    assert_board(after, """
        E . .
        . B .
        p . P
    """)


def test_without_open_rearrangement_the_opponents_pieces_stay():
    with pytest.raises(RuleError) as info:
        apply_rearrangement(position_from(OPEN), _open_rearrangement())
    assert info.value.code == "rearrange.opponent"


def test_open_rearrangement_puts_back_all_the_opponents_pieces():
    position = position_from(OPEN, ruleset=rules(rearrange_opponent=True))
    action = Rearrangement(
        REALM_OF[sq("b2")],
        ((sq("c1"), power(W)), (sq("a3"), enforcer(W, Direction.E)), (sq("a1"), power(B)),
         (sq("b1"), power(B))),
    )
    with pytest.raises(RuleError) as info:
        apply_rearrangement(position, action)
    assert info.value.code == "rearrange.pieces"
    assert "Black" in info.value.message


# -- the tie-break with captured Bases ------------------------------------------------------
def test_captured_bases_break_a_tie_where_the_ruleset_counts_them():
    diagram = """
        . . . . . .
        . B . . b .
        . . . . . .
    """
    counted = position_from(diagram, ruleset=rules(tiebreak_captures=True), captured=(2, 0))
    assert score(counted).result == "1-0"
    assert "Bases captured" in score(counted).describe()
    plain = position_from(diagram, captured=(2, 0))
    assert score(plain).result == "1/2-1/2"


# -- Power sacrifice ---------------------------------------------------------------------------
SACRIFICE = """
    . . . . . .
    . . U . . .
    . . P . . .
"""


def test_power_sacrifice_remobilises_an_enforcer_then_a_dispersal_follows():
    position = position_from(SACRIFICE, ruleset=rules(power_sacrifice=True))
    action = Sacrifice(sq("c1"), sq("c2"), Direction.E)
    state, events = apply_sacrifice(begin_turn(position), action)
    assert events == [PowerSacrificed(W, sq("c1")), EnforcerRemobilised(W, sq("c2"), Direction.E)]
    assert state.position.board[sq("c2")] == enforcer(W, Direction.E)
    assert state.position.sacrificed == (1, 0)
    state, _ = apply_move(state, mv("c2", "d2"))  # the remobilised Enforcer may move
    after = finish_turn(state)
    assert after.to_move is B
    assert after.board[sq("c1")] is None


def test_power_sacrifice_is_refused_where_the_ruleset_has_none():
    position = position_from(SACRIFICE)
    with pytest.raises(RuleError) as info:
        apply_sacrifice(begin_turn(position), Sacrifice(sq("c1"), sq("c2"), Direction.E))
    assert info.value.code == "sacrifice.off"


def test_after_a_sacrifice_the_turn_is_a_dispersal_from_that_realm():
    position = position_from(
        """
        . . . . . .
        . . U . . .
        . . P . P .
        """,
        ruleset=rules(power_sacrifice=True),
    )
    state, _ = apply_sacrifice(begin_turn(position), Sacrifice(sq("c1"), sq("c2"), Direction.N))
    with pytest.raises(RuleError) as info:
        apply_move(state, mv("e1", "g1"))
    assert info.value.code == "sacrifice.dispersal"
    with pytest.raises(RuleError) as info:
        finish_turn(state)
    assert info.value.code == "sacrifice.dispersal"


def test_a_sacrifice_needs_an_immobilised_friendly_enforcer_in_the_same_realm():
    position = position_from(
        """
        . . . . . .
        . . u . U .
        . . P . . .
        """,
        ruleset=rules(power_sacrifice=True),
    )
    for target, code in (("c2", "sacrifice.enforcer"), ("e2", "sacrifice.realm")):
        with pytest.raises(RuleError) as info:
            apply_sacrifice(begin_turn(position), Sacrifice(sq("c1"), sq(target), Direction.N))
        assert info.value.code == code


def test_a_sacrifice_comes_first_in_the_turn():
    position = position_from(
        """
        . . . . . .
        . . U . . .
        . P P . . .
        """,
        ruleset=rules(power_sacrifice=True),
    )
    state, _ = apply_move(begin_turn(position), mv("c1", "d1"))
    with pytest.raises(RuleError) as info:
        apply_sacrifice(state, Sacrifice(sq("b1"), sq("c2"), Direction.N))
    assert info.value.code == "sacrifice.first"


def test_a_sacrifice_is_a_legal_turn_for_a_side_with_nothing_else():
    """White's Power on a1 is boxed in, its Enforcer immobilised, and the b2 Realm was
    rearranged on its last two turns: only a sacrifice frees it."""
    diagram = """
        . . .
        U . .
        P u .
    """
    streak = ((REALM_OF[sq("b2")], 2), (-1, 0))
    assert not has_legal_turn(position_from(diagram, rearranged=streak), W)
    position = position_from(diagram, rearranged=streak, ruleset=rules(power_sacrifice=True))
    assert has_legal_turn(position, W)
    state, _ = apply_sacrifice(begin_turn(position), Sacrifice(sq("a1"), sq("a2"), Direction.N))
    state, _ = apply_move(state, mv("a2", "a4"))
    assert finish_turn(state).board[sq("a4")] == enforcer(W, Direction.N)


# -- the rearrangement limit and the end by agreement -----------------------------------------
def test_without_the_rearrangement_limit_a_realm_may_be_rearranged_again_and_again():
    diagram = """
        . . .
        . B .
        P . .
    """
    streak = ((REALM_OF[sq("b2")], 2), (-1, 0))
    limited = position_from(diagram, rearranged=streak)
    action = Rearrangement(REALM_OF[sq("b2")], ((sq("c3"), power(W)),))
    with pytest.raises(RuleError) as info:
        apply_rearrangement(limited, action)
    assert info.value.code == "rearrange.limit"
    free = position_from(diagram, rearranged=streak, ruleset=rules(rearrangement_limit=False))
    after, _ = apply_rearrangement(free, action)
    assert after.board[sq("c3")] == power(W)


def test_end_by_agreement_scores_the_board_unless_the_ruleset_forbids_it():
    diagram = """
        . . . . . .
        . B . . B .
        . . . . . .
    """
    over = end_by_agreement(position_from(diagram))
    assert over.phase is Phase.OVER and over.result == "1-0" and over.end == "agreement"
    with pytest.raises(RuleError) as info:
        end_by_agreement(position_from(diagram, ruleset=rules(end_by_agreement=False)))
    assert info.value.code == "end.agreement-off"


def test_a_rearrangement_never_moves_a_base():
    position = position_from(OPEN, ruleset=rules(rearrange_opponent=True))
    action = Rearrangement(REALM_OF[sq("b2")], ((sq("c1"), base(W)),))
    with pytest.raises(RuleError) as info:
        apply_rearrangement(position, action)
    assert info.value.code == "rearrange.base"
