"""The Abstract Games 2002 sample game, as printed, and the article's worked example.

The expected positions below were worked out by hand, turn by turn, against
rulings.md (see the comments by each turn), not copied from the program's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import NotesLater, Span
from pbem.notation.format import format_action, format_game
from pbem.notation.parse import parse_game
from pbem.notation.syntax import TurnText
from pbem.notation.write import game_text
from pbem.records.interchange import position_to_json
from pbem.records.reader import read_games
from pbem.records.replay import Replay, replay_game
from pbem.rules.geometry import square_name
from pbem.rules.pieces import Side
from pbem.rules.realm.position import Phase, Position
from pbem.rules.realm.scoring import score

GAMES = Path(__file__).resolve().parents[2] / "games"
SAMPLE_TEXT = (GAMES / "sample-game-2002.realm").read_text(encoding="utf-8")
WORKED_TEXT = (GAMES / "worked-example-2002.realm").read_text(encoding="utf-8")
W, B = Side.WHITE, Side.BLACK


def board_of(position: Position) -> dict[str, str]:
    return {square_name(s): p.code for s, p in enumerate(position.board) if p is not None}


def text_at(text: str, span: Span, length: int) -> str:
    line = text.split("\n")[span.line - 1]
    return line[span.column - 1 : span.column - 1 + length]


@pytest.fixture(scope="module")
def replay() -> Replay:
    return replay_game(parse_game(SAMPLE_TEXT))


# -- the final position, by hand ------------------------------------------------------------------
# Set-up: White Bases h11 e8 b5, Powers i10 f7 c4; Black Bases h2 e5 b8, Powers g3 d6 c9.
#  7w Pi10i6 makes Base h5; Pc4g4 in White's h5 Realm makes Enforcer i4 (W).
#  7b Pd6d1 makes Base e2; Pg3d3 makes Enforcer d2 (N).
#  8w Pi6j6 Base k5; Pg4g9 Base h8; Ei4d4 stops in the e5 Realm, 0 Powers to 0: nothing.
#  8b Pd3a3 Base b2; Ed2c2 (turns West); Pd1l1 (printed L1) Base k2.
#  9w Pg9l9 Base k8; Pj6j7 Enforcer l7 (W) (printed i7, which is not in the k8 Realm).
#  9b Pc9c10 Base b11; Pa3a12 Enforcer c12 (S).
# 10w Pf7f12 Base e11; Ed4d10 (turns North), nothing.
# 10b Pa12a6, Pc10c6 into White's b5 Realm; Ec2c4 (turns North): Powers 2 to 0, captures
#     b5 and, the margin being two, stays mobile.
# 11w Pj7j10 Base k11; Pl9c9 into Black's b8 Realm; El7a7 (printed I7): Powers 1 to 0,
#     captures b8 and, the margin being one, is immobilised.
# 11b Pl1l6, Pc6j6 into White's k5 Realm; Ec4j4 (East): 2 to 0, captures k5, stays mobile.
# 12w Pf12f7 Enforcer f9 (S); Pc9d9: a mobile Enforcer is in the e8 Realm now, nothing.
# 12b Pj6b6 Base b5 again; Pl6l7; Ej4j7 (North): 1 to 0, captures k8, immobilised.
# 13w Pf7c7 Base b8 again; Pd9d6; Ef9f6: 1 to 0, captures e5, immobilised.
# 13b Pl7l4 Base k5 again.
# 14w Pj10j9 Base k8 again (the immobilised Black Enforcer j7 does not stop it).
# 14b Pl4l10; Ec12j12 (East): 1 to 0, captures k11, immobilised.
# 15w Pc7e7 Enforcer f7 (N) (f9's Enforcer has left the e8 Realm).
# 15b Pl10l4 Enforcer l6 (W) (printed I6, which is in the h5 Realm).
# 16w Pe7e6 Base e5: White's 12th Base; the game ends.
FINAL_BOARD = {
    # White: 8 Bases, 3 Powers, 4 Enforcers (two immobilised)
    "h11": "wB", "e11": "wB", "e8": "wB", "h8": "wB", "k8": "wB", "b8": "wB",
    "h5": "wB", "e5": "wB",
    "j9": "wP", "d6": "wP", "e6": "wP",
    "d10": "wE-N", "f7": "wE-N", "a7": "wE-U", "f6": "wE-U",
    # Black: 7 Bases, 3 Powers, 3 Enforcers (two immobilised)
    "b11": "bB", "b5": "bB", "k5": "bB", "b2": "bB", "e2": "bB", "h2": "bB", "k2": "bB",
    "a6": "bP", "b6": "bP", "l4": "bP",
    "l6": "bE-W", "j7": "bE-U", "j12": "bE-U",
}  # fmt: skip


def test_sample_game_is_valid(replay):
    assert replay.valid
    assert replay.error is None
    assert replay.warnings


def test_sample_game_final_board(replay):
    assert board_of(replay.final) == FINAL_BOARD


def test_sample_game_ends_at_16w_with_whites_twelfth_base(replay):
    last = replay.turns[-1]
    assert last.label == "16w"
    assert last.side is W
    assert format_action(last.resolved[0].canonical()) == "Pe7e6(Be5)"
    assert last.before.bases_created[W] == 11
    assert last.after.bases_created[W] == 12
    assert len(replay.turns) == 31
    assert [t.label for t in replay.turns[:3]] == ["1w", "1b", "2w"]


def test_sample_game_final_counts(replay):
    final = replay.final
    assert final.phase is Phase.OVER
    assert final.end == "bases"
    assert final.result == "1-0"
    assert replay.result == "1-0"
    assert replay.claimed == "1-0"
    assert final.ply == 31
    # created: White 3 set-up + h5 k5 h8 k8 e11 k11 b8 k8 e5 = 12; Black 3 + e2 b2 k2 b11 b5 k5 = 9
    assert final.bases_created == (12, 9)
    assert (final.bases_in_supply(W), final.bases_in_supply(B)) == (0, 3)
    assert (final.powers_in_supply(W), final.powers_in_supply(B)) == (0, 0)
    # White's Enforcers: i4, l7, f9, f7; Black's: d2, c12, l6 (of 8 each)
    assert final.enforcers_created == (4, 3)
    assert (final.enforcers_in_supply(W), final.enforcers_in_supply(B)) == (4, 5)
    # White took b8 and e5; Black took b5, k5, k8 and k11
    assert final.captured == (2, 4)
    assert (final.realms_controlled(W), final.realms_controlled(B)) == (8, 7)
    s = score(final)
    assert s.realms == (8, 7)
    assert s.enforcers == (2 + 4, 1 + 5)
    assert s.result == "1-0"


def test_sample_game_final_position_as_json(replay):
    # notation.md's interchange form; its illustrative example (White 3 captured, 3
    # Enforcers in supply) is not this game's end: White took b8 and e5 and made 4 Enforcers
    assert position_to_json(replay.final) == {
        "game": "realm",
        "phase": "over",
        "to_move": None,
        "board": FINAL_BOARD,
        "supply": {"white": {"B": 0, "P": 0, "E": 4}, "black": {"B": 3, "P": 0, "E": 5}},
        "captured": {"white": 2, "black": 4},
        "realms": {"white": 8, "black": 7},
        "result": "1-0",
    }


def test_sample_game_every_piece_is_accounted_for(replay):
    final = replay.final
    on_board = board_of(final)
    for side, letter in ((W, "w"), (B, "b")):
        bases = sum(1 for c in on_board.values() if c == letter + "B")
        assert bases + final.captured[1 - side] == final.bases_created[side]
        enforcers = sum(1 for c in on_board.values() if c.startswith(letter + "E"))
        assert enforcers == final.enforcers_created[side]
        powers = sum(1 for c in on_board.values() if c == letter + "P")
        assert powers == final.powers_placed[side] == 3


def test_sample_game_headers(replay):
    assert replay.headers["game"] == "Sample Game"
    assert replay.headers["result"] == "1-0"
    assert replay.ruleset is not None


# -- the repairs --------------------------------------------------------------------------------
# (code, line, column, turn, message, what the text shows at that line and column)
REPAIRS = [
    ("repair.label", 13, 1, None, "read 'Set?up:' as 'Set-up:'", "Set?up:"),
    ("repair.comma", 13, 71, "6w",
     "ignored the stray comma between White's and Black's turns", ", Pc9"),
    ("repair.square", 16, 22, "8b", "read 'Pd1L1(Bk2)' as 'Pd1l1(Bk2)'", "L1"),
    ("repair.square", 17, 22, "9w", "read 'Pj6j7(Ei7W)' as 'Pj6j7(El7W)'", "i7"),
    ("repair.list-marker", 19, 1, None, "ignored the list marker '-' before the entry", "- 10."),
    ("repair.list-marker", 20, 1, None, "ignored the list marker '-' before the entry", "- 11."),
    ("repair.square", 20, 26, "11w",
     "read 'EI7a7(xBb8,xEa7)' as 'El7a7(xBb8,xEa7)'", "I7"),
    ("repair.square", 21, 2, "11b", "read 'PL1L6' as 'Pl1l6'", "L1"),
    ("repair.list-marker", 22, 1, None, "ignored the list marker '-' before the entry", "- 12."),
    ("repair.list-marker", 24, 1, None, "ignored the list marker '-' before the entry", "- 13."),
    ("repair.list-marker", 25, 1, None, "ignored the list marker '-' before the entry", "- 14."),
    ("repair.list-marker", 26, 1, None, "ignored the list marker '-' before the entry", "- 15."),
    ("repair.square", 26, 26, "15b", "read 'Pl10l4(EI6W)' as 'Pl10l4(El6W)'", "I6"),
]  # fmt: skip


def test_sample_game_repairs_exactly(replay):
    found = [(w.code, w.span.line, w.span.column, w.turn, w.message) for w in replay.warnings]
    assert found == [r[:5] for r in REPAIRS]


#: why each repaired turn's squares as written fail: a repair's note, which the referee quotes
#: when it refuses a repaired live turn (11w's and 15b's first reading fails a resolver's
#: cheap test, so they are worked out only when read: ``pbem.errors.NotesLater``)
REPAIR_NOTES = {
    "8b": (),
    "9w": ("the record says (Ei7W), but the created Enforcer cannot go on i7: it goes on an "
           "empty square of the k8 Realm (k7, l7, j8, l8, j9, k9)",),
    "11w": ("there is no piece on i7",),
    "11b": (),
    "15b": ("the record says (Ei6W), but the created Enforcer cannot go on i6: it goes on an "
            "empty square of the k5 Realm (j4, k4, j5, l5, j6, k6, l6)",),
}


def test_each_repair_notes_why_the_squares_as_written_fail(replay):
    found = {w.turn: w.notes for w in replay.warnings if w.code == "repair.square"}
    assert isinstance(found["11w"], NotesLater) and isinstance(found["15b"], NotesLater)
    assert found == REPAIR_NOTES
    assert {turn: tuple(notes) for turn, notes in found.items()} == REPAIR_NOTES


@pytest.mark.parametrize("repair", REPAIRS, ids=[f"{r[1]}:{r[2]}" for r in REPAIRS])
def test_each_repair_points_at_what_it_repairs(repair):
    _, line, column, _, _, shown = repair
    assert text_at(SAMPLE_TEXT, Span(line, column), len(shown)) == shown


def test_no_event_is_inferred_in_the_sample_game(replay):
    # the article writes every special event of the game
    assert not [w for w in replay.warnings if w.code.startswith("infer.")]


def test_sample_game_canonical_notation(replay):
    canonical = {
        t.label: ",".join(format_action(r.canonical()) for r in t.resolved) for t in replay.turns
    }
    assert canonical["8b"] == "Pd3a3(Bb2),Ed2c2,Pd1l1(Bk2)"
    assert canonical["9w"] == "Pg9l9(Bk8),Pj6j7(El7W)"
    assert canonical["11w"] == "Pj7j10(Bk11),Pl9c9,El7a7(xBb8,xEa7)"
    assert canonical["11b"] == "Pl1l6,Pc6j6,Ec4j4(xBk5)"
    assert canonical["15b"] == "Pl10l4(El6W)"
    assert canonical["6w"] == "Pc4"


def test_the_repaired_record_validates_strictly(replay):
    """The sample written back in canonical notation has nothing left to repair."""
    turns = [(t.side, TurnText(tuple(r.canonical() for r in t.resolved))) for t in replay.turns]
    text = format_game(game_text(turns, {"game": "Sample Game, repaired"}, "1-0"))
    assert "Pl1l6,Pc6j6,Ec4j4(xBk5)" in text
    strict = replay_game(parse_game(text), strict=True)
    assert strict.valid, strict.error
    assert strict.warnings == []
    assert board_of(strict.final) == FINAL_BOARD
    assert strict.final.ply == 31


def test_positions_along_the_way(replay):
    by_label = {t.label: t for t in replay.turns}
    after_setup = board_of(by_label["6b"].after)
    assert after_setup == {
        "h11": "wB", "e8": "wB", "b5": "wB", "i10": "wP", "f7": "wP", "c4": "wP",
        "h2": "bB", "e5": "bB", "b8": "bB", "g3": "bP", "d6": "bP", "c9": "bP",
    }  # fmt: skip
    assert by_label["6b"].after.phase is Phase.PLAY
    assert by_label["6b"].after.to_move is W
    after_7 = board_of(by_label["7b"].after)
    assert {k: v for k, v in after_7.items() if "E" in v} == {"i4": "wE-W", "d2": "bE-N"}
    # 10b: the capture with a margin of two leaves Black's Enforcer mobile on c4
    after_10 = by_label["10b"].after
    assert board_of(after_10).get("c4") == "bE-N"
    assert "b5" not in board_of(after_10)
    assert after_10.captured == (0, 1)
    # 11w: a margin of one immobilises White's Enforcer on a7
    assert board_of(by_label["11w"].after)["a7"] == "wE-U"
    assert by_label["11w"].after.captured == (1, 1)


def test_strict_mode_makes_the_first_warning_the_error(replay):
    strict = replay_game(parse_game(SAMPLE_TEXT), strict=True)
    assert not strict.valid
    first = replay.warnings[0]
    assert strict.error.code == first.code == "repair.label"
    assert strict.error.message == first.message
    assert strict.error.span == first.span == Span(13, 1)
    assert strict.error.turn is None
    # nothing is played: the label stands before the first entry
    assert strict.turns == []
    assert strict.final.ply == 0


def test_strict_mode_stops_at_the_first_repair_of_a_turn():
    text = SAMPLE_TEXT.replace("Set?up:", "Set-up:").replace("6.Pc4, Pc9,", "6.Pc4 Pc9,")
    strict = replay_game(parse_game(text), strict=True)
    assert strict.error.code == "repair.square"
    assert strict.error.turn == "8b"
    assert strict.error.span == Span(16, 22)
    # every turn before 8b stands
    assert strict.turns[-1].label == "8w"
    assert strict.final.ply == 15


# -- the worked example ---------------------------------------------------------------------------
WORKED_BOARD = {
    # set-up (Figure 3) and the Powers chosen in the record
    "b11": "wB", "e8": "wB", "h5": "wB", "f7": "wP",
    "h8": "bB", "e5": "bB", "b2": "bB", "d6": "bP",
    # 7w Concentration into h11: Base h11, Enforcer g12 (S); 7b into h2: Base h2, Enforcer g3 (N)
    "h11": "wB", "h2": "bB", "g3": "bE-N", "i3": "bP", "g1": "bP",
    # 8w Dispersal from h11: Enforcers g4 (S) and c12 (S); Eg12g6 keeps pointing South
    "i4": "wP", "g4": "wE-S", "a10": "wP", "c12": "wE-S", "g6": "wE-S",
}  # fmt: skip


def test_worked_example_validates():
    (source,) = list(read_games(WORKED_TEXT, "worked-example-2002.realm"))
    result = replay_game(source.game)
    assert result.valid
    assert result.error is None
    assert result.warnings == []
    assert board_of(result.final) == WORKED_BOARD
    assert result.final.phase is Phase.PLAY
    assert result.final.to_move is B
    assert result.final.ply == 15
    assert result.result is None
    assert result.claimed is None
    assert replay_game(source.game, strict=True).valid
