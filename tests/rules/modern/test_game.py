"""Modern Realm through the game interface: turning squares, the HQ and dislodge
events (inferred where forced), the capped listings."""

from __future__ import annotations

import pytest

from pbem.errors import RuleError
from pbem.notation.format import format_action
from pbem.rules.modern.game import ModernGame
from pbem.rules.modern.position import Position
from pbem.rules.pieces import Side
from pbem.rules.registry import game_for
from tests import written_turns
from tests.family_diagram import board_from
from tests.written_turns import action

GAME = ModernGame()
W, B = Side.WHITE, Side.BLACK


def play(position, *texts):
    return written_turns.play(GAME, position, *texts)


# the family's example: two pieces out of the b5 Realm; an Agent captures the b8 Realm
# (with a8 it has the majority) and the Counter-Agent turns on d4 in the e5 Realm
EXAMPLE = """
. . . . . .
E e . . . .
. . . . . .
. . . . . .
. E . . E .
. . P . . .
"""  # window a4: White a8, b5, e5, c4 (Counter-Agent); Black b8


def test_the_example_turn_of_two_pieces():
    position = Position(board=board_from(EXAMPLE, "a4"))
    state, resolved = play(position, "Eb5b7(Bb8,xEa9)", "Pc4d4d6")
    assert [format_action(r.canonical()) for r in resolved] == ["Eb5b7(Bb8,xEa9)", "Pc4d4d6"]
    assert not any(r.warnings for r in resolved)
    after = GAME.finish_turn(state)
    assert after.supply == (7, 8) and after.to_move is B


def test_a_forced_hq_left_out_is_inferred_with_a_warning():
    board = """
    . . .
    . . .
    . . .
    . . .
    . E .
    . . .
    """  # window a4: b8's Center is vacant
    position = Position(board=board_from(board, "a4"))
    _, resolved = play(position, "Eb5b7")
    assert format_action(resolved[0].canonical()) == "Eb5b7(Bb8)"
    assert resolved[0].warnings[0].code == "infer.event"


def test_a_dislodge_left_out_with_a_choice_names_the_squares():
    position = Position(board=board_from(EXAMPLE, "a4"))
    with pytest.raises(RuleError) as info:
        play(position, "Eb5b7(Bb8)")
    assert info.value.code == "dislodge.choice"
    assert "xEa9" in info.value.options and "xEb7" in info.value.options


def test_events_in_the_wrong_order_are_repaired_with_a_warning():
    position = Position(board=board_from(EXAMPLE, "a4"))
    _, resolved = play(position, "Eb5b7(xEa9,Bb8)")
    assert resolved[0].warnings[0].code == "repair.event-order"
    assert format_action(resolved[0].canonical()) == "Eb5b7(Bb8,xEa9)"


def test_a_turn_must_go_on_while_a_piece_can_leave():
    position = Position(board=board_from(EXAMPLE, "a4"))
    state, _ = play(position, "Eb5b7(Bb8,xEa9)")
    assert GAME.must_continue(state) and GAME.can_continue(state)
    with pytest.raises(RuleError) as info:
        GAME.finish_turn(state)
    assert info.value.code == "turn.incomplete"
    assert info.value.message.startswith("the Counter-Agent on c4 could still leave the b5 Realm")


def test_listings_are_grouped_and_capped():
    start = GAME.initial(GAME.default_ruleset())
    listing = GAME.legal_by_piece(start)
    assert {p.square for p in listing}  # every White piece can move at the start
    assert all(p.total >= len(p.moves) for p in listing)
    assert max(p.total for p in listing) > 1000
    actions = GAME.legal_actions(GAME.begin_turn(start))
    assert len(actions) <= 8 * 60 * 8


def test_registered_and_json_round_trip():
    assert game_for("modern").title == "Modern Realm"
    start = GAME.initial(GAME.default_ruleset())
    data = GAME.position_to_json(start)
    assert data["supply"] == {"white": {"B": 8}, "black": {"B": 8}}
    assert GAME.position_to_json(GAME.position_from_json(data)) == data


def test_snapshot_round_trip_is_exact():
    position = Position(board=board_from(EXAMPLE, "a4"), supply=(7, 8), ply=5)
    assert GAME.position_from_snapshot(GAME.snapshot_data(position)) == position


def _refusal(position, text):
    return written_turns.refusal(GAME, position, text)


def test_a_refused_line_names_the_pieces_few_legal_lines():
    """The Agent on a1 may only go up the a-file (to a7 it captures the b8 Realm): a
    refused line of it offers the four, and each of them plays."""
    position = Position(board=board_from("""
    . . . E
    . E E .
    . . e e
    E e E .
    """))
    state, (_message, options) = _refusal(position, "Ea1a12")
    assert sorted(options) == ["Ea1a4", "Ea1a5", "Ea1a6", "Ea1a7(Bb8)"]
    for option in options:
        GAME.resolve_action(state, action(option))


def test_many_lines_are_not_listed_and_an_immobile_piece_has_none():
    start = GAME.initial(GAME.default_ruleset())
    _state, (_message, options) = _refusal(start, "Eb5b12")
    assert options == ()  # dozens of lines: the rule's words are enough
    position = Position(board=board_from("""
    e . .
    E e .
    . . .
    """))
    _state, (message, options) = _refusal(position, "Ea2a3")
    assert options == () and message.endswith("; the piece on a2 has no legal move now")


def test_the_reports_piece_table_keeps_its_columns_apart():
    """'HQsCounter-Agents' ran together: the column was 12 wide, the title 14."""
    game = game_for("modern")
    table = game.side_table(game.initial(game.default_ruleset()))
    head = table.text_head[1]
    assert head.split() == ["HQs", "Counter-Agents", "Agents"]
    for side, values in table.rows:
        row = table.text_row % (side.title, *values)
        end = 0
        for title, value in zip(head.split(), values, strict=True):
            end = head.index(title, end) + len(title)  # each number ends under its title
            assert row[:end].endswith(f" {value}"), (row, title)
