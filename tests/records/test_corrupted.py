"""Broken copies of the sample game: each must fail at the right turn, line and column,
with the right error code and a message that says what the rules expected."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from pbem.errors import NotationError, Span
from pbem.notation.parse import parse_game
from pbem.records.reader import read_games
from pbem.records.replay import Replay, replay_game
from pbem.rules.geometry import parse_square
from pbem.rules.realm.position import Phase

GAMES = Path(__file__).resolve().parents[2] / "games"
SAMPLE_TEXT = (GAMES / "sample-game-2002.realm").read_text(encoding="utf-8")
WORKED_TEXT = (GAMES / "worked-example-2002.realm").read_text(encoding="utf-8")


def corrupt(*changes: tuple[str, str]) -> str:
    """The sample's text with each ``old`` (which must occur exactly once) made ``new``."""
    text = SAMPLE_TEXT
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def replay_of(text: str, **kw) -> Replay:
    return replay_game(parse_game(text), **kw)


def text_at(text: str, span: Span, length: int) -> str:
    line = text.split("\n")[span.line - 1]
    return line[span.column - 1 : span.column - 1 + length]


@dataclass(frozen=True)
class Case:
    id: str
    changes: tuple[tuple[str, str], ...]
    code: str
    turn: str | None
    line: int
    column: int
    action: str | None
    words: str
    #: the turn before the broken one, the last that stands
    last_good: str | None = None


# fmt: off
CASES = [
    Case(
        "through-an-occupied-square",
        (("Pc9d9/", "Pc9g9/"),),
        "move.blocked", "12w", 22, 19, "Pc9g9",
        "the Power on c9 cannot pass f9: the White Enforcer there blocks the way",
        "11b",
    ),
    Case(
        "through-an-enforcer-that-moves-later-in-the-turn",
        (("Pc10c6", "Pc10c1"),),
        "move.blocked", "10b", 19, 33, "Pc10c1",
        "cannot pass c2: the Black Enforcer there blocks the way",
        "10w",
    ),
    Case(
        "stop-on-a-center",
        (("16.Pe7e6(Be5)", "16.Pe7e5(Be5)"),),
        "move.center", "16w", 26, 35, "Pe7e5(Be5)",
        "the Power on e7 cannot stop on e5: no piece may stop on a Center",
        "15b",
    ),
    Case(
        "wrong-base-square",
        (("Pi10i6(Bh5)", "Pi10i6(Bh6)"),),
        "event.mismatch", "7w", 14, 4, "Pi10i6(Bh6)",
        "the record says (Bh6), but the rules give (Bh5) after Pi10i6",
        "6b",
    ),
    Case(
        "event-that-did-not-happen-after-an-enforcer",
        (("Ei4d4/", "Ei4d4(xBe5)/"),),
        "event.mismatch", "8w", 15, 26, "Ei4d4(xBe5)",
        "the record says (xBe5), but no special event happens after Ei4d4",
        "7b",
    ),
    Case(
        "event-that-did-not-happen-after-a-power",
        (("Pa12a6,", "Pa12a6(Bb5),"),),
        "event.mismatch", "10b", 19, 26, "Pa12a6(Bb5)",
        "the record says (Bb5), but no special event happens after Pa12a6",
        "10w",
    ),
    Case(
        "an-immobilisation-added-to-a-capture",
        (("(xBb5)", "(xBb5,xEc4)"),),
        "event.mismatch", "10b", 19, 40, "Ec2c4(xBb5,xEc4)",
        "the record says (xEc4), but the rules give (xBb5) after Ec2c4",
        "10w",
    ),
    Case(
        "an-enforcer-written-where-a-base-is-created",
        (("(Bh5)", "(Bh5,Eh4N)"),),
        "event.base-not-enforcer", "7w", 14, 4, "Pi10i6(Bh5,Eh4N)",
        "the record says (Bh5,Eh4N), but the Power's stop in the h5 Realm creates a Base on h5",
        "6b",
    ),
    Case(
        "missing-enforcer-choice",
        (("(Ei4W)", ""),),
        "event.enforcer-choice", "7w", 14, 16, "Pc4g4",
        "creates a White Enforcer: the record must say where it goes and which way it points",
        "6b",
    ),
    Case(
        "created-enforcer-outside-the-realm",
        (("(Ei4W)", "(Eg7W)"),),
        "event.enforcer-square", "7w", 14, 16, "Pc4g4(Eg7W)",
        "cannot go on g7: it goes on an empty square of the h5 Realm (h4, i4, g5, i5, g6, h6)",
        "6b",
    ),
    Case(
        "created-enforcer-immobilised",
        (("(Ei4W)", "(Ei4U)"),),
        "event.created-facing", "7w", 14, 16, "Pc4g4(Ei4U)",
        "a created Enforcer points North, East, South or West",
        "6b",
    ),
    Case(
        "immobilising-a-square-without-an-enemy-enforcer",
        (("Ej4j7(xBk8,xEj7)", "Ej4j7(xBk8,xEk7)"),),
        "event.no-enemy-enforcer", "12b", 23, 18, "Ej4j7(xBk8,xEk7)",
        "the k8 Realm holds no mobile White Enforcer",
        "12w",
    ),
    Case(
        "event-written-twice",
        (("(xBb5)", "(xBb5,xBb5)"),),
        "event.repeated", "10b", 19, 40, "Ec2c4(xBb5,xBb5)",
        "(xBb5) is written twice",
        "10w",
    ),
    Case(
        "move-by-the-wrong-side",
        (("Pl7l4(Bk5)", "Pd6c6"),),
        "move.not-own", "13b", 24, 40, "Pd6c6",
        "the Power on d6 is White's; it is Black's turn",
        "13w",
    ),
    Case(
        "neither-dispersal-nor-concentration",
        (("Pc9d9/", "Pc9c10/"),),
        "turn.dispersal-or-concentration", "12w", 22, 19, "Pc9c10",
        "starts in the b8 Realm and stops in the b11 Realm",
        "11b",
    ),
    Case(
        "a-piece-moved-twice",
        (("Pc9d9/", "Pc9d9,Pd9d6/"),),
        "turn.moved-once", "12w", 22, 25, "Pd9d6",
        "the piece on d9 has already moved this turn",
        "11b",
    ),
    Case(
        "a-move-after-the-last-base-in-the-same-turn",
        (("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5),Pd6d4 wins."),),
        "turn.game-over", "16w", 26, 46, "Pd6d4",
        "the game ended the moment White created its last Base",
        "15b",
    ),
    Case(
        "blacks-turn-after-the-end",
        (("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5)/Pa6a4 wins."),),
        "turn.game-over", "16b", 26, 46, "Pa6a4",
        "the game is over (White created its last Base in turn 16w): Black's turn is never played",
        "16w",
    ),
    Case(
        "an-entry-after-the-end",
        (("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5) 17.Pd6d4 wins."),),
        "turn.game-over", "17w", 26, 46, None,
        "the game is over (White created its last Base in turn 16w): nothing more may be played",
        "16w",
    ),
    Case(
        "an-entry-after-the-result",
        (("16.Pe7e6(Be5) wins.", "16.Pe7e6(Be5) wins. 17.Pd6d4"),),
        "record.after-result", None, 26, 52, None,
        "entry 17 follows the result 'wins': nothing may follow the result",
        "16w",
    ),
    Case(
        "a-result-that-contradicts-the-score",
        (("result: 1-0", "result: 0-1"), ("wins.", "0-1")),
        "record.result", None, 26, 46, None,
        "the record gives 0-1, but the game ended with 1-0 (White 8 Realms, Black 7)",
        "16w",
    ),
    Case(
        "a-result-that-contradicts-the-front-matter",
        (("wins.", "0-1"),),
        "record.result", None, 26, 46, None,
        "the result '0-1' differs from the front matter's '1-0'",
        "16w",
    ),
    Case(
        "set-up-base-in-the-same-row-of-realms",
        (("3.Bb5 Bb8", "3.Bb8 Bb5"),),
        "setup.row-column", "3w", 13, 34, "Bb8",
        "White cannot place a Base on b8: it is in the same row or column of Realms",
        "2b",
    ),
    Case(
        "set-up-base-in-the-same-column-of-realms",
        (("2.Be8 Be5", "2.Be8 Bh5"),),
        "setup.row-column", "2b", 13, 27, "Bh5",
        "Black cannot place a Base on h5",
        "2w",
    ),
    Case(
        "set-up-power-outside-its-realms",
        (("4.Pi10 Pg3", "4.Pi7 Pg3"),),
        "setup.power-square", "4w", 13, 45, "Pi7",
        "the h8 Realm holds none",
        "3b",
    ),
    Case(
        "a-missing-black-turn",
        (("/Pd6d1(Be2),Pg3d3(Ed2N)\n", "\n"),),
        "record.turn-order", "8w", 15, 2, None,
        "Black's turn 7 is missing: entry 8 begins with White's turn",
        "7w",
    ),
]
# fmt: on


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_corrupted_sample(case: Case):
    text = corrupt(*case.changes)
    replay = replay_of(text)
    assert not replay.valid
    error = replay.error
    assert error.code == case.code
    assert error.turn == case.turn
    assert error.span == Span(case.line, case.column)
    assert error.action == case.action
    assert case.words in error.message
    # the error points at the action (or entry, or result) it names
    if case.action is not None:
        assert text_at(text, error.span, len(case.action)) == case.action
    # the final position is the one after the last legal turn
    assert replay.turns[-1].label == case.last_good
    assert replay.final == replay.turns[-1].after


def test_the_error_names_the_options_for_a_missing_enforcer_choice():
    error = replay_of(corrupt(("(Ei4W)", ""))).error
    assert error.code == "event.enforcer-choice"
    # h5 Realm: g4 holds the mover, h5 the Base; six squares, four facings each
    assert len(error.options) == 6 * 4
    assert "Ei4W" in error.options
    assert set(error.options) == {
        f"E{s}{d}" for s in ("h4", "i4", "g5", "i5", "g6", "h6") for d in "NESW"
    }


def test_a_left_out_forced_base_is_inferred_with_a_warning():
    replay = replay_of(corrupt(("Pi10i6(Bh5)", "Pi10i6")))
    assert replay.valid
    inferred = [w for w in replay.warnings if w.code == "infer.event"]
    assert len(inferred) == 1
    (w,) = inferred
    assert w.turn == "7w"
    assert w.span == Span(14, 4)
    assert w.message == (
        "the record leaves out (Bh5), which the rules make happen after Pi10i6; inferred"
    )
    # and the game goes on exactly as printed
    assert replay.result == "1-0"
    assert replay.final.ply == 31


def test_a_left_out_capture_and_immobilisation_are_inferred_together():
    replay = replay_of(corrupt(("Ef9f6(xBe5,xEf6)", "Ef9f6")))
    assert replay.valid
    (w,) = [w for w in replay.warnings if w.code == "infer.event"]
    assert w.turn == "13w"
    assert "(xBe5,xEf6)" in w.message


def test_strict_mode_refuses_an_inferred_event():
    text = corrupt(("Set?up:", "Set-up:"), ("6.Pc4, Pc9,", "6.Pc4 Pc9"), ("Pi10i6(Bh5)", "Pi10i6"))
    replay = replay_of(text, strict=True)
    assert replay.error.code == "infer.event"
    assert replay.error.turn == "7w"
    assert replay.error.span == Span(14, 4)


def test_events_written_out_of_order_are_a_warning():
    replay = replay_of(corrupt(("Ef9f6(xBe5,xEf6)", "Ef9f6(xEf6,xBe5)")))
    assert replay.valid
    (w,) = [w for w in replay.warnings if w.code == "repair.event-order"]
    assert w.turn == "13w"
    assert w.message == "the events after Ef9f6 happen in the order (xBe5,xEf6)"


def test_a_wrong_entry_number_is_a_warning():
    replay = replay_of(corrupt((" 9.Pg9", " 19.Pg9")))
    assert replay.valid
    (w,) = [w for w in replay.warnings if w.code == "repair.number"]
    assert w.turn == "9w"
    assert w.span == Span(17, 2)
    assert w.message == "entry 19 should be numbered 9; read as 9"


def test_the_front_matter_result_alone_is_checked_against_the_score():
    replay = replay_of(corrupt(("result: 1-0", "result: 0-1"), (" wins.", "")))
    assert not replay.valid
    assert replay.error.code == "record.result"
    assert replay.error.span == Span(1, 1)
    assert "the record gives 0-1, but the game ended with 1-0" in replay.error.message


def test_wins_contradicting_the_front_matter_result():
    replay = replay_of(corrupt(("result: 1-0", "result: 0-1")))
    assert not replay.valid
    assert replay.error.code == "record.result"


# -- look-alike letters with two legal readings ---------------------------------------------------
# White: Bases b11 e5 h8, Powers a10 f4 g7; Black: Bases h2 k8 e11, Powers g3 j9 d12.
# From a10 the way East along rank 10 is clear to l10, and both i10 (h11 Realm) and
# l10 (k11 Realm) are vacant Realms where White's Power would create a Base.
TINY = "Set-up: 1.Bb11 Bh2, 2.Be5 Bk8, 3.Bh8 Be11, 4.Pa10 Pg3, 5.Pf4 Pj9, 6.Pg7 Pd12\n"


@pytest.mark.parametrize("written", ["Pa10I10", "Pa10L10", "PA10I10"])
def test_an_ambiguous_look_alike_reading(written):
    replay = replay_of(TINY + f"7.{written}\n")
    assert not replay.valid
    error = replay.error
    assert error.code == "notation.ambiguous"
    assert error.turn == "7w"
    assert error.span == Span(2, 3)
    assert error.action == written
    assert "'Pa10i10'" in error.message and "'Pa10l10'" in error.message
    # the record ends there, so both readings carry it to its end (issue 15)
    assert "more than one of these carries the record to its end" in error.message
    assert replay.turns[-1].label == "6b"


@pytest.mark.parametrize(
    ("written", "reading"),
    [("Pa10I10(Bh11)", "Pa10i10(Bh11)"), ("Pa10L10(Bk11)", "Pa10l10(Bk11)")],
)
def test_the_annotation_settles_a_look_alike_reading(written, reading):
    replay = replay_of(TINY + f"7.{written}\n")
    assert replay.valid
    (w,) = replay.warnings
    assert w.code == "repair.square"
    assert w.message == f"read {written!r} as {reading!r}"
    assert w.span == Span(2, 7)


@pytest.mark.parametrize(("written", "base"), [("Pa10i10", "h11"), ("Pa10l10", "k11")])
def test_a_plain_lower_case_letter_is_taken_as_written(written, base):
    replay = replay_of(TINY + f"7.{written}\n")
    assert replay.valid
    assert [w.code for w in replay.warnings] == ["infer.event"]
    assert replay.final.board[parse_square(base)].code == "wB"


# -- a file of three games, the middle one broken ------------------------------------------
def test_a_broken_game_hides_neither_its_neighbours():
    broken = "---\ngame: Broken\n---\n1.Bh11 Bh2, 2.Be8 Be5\n 3.Bb5 Bm8\n"
    text = SAMPLE_TEXT + broken + WORKED_TEXT
    first, middle, last = list(read_games(text, "three.realm"))
    sample_lines = SAMPLE_TEXT.count("\n")
    assert (first.first_line, middle.first_line) == (1, sample_lines + 1)
    assert last.first_line == sample_lines + broken.count("\n") + 1
    # the middle one: a NotationError counted from the top of the file
    assert middle.game is None
    assert isinstance(middle.error, NotationError)
    assert middle.error.span == Span(sample_lines + 5, 9)
    assert "'m8' is not a square" in middle.error.message
    # the others validate as they do alone
    one = replay_game(first.game)
    assert one.valid and one.result == "1-0"
    assert len(one.warnings) == 13
    assert one.final.phase is Phase.OVER
    three = replay_game(last.game)
    assert three.valid and three.warnings == []
    assert three.final.ply == 15
    assert last.game.headers["game"] == "Worked Example"
    # and the spans of the third game count lines from the top of the file
    assert last.game.entries[0].span.line == last.first_line + 13


def test_an_illegal_game_between_two_good_ones():
    illegal = "---\ngame: Illegal\n---\n1.Bh11 Bh11\n"
    sources = list(read_games(SAMPLE_TEXT + illegal + WORKED_TEXT))
    results = [replay_game(s.game) for s in sources]
    assert [r.valid for r in results] == [True, False, True]
    error = results[1].error
    assert error.code == "setup.base-vacant"
    assert error.turn == "1b"
    assert error.span == Span(SAMPLE_TEXT.count("\n") + 4, 8)
