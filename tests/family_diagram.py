"""Board diagrams for the family games (Oriental, Modern, ...): pieces without facing.

Like ``tests/diagram.py``: up to 12 lines, top line the highest rank, one token a
square, an optional window whose bottom-left token stands on ``origin``:

    .        empty
    E  e     White / Black Enforcer (Mandarin, Agent)
    P  p     White / Black Power (Emperor, Counter-Agent)
    B  b     White / Black Base (HQ)
"""

from __future__ import annotations

from pbem.rules.geometry import FILES, SIZE, file_of, parse_square, rank_of, square
from pbem.rules.pieces import Kind, Piece, Side

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
    rows = []
    for line in diagram.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            rows.append(line.split())
    if not rows:
        raise ValueError("empty diagram")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise ValueError(f"ragged diagram: row widths {[len(r) for r in rows]}")
    o = parse_square(origin)
    f0, r0 = file_of(o), rank_of(o)
    if f0 + width > SIZE or r0 + len(rows) > SIZE:
        raise ValueError(f"a {width}x{len(rows)} window from {origin} does not fit")
    board: list[Piece | None] = [None] * (SIZE * SIZE)
    for i, row in enumerate(reversed(rows)):
        for j, token in enumerate(row):
            if token not in TOKENS:
                raise ValueError(f"unknown diagram token {token!r}")
            board[square(f0 + j, r0 + i)] = TOKENS[token]
    return tuple(board)


def render_board(board: Board) -> str:
    lines = []
    for r in range(SIZE - 1, -1, -1):
        row = (board[square(f, r)] for f in range(SIZE))
        tokens = [TOKEN_OF[p] if p is not None else "." for p in row]
        lines.append(f"{r + 1:>2} " + " ".join(tokens))
    lines.append("   " + " ".join(FILES))
    return "\n".join(lines)
