"""Turn reports, as the referee mails them: golden files plus what they must mean."""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pbem.notation.parse import parse_game
from pbem.records.replay import Replay, replay_game
from pbem.render.reports import build_context, render_report_html, render_report_text
from tests.golden import check_golden

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")
WORKED = (ROOT / "games" / "worked-example-2002.realm").read_text(encoding="utf-8")
#: a fixed board for golden HTML, so the golden file pins the report, not the SVG renderer
STUB_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>board</title></svg>'
HOSTILE = "<script>alert(1)</script>"


def replay_of(text: str) -> Replay:
    return replay_game(parse_game(text))


@pytest.fixture(scope="module")
def sample() -> Replay:
    return replay_of(SAMPLE)


def index_of(replay: Replay, label: str) -> int:
    return next(i for i, t in enumerate(replay.turns) if t.label == label)


# -- golden files ---------------------------------------------------------------------------
def test_golden_text_after_11w(sample):
    text = render_report_text(sample, turn_index=index_of(sample, "11w"))
    check_golden("report-sample-11w.txt", text)


def test_golden_text_at_a_set_up_turn(sample):
    text = render_report_text(sample, turn_index=index_of(sample, "3b"))
    check_golden("report-sample-3b.txt", text)


def test_golden_text_final(sample):
    check_golden("report-sample-final.txt", render_report_text(sample))


def test_golden_html_final(sample):
    check_golden("report-sample-final.html", render_report_html(sample, board_svg=STUB_SVG))


# -- meaning --------------------------------------------------------------------------------
def test_turn_notation_and_words(sample):
    text = render_report_text(sample, turn_index=index_of(sample, "7w"))
    assert "Turn #7w, White: Concentration into the h5 Realm" in text
    assert "  7.Pi10i6(Bh5),Pc4g4(Ei4W)\n" in text
    assert "  - White's Power from i10 to i6 created a Base on h5.\n" in text
    html = render_report_html(sample, turn_index=index_of(sample, "7w"), board_svg=STUB_SVG)
    assert "White's Power from i10 to i6 created a Base on h5." in html


def test_black_turn_is_numbered_with_three_dots_and_repairs_are_shown(sample):
    text = render_report_text(sample, turn_index=index_of(sample, "11b"))
    assert "  11...Pl1l6,Pc6j6,Ec4j4(xBk5)\n" in text  # printed PL1L6
    assert "Referee's note: read 'PL1L6' as 'Pl1l6'" in text


@pytest.mark.parametrize(
    ("label", "expected"),
    [
        ("1w", "Next: Black to place a Base (#1b)."),
        ("3b", "Next: White to place a Power (#4w)."),
        ("6b", "Next: White to move (#7w)."),
        ("11w", "Next: Black to move (#11b)."),
        ("15b", "Next: White to move (#16w)."),
    ],
)
def test_whose_turn_is_next(sample, label, expected):
    assert expected in render_report_text(sample, turn_index=index_of(sample, label))


def test_final_report_gives_the_result_not_a_next_turn(sample):
    text = render_report_text(sample)
    assert "Next:" not in text
    # folded where a sentence ends, not inside 'with 8 Realms' (issue 23.10)
    ending = "White created the last of its 12 Bases.\nWhite wins 1-0, with 8 Realms to Black's 7."
    assert ending in text
    assert "Final score: White 8 Realms, Black 7" in text
    assert text.rstrip().endswith("16.Pe7e6(Be5)\n1-0")


def test_score_supply_captured_and_realms_mid_game(sample):
    ctx = build_context(sample, index_of(sample, "11w"))
    white, black = ctx.sides
    # Bases, Powers, Enforcers in supply, Bases captured, Realms controlled
    assert white.values == (3, 0, 6, 1, 8)
    assert black.values == (5, 0, 6, 1, 6)
    assert ctx.table.columns[-1] == "Realms controlled"
    text = render_report_text(sample, turn_index=index_of(sample, "11w"))
    assert "Score so far: White 8 Realms, Black 6 (White ahead)" in text


def test_move_list_stops_at_the_reported_turn(sample):
    text = render_report_text(sample, turn_index=index_of(sample, "11w"))
    moves = text.split("Moves:\n", 1)[1]
    assert moves.splitlines()[0] == (
        "1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9"
    )
    assert moves.splitlines()[-1] == "11.Pj7j10(Bk11),Pl9c9,El7a7(xBb8,xEa7)"


def test_every_report_of_the_sample_is_ascii_and_every_html_parses(sample):
    for i in range(len(sample.turns)):
        text = render_report_text(sample, turn_index=i)
        assert text.isascii(), sample.turns[i].label
        check_html(render_report_html(sample, turn_index=i, board_svg=STUB_SVG))


def test_rendering_is_deterministic(sample):
    assert render_report_text(sample) == render_report_text(replay_of(SAMPLE))
    assert render_report_html(sample) == render_report_html(replay_of(SAMPLE))


def test_a_rearrangement_report():
    r = replay_of(WORKED.replace("Eg12g6\n*", "Eg12g6/Rh2(Pi1,Pg1,Eg3E)\n"))
    text = render_report_text(r)
    assert "Turn #8b, Black: Rearrangement of the h2 Realm" in text
    assert "  8...Rh2(Pi1,Pg1,Eg3E)\n" in text
    # the tie-break on a line of its own, whole (issue 23.10)
    assert "Score so far: White 4 Realms, Black 4;\n  Enforcers (mobile + in supply) White " in text
    assert "Next: White to move (#9w)." in text


def test_a_broken_record_reports_its_last_legal_turn_and_why_it_stops():
    r = replay_of(SAMPLE.replace("Pd6d1(Be2)", "Pd6d2(Be2)"))
    text = render_report_text(r)
    assert "Turn #7w, White" in text
    assert "The record goes on with a turn that cannot be played (7b):" in text


def test_a_game_with_no_turn_yet():
    r = replay_of("---\ngame: New\nwhite: Ann\nblack: Bo\n---\n")
    text = render_report_text(r)
    assert "No turn has been played yet." in text
    assert "Next: White to place a Base (#1w)." in text
    assert text.endswith("Moves:\n(none yet)\n")
    check_html(render_report_html(r, board_svg=STUB_SVG))


def test_bad_turn_index(sample):
    with pytest.raises(IndexError):
        render_report_text(sample, turn_index=len(sample.turns))


# -- HTML: escaping, well-formed, self-contained ----------------------------------------------
VOID = {"meta", "br", "hr", "img", "input", "link", "area", "base", "col", "source", "wbr"}


class _Checker(HTMLParser):
    """Tags balance, and every link or source stays inside the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: set[str] = set()
        self.urls: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self._attrs(tag, attrs)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self._attrs(tag, attrs)

    def _attrs(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            if name in ("src", "href", "xlink:href", "action", "background", "poster"):
                self.urls.append(value or "")
            if name == "style" and value and "url(" in value:
                self.urls.append(value)

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-5:])
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_html(html: str) -> _Checker:
    checker = _Checker()
    checker.feed(html)
    checker.close()
    assert checker.stack == []
    assert html.startswith("<!DOCTYPE html>")
    assert not {"script", "link", "img", "iframe", "object", "embed"} & checker.tags
    for url in checker.urls:
        assert not re.search(r"(?i)(https?:)?//", url), url
    return checker


def test_html_with_the_real_svg_board_is_self_contained(sample):
    pytest.importorskip("pbem.render.board_svg")
    html = render_report_html(sample, turn_index=index_of(sample, "11w"))
    assert html.count("<svg") == 1 and "<pre" not in html
    assert "Drawn on the board: the last turn, #11w:" in html
    check_html(html)


def test_html_falls_back_to_the_text_board_without_the_svg_renderer(sample, monkeypatch):
    monkeypatch.setitem(sys.modules, "pbem.render.board_svg", None)
    html = render_report_html(sample, turn_index=index_of(sample, "11w"))
    assert "<svg" not in html and "<pre" in html
    assert "*wE#" in html  # the marked a7
    check_html(html)


HOSTILE_RECORD = SAMPLE.replace("white: White", f"white: '{HOSTILE}'").replace(
    "(Figure 7)", "{<img src=https://evil.example/x.png onerror=alert(2)>}"
)


def test_hostile_names_and_comments_are_escaped():
    r = replay_of(HOSTILE_RECORD)
    assert r.headers["white"] == HOSTILE and r.error is None
    html = render_report_html(r, turn_index=index_of(r, "12b"), board_svg=STUB_SVG)
    assert HOSTILE not in html and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    checker = check_html(html)
    assert "script" not in checker.tags
    text = "".join(checker.text)
    assert f"White{HOSTILE}" in text  # th and td: shown to the reader as typed, never run
    assert "<img src=https://evil.example/x.png onerror=alert(2)>" in text


def test_hostile_record_with_the_real_svg_board():
    pytest.importorskip("pbem.render.board_svg")
    r = replay_of(HOSTILE_RECORD)
    html = render_report_html(r)
    assert HOSTILE not in html
    check_html(html)


def test_a_comment_is_shown_without_its_braces() -> None:
    replay = replay_of("1.Bh11 {White: good luck} Bh2\n")
    text = render_report_text(replay, turn_index=0)
    html = render_report_html(replay, turn_index=0, board_svg="")
    assert "Comment: White: good luck" in text and "{White" not in text
    assert "White: good luck" in html and "{White" not in html
