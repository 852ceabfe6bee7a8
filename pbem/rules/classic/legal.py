"""Every legal action from a position, each choice spelled out: the generator that the
referee's listings, the random player and the tests use.

It must agree with the validator (``apply_move``, ``apply_placement``,
``apply_pass``) exactly; it walks the same paths (``movement.paths_from``) and reads
the same candidates, and the tests prove the agreement by brute force. A move
whose rescue, replacement or dislodging has one way only still names it.
"""

from __future__ import annotations

from collections.abc import Iterator

from pbem.rules.classic.actions import Move
from pbem.rules.classic.movement import (
    dislodge_candidates,
    paths_from,
    realm_counts,
    refill_candidates,
)
from pbem.rules.classic.position import Position
from pbem.rules.classic.turns import (
    TurnState,
    apply_move,
    begin_turn,
    may_double,
    placement_squares,
)
from pbem.rules.game import Phase
from pbem.rules.geometry import CENTER, REALMS
from pbem.rules.move_turns import Pass, Placement

Turn = tuple[Placement] | tuple[Move, ...] | tuple[Pass]


def legal_placements(position: Position) -> list[Placement]:
    if position.phase is not Phase.SETUP:
        return []
    side = position.to_move
    kinds = [k for k, _ in position.variant.complement if position.in_hand(side, k) > 0]
    return [Placement(k, s) for s in placement_squares(position) for k in kinds]


def legal_moves_from(position: Position, frm: int, counts: list[int] | None = None) -> list[Move]:
    """Every legal move of the piece on ``frm`` (the side to move's), every choice spelled out."""
    board = position.board
    p = board[frm]
    if position.phase is not Phase.PLAY or p is None or p.side is not position.to_move:
        return []
    if counts is None:
        counts = realm_counts(board)
    refills: list[int | None] = list(refill_candidates(position, p, frm)) or [None]
    out = []
    for path, off in paths_from(position, frm, counts):
        to = path[-1]
        q = None if off else board[to]
        dislodges: list[int | None] = [None] if q is None else list(
            dislodge_candidates(board, to)
        )
        for r in refills:
            for d in dislodges:
                out.append(Move(path, off, r, d))
    return out


def legal_moves(position: Position) -> list[Move]:
    """Every legal move of the side to move (one move; see ``legal_turns`` for doubles)."""
    if position.phase is not Phase.PLAY:
        return []
    board = position.board
    counts = realm_counts(board)
    side = position.to_move
    out: list[Move] = []
    for r in REALMS:
        c = CENTER[r]
        p = board[c]
        if p is not None and p.side is side:
            out.extend(legal_moves_from(position, c, counts))
    return out


def second_moves(state: TurnState) -> list[Move]:
    """The moves that may follow ``state``'s first move as a double move."""
    if state.moves != 1 or state.over or not may_double(state.start):
        return []
    return legal_moves(state.position)


def legal_turns(position: Position) -> Iterator[Turn]:
    """Every legal turn: a placement, a move, a double move where allowed, or the pass."""
    if position.phase is Phase.SETUP:
        for pl in legal_placements(position):
            yield (pl,)
        return
    if position.phase is not Phase.PLAY:
        return
    moves = legal_moves(position)
    if not moves:
        yield (Pass(),)
        return
    double = may_double(position)
    for m in moves:
        yield (m,)
        if double:
            state, _, _ = apply_move(begin_turn(position), m)
            for m2 in second_moves(state):
                yield (m, m2)


def count_turns(position: Position) -> int:
    return sum(1 for _ in legal_turns(position))
