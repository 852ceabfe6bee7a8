"""notation.md's look-alike '1': a file letter l typed as 1, a rank 1 typed as l or I."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.records.reader import read_games
from pbem.records.replay import replay_game

SAMPLE = (Path(__file__).resolve().parents[2] / "games" / "sample-game-2002.realm").read_text()


def replay(text: str, strict: bool = False):
    (source,) = list(read_games(text))
    assert source.game is not None, source.error
    return replay_game(source.game, strict=strict)


@pytest.mark.parametrize(
    ("written", "read", "turn"),
    [
        ("Pc9c10(Bb11)", "Pc9cl0(Bb11)", "9b"),  # rank 10 typed "l0"
        ("Pl10l4(EI6W)", "P110l4(EI6W)", "15b"),  # file l typed "1"
        ("Pd1L1(Bk2)", "Pd1LI(Bk2)", "8b"),  # rank 1 typed "I"
    ],
)
def test_one_and_ell_are_repaired_where_one_reading_is_legal(written, read, turn):
    result = replay(SAMPLE.replace(written, read))
    assert result.valid, result.error
    assert result.final is not None and result.final.result == "1-0"
    repairs = [w for w in result.warnings if w.turn == turn and w.code == "repair.square"]
    assert any(repr(read) in w.message for w in repairs), [w.message for w in repairs]


def test_the_repair_is_an_error_in_strict_mode():
    result = replay(SAMPLE.replace("Pc9c10(Bb11)", "Pc9cl0(Bb11)"), strict=True)
    assert not result.valid


def test_a_one_with_no_legal_reading_is_an_error_naming_the_rule():
    # "P110i5": neither l10 nor i10 holds a Black Power at 9b
    result = replay(SAMPLE.replace("Pc9c10(Bb11)", "P110i5(Bb11)"))
    assert not result.valid
    assert result.error is not None and result.error.turn == "9b"


def test_a_base_placement_after_a_power_placement_is_not_read_as_a_square():
    from pbem.notation.parse import parse_game
    from pbem.notation.syntax import PlacementText

    game = parse_game("4.Pa1 Bl1")
    (entry,) = game.entries
    assert entry.black is not None
    assert isinstance(entry.black.actions[0], PlacementText)
    assert entry.black.actions[0].square.text == "l1"
