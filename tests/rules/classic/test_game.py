"""Classic and Medieval Realm through the game interface: written moves resolved against
the position, forced events inferred with a warning, choices and letters checked."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.rules.registry import game_for
from pbem.rules.written import format_action
from tests.center_diagram import position_from, sq, with_pieces
from tests.written_turns import action, refusal

CLASSIC = game_for("classic")
MEDIEVAL = game_for("medieval")


def resolve(game, position, text: str):
    state = game.begin_turn(position)
    return game.resolve_action(state, action(text))


RESCUE = """
. . . . . .   # 9
. e . . . .   # 8: a Black piece on b8; its Realm has one vacant Border square left
e e e . . .   # 7
. . E . . .   # 6: White's c6 and a4 wait to be rescued
. E . . . .   # 5
E . . . . .   # 4
"""


def rescue_position():
    pos = position_from(RESCUE, origin="a4")
    return with_pieces(pos, k11="e", a8="e", c8="e", a9="e", c9="e")  # b9 stays vacant


def test_a_forced_dislodging_left_out_is_inferred_with_a_warning():
    _state, resolved = resolve(CLASSIC, rescue_position(), "Eb5b8(+Ea4)")
    assert format_action(resolved.canonical()) == "Eb5b8(+Ea4,xEb9)"
    assert [w.code for w in resolved.warnings] == ["infer.event"]
    assert "(xEb9)" in resolved.warnings[0].message


def test_a_missing_choice_is_an_error_naming_the_candidates():
    with pytest.raises(RuleError) as info:
        resolve(CLASSIC, rescue_position(), "Eb5b8(xEb9)")
    assert info.value.message == (
        "the piece leaving b5 must rescue one of a4, c6: write (+Ea4) or (+Ec6)"
    )
    assert info.value.options == ("(+Ea4)", "(+Ec6)")


def test_events_written_out_of_order_are_read_with_a_warning_and_letters_are_checked():
    _, resolved = resolve(CLASSIC, rescue_position(), "Eb5b8(xEb9,+Ec6)")
    assert format_action(resolved.canonical()) == "Eb5b8(+Ec6,xEb9)"
    assert [w.code for w in resolved.warnings] == ["repair.event-order"]
    with pytest.raises(RuleError) as info:
        resolve(CLASSIC, rescue_position(), "Pb5b8(+Ea4,xEb9)")
    assert info.value.code == "move.letter"
    with pytest.raises(RuleError) as info:
        resolve(CLASSIC, rescue_position(), "Eb5b8(+Ea4,Bb9)")
    assert info.value.code == "event.unknown"


def test_a_look_alike_square_is_repaired_with_a_warning():
    _, resolved = resolve(CLASSIC, rescue_position(), "EB5b8(+Ea4,xEb9)")
    assert format_action(resolved.canonical()) == "Eb5b8(+Ea4,xEb9)"
    assert [w.code for w in resolved.warnings] == ["repair.square"]


def test_a_refused_move_names_the_pieces_legal_moves():
    pos = rescue_position()
    _state, (_message, options) = refusal(CLASSIC, pos, "Eb5b11")
    assert "Eb5e5(+Ea4)" in options and "Eb5b8(+Ec6,xEb9)" in options


def test_medieval_words_and_moving_off():
    pos = position_from("""
    . . .   # 12
    . E .   # 11: a White Man on h11
    . . .   # 10
    """, origin="g10", ruleset=MEDIEVAL.default_ruleset())
    pos = with_pieces(pos, b8="e", k2="E")
    state, _resolved = resolve(MEDIEVAL, pos, "Eh11off")
    after = MEDIEVAL.finish_turn(state)
    assert after.off == (1, 0)
    data = MEDIEVAL.position_to_json(after)
    assert data["off"] == {"white": 1, "black": 0} and data["game"] == "medieval"
    assert MEDIEVAL.score(after) == "pieces moved off: White 1, Black 0"
    assert MEDIEVAL.pieces.name(pos.board[sq("h11")]) == "Man"


def test_classic_double_moves_continue_the_turn_only_when_allowed():
    game = CLASSIC
    rules = game.ruleset_from({"double_moves": True})
    pos = game.initial(rules)
    state = game.begin_turn(pos)
    state, _ = game.resolve_action(state, game.legal_actions(state)[0])
    assert not game.can_continue(state)
    assert game.legal_actions(state) == []
