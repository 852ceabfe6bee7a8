"""The SVG board: golden files for the bytes, and checks of what the picture means."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from pbem.records.reader import read_file, read_games
from pbem.records.replay import PlayedTurn, Replay
from pbem.records.validate import validate_source
from pbem.render.board_svg import render_svg
from pbem.rules.geometry import (
    CENTER,
    IS_CENTER,
    REALMS,
    SQUARES,
    parse_square,
    realm_name,
    square_name,
)
from pbem.rules.pieces import Kind, Side
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Move,
    Placement,
)
from pbem.rules.realm.position import Position
from tests.golden import check_golden

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "games" / "sample-game-2002.realm"
NS = "{http://www.w3.org/2000/svg}"


@cache
def sample() -> Replay:
    report = validate_source(next(read_file(SAMPLE)))
    assert report.valid, report.error
    return report.replay


def turn(label: str) -> PlayedTurn:
    return next(t for t in sample().turns if t.label == label)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def with_class(root: ET.Element, *names: str) -> list[ET.Element]:
    want = set(names)
    return [el for el in root.iter() if want <= classes(el)]


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [el for el in root.iter() if el.get("id") == ident]
    assert len(found) == 1, ident
    return found[0]


def square_box(root: ET.Element, name: str) -> tuple[float, float, float, float]:
    el = by_id(root, f"sq-{name}")
    x, y = float(el.get("x")), float(el.get("y"))
    return x, y, x + float(el.get("width")), y + float(el.get("height"))


def square_middle(root: ET.Element, name: str) -> tuple[float, float]:
    x0, y0, x1, y1 = square_box(root, name)
    return (x0 + x1) / 2, (y0 + y1) / 2


def path_points(d: str) -> list[tuple[float, float]]:
    nums = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return list(zip(nums[::2], nums[1::2], strict=True))


def inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    x, y = point
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


SETUP_LABEL = "5b"  # mid set-up: Bases placed, Powers going on


# -- golden files ------------------------------------------------------------------------
def test_golden_final_position_with_last_turn():
    last = sample().turns[-1]
    check_golden("sample-final.svg", render_svg(last.after, last=last) + "\n")


def test_golden_turn_11w():
    t = turn("11w")
    check_golden("sample-11w.svg", render_svg(t.after, last=t) + "\n")


def test_golden_final_flipped():
    last = sample().turns[-1]
    check_golden("sample-final-flipped.svg", render_svg(last.after, last=last, flip=True) + "\n")


def test_golden_setup_phase():
    t = turn(SETUP_LABEL)
    check_golden(f"sample-setup-{SETUP_LABEL}.svg", render_svg(t.after, last=t) + "\n")


# -- the board -------------------------------------------------------------------------
def test_board_has_144_squares_16_center_circles_and_labels():
    root = parse(render_svg(sample().final))
    assert root.tag == NS + "svg"
    squares = with_class(root, "square")
    assert len(squares) == 144
    assert {el.get("id") for el in squares} == {f"sq-{square_name(s)}" for s in SQUARES}
    centers = with_class(root, "center")
    assert len(centers) == 16
    for r in REALMS:
        circle = by_id(root, f"center-{realm_name(r)}")
        assert circle.tag == NS + "circle"
        assert (float(circle.get("cx")), float(circle.get("cy"))) == square_middle(
            root, square_name(CENTER[r])
        )
    files = [el.text for el in with_class(root, "file")]
    ranks = [el.text for el in with_class(root, "rank")]
    assert sorted(set(files)) == list("abcdefghijkl") and len(files) == 24
    assert sorted(set(ranks), key=int) == [str(n) for n in range(1, 13)] and len(ranks) == 24


def test_realms_are_divided_by_thick_lines():
    root = parse(render_svg(sample().final))
    lines = by_id(root, "realm-lines")
    assert float(lines.get("stroke-width")) > 2 * float(by_id(root, "squares").get("stroke-width"))
    # three lines each way between the four columns and rows of Realms
    assert lines.get("d").count("V") == 3 and lines.get("d").count("H") == 3


def test_realm_tint_follows_control():
    pos = sample().final
    root = parse(render_svg(pos))
    fills: dict[Side | None, set[str]] = {Side.WHITE: set(), Side.BLACK: set(), None: set()}
    for r in REALMS:
        el = by_id(root, f"realm-{realm_name(r)}")
        side = pos.controller(r)
        expected = {"realm"} | ({side.key} if side is not None else set())
        assert classes(el) == expected, realm_name(r)
        fills[side].add(el.get("fill"))
    # one tint per side, each differing from the other's and from a neutral Realm's
    assert all(len(f) == 1 for f in fills.values()), fills
    white, black, neutral = (fills[k].pop() for k in (Side.WHITE, Side.BLACK, None))
    assert len({white, black, neutral}) == 3
    assert black.startswith("url(#")  # hatched: readable without colour


def _piece_set(root: ET.Element) -> Counter:
    found = Counter()
    for el in with_class(root, "piece"):
        cls = classes(el)
        side = "white" if "white" in cls else "black"
        kind = next(k for k in ("base", "power", "enforcer") if k in cls)
        found[(side, kind, el.get("data-square"), el.get("data-facing"))] += 1
    return found


def _board_set(pos: Position) -> Counter:
    found = Counter()
    for s in SQUARES:
        p = pos.board[s]
        if p is None:
            continue
        facing = None
        if p.kind is Kind.ENFORCER:
            facing = p.facing.letter if p.facing is not None else "U"
        found[(p.side.key, p.kind.title.lower(), square_name(s), facing)] += 1
    return found


@pytest.mark.parametrize("flip", [False, True])
def test_every_piece_is_drawn_once_with_its_shape(flip):
    for t in sample().turns:
        root = parse(render_svg(t.after, last=t, flip=flip))
        assert _piece_set(root) == _board_set(t.after), t.label
        for el in with_class(root, "piece"):
            cls = classes(el)
            tag = el.tag.removeprefix(NS)
            if "base" in cls:
                assert tag == "rect"
                assert float(el.get("width")) == float(el.get("height"))
            elif "power" in cls:
                assert tag == "circle"
            elif "immobilised" in cls:
                assert tag == "g"
            else:
                assert tag == "path"


def test_piece_counts_per_kind_and_side():
    pos = turn("12b").after
    root = parse(render_svg(pos))
    counts = Counter(
        (("white" if "white" in classes(el) else "black"), el.get("class").split()[2])
        for el in with_class(root, "piece")
    )
    expected = Counter((p.side.key, p.kind.title.lower()) for p in pos.board if p is not None)
    assert counts == expected
    assert counts[("white", "base")] >= 1 and counts[("black", "enforcer")] >= 1


def test_side_colours_are_light_on_dark_and_dark_on_light():
    root = parse(render_svg(sample().final))
    white, black = by_id(root, "pieces-white"), by_id(root, "pieces-black")

    def lum(colour: str) -> float:
        r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    assert lum(white.get("fill")) > 200 and lum(white.get("stroke")) < 80
    assert lum(black.get("fill")) < 80 and lum(black.get("stroke")) > 200


@pytest.mark.parametrize("flip", [False, True])
def test_enforcers_point_the_way_they_face(flip):
    pos = sample().final
    root = parse(render_svg(pos, flip=flip))
    checked = 0
    for el in with_class(root, "piece", "enforcer"):
        facing = el.get("data-facing")
        if facing == "U":
            continue
        cx, cy = square_middle(root, el.get("data-square"))
        tip = path_points(el.get("d"))[0]
        dx, dy = tip[0] - cx, tip[1] - cy
        screen = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}[facing]
        if flip:
            screen = (-screen[0], -screen[1])
        assert dx * screen[0] + dy * screen[1] > 10, el.get("data-square")
        checked += 1
    assert checked >= 2


def test_immobilised_marker_exactly_where_immobilised_enforcers_are():
    for label in ("11w", "12b", "16w"):
        t = turn(label)
        root = parse(render_svg(t.after, last=t))
        marked = {el.get("data-square") for el in with_class(root, "piece", "immobilised")}
        expected = {
            square_name(s)
            for s in SQUARES
            if t.after.board[s] is not None and t.after.board[s].immobilised
        }
        assert expected and marked == expected, label


def test_immobilised_enforcer_differs_by_shape_not_colour_alone():
    root = parse(render_svg(turn("12b").after))
    immobile = with_class(root, "piece", "immobilised")
    mobile = [el for el in with_class(root, "piece", "enforcer") if el not in immobile]
    assert immobile and mobile
    for el in immobile:
        # a triangle standing on a bar, with no colour of its own
        assert [c.tag.removeprefix(NS) for c in el] == ["path", "rect"]
        assert el.get("fill") is None and el.get("stroke") is None
    for el in mobile:
        assert len(path_points(el.get("d"))) == 3 and len(el) == 0


# -- the last turn ---------------------------------------------------------------------
@pytest.mark.parametrize("flip", [False, True])
def test_one_arrow_per_move_of_the_last_turn(flip):
    for t in sample().turns:
        root = parse(render_svg(t.after, last=t, flip=flip))
        arrows = with_class(root, "arrow")
        moves = [r.action for r in t.resolved if isinstance(r.action, Move)]
        assert [(a.get("data-from"), a.get("data-to")) for a in arrows] == [
            (square_name(m.frm), square_name(m.to)) for m in moves
        ], t.label
        for a in arrows:
            points = path_points(a.get("d"))
            tip = points[3]
            assert inside(tip, square_box(root, a.get("data-to")))
            assert inside(points[0], square_box(root, a.get("data-from")))
        numbers = with_class(root, "move-number")
        if len(moves) > 1:
            assert [n.find(NS + "text").text for n in numbers] == [
                str(i + 1) for i in range(len(moves))
            ]
        else:
            assert numbers == []


def test_no_last_turn_no_marks():
    root = parse(render_svg(sample().final))
    assert not with_class(root, "arrow") and not with_class(root, "event")


def test_special_events_are_marked_where_they_happened():
    for t in sample().turns:
        root = parse(render_svg(t.after, last=t))
        events = [e for r in t.resolved for e in r.events]
        expected = Counter()
        for e in events:
            if isinstance(e, BaseCaptured):
                expected[("captured", square_name(e.square))] += 1
            elif isinstance(e, BaseCreated):
                expected[("base", square_name(e.square))] += 1
            elif isinstance(e, EnforcerCreated):
                expected[("enforcer", square_name(e.square))] += 1
            elif isinstance(e, EnforcerImmobilised):
                expected[("immobilised", square_name(e.square))] += 1
        found = Counter()
        for el in with_class(root, "event"):
            cls = classes(el)
            kind = next(k for k in ("captured", "immobilised", "base", "enforcer") if k in cls)
            found[(kind, el.get("data-square"))] += 1
        assert found == expected, t.label


def test_captured_base_is_crossed_out_on_its_empty_center():
    t = turn("11w")  # EI7a7(xBb8,xEa7)
    root = parse(render_svg(t.after, last=t))
    (cross,) = with_class(root, "event", "captured")
    assert cross.get("data-square") == "b8"
    assert t.after.board[CENTER[next(r for r in REALMS if realm_name(r) == "b8")]] is None
    for x, y in path_points(cross.get("d")):
        assert inside((x, y), square_box(root, "b8"))


def test_setup_placement_is_outlined():
    for t in sample().turns[:12]:
        root = parse(render_svg(t.after, last=t))
        (action,) = [r.action for r in t.resolved]
        assert isinstance(action, Placement)
        (placed,) = with_class(root, "placed")
        assert placed.get("data-square") == square_name(action.square)
        assert not with_class(root, "arrow")


def test_rearrangement_outlines_its_realm():
    text = (
        "1.Bh11 Bh2, 2.Be8 Be5, 3.Bb5 Bb8, 4.Pi10 Pg3, 5.Pf7 Pd6, 6.Pc4 Pc9,\n"
        "7.Pi10i6(Bh5)/Rh2(Pi1)\n"
    )
    report = validate_source(next(read_games(text)))
    assert report.valid, report.error
    last = report.replay.turns[-1]
    root = parse(render_svg(last.after, last=last))
    (outline,) = with_class(root, "rearranged")
    assert outline.get("data-realm") == "h2"
    assert outline.get("stroke-dasharray")
    assert not with_class(root, "arrow")
    assert "Last turn #7b: Rh2(Pi1)" in root.find(NS + "desc").text


# -- orientation, words, options --------------------------------------------------------
def test_flip_puts_a1_top_right_and_l12_bottom_left():
    for flip in (False, True):
        root = parse(render_svg(sample().final, flip=flip))
        boxes = {
            el.get("id")[3:]: square_box(root, el.get("id")[3:])
            for el in with_class(root, "square")
        }
        xs = sorted({b[0] for b in boxes.values()})
        ys = sorted({b[1] for b in boxes.values()})
        a1, l12 = boxes["a1"], boxes["l12"]
        if flip:
            assert (a1[0], a1[1]) == (xs[-1], ys[0])
            assert (l12[0], l12[1]) == (xs[0], ys[-1])
        else:
            assert (a1[0], a1[1]) == (xs[0], ys[-1])
            assert (l12[0], l12[1]) == (xs[-1], ys[0])
        # the file labels read the same way as the squares
        files = [el for el in with_class(root, "file")]
        leftmost = min(files, key=lambda el: float(el.get("x")))
        assert leftmost.text == ("l" if flip else "a")


def test_title_and_description_for_screen_readers():
    t = turn("11w")
    root = parse(render_svg(t.after, last=t))
    title, desc = root.find(NS + "title"), root.find(NS + "desc")
    assert root.get("role") == "img"
    assert root.get("aria-labelledby").split() == [title.get("id"), desc.get("id")]
    # the title is the alt text: the turn shown, what it did, whose turn, the score
    assert title.text.startswith("The board after #11w. Turn #11w: White's Power from j7 to j10 ")
    assert title.text.endswith("Black to move (#11b). Realms: White 8, Black 6.")
    # the description walks the pieces Realm by Realm, in the turn reports' words
    words = desc.text
    assert words.startswith("The b2 Realm, held by Black: Black has a Base on b2.")
    assert "White has an immobilised Enforcer on a7" in words
    assert "an Enforcer on c12 pointing South" in words
    assert "Last turn #11w: Pj7j10(Bk11),Pl9c9,El7a7(xBb8,xEa7)." in words


def test_a_hostile_title_stays_text():
    svg = render_svg(sample().final, title='<script>alert("x")</script> & co')
    root = parse(svg)
    assert root.find(NS + "title").text == '<script>alert("x")</script> & co'
    assert "<script>" not in svg


def test_size_sets_pixels_else_the_board_scales():
    root = parse(render_svg(sample().final, size=400))
    assert (root.get("width"), root.get("height")) == ("400", "400")
    root = parse(render_svg(sample().final))
    assert root.get("width") is None and root.get("viewBox") == "0 0 520 520"


def test_setup_position_words():
    t = turn(SETUP_LABEL)
    root = parse(render_svg(t.after, last=t))
    assert "White to place a Power (#6w)." in root.find(NS + "title").text
    assert root.find(NS + "desc").text.endswith("Last turn #5b: Pd6.")


def test_centers_and_pieces_agree_with_geometry():
    # Bases stand on Centers only, inside the Center circle
    pos = sample().final
    root = parse(render_svg(pos))
    for el in with_class(root, "piece", "base"):
        assert IS_CENTER[parse_square(el.get("data-square"))]


# -- determinism ---------------------------------------------------------------------------
def test_same_position_same_bytes():
    last = sample().turns[-1]
    first = render_svg(last.after, last=last)
    assert render_svg(last.after, last=last, flip=True) != first
    assert render_svg(last.after, last=last) == first


def test_same_bytes_in_another_process_with_another_hash_seed():
    code = (
        "import sys; from pathlib import Path; "
        "from pbem.records.reader import read_file; "
        "from pbem.records.validate import validate_source; "
        "from pbem.render.board_svg import render_svg; "
        f"r = validate_source(next(read_file(Path({str(SAMPLE)!r})))).replay; "
        "t = r.turns[-1]; sys.stdout.write(render_svg(t.after, last=t))"
    )
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
        )
        outs.append(run.stdout)
    last = sample().turns[-1]
    assert outs[0] == outs[1] == render_svg(last.after, last=last)
