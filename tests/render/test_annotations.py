"""Annotations on the viewer's frames: marks, comments, side lines replayed from their
position (``pbem.render.annotations``, ``pbem.records.replay.replay_variation``)."""

from __future__ import annotations

from pbem.records.reader import read_games
from pbem.records.replay import replay_variation
from pbem.records.validate import validate_source
from pbem.render.annotations import MAX_DEPTH, annotate


def _replay(text: str):
    replay = validate_source(next(iter(read_games(text)))).replay
    assert replay.error is None, replay.error
    return replay


def test_marks_comments_and_side_lines_land_on_their_frames() -> None:
    replay = _replay("1.Bh11! {A start.} Bh2?! [1...Be5 2.Be8 [2.Bb5]] 2.Be8 Be5\n")
    a = annotate(replay)
    assert [f.mark for f in a.frames] == ["", "!", "?!", "", ""]
    assert a.frames[1].comments == ("A start.",)
    assert a.frames[2].variations == (0,)
    outer, inner = a.lines
    assert (outer.parent, outer.start, outer.turn) == (None, 1, "1b")
    assert [f.turn for f in outer.frames] == ["start", "1b", "2w"]
    assert outer.frames[1].board[52] == "b"  # 1...Be5 instead of 1...Bh2
    assert outer.frames[2].variations == (1,)
    assert (inner.parent, inner.start, inner.turn, inner.text) == (0, 1, "2w", "[2.Bb5]")
    assert inner.frames[1].board[49] == "B" and not inner.error


def test_a_side_line_that_breaks_is_shown_up_to_there_with_the_reason() -> None:
    replay = _replay("1.Bh11 Bh2 [1...Be5 2.Bh3] 2.Be8\n")
    (line,) = annotate(replay).lines
    assert [f.turn for f in line.frames] == ["start", "1b"]
    assert line.error.startswith("the line stops at 2w:")


def test_a_line_numbers_its_turns_from_the_position() -> None:
    replay = _replay("1.Bh11 Bh2 2.Be8 Be5\n")
    before = replay.turns[2].before  # 2w to play

    def replay_line(position, game):
        return replay_variation(game, replay.ruleset, position)

    line = replay_line(before, next(iter(read_games("2.Bb5 Bb8\n"))).game)
    assert line.error is None and [t.label for t in line.turns] == ["2w", "2b"]
    # a misnumbered entry is read as a record's is: repaired, and said
    wrong = replay_line(before, next(iter(read_games("5.Bb5\n"))).game)
    assert [w.code for w in wrong.warnings] == ["repair.number"]
    illegal = replay_line(before, next(iter(read_games("2.Bb6\n"))).game)
    assert illegal.error is not None and not illegal.turns


def test_side_lines_nested_deep_stop_at_a_depth_and_take_linear_work() -> None:
    depth = MAX_DEPTH + 4
    text = "1.Bh11 Bh2 " + "[1...Be5 " * depth + "]" * depth + " 2.Be8\n"
    replay = validate_source(next(iter(read_games(text)))).replay
    if replay.error is not None:  # the notation may bound nesting itself: a clear error
        assert "nest" in replay.error.message or replay.error.code.startswith("notation")
        return
    lines = annotate(replay).lines
    assert len(lines) == MAX_DEPTH + 1  # the one too deep is named, not played or opened
    assert lines[MAX_DEPTH].error == "nested too deep to be shown"
    assert all(not line.error for line in lines[:MAX_DEPTH])


def test_hostile_comments_stay_text_on_the_page(tmp_path) -> None:
    from pbem.render.archive import build_archive

    evil = "</script><script>alert(1)</script><img src=x onerror=alert(2)>"
    long = "very " * 4000
    text = f"1.Bh11 {{{evil}}} Bh2 {{{long}}} [1...Be5 {{{evil}}}] 2.Be8\n"
    (tmp_path / "records").mkdir()
    (tmp_path / "records" / "evil.realm").write_text(text, encoding="utf-8")
    build_archive([tmp_path / "records"], tmp_path / "site", title="Evil")
    page = (tmp_path / "site" / "games" / "evil.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;/script&gt;&lt;script&gt;alert(1)" in page  # shown as typed, in the list
    assert page.count("<script") == 5  # the page's own: frames, pieces, words, lines, viewer
