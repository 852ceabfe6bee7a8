"""Board diagrams for the family games (Oriental, Modern, ...): pieces without facing.

Like ``tests/diagram.py``: up to 12 lines, top line the highest rank, one token a
square, an optional window whose bottom-left token stands on ``origin``:

    .        empty
    E  e     White / Black Enforcer (Mandarin, Agent)
    P  p     White / Black Power (Emperor, Counter-Agent)
    B  b     White / Black Base (HQ)
"""

from __future__ import annotations

from pbem.rules.geometry import parse_square
from pbem.rules.pieces import Kind, Piece, Side
from tests.board_text import board_from_tokens, board_text

W, B = Side.WHITE, Side.BLACK
TOKENS: dict[str, Piece | None] = {
    ".": None,
    "E": Piece(W, Kind.ENFORCER),
    "e": Piece(B, Kind.ENFORCER),
    "P": Piece(W, Kind.POWER),
    "p": Piece(B, Kind.POWER),
    "B": Piece(W, Kind.BASE),
    "b": Piece(B, Kind.BASE),
}
TOKEN_OF = {p: t for t, p in TOKENS.items() if p is not None}

Board = tuple[Piece | None, ...]


def sq(name: str) -> int:
    return parse_square(name)


def sqs(names: str) -> tuple[int, ...]:
    """Sorted squares from space-separated names: ``sqs("d4 d5")``."""
    return tuple(sorted(parse_square(n) for n in names.split()))


def board_from(diagram: str, origin: str = "a1") -> Board:
    return board_from_tokens(diagram, origin, TOKENS)


def render_board(board: Board) -> str:
    return board_text(board, TOKEN_OF)
