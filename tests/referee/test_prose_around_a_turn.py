"""Prose around a turn in a mail (issue 22, item 6): the turn is played and what was
left aside is quoted back to the sender; a turn after a short lead-in is found; marks
and comments are notation, never prose; text left aside that looks like notation
refuses the mail, naming what was read as the turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.referee.intake.extract import BodyLine
from pbem.referee.intake.orders import find_orders
from tests.referee.conftest import text_of
from tests.referee.helpers import new_table

TURN = "Eb5b8(xEa7)"  # legal in Classic's first position


def _send(home: Path, body: str):
    table = new_table(home, "classic")
    return table, table.send(table.white.reply(body))


def test_prose_after_the_turn_is_quoted_back_and_the_turn_played(home: Path) -> None:
    table, handled = _send(home, f"1.{TURN} -- let's see what you do!")
    assert handled.outcome == "accepted", handled.reason
    assert table.turns() == ["1w"]
    assert "ignored: -- let's see what you do!" in text_of(table.white.last)
    assert "let's see what you do" not in text_of(table.black.last)  # the sender's alone


def test_a_turn_after_a_lead_in_is_found_and_a_note_after_it_left_aside(home: Path) -> None:
    table, handled = _send(home, f"My move: {TURN} (hope that works)")
    assert handled.outcome == "accepted", handled.reason
    assert "ignored: (hope that works)" in text_of(table.white.last)


@pytest.mark.parametrize("marks", ["!", "?", "!!", "??", "!?", "?!", " {a fine move}", "!? {sure}"])
def test_marks_and_comments_are_notation_not_prose(home: Path, marks: str) -> None:
    table, handled = _send(home, TURN + marks)
    assert handled.outcome == "accepted", handled.reason
    assert "ignored" not in text_of(table.white.last)


@pytest.mark.parametrize("rest", ["then Ee5e8", "and Em2e5", "see 2... Eb2b5"])
def test_text_left_aside_that_looks_like_notation_refuses_the_mail(home: Path, rest: str) -> None:
    table, handled = _send(home, f"{TURN} {rest}")
    assert handled.outcome == "refused"
    reason = handled.reason or ""
    assert reason.startswith(f"only '{TURN}' was read as your turn: the rest of the line, "
                             f"'{rest}'")
    assert "expected" not in reason and "MOVE" not in reason
    assert table.turns() == []


def test_a_sentence_that_names_a_move_stays_chatter() -> None:
    lines = (BodyLine(1, "I think Pa1a2 was a mistake"), BodyLine(2, "Thanks: see you"))
    assert find_orders("", lines) == []
    found = find_orders("", (BodyLine(1, "My move: 7.Pa1a2"),))
    assert [(o.name, o.text, o.column) for o in found] == [("turn", "7.Pa1a2", 10)]


@pytest.mark.parametrize("tail", ["!" * 20_000 + " hi", " ok" * 20_000, " {" * 20_000])
def test_the_cut_parses_a_line_at_most_three_times(tail: str, monkeypatch) -> None:
    """Bounded work: however long the prose, the line is parsed a fixed number of times,
    and the marks are skipped in one pass."""
    from pbem.records.rulesets import load_ruleset
    from pbem.referee.turns import turn_line
    from pbem.rules.registry import game_of

    calls: list[int] = []
    real = turn_line.parse_movetext

    def counted(text: str, *args, **kwargs):
        calls.append(len(text))
        return real(text, *args, **kwargs)

    monkeypatch.setattr(turn_line, "parse_movetext", counted)
    rules = load_ruleset("classic")
    line = turn_line.read_turn_line(game_of(rules).initial(rules), TURN + tail)
    assert line.turn.startswith(TURN) and line.error is None  # with its marks, notation
    assert len(calls) <= 3
    assert len(line.aside) <= turn_line.QUOTED + 3
