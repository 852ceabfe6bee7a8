"""Boards as text for the test diagrams of every game (``diagram``, ``center_diagram``,
``family_diagram``): each names its tokens, this reads and prints them.

A diagram is up to 12 lines, the top line the highest rank, one token a square
separated by spaces. It may show a window of the board: its bottom-left token stands
on ``origin`` and every square outside it is empty. Blank lines and anything after
``#`` on a line are ignored, so rows may carry comments such as rank numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rules.geometry import FILES, SIZE, file_of, parse_square, rank_of, square


def board_from_tokens(diagram: str, origin: str, tokens: Mapping[str, Any]) -> tuple[Any, ...]:
    """The board a diagram shows, ``tokens`` saying which piece each token is."""
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
        raise ValueError(
            f"a {width}x{len(rows)} window from {origin} does not fit on the board"
        )
    board: list[Any] = [None] * (SIZE * SIZE)
    for i, row in enumerate(reversed(rows)):  # bottom line first
        for j, token in enumerate(row):
            if token not in tokens:
                raise ValueError(f"unknown diagram token {token!r}")
            board[square(f0 + j, r0 + i)] = tokens[token]
    return tuple(board)


def board_text(board: tuple[Any, ...], token_of: Mapping[Any, str]) -> str:
    """The whole board as a diagram with rank numbers and files, for assertion messages."""
    lines = []
    for r in range(SIZE - 1, -1, -1):
        row = (board[square(f, r)] for f in range(SIZE))
        tokens = ("." if p is None else token_of.get(p, "?") for p in row)
        lines.append(f"{r + 1:>2} " + " ".join(tokens))
    lines.append("   " + " ".join(FILES))
    return "\n".join(lines)
