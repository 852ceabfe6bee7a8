"""Sides and pieces. Pieces are interned: there are only 14 distinct values."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum, IntEnum
from typing import Protocol, TypeVar

from pbem.errors import RuleError
from pbem.rules.geometry import SQUARES, Direction, square_name
from pbem.rules.values import frozen


class Side(IntEnum):
    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Side:
        return _SIDES[1 - self]  # not Side(1 - self): an enum call costs ten times more

    @property
    def letter(self) -> str:
        return "w" if self is Side.WHITE else "b"

    @property
    def title(self) -> str:
        return "White" if self is Side.WHITE else "Black"

    @property
    def key(self) -> str:
        return "white" if self is Side.WHITE else "black"


_SIDES = (Side.WHITE, Side.BLACK)


class Kind(Enum):
    BASE = "B"
    POWER = "P"
    ENFORCER = "E"

    @property
    def title(self) -> str:
        return {"B": "Base", "P": "Power", "E": "Enforcer"}[self.value]


# the members as module names, for the rules' hot paths: on Python 3.11 each ``Kind.POWER``
# goes through EnumType's __getattr__ hook (some 600 instructions; a module name, ten)
WHITE, BLACK = Side.WHITE, Side.BLACK
BASE, POWER, ENFORCER = Kind.BASE, Kind.POWER, Kind.ENFORCER


@frozen
class Piece:
    """A piece on the board. ``facing`` is None for Bases and Powers and for an
    immobilised Enforcer (which points up)."""

    side: Side
    kind: Kind
    facing: Direction | None = None

    @property
    def immobilised(self) -> bool:
        return self.kind is Kind.ENFORCER and self.facing is None

    @property
    def mobile(self) -> bool:
        """Bases never move; an immobilised Enforcer cannot."""
        return self.kind is Kind.POWER or (self.kind is Kind.ENFORCER and self.facing is not None)

    @property
    def code(self) -> str:
        """The interchange code: ``wB``, ``bP``, ``wE-S``, ``bE-U``."""
        text = self.side.letter + self.kind.value
        if self.kind is Kind.ENFORCER:
            text += "-" + (self.facing.letter if self.facing is not None else "U")
        return text

    def describe(self) -> str:
        return f"{self.side.title} {self.kind.title}"


class BoardPiece(Protocol):
    """What every game's piece has, whatever else it carries (the Featured Game's
    ``Piece`` above adds a facing; Classic and Medieval have pieces of their own): the
    layers above the rules draw, write and count pieces through this alone."""

    @property
    def side(self) -> Side: ...

    @property
    def kind(self) -> Kind: ...

    @property
    def code(self) -> str: ...


def base(side: Side) -> Piece:
    return _BASES[side]


def power(side: Side) -> Piece:
    return _POWERS[side]


def enforcer(side: Side, facing: Direction | None) -> Piece:
    """An Enforcer pointing ``facing``; ``None`` makes it immobilised."""
    return _ENFORCERS[side][4 if facing is None else facing]


_BASES = (Piece(Side.WHITE, Kind.BASE), Piece(Side.BLACK, Kind.BASE))
_POWERS = (Piece(Side.WHITE, Kind.POWER), Piece(Side.BLACK, Kind.POWER))
_ENFORCERS = tuple(
    tuple(Piece(s, Kind.ENFORCER, d) for d in (*Direction, None)) for s in Side
)
ALL_PIECES: tuple[Piece, ...] = (*_BASES, *_POWERS, *(p for row in _ENFORCERS for p in row))
PIECE_BY_CODE = {p.code: p for p in ALL_PIECES}


#: a board: the piece on each square (None: empty), by square number
Board = tuple[Piece | None, ...]
#: a count for each side, White's first
Pair = tuple[int, int]
EMPTY_BOARD: Board = (None,) * len(SQUARES)

#: a game's own piece
PieceT = TypeVar("PieceT", bound=BoardPiece)


def own_piece(
    board: Sequence[PieceT | None], side: Side, frm: int, describe_at: Callable[[PieceT, int], str]
) -> PieceT:
    """The piece on ``frm``, which ``side`` is to move: no piece there, or the other
    side's, is refused (``describe_at`` names a piece on its square in the game's words)."""
    piece = board[frm]
    if piece is None:
        raise RuleError("move.no-piece", f"there is no piece on {square_name(frm)}")
    if piece.side is not side:
        raise RuleError(
            "move.not-own",
            f"{describe_at(piece, frm)} is {piece.side.title}'s; it is {side.title}'s turn",
        )
    return piece
