"""The text board with the last turn marked: the marks never move a column."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.notation.parse import parse_game
from pbem.records.replay import PlayedTurn, Replay, replay_game
from pbem.render.text_board import MARK, render_board, render_text, turn_squares
from pbem.rules.geometry import parse_square, square_name

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")
WORKED = (ROOT / "games" / "worked-example-2002.realm").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def replay() -> Replay:
    return replay_game(parse_game(SAMPLE))


def turn(replay: Replay, label: str) -> PlayedTurn:
    return next(t for t in replay.turns if t.label == label)


def names(squares) -> set[str]:
    return {square_name(s) for s in squares}


def test_squares_of_11w_moves_and_events(replay):
    # Pj7j10(Bk11), Pl9c9, El7a7(xBb8,xEa7)
    assert names(turn_squares(turn(replay, "11w"))) == {
        "j7", "j10", "k11", "l9", "c9", "l7", "a7", "b8"
    }


def test_squares_of_a_set_up_placement(replay):
    assert names(turn_squares(turn(replay, "4w"))) == {"i10"}


def test_squares_of_a_rearrangement_are_only_those_that_changed():
    text = WORKED.replace("Eg12g6\n*", "Eg12g6/Rh2(Pi1,Pg1,Eg3E)\n")
    r = replay_game(parse_game(text))
    assert r.error is None
    # i3 -> i1; g1 stays; g3 turns from North to East
    assert names(turn_squares(r.turns[-1])) == {"i3", "i1", "g3"}


@pytest.mark.parametrize("flip", [False, True])
def test_marks_take_the_space_before_a_cell_and_keep_the_layout(replay, flip):
    t = turn(replay, "11w")
    plain = render_board(t.after, flip=flip).splitlines()
    marked = render_board(t.after, flip=flip, marks=turn_squares(t)).splitlines()
    assert [len(x) for x in marked] == [len(x) for x in plain]
    changed = 0
    for a, b in zip(plain, marked, strict=True):
        for x, y in zip(a, b, strict=True):
            if x != y:
                assert (x, y) == (" ", MARK)
                changed += 1
    assert changed == len(turn_squares(t))
    assert all(ord(c) < 128 for c in "".join(marked))


def test_mark_sits_right_before_the_marked_cell(replay):
    t = turn(replay, "11w")
    rows = render_board(t.after, marks=turn_squares(t)).splitlines()
    header = rows[0]
    row7 = next(r for r in rows if r.startswith(" 7 |"))
    # a7 holds White's immobilised Enforcer, marked; the column of "a" is the cell's middle
    col = header.index("a")
    assert row7[col - 2 : col + 2] == "*wE#"
    assert parse_square("a7") in turn_squares(t)


def test_render_text_without_last_is_unchanged_and_with_last_adds_a_line(replay):
    t = turn(replay, "11w")
    plain = render_text(t.after)
    assert MARK not in plain
    marked = render_text(t.after, last=t)
    assert "* = squares changed by the last turn, #11w: Pj7j10(Bk11),Pl9c9,El7a7(xBb8,xEa7)" in (
        marked
    )
    # the same lines otherwise, once the marks are taken out
    lines = [ln for ln in marked.splitlines() if not ln.startswith(f"{MARK} = ")]
    assert "\n".join(lines).replace(MARK, " ") == plain
