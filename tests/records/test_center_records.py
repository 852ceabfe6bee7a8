"""Records of Classic and Medieval Realm written by hand (the rules pages' notation
examples), and broken copies that must fail or warn at the right turn, line and column."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.records.reader import read_games
from pbem.records.validate import validate_source
from pbem.rules.geometry import parse_square

GAMES = Path(__file__).resolve().parents[2] / "games"
CLASSIC = (GAMES / "classic-examples.realm").read_text(encoding="utf-8")
MEDIEVAL = (GAMES / "medieval-examples.realm").read_text(encoding="utf-8")


def report(text: str, strict: bool = False):
    (source,) = list(read_games(text, path="<test>"))
    return validate_source(source, strict=strict)


@pytest.mark.parametrize("text", [CLASSIC, MEDIEVAL], ids=["classic", "medieval"])
def test_the_hand_written_records_validate_without_a_warning(text):
    r = report(text)
    assert r.valid, r.error
    assert r.replay.warnings == []
    assert r.final.result is None


def test_classic_the_rescue_and_the_dislodging_of_the_rules_page_example():
    r = report(CLASSIC)
    turn = r.replay.turns[4]  # 3w: Eb5b8(+Ea4,xEc7)
    assert turn.label == "3w"
    board = turn.after.board
    assert board[parse_square("b5")].side.key == "white"  # the rescued piece from a4
    assert board[parse_square("a4")] is None and board[parse_square("c7")].side.key == "black"


def test_classic_a_forced_rescue_left_out_is_inferred_and_strict_refuses_it():
    text = CLASSIC.replace("Eb5b8(+Ea4,xEc7)", "Eb5b8(xEc7)")
    r = report(text)
    assert r.valid and [w.code for w in r.replay.warnings] == ["infer.event"]
    assert "(+Ea4)" in r.replay.warnings[0].message
    strict = report(text, strict=True)
    assert not strict.valid
    assert (strict.error.span.line, strict.error.span.column) == (9, 4)


def test_classic_a_missing_choice_names_the_candidates_at_its_place():
    r = report(CLASSIC.replace("Eb8b5(xEa4)", "Eb8b5"))
    assert not r.valid
    e = r.error
    assert e.code == "dislodge.choose" and e.turn == "1b"
    assert (e.span.line, e.span.column) == (7, 16)
    assert "(xEa4)" in e.options and "(xEc6)" in e.options


def test_medieval_the_replacement_of_the_rules_page_example():
    r = report(MEDIEVAL)
    last = r.replay.turns[-1]
    assert last.label == "2b"
    assert last.after.board[parse_square("e8")].side.key == "white"  # the White Man from d7


def test_medieval_a_man_stepping_back_is_refused_with_the_pieces_legal_moves():
    r = report(MEDIEVAL.replace("Eb5b8(xEa7)", "Eb5b2"))
    e = r.error
    assert e.code == "move.direction" and e.turn == "2w"
    assert e.message == "a Man moves only forward or sideways: b2 is behind b5"
    assert "Eb5e5" in e.options
    wrong = report(MEDIEVAL.replace("Pe8e11(+Ed7)", "Ee8e11(+Ed7)"))
    assert wrong.error.code == "move.letter"
    assert "is the Black Duke, written P, not a Man (E)" in wrong.error.message


def test_a_custom_setup_in_the_front_matter():
    text = CLASSIC.replace(
        "ruleset: classic\n",
        "ruleset: classic\nsetup: {b5: wE, e5: wE, h5: wE, k5: wE, b2: wE, e2: wE, h2: wE,"
        " k2: wE, b8: bE, e8: bE, h8: bE, k8: bE, b11: bE, e11: bE, h11: bE, k12: bE}\n",
    )
    r = report(text.split("1.")[0] + "1. Ee5e8(xEd7)\n*\n")
    assert r.valid, r.error
    board = r.final.board
    assert board[parse_square("k12")] is not None and board[parse_square("k11")] is None

