"""Board diagrams for the Center-to-Center games (Classic and Medieval Realm).

The sibling of ``tests/diagram.py`` for games whose pieces have no facing. One token
per square, the top line the highest rank, files left to right:

    .      empty
    E  e   White / Black Enforcer (Classic) or Man (Medieval)
    P  p   White / Black Duke (Medieval)

A diagram may show a window of the board: its bottom-left token stands on
``origin``; every square outside it is empty. ``#`` starts a comment.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pbem.rules.classic.actions import Event, Move
from pbem.rules.classic.pieces import Piece, piece
from pbem.rules.classic.position import Board, Phase, Position, initial_position
from pbem.rules.classic.ruleset import CLASSIC_RULES, Ruleset
from pbem.rules.classic.turns import apply_move, begin_turn, finish_turn
from pbem.rules.geometry import parse_square
from pbem.rules.pieces import Kind, Side
from tests.board_text import board_from_tokens, board_text

W, B = Side.WHITE, Side.BLACK
TOKENS: dict[str, Piece | None] = {
    ".": None,
    "E": piece(W, Kind.ENFORCER),
    "e": piece(B, Kind.ENFORCER),
    "P": piece(W, Kind.POWER),
    "p": piece(B, Kind.POWER),
}
TOKEN_OF = {p: t for t, p in TOKENS.items() if p is not None}
_SQUARE = re.compile(r"[a-l](?:1[0-2]|[1-9])")


def sq(name: str) -> int:
    return parse_square(name)


def board_from(diagram: str, origin: str = "a1") -> Board:
    return board_from_tokens(diagram, origin, TOKENS)


def position_from(
    diagram: str,
    *,
    ruleset: Ruleset = CLASSIC_RULES,
    to_move: Side = W,
    origin: str = "a1",
    **fields: object,
) -> Position:
    """A position in play with the diagram's board; other fields as given."""
    start = initial_position(ruleset)
    return replace(
        start, board=board_from(diagram, origin), phase=Phase.PLAY, to_move=to_move, **fields
    )


def render_board(board: Board) -> str:
    return board_text(board, TOKEN_OF)


def assert_board(position: Position, diagram: str, origin: str = "a1") -> None:
    expected = board_from(diagram, origin)
    assert position.board == expected, (
        "board differs\nexpected:\n" + render_board(expected) + "\ngot:\n"
        + render_board(position.board)
    )


def mv(path: str, refill: str | None = None, dislodge: str | None = None) -> Move:
    """``mv("b5b8e8")``, ``mv("h8h11off", refill="g7")``: a Move from square names."""
    off = path.endswith("off")
    squares = tuple(parse_square(s) for s in _SQUARE.findall(path.removesuffix("off")))
    return Move(
        squares,
        off,
        None if refill is None else parse_square(refill),
        None if dislodge is None else parse_square(dislodge),
    )


def play(position: Position, *moves: Move) -> tuple[Position, list[Event]]:
    """A whole turn of ``moves``; the position after it and every event, in order."""
    state = begin_turn(position)
    events: list[Event] = []
    for m in moves:
        state, more, _ = apply_move(state, m)
        events.extend(more)
    after, more = finish_turn(state)
    return after, events + more


def with_pieces(position: Position, **tokens: str) -> Position:
    """``position`` with diagram tokens put on named squares: ``with_pieces(p, k11="e")``."""
    board = list(position.board)
    for name, token in tokens.items():
        board[parse_square(name)] = TOKENS[token]
    return replace(position, board=tuple(board))
