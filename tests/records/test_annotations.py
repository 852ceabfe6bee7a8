"""Variations are checked as lines of play from the position before their turn (issue 27,
part 5): a broken one is a warning at its line and column; a mark never is."""

from __future__ import annotations

from pbem.records.reader import read_games
from pbem.records.replay import replay_game

SETUP = "1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9\n"


def _replay(movetext: str):
    (source,) = read_games("---\nruleset: featured\n---\n" + SETUP + movetext)
    assert source.game is not None, source.error
    return replay_game(source.game)


def test_a_legal_variation_is_valid_and_a_mark_is_no_warning():
    replay = _replay("7.Pi10i6(Bh5)!,Pc4g4(Ei4W) [7.Pi10i9]/Pd6d1(Be2)??\n")
    assert replay.valid and replay.warnings == []
    marks = [a for a in replay.annotations if a["mark"]]
    assert [(a["turn"], a["mark"]) for a in marks] == [("7w", "!"), ("7b", "??")]
    (variation,) = [a["variation"] for a in replay.annotations if a["variation"]]
    assert variation == {"text": "[7.Pi10i9]", "valid": True, "error": None}


def test_a_broken_variation_is_a_warning_where_it_breaks():
    replay = _replay("7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2) [7...Pa1a2]\n")
    assert replay.valid  # the game itself is played as written
    (warning,) = replay.warnings
    assert warning.code == "annotation.variation" and warning.turn == "7b"
    assert (warning.span.line, warning.span.column) == (5, 43)  # its move: "Pa1a2"
    (variation,) = [a["variation"] for a in replay.annotations if a["variation"]]
    assert variation["valid"] is False and variation["error"]["column"] == 43


def test_a_variation_is_played_from_the_position_before_its_turn():
    """Black's 7th turn replaced (by the sample game's): the line goes on with White's 8th."""
    replay = _replay("7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2) "
                     "[7...Pd6d1(Be2),Pg3d3(Ed2N) 8.Pi6j6(Bk5),Pg4g9(Bh8),Ei4d4]\n")
    (variation,) = [a["variation"] for a in replay.annotations if a["variation"]]
    assert variation["valid"] is True, variation
