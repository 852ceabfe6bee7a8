"""Scanned and retyped records the reader reads anyway (issue 15, items 1 and 2).

Front matter values that YAML would misread but that have one obvious meaning
(``result: *``, ``event: Abstract Games: issue 9``) are read as written; a stray comma or
full stop after a result, after a move number, after a note (``(Figure 6),``) or at a
line's end is ignored with a warning. Every record here was refused before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import RecordError, Span
from pbem.notation.parse import parse_game
from pbem.records.reader import read_games
from pbem.records.replay import Replay, replay_game

SAMPLE = (Path(__file__).resolve().parents[2] / "games" / "sample-game-2002.realm").read_text()
SETUP = "1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8\n"


def replay(text: str, strict: bool = False) -> Replay:
    (source,) = list(read_games(text))
    assert source.game is not None, source.error
    return replay_game(source.game, strict=strict)


def front(lines: str) -> dict:
    return parse_game(f"---\n{lines}\n---\n{SETUP}").headers


# -- item 1: front matter ------------------------------------------------------------------
def test_an_unfinished_result_in_the_front_matter_is_the_result():
    # YAML reads a bare '*' as an alias and refused the whole record
    result = replay(f"---\ngame: Club game\nresult: *\n---\n{SETUP}*\n")
    assert result.valid, result.error
    assert result.headers["result"] == "*"
    assert result.claimed is None and result.warnings == []


@pytest.mark.parametrize(
    ("line", "key", "value"),
    [
        ("result: *", "result", "*"),
        ("event: Abstract Games: issue 9", "event", "Abstract Games: issue 9"),
        ("site: Club room:", "site", "Club room:"),
        ("white: @ann", "white", "@ann"),
        ("white: &Ann Smith", "white", "&Ann Smith"),  # not an anchor named Ann
        ("black: `bob`", "black", "`bob`"),
        ("source: %scan 12", "source", "%scan 12"),
        ("white: No", "white", "No"),  # a player, not YAML 1.1's false
        ("black: ~", "black", "~"),
        ("game: null", "game", "null"),
        ("result: ½-½", "result", "1/2-1/2"),
        ("white: It's me", "white", "It's me"),
    ],
)
def test_front_matter_values_yaml_would_misread_are_read_as_written(line, key, value):
    assert front(line)[key] == value


@pytest.mark.parametrize(
    ("lines", "expected"),
    [
        # valid YAML keeps its meaning: quoted text, numbers outside the text keys, flow
        ("white: 'No'\ndate: 2002", {"white": "No", "date": 2002}),
        ("ruleset: {parent: featured}", {"ruleset": {"parent": "featured"}}),
        ("white: \"*\"", {"white": "*"}),
    ],
)
def test_valid_yaml_keeps_its_meaning(lines, expected):
    assert front(lines) == expected


def test_a_real_yaml_error_still_names_line_and_column():
    # the '*' is read as text, and the broken flow list two lines below is still an error
    with pytest.raises(RecordError) as info:
        parse_game(f"---\nresult: *\nwhite: Ann\nblack: [Bob\n---\n{SETUP}")
    assert info.value.code == "record.yaml"
    assert info.value.span == Span(5, 1)  # the list is still open at the closing ---
    assert "not valid YAML" in info.value.message


def test_a_tag_is_still_yaml_and_still_refused():
    with pytest.raises(RecordError) as info:
        parse_game(f"---\nwhite: !!python/object:os.system x\n---\n{SETUP}")
    assert info.value.code == "record.yaml" and info.value.span == Span(2, 8)


# -- item 2: stray commas and full stops ------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new", "at", "code", "turn", "words"),
    [
        ("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5) 1-0,", 17, "repair.comma", None,
         "ignored the stray comma after the result"),
        ("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5) 1-0.", 17, "repair.stop", None,
         "ignored the stray full stop after the result"),
        ("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5) 1-0 ,", 18, "repair.comma", None,
         "after the result"),
        (" 7.Pi10i6", " 7.,Pi10i6", 3, "repair.comma", "7w",
         "ignored the stray comma after the move number"),
        (" 7.Pi10i6", " 7..Pi10i6", 3, "repair.stop", "7w",
         "ignored the stray full stop after the move number"),
        (" 7.Pi10i6", " 7. , Pi10i6", 4, "repair.comma", "7w", "after the move number"),
        ("Pa3a12(Ec12S)\n", "Pa3a12(Ec12S).\n", 13, "repair.stop", "9b",
         "ignored the stray full stop at the end of the line"),
        # a full stop at the end of White's line, Black's turn on the next
        ("(Bh8),Ei4d4/\n", "(Bh8),Ei4d4.\n", 11, "repair.stop", "8w",
         "at the end of the line"),
        ("6.Pc4, Pc9,\n", "6.Pc4, Pc9.\n", 10, "repair.stop", "6b", "at the end of the line"),
        # after a note such as the article's figure references
        (" (Figure 6)\n", " (Figure 6),\n", 11, "repair.comma", "9b", "at the end of the line"),
        (" (Figure 7)\n", " (Figure 7).\n", 11, "repair.stop", "12b", "at the end of the line"),
        ("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5) 1-0 (final),", 25, "repair.comma", None,
         "after the result"),
    ],
)
def test_scan_noise_is_ignored_with_a_warning(old, new, at, code, turn, words):
    assert SAMPLE.count(old) == 1
    text = SAMPLE.replace(old, new)
    result = replay(text)
    assert result.valid, result.error
    assert result.final is not None and result.final.result == "1-0"
    # the sample's own stray comma between 6w and 6b aside, this is the only one
    noise = [
        w for w in result.warnings
        if w.code in ("repair.comma", "repair.stop") and "White's and Black's" not in w.message
    ]
    assert len(noise) == 1, noise
    (got,) = noise
    assert (got.code, got.turn) == (code, turn) and words in got.message
    offset = text.index(new) + at
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    assert got.span == Span(line, column)
    assert text[offset] == new[at] and new[at] in ",."


def test_scan_noise_is_an_error_in_strict_mode():
    result = replay(f"{SETUP}4.,Pi10 Pg3", strict=True)
    assert not result.valid and result.error is not None
    assert result.error.code == "repair.comma" and result.error.span == Span(2, 3)


def test_a_full_stop_inside_a_line_is_still_an_error():
    # only at a line's end is a full stop noise: inside a line it may hide a lost action
    (source,) = list(read_games("1.Bh11 Bh2. 2.Be8 Be5\n"))
    assert source.error is not None and source.error.span == Span(1, 11)


def test_a_comma_after_a_note_inside_a_turn_is_still_an_error():
    # a note ends the turn: a comma that leads on to another action is no scan noise
    (source,) = list(read_games(f"{SETUP}4.Pi10 (look),Pg3\n"))
    assert source.error is not None
