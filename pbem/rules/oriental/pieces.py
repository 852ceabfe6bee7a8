"""The Oriental pieces and the board tables their rules need, computed once."""

from __future__ import annotations

from pbem.rules.geometry import RAYS, SQUARES, square_name
from pbem.rules.pieces import EMPTY_BOARD as EMPTY_BOARD
from pbem.rules.pieces import Board as Board
from pbem.rules.pieces import BoardPiece, Kind, Piece, Side

#: the pieces of each side, indexed by Side
MANDARIN: tuple[Piece, Piece] = (Piece(Side.WHITE, Kind.ENFORCER), Piece(Side.BLACK, Kind.ENFORCER))
EMPEROR: tuple[Piece, Piece] = (Piece(Side.WHITE, Kind.POWER), Piece(Side.BLACK, Kind.POWER))
MANDARINS = 7
PIECES = 8

#: the squares orthogonally next to each square (off-board ones are simply absent)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ray[0] for ray in RAYS[s] if ray) for s in SQUARES
)
#: each square's (E, W) and (N, S) neighbour pairs, where both are on the board
OPPOSITE_PAIRS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(
        (RAYS[s][a][0], RAYS[s][b][0])
        for a, b in ((1, 3), (0, 2))  # E-W first, then N-S
        if RAYS[s][a] and RAYS[s][b]
    )
    for s in SQUARES
)


def name_of(piece: BoardPiece) -> str:
    """The piece's name in this game."""
    return "Emperor" if piece.kind is Kind.POWER else "Mandarin"


def describe_at(piece: Piece, sq: int) -> str:
    return f"the {name_of(piece)} on {square_name(sq)}"
