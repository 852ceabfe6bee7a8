"""Turns in plain words: the sample game's turns as a reader of the article would say them."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.notation.parse import parse_game
from pbem.notation.syntax import TurnText
from pbem.records.replay import PlayedTurn, Replay, replay_game
from pbem.render.narrate import (
    describe_end,
    describe_next,
    describe_turn,
    join_words,
    turn_kind,
)
from pbem.rules.game import Resolved
from pbem.rules.geometry import REALM_OF, Direction, parse_square
from pbem.rules.pieces import Side, enforcer, power
from pbem.rules.realm.actions import (
    EnforcerImmobilised,
    Move,
    Pass,
    Rearrangement,
)
from pbem.rules.realm.position import EMPTY_BOARD, Phase, initial_position
from pbem.rules.realm.words import describe_action, describe_result
from tests.diagram import position_from

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")
W, B = Side.WHITE, Side.BLACK


@pytest.fixture(scope="module")
def replay() -> Replay:
    return replay_game(parse_game(SAMPLE))


def turn(replay: Replay, label: str) -> PlayedTurn:
    return next(t for t in replay.turns if t.label == label)


def test_7w_concentration_creates_a_base_and_an_enforcer(replay):
    t = turn(replay, "7w")
    assert describe_turn(t) == [
        "White's Power from i10 to i6 created a Base on h5",
        "White's Power from c4 to g4 created an Enforcer on i4 pointing West",
    ]
    assert turn_kind(t) == "Concentration into the h5 Realm"


def test_11w_captures_b8_and_the_enforcer_immobilises_itself_on_a7(replay):
    t = turn(replay, "11w")
    assert describe_turn(t) == [
        "White's Power from j7 to j10 created a Base on k11",
        "White's Power moved from l9 to c9",
        "White's Enforcer from l7 to a7 captured Black's Base on b8 and was immobilised",
    ]
    # the three pieces all start in the k8 Realm and end in two: a Dispersal
    assert turn_kind(t) == "Dispersal from the k8 Realm"


def test_10b_capture_by_two_powers_leaves_the_enforcer_mobile(replay):
    t = turn(replay, "10b")
    assert describe_turn(t)[-1] == "Black's Enforcer from c2 to c4 captured White's Base on b5"
    assert turn_kind(t) == "Concentration into the b5 Realm"


def test_a_single_piece_is_a_dispersal(replay):
    assert turn_kind(turn(replay, "13b")) == "Dispersal from the k8 Realm"


def test_set_up_placements(replay):
    assert describe_turn(turn(replay, "1w")) == ["White placed a Base on h11"]
    assert describe_turn(turn(replay, "4b")) == ["Black placed a Power on g3"]
    assert turn_kind(turn(replay, "1w")) == "Set-up"


def test_16w_ends_the_game_white_8_realms_to_black_7(replay):
    t = turn(replay, "16w")
    assert t.after.phase is Phase.OVER
    assert describe_turn(t) == ["White's Power from e7 to e6 created a Base on e5"]
    assert describe_end(t.after, t.side) == (
        "The game is over: White created the last of its 12 Bases. "
        "White wins 1-0, with 8 Realms to Black's 7."
    )


def test_whose_turn_is_next(replay):
    assert describe_next(turn(replay, "3b").after) == "White to place a Power (#4w)"
    assert describe_next(turn(replay, "6b").after) == "White to move (#7w)"
    assert describe_next(turn(replay, "11w").after) == "Black to move (#11b)"


def _resolved(action, events=(), board=None) -> Resolved:
    return Resolved(action, tuple(events), board if board is not None else EMPTY_BOARD)


def test_rearrangement_names_the_realm_and_every_piece():
    action = Rearrangement(
        REALM_OF[parse_square("h5")],
        (
            (parse_square("g4"), power(W)),
            (parse_square("g6"), enforcer(W, Direction.N)),
            (parse_square("i4"), enforcer(W, None)),
        ),
    )
    assert describe_action(_resolved(action), W) == (
        "White rearranged the h5 Realm: a Power on g4, an Enforcer on g6 pointing North "
        "and an immobilised Enforcer on i4"
    )


def test_pass():
    assert describe_action(_resolved(Pass()), B) == "Black passed (no legal turn)"


def test_enforcer_that_immobilises_an_enemy_and_itself():
    board = list(EMPTY_BOARD)
    board[parse_square("j4")] = enforcer(B, Direction.N)
    move = Move(parse_square("j4"), parse_square("j7"), immobilise=parse_square("k7"))
    events = (
        EnforcerImmobilised(W, parse_square("k7"), own=False),
        EnforcerImmobilised(B, parse_square("j7"), own=True),
    )
    assert describe_action(_resolved(move, events, tuple(board)), B) == (
        "Black's Enforcer from j4 to j7 immobilised White's Enforcer on k7 "
        "and was immobilised itself"
    )


def test_two_pieces_from_one_realm_into_one_realm_are_both_kinds():
    """Two Powers leaving the b2 Realm together for the e2 Realm: Dispersal and Concentration."""
    board = list(EMPTY_BOARD)
    a, b = parse_square("c1"), parse_square("c3")
    board[a] = board[b] = power(W)
    moves = (Move(a, parse_square("d1")), Move(b, parse_square("d3")))
    start = initial_position()
    played = PlayedTurn(
        "9w", W, TurnText(()), tuple(_resolved(m, board=tuple(board)) for m in moves), start, start
    )
    assert turn_kind(played) == (
        "Concentration into the e2 Realm (also a Dispersal from the b2 Realm)"
    )


def test_results_in_words_on_a_tie():
    level = position_from(
        """
        . . .
        . B .
        N . .
        . . .
        . b .
        u . .
        """
    )
    # one Realm each; Black's Enforcer is immobilised: the tie-break decides
    assert describe_result(level) == (
        "White wins 1-0: 1 Realm each; on the tie-break, Enforcers (mobile + in supply) 8 to "
        "Black's 7"
    )
    draw = position_from(". . .")
    assert describe_result(draw) == (
        "a draw, 1/2-1/2: 0 Realms each; on the tie-break, 8 Enforcers (mobile + in supply) each"
    )


def test_join_words():
    assert join_words([]) == ""
    assert join_words(["a"]) == "a"
    assert join_words(["a", "b", "c"]) == "a, b and c"
