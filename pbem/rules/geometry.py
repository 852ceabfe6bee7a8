"""The Realm board, shared by every game played on it.

Squares are ints 0..143: ``rank_index * 12 + file_index`` (a1 = 0, l1 = 11,
a12 = 132). Realms are ints 0..15, numbered like squares on a 4 x 4 grid
(the b2 Realm = 0, the k11 Realm = 15). Every table is computed once at import,
so the rules never do geometry arithmetic in their hot loops.
"""

from __future__ import annotations

from enum import IntEnum

FILES = "abcdefghijkl"
SIZE = 12
SQUARES = range(SIZE * SIZE)
REALMS = range(16)


class Direction(IntEnum):
    """A compass direction; North is toward rank 12, East toward file l."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def opposite(self) -> Direction:
        return _DIRECTIONS[self - 2]  # not Direction(...): an enum call costs ten times more

    @property
    def letter(self) -> str:
        return self.name


DIRECTIONS = tuple(Direction)
_DIRECTIONS = DIRECTIONS
_STEP = {Direction.N: (0, 1), Direction.E: (1, 0), Direction.S: (0, -1), Direction.W: (-1, 0)}


def square(file_index: int, rank_index: int) -> int:
    return rank_index * SIZE + file_index


def file_of(sq: int) -> int:
    return sq % SIZE


def rank_of(sq: int) -> int:
    return sq // SIZE


SQUARE_NAMES: tuple[str, ...] = tuple(FILES[s % SIZE] + str(s // SIZE + 1) for s in SQUARES)
_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}
#: square name -> square, for a lookup where a failed one is handled on the spot
SQUARE_INDEX: dict[str, int] = _BY_NAME


#: every square's name: a written name in it is read as written
PLAIN_SQUARES: frozenset[str] = frozenset(SQUARE_NAMES)


def parse_square(name: str) -> int:
    """The square named ``name`` (lower case, e.g. ``h11``); KeyError if none."""
    return _BY_NAME[name]


def is_square_name(name: str) -> bool:
    return name in _BY_NAME


def square_name(sq: int) -> str:
    return SQUARE_NAMES[sq]


#: realm of every square
REALM_OF: tuple[int, ...] = tuple((rank_of(s) // 3) * 4 + file_of(s) // 3 for s in SQUARES)
#: the Center square of every realm
CENTER: tuple[int, ...] = tuple(square((r % 4) * 3 + 1, (r // 4) * 3 + 1) for r in REALMS)
IS_CENTER: tuple[bool, ...] = tuple(s in set(CENTER) for s in SQUARES)
#: the nine squares of every realm, in square order
REALM_SQUARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in SQUARES if REALM_OF[s] == r) for r in REALMS
)
#: the eight Border squares of every realm
BORDER_SQUARES: tuple[tuple[int, ...], ...] = tuple(
    tuple(s for s in REALM_SQUARES[r] if s != CENTER[r]) for r in REALMS
)
#: a realm's row (0 = ranks 1-3) and column (0 = files a-c) of realms
REALM_ROW: tuple[int, ...] = tuple(r // 4 for r in REALMS)
REALM_COLUMN: tuple[int, ...] = tuple(r % 4 for r in REALMS)


def realm_name(realm: int) -> str:
    """A realm is named by its Center, as in "the h11 Realm"."""
    return SQUARE_NAMES[CENTER[realm]]


def _ray(sq: int, d: Direction) -> tuple[int, ...]:
    df, dr = _STEP[d]
    f, r = file_of(sq), rank_of(sq)
    # as many steps as the board allows from here, each one ``dr`` ranks and ``df`` files on
    steps = min(SIZE - 1 - f if df > 0 else f if df < 0 else SIZE,
                SIZE - 1 - r if dr > 0 else r if dr < 0 else SIZE)
    step = dr * SIZE + df
    return tuple(range(sq + step, sq + step * (steps + 1), step))


#: RAYS[sq][d]: the squares from ``sq`` (exclusive) to the edge in direction ``d``
RAYS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_ray(s, d) for d in DIRECTIONS) for s in SQUARES
)


def direction_between(frm: int, to: int) -> Direction | None:
    """The direction of a straight line from ``frm`` to ``to``, or None."""
    if frm == to:
        return None
    if frm % SIZE == to % SIZE:  # the same file (file_of, inline: every move asks this)
        return Direction.N if to > frm else Direction.S
    if frm // SIZE == to // SIZE:
        return Direction.E if to > frm else Direction.W
    return None


def _exit(sq: int, d: Direction) -> tuple[int, ...]:
    realm = REALM_OF[sq]
    for i, s in enumerate(RAYS[sq][d]):
        if REALM_OF[s] != realm:
            return RAYS[sq][d][: i + 1]
    return ()


#: EXITS[sq][d]: the squares from ``sq`` (exclusive) in direction ``d`` up to and with the
#: first one outside its Realm (never a Center: a Realm is entered on its edge); empty
#: where the ray leaves the board first. A piece can stop somewhere that way iff all are empty
EXITS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(_exit(s, d) for d in DIRECTIONS) for s in SQUARES
)


def _lines() -> dict[int, tuple[Direction, tuple[int, ...]]]:
    out = {}
    for frm in SQUARES:
        key = frm * 144
        for d, ray in zip(DIRECTIONS, RAYS[frm], strict=True):
            for i, to in enumerate(ray):
                out[key + to] = (d, ray[:i])
    return out


#: LINES[frm * 144 + to]: the direction from ``frm`` to ``to`` and the squares passed
#: over between them, for every two squares in a straight line (a move's path at once)
LINES: dict[int, tuple[Direction, tuple[int, ...]]] = _lines()


def path_between(frm: int, to: int) -> tuple[int, ...] | None:
    """The squares passed over and stopped on, ``to`` last; None when not in a line."""
    d = direction_between(frm, to)
    if d is None:
        return None
    ray = RAYS[frm][d]
    return ray[: ray.index(to) + 1]


# -- Center to Center: the games where pieces jump between Centers (Classic, Medieval) --
def _neighbour_realm(realm: int, d: Direction) -> int:
    df, dr = _STEP[d]
    column, row = REALM_COLUMN[realm] + df, REALM_ROW[realm] + dr
    return row * 4 + column if 0 <= column < 4 and 0 <= row < 4 else -1


#: NEIGHBOUR_REALM[realm][d]: the Realm sharing ``realm``'s side in direction ``d``, or -1
NEIGHBOUR_REALM: tuple[tuple[int, ...], ...] = tuple(
    tuple(_neighbour_realm(r, d) for d in DIRECTIONS) for r in REALMS
)
#: the Realms that share a side with each Realm ("adjacent Centers"), in direction order
ADJACENT_REALMS: tuple[tuple[int, ...], ...] = tuple(
    tuple(n for n in NEIGHBOUR_REALM[r] if n >= 0) for r in REALMS
)
#: HALF[side]: the eight Realms of a side's own half, indexed by side (0 = White, the
#: Realms with Centers on ranks 2 and 5; 1 = Black, ranks 8 and 11)
HALF: tuple[frozenset[int], frozenset[int]] = (
    frozenset(r for r in REALMS if REALM_ROW[r] < 2),
    frozenset(r for r in REALMS if REALM_ROW[r] >= 2),
)
#: FORWARD[side]: North for White (0), South for Black (1)
FORWARD: tuple[Direction, Direction] = (Direction.N, Direction.S)
#: FAR_ROW[side]: the four Realms of the row farthest from a side, its Centers on
#: rank 11 for White and rank 2 for Black
FAR_ROW: tuple[tuple[int, ...], tuple[int, ...]] = (
    tuple(r for r in REALMS if REALM_ROW[r] == 3),
    tuple(r for r in REALMS if REALM_ROW[r] == 0),
)
