"""The board in words: alt texts and descriptions, golden for a few positions of each game.

A golden file holds a position's alt text, a blank line, then its description one
Realm a line, as a screen reader walks it (``tests/golden/words-*.txt``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from pbem.records.reader import read_file, read_games
from pbem.records.replay import Replay
from pbem.records.validate import validate_source
from pbem.render.board_words import board_alt, board_words, viewer_words
from tests.golden import check_golden

ROOT = Path(__file__).resolve().parents[2]


@cache
def replay_of(name: str) -> Replay:
    source = next(iter(read_file(ROOT / "games" / f"{name}.realm")))
    return validate_source(source).replay


def words_of(replay: Replay, label: str | None, *, flip: bool = False) -> str:
    if label is None:  # the start
        position = replay.turns[0].before
        last = None
    else:
        last = next(t for t in replay.turns if t.label == label)
        position = last.after
    return board_alt(position, last, flip=flip) + "\n\n" + "\n".join(
        board_words(position).lines()) + "\n"


CASES = [
    ("sample-game-2002", None, False, "words-sample-start.txt"),
    ("sample-game-2002", "5b", False, "words-sample-5b.txt"),
    ("sample-game-2002", "11w", True, "words-sample-11w-black.txt"),
    ("sample-game-2002", "16w", False, "words-sample-final.txt"),
    ("classic-examples", "3b", False, "words-classic-3b.txt"),
    ("medieval-examples", "2b", False, "words-medieval-2b.txt"),
    ("oriental-example", None, False, "words-oriental-start.txt"),
    ("modern-example", "2w", False, "words-modern-2w.txt"),
]


@pytest.mark.parametrize(("name", "label", "flip", "golden"), CASES)
def test_alt_text_and_description_golden(name: str, label: str | None, flip: bool,
                                         golden: str) -> None:
    check_golden(golden, words_of(replay_of(name), label, flip=flip))


def test_the_alt_says_whose_turn_the_score_and_the_last_turn() -> None:
    replay = replay_of("sample-game-2002")
    t = next(t for t in replay.turns if t.label == "11w")
    alt = board_alt(t.after, t)
    assert alt.startswith("The board after #11w. Turn #11w: White's Power from j7 to j10 created")
    assert "Black to move (#11b)." in alt and alt.endswith("Realms: White 8, Black 6.")
    assert board_alt(t.after, t, flip=True).startswith("The board after #11w, seen from Black's")


def test_every_piece_is_named_once_in_its_realm() -> None:
    for name in ("sample-game-2002", "classic-examples", "medieval-examples",
                 "oriental-example", "modern-example"):
        final = replay_of(name).final
        assert final is not None
        words = board_words(final)
        pieces = sum(p is not None for p in final.board)
        named = sum(len(phrases) for r in words.realms for _, phrases in r.sides)
        assert named == pieces, name
        for realm in words.realms:  # each phrase names a square of its own Realm
            centre = realm.name.split()[1]
            for _, phrases in realm.sides:
                assert all(" on " in p for p in phrases), (name, centre, phrases)


def test_a_realm_held_by_white_says_so() -> None:
    # IntEnum White is 0: "held by" must not take it for no holder
    final = replay_of("sample-game-2002").final
    lines = board_words(final).lines()
    assert any(ln.startswith("The h11 Realm, held by White:") for ln in lines), lines


def test_an_initialism_takes_an() -> None:
    lines = board_words(replay_of("modern-example").final).lines()
    assert any("an HQ on" in ln for ln in lines) and not any("a HQ" in ln for ln in lines)


def test_a_hostile_name_never_reaches_the_words() -> None:
    # the words come from the position alone: names and comments of the record stay out
    text = ('---\nwhite: "<script>x</script>"\n---\n'
            "1.Bh11 Bh2 {</desc><script>alert(1)</script>}\n")
    replay = validate_source(next(iter(read_games(text)))).replay
    t = replay.turns[-1]
    assert "<" not in board_alt(t.after, t) + board_words(t.after).text()


def test_viewer_words_give_a_phrase_for_every_piece_of_the_game() -> None:
    replay = replay_of("sample-game-2002")
    words = viewer_words(replay)
    assert words["pieces"]["U"] == "an immobilised Enforcer on {sq}"
    assert words["pieces"]["b"] == "a Base on {sq}"
    assert words["realms"][0] == "b2" and len(words["realms"]) == 16
