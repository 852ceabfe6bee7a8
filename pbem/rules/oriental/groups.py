"""Groups and surrounding: a group is surrounded when no square next to it is empty.

Every square next to a group is off the board, empty, or holds an enemy piece
(a friendly piece there would belong to the group), so "surrounded" is simply
"no empty neighbour".
"""

from __future__ import annotations

from pbem.rules.oriental.pieces import NEIGHBOURS, Board
from pbem.rules.pieces import Side


def group_at(board: Board, sq: int) -> tuple[int, ...]:
    """The squares of the group holding ``sq``, sorted."""
    piece = board[sq]
    assert piece is not None  # a group holds pieces
    side = piece.side
    seen = {sq}
    todo = [sq]
    while todo:
        s = todo.pop()
        for n in NEIGHBOURS[s]:
            p = board[n]
            if p is not None and p.side is side and n not in seen:
                seen.add(n)
                todo.append(n)
    return tuple(sorted(seen))


def liberties(board: Board, group: tuple[int, ...]) -> set[int]:
    """The empty squares next to a group."""
    return {n for s in group for n in NEIGHBOURS[s] if board[n] is None}


def is_surrounded(board: Board, group: tuple[int, ...]) -> bool:
    for s in group:
        for n in NEIGHBOURS[s]:
            if board[n] is None:
                return False
    return True


def groups_of(board: Board, side: Side) -> list[tuple[int, ...]]:
    """Every group of ``side``, in square order of their first squares."""
    seen: set[int] = set()
    out = []
    for s, p in enumerate(board):
        if p is not None and p.side is side and s not in seen:
            g = group_at(board, s)
            seen.update(g)
            out.append(g)
    return out


def surrounded_groups(board: Board, side: Side) -> list[tuple[int, ...]]:
    return [g for g in groups_of(board, side) if is_surrounded(board, g)]


def surrounded_next_to(board: Board, sq: int, side: Side) -> tuple[int, ...] | None:
    """A group of ``side`` next to ``sq`` that is surrounded (a move just landed on
    ``sq``: only the groups it touches can have lost their last empty neighbour)."""
    for n in NEIGHBOURS[sq]:
        p = board[n]
        if p is not None and p.side is side:
            g = group_at(board, n)
            if is_surrounded(board, g):
                return g
    return None
