"""The pure model of conditional turns, against positions of the sample game."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.notation.parse import parse_game
from pbem.records.replay import replay_game
from pbem.referee.turns.conditions import (
    MAX_DEPTH,
    MAX_LINES,
    Condition,
    ConditionError,
    check_conditions,
    format_conditions,
    is_condition_line,
    match,
    parse_conditions,
)
from pbem.referee.turns.play import play_turn

SAMPLE = Path(__file__).resolve().parents[2] / "games" / "sample-game-2002.realm"


@dataclass
class _Outcome:
    after: Any
    refusal: tuple[str, int] | None


def play(position: Any, text: str) -> _Outcome:
    out = play_turn(position, text)
    if out.error is not None:
        col = out.error.span.column if out.error.span else 1
        return _Outcome(None, (out.error.message, col))
    assert out.played is not None
    return _Outcome(out.played.after, None)


@pytest.fixture(scope="module")
def positions() -> dict[str, Any]:
    replay = replay_game(parse_game(SAMPLE.read_text(encoding="utf-8")))
    return {t.label: t.after for t in replay.turns}


def lines(text: str) -> list[tuple[int, str]]:
    return [(i, t) for i, t in enumerate(text.split("\n"), 1) if t.strip()]


CONDS = """\
if Pd6d1(Be2),Pg3d3(Ed2N) then Pi6j6(Bk5),Pg4g9(Bh8),Ei4d4
  if Pd3a3(Bb2),Ed2c2,Pd1l1(Bk2) then Pg9l9(Bk8),Pj6j7(Ei7W)
if Pd6d2 then Pc4c9"""


def test_nesting_follows_indentation():
    tree = parse_conditions(lines(CONDS))
    assert [c.reply for c in tree] == ["Pd6d1(Be2),Pg3d3(Ed2N)", "Pd6d2"]
    assert [c.answer for c in tree[0].then] == ["Pg9l9(Bk8),Pj6j7(Ei7W)"]
    assert tree[1].then == ()
    assert (tree[0].line, tree[0].reply_column, tree[0].answer_column) == (1, 4, 32)
    assert format_conditions(tree) == CONDS.split("\n")


def test_json_round_trip():
    tree = parse_conditions(lines(CONDS))
    assert tuple(Condition.from_json(c.to_json()) for c in tree) == tree


def test_a_line_without_then_is_refused_with_its_place():
    with pytest.raises(ConditionError) as e:
        parse_conditions([(3, "  if Pd6d2 Pc4c9")])
    assert (e.value.line, e.value.column) == (3, 3)
    assert "if THEIR-TURN then YOUR-TURN" in e.value.message


def test_recognised_lines():
    assert is_condition_line("  If Pd6d2 then Pc4c9")
    assert not is_condition_line("iffy weather")
    assert not is_condition_line("Pd6d2")


def test_bounds():
    many = [(i, "if a then b") for i in range(1, MAX_LINES + 2)]
    with pytest.raises(ConditionError, match="at most"):
        parse_conditions(many)
    deep = [(i, " " * i + "if a then b") for i in range(1, MAX_DEPTH + 2)]
    with pytest.raises(ConditionError, match="levels deep"):
        parse_conditions(deep)
    with pytest.raises(ConditionError, match="characters"):
        parse_conditions([(1, "if a then " + "b" * 400)])


def test_a_long_line_of_thens_is_read_in_linear_time():
    # a hang guard only: the reader splits on words and never backtracks
    text = "if a " + "then " * 50 + "b"
    tree = parse_conditions([(1, text[:290])])
    assert tree[0].reply == "a"


def test_every_line_is_checked_where_it_would_be_played(positions):
    tree = parse_conditions(lines(CONDS.replace("if Pd6d2 then Pc4c9", "")))
    check_conditions(positions["7w"], tree, play)  # all legal: no error


def test_an_illegal_reply_is_refused_at_its_line_and_column(positions):
    tree = parse_conditions(lines("if Pd6d1(Be2) then Pi6j6(Bk5)\nif Pd6x9 then Pc4c9"))
    with pytest.raises(ConditionError) as e:
        check_conditions(positions["7w"], tree, play)
    assert e.value.line == 1 or e.value.line == 2
    assert "their turn" in e.value.message


def test_an_answer_illegal_after_its_reply_is_refused(positions):
    # after Black's 7th turn, White has no Power on a1
    tree = parse_conditions(lines("if Pd6d1(Be2),Pg3d3(Ed2N) then Pa1a2"))
    with pytest.raises(ConditionError) as e:
        check_conditions(positions["7w"], tree, play)
    assert e.value.line == 1 and e.value.column >= 32
    assert "your turn Pa1a2" in e.value.message


def test_a_nested_line_is_checked_after_the_answer_above_it(positions):
    bad = CONDS.replace("Pg9l9(Bk8),Pj6j7(Ei7W)", "Pg9l9(Bk8),Pj6j7(Ei9W)")
    with pytest.raises(ConditionError) as e:
        check_conditions(positions["7w"], parse_conditions(lines(bad)), play)
    assert e.value.line == 2


def test_match_is_by_position_not_by_text(positions):
    tree = parse_conditions(lines(CONDS))
    fired = match(positions["7w"], tree, positions["7b"], play)
    assert fired is not None and fired.condition is tree[0]
    assert fired.standing == tree[0].then
    # Black's 8th turn written in another order gives the same position, and matches
    nested = fired.standing
    reached = play(positions["8w"], "Pd1l1(Bk2),Pd3a3(Bb2),Ed2c2").after
    assert reached == positions["8b"]
    again = match(positions["8w"], nested, reached, play)
    assert again is not None and again.condition is nested[0]


def test_no_match_when_the_position_differs(positions):
    tree = parse_conditions(lines("if Pd6d2 then Pc4c9"))
    assert match(positions["7w"], tree, positions["7b"], play) is None


def test_the_first_matching_line_wins(positions):
    two = ("if Pd3a3(Bb2),Ed2c2,Pd1l1(Bk2) then Pg9l9(Bk8)\n"
           "if Pd1l1(Bk2),Pd3a3(Bb2),Ed2c2 then Pj6j7(Ei7W)")
    tree = parse_conditions(lines(two))
    fired = match(positions["8w"], tree, positions["8b"], play)
    assert fired is not None and fired.condition.answer == "Pg9l9(Bk8)"
