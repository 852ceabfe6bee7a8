"""The Modern pieces, the halves and Target Realms, and the counts the rules need."""

from __future__ import annotations

from pbem.rules.geometry import CENTER, HALF, REALM_OF, REALMS, square_name
from pbem.rules.pieces import EMPTY_BOARD as EMPTY_BOARD
from pbem.rules.pieces import Board as Board
from pbem.rules.pieces import BoardPiece, Kind, Piece, Side

AGENT: tuple[Piece, Piece] = (Piece(Side.WHITE, Kind.ENFORCER), Piece(Side.BLACK, Kind.ENFORCER))
COUNTER_AGENT: tuple[Piece, Piece] = (Piece(Side.WHITE, Kind.POWER), Piece(Side.BLACK, Kind.POWER))
HQ: tuple[Piece, Piece] = (Piece(Side.WHITE, Kind.BASE), Piece(Side.BLACK, Kind.BASE))
AGENTS = 7
HQS = 8

#: each side's Target Realms: always the opponent's half
TARGETS: tuple[frozenset[int], frozenset[int]] = (HALF[Side.BLACK], HALF[Side.WHITE])
IS_TARGET: tuple[tuple[bool, ...], tuple[bool, ...]] = (
    tuple(r in TARGETS[0] for r in REALMS),
    tuple(r in TARGETS[1] for r in REALMS),
)

_NAMES = {Kind.ENFORCER: "Agent", Kind.POWER: "Counter-Agent", Kind.BASE: "HQ"}


def name_of(piece: BoardPiece) -> str:
    return _NAMES[piece.kind]


def describe_at(piece: Piece, sq: int) -> str:
    return f"the {name_of(piece)} on {square_name(sq)}"


def realm_counts(board: Board) -> tuple[list[int], list[int]]:
    """Pieces (HQs included) of each side in each Realm."""
    counts = ([0] * 16, [0] * 16)
    for s, p in enumerate(board):
        if p is not None:
            counts[p.side][REALM_OF[s]] += 1
    return counts


def is_mobile(board: Board, sq: int, counts: tuple[list[int], list[int]] | None = None) -> bool:
    """A Counter-Agent always is; an Agent is not when it stands on a Border square of
    a Realm whose Center the opponent holds and where the opponent has more pieces."""
    piece = board[sq]
    if piece is None or piece.kind is Kind.BASE:
        return False
    if piece.kind is Kind.POWER:
        return True
    realm = REALM_OF[sq]
    center = board[CENTER[realm]]
    if sq == CENTER[realm] or center is None or center.side is piece.side:
        return True
    if counts is None:
        counts = realm_counts(board)
    return counts[piece.side.other][realm] <= counts[piece.side][realm]
