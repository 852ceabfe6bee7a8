"""Not colour alone: the board read by the colour-blind, checked on the mailed PNG itself.

The sample game's final position (White's, Black's and unheld Realms, every kind of
piece, the last turn's arrow) is drawn as the mail draws it, then seen as readers with
protanopia, deuteranopia and tritanopia see it (``colour_vision``, Machado et al. 2009).
For each, the parts a reader must tell apart keep WCAG's 3:1 contrast for non-text
(pieces against every Realm tint, Black's dot on Black's pieces, the arrow), and the
three Realm tints stay plainly different colours (CIE76 Delta E of 10 or more; Black's
Realms are hatched besides). ``docs/accessibility.md`` describes the check.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from pbem.records.reader import read_file
from pbem.records.validate import validate_source
from pbem.render.board_png import svg_to_png
from pbem.render.board_svg import SQUARE, VIEW, render_svg
from pbem.rules.geometry import parse_square, square_name
from tests.render.colour_vision import Seen, contrast, delta_e, simulate

Image = pytest.importorskip("PIL.Image")

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "build" / "screenshots"
SCALE = 2  # pixels per unit: a 1.5-unit outline is 3 pixels, sampled in its middle
KINDS = ("normal", "protanopia", "deuteranopia", "tritanopia")


@pytest.fixture(scope="module")
def picture():
    (source,) = list(read_file(ROOT / "games" / "sample-game-2002.realm"))
    replay = validate_source(source).replay
    last = replay.turns[-1]
    assert last.label == "16w"  # Pe7e6(Be5): the arrow runs from e7 down to e6
    svg = render_svg(last.after, last=last, size=VIEW * SCALE)
    return Image.open(io.BytesIO(svg_to_png(svg))).convert("RGB")


def _at(name: str, dx: float = 0.0, dy: float = 0.0) -> tuple[int, int]:
    """The pixel ``dx``, ``dy`` squares from the middle of square ``name`` (White's view)."""
    sq = parse_square(name)
    col, row = sq % 12, 11 - sq // 12
    x = 20 + (col + 0.5 + dx) * SQUARE
    y = 20 + (row + 0.5 + dy) * SQUARE
    return round(x * SCALE), round(y * SCALE)


def _mean(image, name: str) -> tuple[int, int, int]:
    """The average colour of the middle of a square (a hatched Realm's colour from afar)."""
    x, y = _at(name)
    h = int(0.3 * SQUARE * SCALE)
    px = [image.getpixel((i, j)) for i in range(x - h, x + h) for j in range(y - h, y + h)]
    return tuple(round(sum(p[k] for p in px) / len(px)) for k in range(3))  # type: ignore


def _colours(image) -> dict[str, tuple[int, int, int]]:
    return {
        "unheld Realm": image.getpixel(_at("l12")),  # the k11 Realm: no Base on its Center
        "White's Realm": image.getpixel(_at("g10")),
        "Black's Realm": _mean(image, "a1"),
        "White's piece": image.getpixel(_at("d6")),  # a White Power
        "White's outline": image.getpixel(_at("e8", 0.26)),  # the edge of a White Base
        "Black's piece": image.getpixel(_at("a6", -0.18)),  # a Black Power, beside its dot
        "Black's dot": image.getpixel(_at("a6")),
        "arrow": image.getpixel(_at("e7", 0, 0.25)),  # the shaft of 16w's arrow
    }


def test_the_sample_points_are_what_they_claim(picture) -> None:
    # the probes stand where the position puts them: a mistake here would check nothing
    (source,) = list(read_file(ROOT / "games" / "sample-game-2002.realm"))
    board = validate_source(source).replay.final.board
    for name, kind, side in (("d6", "P", 0), ("e8", "B", 0), ("a6", "P", 1)):
        piece = board[parse_square(name)]
        assert piece is not None and piece.kind.value == kind and piece.side == side, name
    assert board[parse_square("l12")] is None and board[parse_square("g10")] is None
    c = _colours(picture)
    assert c["White's piece"] == (255, 255, 255) and c["Black's piece"] == (34, 34, 34)
    assert square_name(parse_square("a1")) == "a1"


@pytest.mark.parametrize("kind", KINDS)
def test_every_part_keeps_its_contrast_for_the_colour_blind(picture, kind: str) -> None:
    seen = Seen(picture, kind)
    if kind != "normal":
        SHOTS.mkdir(parents=True, exist_ok=True)
        seen.save(SHOTS / f"board-{kind}.png", Image, scale=2)
    c = _colours(seen)
    realms = ("unheld Realm", "White's Realm", "Black's Realm")
    for realm in realms:  # every piece stands out from every Realm: its fill or its outline
        assert contrast(c["Black's piece"], c[realm]) >= 3, (kind, realm, c)
        assert contrast(c["White's outline"], c[realm]) >= 3, (kind, realm, c)
        assert contrast(c["arrow"], c[realm]) >= 3, (kind, realm, c)
    # the sides differ by lightness and by the dot, whatever the reader's colours
    assert contrast(c["White's piece"], c["Black's piece"]) >= 3, (kind, c)
    assert contrast(c["Black's dot"], c["Black's piece"]) >= 3, (kind, c)
    # the three kinds of Realm stay different colours (and Black's are hatched as well)
    for i, a in enumerate(realms):
        for b in realms[i + 1:]:
            assert delta_e(c[a], c[b]) >= 10, (kind, a, b, c)


def test_the_simulation_moves_red_and_green_together() -> None:
    # what makes the check a check: to a deuteranope pure red and green are nearly one
    # colour, which the normal eye tells apart easily
    red, green = (200, 40, 40), (60, 140, 40)
    assert delta_e(red, green) > 60
    assert delta_e(simulate(red, "deuteranopia"), simulate(green, "deuteranopia")) < 25
    assert simulate((128, 128, 128), "protanopia") == (128, 128, 128)  # greys stay grey
