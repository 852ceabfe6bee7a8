"""An SVG picture of a Realm position: a pure function from position to text.

Modelled on python-chess's ``svg.py``: nothing here reads files or knows about
email. svgwrite is used in this module only, so the rest of ``pbem`` never
depends on how the picture is built.

What it draws, bottom to top: the Realms (tinted by the side whose Base holds
the Center: a warm tint for White, a cool hatched tint for Black, so control
reads in greyscale too), the 144 squares, a circle on every Center, thick lines
between Realms, file and rank labels on all four sides, the pieces (Bases square,
Powers round, Enforcers triangles pointing their way; an immobilised Enforcer is
an upward triangle standing on a bar, like the eject sign, so it differs from a
North-pointing one by shape, not colour), then the last turn: an arrow per move
(numbered when there are several), an outline on each set-up placement or on a
rearranged Realm, and a mark for each special event.

Output is deterministic: every id is explicit, squares are visited in order and
svgwrite writes attributes sorted, so the same position gives the same bytes.
The parts that depend only on the orientation (squares, Centers, lines, labels)
are built once per orientation and reused, which keeps one board under 5 ms.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Iterable

import svgwrite
from svgwrite.base import BaseElement

from pbem.notation.format import format_action
from pbem.records.replay import PlayedTurn
from pbem.render.board_words import board_alt, board_words
from pbem.rules.game import AnyGame, GamePosition, Mark, turn_name
from pbem.rules.geometry import (
    CENTER,
    FILES,
    REALM_OF,
    REALM_SQUARES,
    REALMS,
    SIZE,
    SQUARES,
    file_of,
    rank_of,
    realm_name,
    square_name,
)
from pbem.rules.pieces import BoardPiece, Side
from pbem.rules.registry import game_of
from pbem.rules.written import PassText

#: one square, in user units; the margin holds the file and rank labels
SQUARE = 40
MARGIN = 20
BOARD = SIZE * SQUARE
VIEW = BOARD + 2 * MARGIN

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
INK = "#222222"  # lines, labels, White's outline, Black's fill
PAPER = "#ffffff"
GRID = "#8a8a8a"
NEUTRAL = "#f6f4ee"
#: realm tints by controlling side: warm for White, cool (and hatched) for Black
TINT = {Side.WHITE: "#f5e2a0", Side.BLACK: "#c3cfe0"}
HATCH = "#7f91ab"
ACCENT = "#a83208"  # the last turn: arrows, outlines, event marks (3:1 on every tint, also
#: to deuteranopes and protanopes: tests/render/test_colour_vision.py)

#: what each side's pieces look like: light fill and dark line, or the reverse
SIDE_STYLE = {
    Side.WHITE: {"fill": PAPER, "stroke": INK},
    Side.BLACK: {"fill": INK, "stroke": "#f0f0f0"},
}
#: Black's pieces also carry a light dot in their middle: the sides differ by a mark, not
#: by colour alone (a reader who cannot tell the fills apart still sees the dot)
DOT = "#f0f0f0"
DOT_R = 0.085 * SQUARE


def _n(x: float) -> str:
    """A coordinate as short, stable text: ``12``, ``12.5``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _closed(points: Iterable[tuple[float, float]]) -> str:
    """Path data for a closed polygon (a path: svgwrite's polygon takes no ready text)."""
    return "M" + "L".join(f"{_n(x)} {_n(y)}" for x, y in points) + "Z"


@functools.cache
def _corners(flip: bool) -> tuple[tuple[int, int], ...]:
    """The top-left corner of every square: White's view has a1 bottom-left,
    Black's (``flip``) has a1 top-right."""
    out = []
    for s in SQUARES:
        col, row = file_of(s), SIZE - 1 - rank_of(s)
        if flip:
            col, row = SIZE - 1 - col, SIZE - 1 - row
        out.append((MARGIN + col * SQUARE, MARGIN + row * SQUARE))
    return tuple(out)


def _middle(sq: int, flip: bool) -> tuple[float, float]:
    x, y = _corners(flip)[sq]
    return x + SQUARE / 2, y + SQUARE / 2


class _Frozen(BaseElement):
    """A finished ElementTree subtree dropped into a drawing, as svgwrite does for
    ``<title>``: the static layer is built once and serialised many times."""

    elementname = "g"

    def __init__(self, xml: ET.Element) -> None:
        self.xml = xml

    def get_xml(self) -> ET.Element:
        return self.xml


def _text(tag: str, ident: str, text: str) -> _Frozen:
    """A ``<title>`` or ``<desc>`` with an id for ``aria-labelledby`` (svgwrite's
    ``set_desc`` gives none); ElementTree escapes the text, which may come from players."""
    xml = ET.Element(tag, id=ident)
    xml.text = text
    return _Frozen(xml)


def _drawing(size: int | None = None, extra: int = 0) -> svgwrite.Drawing:
    """An empty drawing over the whole view box (``extra`` units wider on the right, for
    pieces beside the board); debug off, because svgwrite's attribute checks cost more
    than everything else together."""
    width = VIEW + extra
    return svgwrite.Drawing(
        size=(round(size * width / VIEW), size) if size is not None else (None, None),
        viewBox=f"0 0 {width} {VIEW}",
        debug=False,
        profile="full",
    )


@functools.cache
def _static_layer(flip: bool) -> ET.Element:
    """Squares, Center circles, Realm lines and labels: the same for every position."""
    dwg = _drawing()
    layer = dwg.g(id="grid")
    corners = _corners(flip)
    squares = layer.add(dwg.g(id="squares", fill="none", stroke=GRID, stroke_width="0.75"))
    for s in SQUARES:
        x, y = corners[s]
        squares.add(dwg.rect((x, y), (SQUARE, SQUARE), id=f"sq-{square_name(s)}", class_="square"))
    centers = layer.add(dwg.g(id="centers", fill="none", stroke="#555555", stroke_width="1.25"))
    for r in REALMS:
        cx, cy = _middle(CENTER[r], flip)
        centers.add(
            dwg.circle(
                (_n(cx), _n(cy)), _n(SQUARE * 0.43), id=f"center-{realm_name(r)}", class_="center"
            )
        )
    lines = []
    for i in (1, 2, 3):
        at = MARGIN + i * 3 * SQUARE
        lines.append(f"M{at} {MARGIN}V{MARGIN + BOARD}")
        lines.append(f"M{MARGIN} {at}H{MARGIN + BOARD}")
    layer.add(
        dwg.path("".join(lines), id="realm-lines", fill="none", stroke=INK, stroke_width="2.5")
    )
    layer.add(
        dwg.rect(
            (MARGIN, MARGIN),
            (BOARD, BOARD),
            id="frame",
            fill="none",
            stroke=INK,
            stroke_width="3",
        )
    )
    labels = layer.add(
        dwg.g(
            id="labels",
            fill=INK,
            font_family=FONT,
            font_size="12",
            text_anchor="middle",
        )
    )
    for i in range(SIZE):
        f = SIZE - 1 - i if flip else i
        r = i if flip else SIZE - 1 - i
        mid = _n(MARGIN + i * SQUARE + SQUARE / 2)
        for file_y in (MARGIN / 2 + 4, VIEW - MARGIN / 2 + 4):
            labels.add(dwg.text(FILES[f], x=[mid], y=[_n(file_y)], class_="file"))
        rank_y = _n(MARGIN + i * SQUARE + SQUARE / 2 + 4)
        for rank_x in (MARGIN / 2, VIEW - MARGIN / 2):
            labels.add(dwg.text(str(r + 1), x=[_n(rank_x)], y=[rank_y], class_="rank"))
    return layer.get_xml()


def _defs(dwg: svgwrite.Drawing) -> None:
    """The hatch that marks Black's Realms in greyscale and print.

    The diagonals are drawn in an upright tile rather than by rotating the tile
    (``patternTransform``): the picture is the same, and rasterising the board
    for mail (PNG) takes about half the time.
    """
    hatch = dwg.defs.add(
        dwg.pattern(id="hatch-black", size=(12, 12), patternUnits="userSpaceOnUse")
    )
    hatch.add(dwg.rect((0, 0), (12, 12), fill=TINT[Side.BLACK]))
    hatch.add(dwg.path(d="M-3,3 L3,-3 M0,12 L12,0 M9,15 L15,9", stroke=HATCH,
                       stroke_width="2"))


def _realms(dwg: svgwrite.Drawing, position: GamePosition, flip: bool) -> BaseElement:
    """One rectangle per Realm, tinted by the side that holds it (``Game.realm_owner``)."""
    group = dwg.g(id="realms", stroke="none")
    corners = _corners(flip)
    game = game_of(position)
    for r in REALMS:
        side = game.realm_owner(position.board, r)
        xs = [corners[s][0] for s in REALM_SQUARES[r]]
        ys = [corners[s][1] for s in REALM_SQUARES[r]]
        if side is None:
            fill, cls = NEUTRAL, "realm"
        elif side is Side.WHITE:
            fill, cls = TINT[Side.WHITE], "realm white"
        else:
            fill, cls = "url(#hatch-black)", "realm black"
        group.add(
            dwg.rect(
                (min(xs), min(ys)),
                (3 * SQUARE, 3 * SQUARE),
                id=f"realm-{realm_name(r)}",
                class_=cls,
                fill=fill,
            )
        )
    return group


# -- pieces --------------------------------------------------------------------------
_TIP = {  # unit vectors on screen (y grows downward) for each facing, White's view
    "N": (0.0, -1.0),
    "E": (1.0, 0.0),
    "S": (0.0, 1.0),
    "W": (-1.0, 0.0),
}


def _screen_facing(d: str, flip: bool) -> tuple[float, float]:
    dx, dy = _TIP[d]
    return (-dx, -dy) if flip else (dx, dy)


def _triangle(cx: float, cy: float, d: tuple[float, float]) -> str:
    """A triangle pointing along ``d``: tip 0.36 of a square ahead, base 0.26 behind."""
    dx, dy = d
    px, py = -dy, dx  # perpendicular
    tip, back, half = 0.36 * SQUARE, 0.26 * SQUARE, 0.32 * SQUARE
    return _closed(
        (
            (cx + dx * tip, cy + dy * tip),
            (cx - dx * back + px * half, cy - dy * back + py * half),
            (cx - dx * back - px * half, cy - dy * back - py * half),
        )
    )


def _piece(
    dwg: svgwrite.Drawing, game: AnyGame, piece: BoardPiece, sq: int, flip: bool
) -> BaseElement:
    """One piece, in the shape its game's PieceTable gives it; a facing piece points its
    way, and ``U`` (the Featured Game's immobilised Enforcer) stands on a bar."""
    cx, cy = _middle(sq, flip)
    name = square_name(sq)
    style = game.pieces.style(piece.kind.value)
    cls = f"piece {piece.side.key} {style.name.lower()}"
    facing = game.facing_of(piece)
    if style.shape == "square":
        h = 0.26 * SQUARE
        return dwg.rect(
            (_n(cx - h), _n(cy - h)), (_n(2 * h), _n(2 * h)), class_=cls, data_square=name
        )
    if style.shape == "triangle" and facing == "U":
        # immobilised: an upward triangle standing on a bar (the eject sign)
        group = dwg.g(class_=cls + " immobilised", data_square=name, data_facing="U")
        group.add(dwg.path(_triangle(cx, cy - 0.08 * SQUARE, (0.0, -1.0))))
        group.add(
            dwg.rect(
                (_n(cx - 0.32 * SQUARE), _n(cy + 0.24 * SQUARE)),
                (_n(0.64 * SQUARE), _n(0.12 * SQUARE)),
            )
        )
        return group
    if style.shape == "triangle":
        if facing is None:
            return dwg.path(_triangle(cx, cy, _screen_facing("N", flip)), class_=cls,
                            data_square=name)
        return dwg.path(
            _triangle(cx, cy, _screen_facing(facing, flip)),
            class_=cls,
            data_square=name,
            data_facing=facing,
        )
    if style.shape == "diamond":
        h = 0.34 * SQUARE
        points = ((cx, cy - h), (cx + h, cy), (cx, cy + h), (cx - h, cy))
        return dwg.path(_closed(points), class_=cls, data_square=name)
    if style.shape == "crown":
        group = dwg.g(class_=cls, data_square=name)
        group.add(dwg.circle((_n(cx), _n(cy)), _n(0.3 * SQUARE)))
        group.add(dwg.circle((_n(cx), _n(cy)), _n(0.14 * SQUARE), fill="none"))
        return group
    return dwg.circle((_n(cx), _n(cy)), _n(0.3 * SQUARE), class_=cls, data_square=name)


def _dot_at(game: AnyGame, piece: BoardPiece, sq: int, flip: bool) -> tuple[float, float]:
    """Where Black's dot sits: the middle of the piece's shape (a triangle's is behind
    the square's middle, an immobilised one's above its bar)."""
    cx, cy = _middle(sq, flip)
    style = game.pieces.style(piece.kind.value)
    if style.shape != "triangle":
        return cx, cy
    facing = game.facing_of(piece)
    if facing == "U":
        return cx, cy - 0.08 * SQUARE + 0.05 * SQUARE
    dx, dy = _screen_facing(facing or "N", flip)
    return cx - dx * 0.05 * SQUARE, cy - dy * 0.05 * SQUARE


def _pieces(dwg: svgwrite.Drawing, position: GamePosition, flip: bool) -> BaseElement:
    """Pieces grouped by side, the side's colours set once on its group; then the dots
    that mark Black's pieces (``DOT``)."""
    group = dwg.g(id="pieces", stroke_width="1.5", stroke_linejoin="round")
    sides = {side: dwg.g(id=f"pieces-{side.key}", **SIDE_STYLE[side]) for side in Side}
    dots = dwg.g(id="black-dots", fill=DOT, stroke="none")
    board = position.board
    game = game_of(position)
    for sq in SQUARES:
        piece = board[sq]
        if piece is not None:
            sides[piece.side].add(_piece(dwg, game, piece, sq, flip))
            if piece.side is Side.BLACK:
                x, y = _dot_at(game, piece, sq, flip)
                dots.add(dwg.circle((_n(x), _n(y)), _n(DOT_R), class_="side-mark",
                                    data_square=square_name(sq)))
    for side in Side:
        group.add(sides[side])
    group.add(dots)
    return group


# -- the last turn ------------------------------------------------------------------
def _arrow(
    dwg: svgwrite.Drawing, frm_sq: int, to_sq: int, numbered: bool, flip: bool, last: bool = True
) -> BaseElement:
    """A block arrow from the middle of ``frm`` to the edge of the piece on ``to`` (to the
    middle of ``to`` where the path goes on: ``last`` False)."""
    x1, y1 = _middle(frm_sq, flip)
    x2, y2 = _middle(to_sq, flip)
    length = abs(x2 - x1) + abs(y2 - y1) or 1.0  # moves are straight lines
    dx, dy = (x2 - x1) / length, (y2 - y1) / length
    px, py = -dy, dx
    end = length - 0.3 * SQUARE if last else length  # the tip stops at the edge of the piece
    head, shaft, wing = 0.34 * SQUARE, 0.07 * SQUARE, 0.2 * SQUARE
    neck = max(end - head, 0.0)
    start = 0.2 * SQUARE if numbered else 0.12 * SQUARE

    def at(along: float, across: float) -> tuple[float, float]:
        return x1 + dx * along + px * across, y1 + dy * along + py * across

    outline = (
        at(start, shaft),
        at(neck, shaft),
        at(neck, wing),
        at(end, 0),
        at(neck, -wing),
        at(neck, -shaft),
        at(start, -shaft),
    )
    frm, to = square_name(frm_sq), square_name(to_sq)
    return dwg.path(
        _closed(outline), id=f"arrow-{frm}-{to}", class_="arrow", data_from=frm, data_to=to
    )


def _move_number(dwg: svgwrite.Drawing, frm: int, number: int, flip: bool) -> BaseElement:
    """The order of a move in its turn, on the square it left: order matters in Realm,
    because each stop's special event happens before the next piece moves."""
    x, y = _middle(frm, flip)
    group = dwg.g(class_="move-number", data_square=square_name(frm))
    group.add(dwg.circle((_n(x), _n(y)), _n(0.2 * SQUARE)))
    group.add(dwg.text(str(number), x=[_n(x)], y=[_n(y + 4)], fill=PAPER, stroke="none"))
    return group


def _outline(dwg: svgwrite.Drawing, sq: int, cls: str, flip: bool) -> BaseElement:
    x, y = _corners(flip)[sq]
    return dwg.rect(
        (x + 2, y + 2),
        (SQUARE - 4, SQUARE - 4),
        class_=cls,
        data_square=square_name(sq),
        fill="none",
        stroke=ACCENT,
        stroke_width="2.5",
    )


def _badge(
    dwg: svgwrite.Drawing, sq: int, slot: int, cls: str, sign: str, flip: bool
) -> BaseElement:
    """A small disc in a corner of ``sq`` holding a plus (created) or a bar (immobilised)."""
    x, y = _corners(flip)[sq]
    cx, cy = x + SQUARE - 7 - slot * 13, y + 7
    group = dwg.g(class_=f"event {cls}", data_square=square_name(sq))
    group.add(dwg.circle((_n(cx), _n(cy)), "6.5", fill=ACCENT, stroke=PAPER, stroke_width="1"))
    path = f"M{_n(cx - 3.5)} {_n(cy)}H{_n(cx + 3.5)}"
    if sign == "+":
        path += f"M{_n(cx)} {_n(cy - 3.5)}V{_n(cy + 3.5)}"
    group.add(dwg.path(path, fill="none", stroke=PAPER, stroke_width="2"))
    return group


def _cross(dwg: svgwrite.Drawing, sq: int, flip: bool, cls: str = "captured") -> BaseElement:
    """A piece taken (a captured Base): a cross over its square."""
    cx, cy = _middle(sq, flip)
    h = 0.3 * SQUARE
    path = (
        f"M{_n(cx - h)} {_n(cy - h)}L{_n(cx + h)} {_n(cy + h)}"
        f"M{_n(cx - h)} {_n(cy + h)}L{_n(cx + h)} {_n(cy - h)}"
    )
    return dwg.path(
        path,
        class_=f"event {cls}",
        data_square=square_name(sq),
        fill="none",
        stroke=ACCENT,
        stroke_width="4",
        stroke_linecap="round",
    )


def _last_turn(
    dwg: svgwrite.Drawing, game: AnyGame, last: PlayedTurn, flip: bool
) -> tuple[BaseElement, BaseElement]:
    """The last turn: outlines for placements and rearrangements (drawn under the
    pieces), arrows for moves and a mark for every event (drawn over them), as the
    game's ``turn_marks`` list them."""
    group = dwg.g(id="last-turn-outlines", data_turn=last.label)
    per_action = [game.turn_marks(r) for r in last.resolved]
    numbered = sum(any(m.kind == "path" for m in ms) for ms in per_action) > 1
    marks = dwg.g(id="events")
    over = dwg.g(id="last-turn", data_turn=last.label)
    arrows = dwg.g(id="arrows", fill=ACCENT, stroke=PAPER, stroke_width="1")
    numbers = dwg.g(
        id="move-numbers",
        fill=ACCENT,
        stroke=PAPER,
        stroke_width="1",
        font_family=FONT,
        font_size="11",
        font_weight="bold",
        text_anchor="middle",
    )
    slots: dict[int, int] = {}
    moves = 0
    for action_marks in per_action:
        for mark in action_marks:
            _draw_mark(dwg, mark, flip, group, arrows, marks, slots, numbered)
            if mark.kind == "path" and numbered:
                moves += 1
                numbers.add(_move_number(dwg, mark.squares[0], moves, flip))
    over.add(arrows)
    if numbered:
        over.add(numbers)
    over.add(marks)
    return group, over


def _draw_mark(
    dwg: svgwrite.Drawing,
    mark: Mark,
    flip: bool,
    under: BaseElement,
    arrows: BaseElement,
    marks: BaseElement,
    slots: dict[int, int],
    numbered: bool,
) -> None:
    sq = mark.squares[0]
    if mark.kind == "outline":
        under.add(_outline(dwg, sq, mark.cls, flip))
    elif mark.kind == "realm":
        realm = REALM_OF[sq]
        x, y = min(_corners(flip)[s] for s in REALM_SQUARES[realm])
        under.add(
            dwg.rect(
                (x + 2, y + 2),
                (3 * SQUARE - 4, 3 * SQUARE - 4),
                class_=mark.cls,
                data_realm=realm_name(realm),
                fill="none",
                stroke=ACCENT,
                stroke_width="3",
                stroke_dasharray="8 5",
            )
        )
    elif mark.kind == "path":
        legs = list(zip(mark.squares, mark.squares[1:], strict=False))
        for i, (a, b) in enumerate(legs):
            arrows.add(_arrow(dwg, a, b, numbered and i == 0, flip, last=i + 1 == len(legs)))
    elif mark.kind == "cross":
        marks.add(_cross(dwg, sq, flip, mark.cls))
    elif mark.kind == "badge":
        slot = slots.get(sq, 0)
        slots[sq] = slot + 1
        marks.add(_badge(dwg, sq, slot, mark.cls, mark.sign, flip))


# -- beside the board ----------------------------------------------------------------
#: the strip right of the board for pieces that left it (Medieval's pieces moved off)
OFF_STRIP = 2 * SQUARE


def _off_board(dwg: svgwrite.Drawing, counts: dict[Side, int], flip: bool) -> BaseElement:
    """Each side's pieces moved off, as small discs beside the edge they left by (White's
    by the top, Black's by the bottom; the other way round when flipped), with a count."""
    group = dwg.g(id="off-board", font_family=FONT, font_size="11", text_anchor="middle")
    x = VIEW + OFF_STRIP / 2 - MARGIN / 2
    for side, n in counts.items():
        top = (side is Side.WHITE) != flip
        sign = 1 if top else -1
        y = MARGIN + 12 if top else VIEW - MARGIN - 12
        pile = dwg.g(class_=f"off {side.key}", data_count=str(n), **SIDE_STYLE[side])
        for i in range(n):
            pile.add(dwg.circle((_n(x), _n(y + sign * (16 + i * 14))), "6"))
            if side is Side.BLACK:
                pile.add(dwg.circle((_n(x), _n(y + sign * (16 + i * 14))), "2", fill=DOT,
                                    stroke="none", class_="side-mark"))
        group.add(pile)
        group.add(dwg.text(f"off {n}", insert=(_n(x), _n(y + 4)), fill=INK))
    return group


# -- words -------------------------------------------------------------------------
def describe(position: GamePosition, last: PlayedTurn | None = None) -> str:
    """The board's description for screen readers (its ``<desc>``): every piece Realm by
    Realm (``board_words``), then the last turn as written."""
    words = board_words(position).lines()
    if last is not None:
        if len(last.resolved) == 1 and isinstance(last.resolved[0].canonical(), PassText):
            words.append(f"Last turn {turn_name(last.label)}: {last.side.title} passed.")
        else:
            text = ",".join(format_action(r.canonical()) for r in last.resolved)
            words.append(f"Last turn {turn_name(last.label)}: {text}.")
    return " ".join(words)


# -- the board -----------------------------------------------------------------------
def render_svg(
    position: GamePosition,
    *,
    last: PlayedTurn | None = None,
    flip: bool = False,
    size: int | None = None,
    title: str | None = None,
) -> str:
    """The board as SVG text: ``last`` draws that turn (it should be the turn that led
    to ``position``), ``flip`` shows Black's view (a1 top-right), ``size`` sets the
    width and height in pixels (else the picture scales to its container). Its
    ``<title>`` is the alt text (``board_alt``) unless ``title`` is given, its ``<desc>``
    the pieces Realm by Realm (``describe``)."""
    if title is None:
        title = board_alt(position, last, flip=flip)
    off = game_of(position).off_board(position)
    dwg = _drawing(size, OFF_STRIP if off else 0)
    dwg.update({"role": "img", "aria-labelledby": "board-title board-desc"})
    # first children, before <defs>: what a screen reader announces
    dwg.elements[:0] = [
        _text("title", "board-title", title),
        _text("desc", "board-desc", describe(position, last)),
    ]
    _defs(dwg)
    dwg.add(_realms(dwg, position, flip))
    dwg.add(_Frozen(_static_layer(flip)))
    if last is None:
        dwg.add(_pieces(dwg, position, flip))
    else:
        under, over = _last_turn(dwg, game_of(position), last, flip)
        dwg.add(under)
        dwg.add(_pieces(dwg, position, flip))
        dwg.add(over)
    if off:
        dwg.add(_off_board(dwg, off, flip))
    return dwg.tostring()
