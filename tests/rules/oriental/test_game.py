"""Oriental Realm through the game interface: written actions, the JSON, the warning."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.notation.format import format_action
from pbem.rules.oriental.game import OrientalGame, warning_words
from pbem.rules.oriental.position import Position
from pbem.rules.oriental.rules import OrientalRules
from pbem.rules.pieces import Side
from pbem.rules.registry import game_for
from tests import written_turns
from tests.family_diagram import board_from
from tests.written_turns import action

GAME = OrientalGame()
W, B = Side.WHITE, Side.BLACK


def play(position, *texts):
    return written_turns.play(GAME, position, *texts)


def test_registered_under_its_name():
    assert game_for("oriental").name == "oriental"
    assert game_for("oriental").title == "Oriental Realm"


def test_a_turn_of_two_moves_resolves_and_writes_back():
    start = GAME.initial(GAME.default_ruleset())
    state, resolved = play(start, "Ee5e7")
    assert format_action(resolved[0].canonical()) == "Ee5e7"
    after = GAME.finish_turn(state)
    assert after.to_move is B and after.turn_label() == "1b"


def test_a_wrong_letter_and_events_are_refused():
    start = GAME.initial(GAME.default_ruleset())
    with pytest.raises(RuleError) as info:
        play(start, "Pe5e7")
    assert info.value.code == "move.letter"
    with pytest.raises(RuleError) as info:
        play(start, "Ee5e7(xEe8)")
    assert info.value.code == "event.none"


def test_a_look_alike_square_is_repaired_with_a_warning():
    start = GAME.initial(GAME.default_ruleset())
    _, resolved = play(start, "EE5e7")
    assert resolved[0].warnings and resolved[0].warnings[0].code == "repair.square"


THREAT = """
. . . E . .
. . E e . .
. . . E . .
. . . . . .
. . . . E .
"""  # Black d4's last empty neighbour is e4; White e1 could close it


def test_the_warning_is_in_the_json_and_in_words_exactly_when_there_is_a_threat():
    rules = OrientalRules(warning=True)
    threatened = Position(rules, board_from(THREAT), to_move=B)
    data = GAME.position_to_json(threatened)
    assert data["warning"] == [["d4"]]
    assert warning_words(threatened) == [
        "Warning: Black's Mandarin on d4 can be surrounded on White's next turn"
    ]
    safe = Position(rules, board_from(THREAT.replace("E .\n", ". .\n", 1)), to_move=B)
    assert GAME.position_to_json(safe)["warning"] == []
    assert warning_words(safe) == []
    plain = Position(OrientalRules(), board_from(THREAT), to_move=B)
    assert "warning" not in GAME.position_to_json(plain) and warning_words(plain) == []


def test_json_round_trip_keeps_the_warning_option():
    threatened = Position(OrientalRules(warning=True), board_from(THREAT), to_move=B)
    data = GAME.position_to_json(threatened)
    assert GAME.position_to_json(GAME.position_from_json(data)) == data


def test_pass_only_without_a_move():
    start = GAME.initial(GAME.default_ruleset())
    assert GAME.pass_text(start) is None
    with pytest.raises(RuleError):
        play(start, "pass")


def test_snapshot_round_trip_is_exact():
    rules = GAME.ruleset_from({"warning": True, "setup": {"d4": "bE", "d5": "wE", "a1": "wP"}})
    position = GAME.initial(rules)
    again = GAME.position_from_snapshot(GAME.snapshot_data(position))
    assert again == position


def _refusal(position, text):
    return written_turns.refusal(GAME, position, text)


def test_a_refused_move_names_the_pieces_legal_moves():
    """Ee2e12 for the Emperor on e2: refused, and its seven legal moves offered; each of
    them plays."""
    start = GAME.initial(GAME.default_ruleset())
    state, (message, options) = _refusal(start, "Ee2e12")
    assert "Emperor" in message
    assert sorted(options) == sorted(
        ["Pe2e3", "Pe2e4", "Pe2f2", "Pe2g2", "Pe2e1", "Pe2d2", "Pe2c2"])
    for option in options:
        GAME.resolve_action(state, action(option))


def test_no_alternatives_for_a_square_the_mover_has_no_piece_on():
    start = GAME.initial(GAME.default_ruleset())
    _state, (message, options) = _refusal(start, "Ea1a2")
    assert options == () and message == "there is no piece on a1"
    _state, (_message, options) = _refusal(start, "Ee11e10")  # Black's Emperor
    assert options == ()


def test_a_boxed_in_piece_is_said_to_have_no_move():
    board = board_from("""
    e e e
    e E e
    e e e
    """, origin="d4")
    position = Position(board=board)
    _state, (message, options) = _refusal(position, "Ee5e7")
    assert options == () and message.endswith("; the piece on e5 has no legal move now")
