"""The static archive: what it writes, escaping, invalid records, frames."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from itertools import pairwise
from pathlib import Path

from pbem.records.reader import read_games
from pbem.records.validate import validate_source
from pbem.render.archive import build_archive
from pbem.render.frames import board_string, frames_of
from pbem.rules.geometry import parse_square
from pbem.rules.pieces import Side

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "games" / "sample-game-2002.realm").read_text(encoding="utf-8")


def _report(text: str):
    (source,) = list(read_games(text))
    return validate_source(source)


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value:
                self.urls.append(value)


def test_archive_of_the_bundled_games(tmp_path: Path) -> None:
    summary = build_archive([ROOT / "games"], tmp_path, title="Bundled")
    assert (summary.games, summary.valid, summary.invalid) == (7, 7, 0)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.count('<tr class="valid">') == 7
    names = (
        "sample-game-2002", "sample-game-2002-annotated", "worked-example-2002",
        "classic-examples", "medieval-examples",
        "oriental-example", "modern-example",
    )
    for name in names:
        assert (tmp_path / "games" / f"{name}.html").is_file()
        assert (tmp_path / "games" / f"{name}.realm").is_file()
    # self-contained: every link is relative and points at a file of the site
    pages = [tmp_path / "index.html", tmp_path / "ratings.html"]
    for page in [*pages, *sorted((tmp_path / "games").glob("*.html"))]:
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for url in parser.urls:
            assert not re.match(r"[a-z]+:", url), url
            target = url.split("#")[0]
            if target:
                assert (page.parent / target).resolve().is_file(), (page, url)


def test_frames_step_through_every_action() -> None:
    report = _report(SAMPLE)
    frames = frames_of(report.replay)
    actions = sum(len(t.resolved) for t in report.replay.turns)
    assert len(frames) == actions + 1 == 53
    assert frames[0].turn == "start" and set(frames[0].board) == {"."}
    assert frames[-1].board == board_string(report.final.board, report.replay.game)
    # 7w, first action: Pi10i6 created a Base on h5
    f = next(f for f in frames if f.turn == "7w")
    assert f.notation == "Pi10i6(Bh5)" and "created a Base on h5" in f.caption
    assert (f.frm, f.to) == (parse_square("i10"), parse_square("i6"))
    assert f.marks == (parse_square("h5"),)
    assert "game is over" in frames[-1].status and "1-0" in frames[-1].status


def test_player_text_is_escaped(tmp_path: Path) -> None:
    hostile = SAMPLE.replace("white: White", "white: '<script>alert(1)</script>'").replace(
        "{ The complete", "{ </script><img src=x onerror=alert(2)> The complete"
    )
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.realm").write_text(hostile, encoding="utf-8")
    build_archive([tmp_path / "in"], tmp_path / "site")
    for page in [tmp_path / "site" / "index.html", tmp_path / "site" / "games" / "x.html"]:
        text = page.read_text(encoding="utf-8")
        assert "<script>alert(1)</script>" not in text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
        assert "<img src=x" not in text


def test_invalid_record_is_published_up_to_its_last_legal_turn(tmp_path: Path) -> None:
    broken = SAMPLE.replace("Pi10i6(Bh5)", "Pi10i8(Bh5)")  # it creates a Base on h8
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "broken.realm").write_text(broken, encoding="utf-8")
    (tmp_path / "in" / "good.realm").write_text(SAMPLE, encoding="utf-8")
    (tmp_path / "in" / "binary.realm").write_bytes(b"\xff\x00\xfe garbage")
    summary = build_archive([tmp_path / "in"], tmp_path / "site")
    assert summary.games == 3 and summary.valid == 1
    page = (tmp_path / "site" / "games" / "broken.html").read_text(encoding="utf-8")
    assert "Invalid record" in page and "turn 7w" in page
    frames = json.loads(
        re.search(r'<script type="application/json" id="frames">(.*?)</script>', page, re.S)
        .group(1)  # type: ignore[union-attr]
        .replace("<\\/", "</")
    )
    assert [f["t"] for f in frames][-1] == "6b"  # the set-up, and nothing of 7w
    assert (tmp_path / "site" / "games" / "good.html").is_file()


RESIGNED = """---
game: A resigned game
white: Alice Archer
black: Bob Bowman
---
1.Bh11 Bh2 2.Be8 Be5 3.Bb5 Bb8 4.Pi10 Pg3 5.Pf7 Pd6 6.Pc4 Pc9
7.Pi10i6(Bh5),Pc4g4(Ei4W)/Pd6d1(Be2),Pg3d3(Ed2N)
0-1 {White resigned}
"""


def test_a_game_ended_off_the_board_says_so_in_its_last_frame() -> None:
    frames = frames_of(_report(RESIGNED).replay)
    assert frames[-1].status.endswith("The game is over: White resigned. Black wins, 0-1.")
    assert "to place" not in frames[-1].status and "to move" not in frames[-1].status
    # a game still being played ends on whose turn it is
    live = frames_of(_report(RESIGNED.replace("0-1 {White resigned}", "")).replay)
    assert live[-1].status.endswith("White to move (#8w).")


def test_the_move_list_numbers_moves_as_the_notation_does(tmp_path: Path) -> None:
    (tmp_path / "r.realm").write_text(RESIGNED, encoding="utf-8")
    build_archive([tmp_path / "r.realm"], tmp_path / "site")
    page = (tmp_path / "site" / "games" / "r.html").read_text(encoding="utf-8")
    moves = page[page.index('id="movelist"'):page.index("</table>", page.index('id="movelist"'))]
    rows = re.findall(r'<tr><th scope="row">(\d+)\.</th>', moves)
    assert rows == [str(n) for n in range(1, 8)]  # one number per entry: 7. White / Black
    assert "<ol" not in moves and "7w" not in re.sub(r'href="[^"]*"', "", moves)
    assert '<p class="result">0-1 {White resigned}</p>' in page
    assert 'class="legend"' in page and 'id="legend-pieces"' in page  # filled by the viewer


def medieval_record(seed: int = 1) -> str:
    """A whole random Medieval game: its pieces move off the board as it goes."""
    from pbem.records.generate import generate_game, record_text
    from pbem.rules.registry import game_for

    ruleset = game_for("medieval").default_ruleset()
    return record_text(generate_game(seed, 0, ruleset), seed, 0)


def test_medieval_pieces_moved_off_step_with_the_frames(tmp_path: Path) -> None:
    report = _report(medieval_record())
    frames = frames_of(report.replay)
    game = report.replay.game
    assert frames[0].off == (0, 0)
    for turn, frame in zip(report.replay.turns, frames[1:], strict=True):  # one move a turn
        counts = game.off_board(turn.after)
        assert frame.off == (counts[Side.WHITE], counts[Side.BLACK]), turn.label
        assert frame.as_json()["o"] == list(frame.off)
    changes = [a.off != b.off for a, b in pairwise(frames)]
    assert any(changes) and not all(changes)
    assert max(frames[-1].off) > 0
    # a game that keeps no pieces beside the board says nothing of them
    assert all(f.off is None and "o" not in f.as_json() for f in frames_of(_report(SAMPLE).replay))
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "medieval.realm").write_text(medieval_record(), encoding="utf-8")
    (folder / "sample.realm").write_text(SAMPLE, encoding="utf-8")
    build_archive([folder], tmp_path / "site")
    page = (tmp_path / "site" / "games" / "medieval.html").read_text(encoding="utf-8")
    assert '<svg id="board" class="beside" viewBox="0 0 608 528"' in page
    page = (tmp_path / "site" / "games" / "sample.html").read_text(encoding="utf-8")
    assert '<svg id="board" viewBox="0 0 528 528"' in page


def test_the_viewer_rings_the_events_of_classic_and_medieval_moves() -> None:
    """A dislodging is rung where the piece went, a replacement on the Center it fills, as the
    SVG badges them (their events name no ``square`` of their own)."""
    medieval = _report((ROOT / "games" / "medieval-examples.realm").read_text(encoding="utf-8"))
    frames = frames_of(medieval.replay)
    by_action = {f.notation: f for f in frames}
    assert by_action["Ee5e8(xEf7)"].marks == (parse_square("f7"),)
    assert by_action["Pe8e11(+Ed7)"].marks == (parse_square("e8"),)  # refilled from d7
    classic = _report((ROOT / "games" / "classic-examples.realm").read_text(encoding="utf-8"))
    assert sum(1 for f in frames_of(classic.replay) if f.marks) == 5
    # the Featured Game's frames ring the squares its events name, as before
    replay = _report(SAMPLE).replay
    named = [tuple(sorted({e.square for e in r.events if hasattr(e, "square")}))
             for t in replay.turns for r in t.resolved]
    assert [f.marks for f in frames_of(replay)[1:]] == named
