"""The Warning Option: which groups of a side could the opponent surround next turn?

A surround is made by a single move, but the earlier moves of the same turn
matter (they fill other empty neighbours, open lines, or bring the Emperor next
to a pinned Mandarin), so the search plays out turns from each Realm, pruned
hard: a group with more empty neighbours than the Realm has pieces left to
move is out of reach, and when the two are equal every remaining move must
land on one of those empty neighbours. Positions already searched are skipped.
"""

from __future__ import annotations

from pbem.rules.game import Phase
from pbem.rules.geometry import REALM_SQUARES, REALMS
from pbem.rules.oriental.groups import groups_of, is_surrounded, liberties, surrounded_next_to
from pbem.rules.oriental.pieces import Board
from pbem.rules.oriental.position import Position
from pbem.rules.oriental.turns import Move, destinations
from pbem.rules.pieces import Side


def threatened_groups(position: Position, victim: Side) -> list[tuple[int, ...]]:
    """The groups of ``victim`` that some legal turn of the opponent, played from
    this position, would surround (each group as its sorted squares)."""
    return [group for group, _ in _threats(position, victim, first_only=False)]


def surrounding_turn(position: Position, victim: Side) -> list[Move] | None:
    """A turn of ``victim``'s opponent, from this position, that surrounds one of
    ``victim``'s groups (the moves in order), or None: what a player who wants to win
    at once looks for."""
    for _, moves in _threats(position, victim, first_only=True):
        return moves
    return None


def warnings(position: Position) -> list[tuple[int, ...]]:
    """What the Warning Option tells the side to move: its groups that the side which
    just moved could surround on its next turn. Empty when the option is off."""
    if not position.ruleset.warning:
        return []
    return threatened_groups(position, position.to_move)


def _threats(
    position: Position, victim: Side, first_only: bool
) -> list[tuple[tuple[int, ...], list[Move]]]:
    if position.phase is not Phase.PLAY:
        return []
    board = position.board
    attacker = victim.other
    realms = []
    for r in REALMS:
        own = frozenset(
            s for s in REALM_SQUARES[r] if (p := board[s]) is not None and p.side is attacker
        )
        if own:
            realms.append(own)
    out = []
    for group in groups_of(board, victim):
        need = len(liberties(board, group))
        for pending in realms:
            if len(pending) < need:
                continue
            moves = _reachable(board, group, victim, pending, set())
            if moves is not None:
                out.append((group, moves))
                if first_only:
                    return out
                break
    return out


def _reachable(
    board: Board,
    group: tuple[int, ...],
    victim: Side,
    pending: frozenset[int],
    seen: set[tuple[Board, frozenset[int]]],
) -> list[Move] | None:
    """The moves, from the pieces on ``pending``, that surround ``group``; None if none do."""
    key = (board, pending)
    if key in seen:
        return None
    seen.add(key)
    libs = liberties(board, group)
    if len(libs) > len(pending):
        return None
    tight = len(libs) == len(pending)
    for sq in sorted(pending):
        rest = pending - {sq}
        piece = board[sq]
        for to in destinations(board, sq):
            if tight and to not in libs:
                continue
            new = list(board)
            new[sq] = None
            new[to] = piece
            after = tuple(new)
            if to in libs and is_surrounded(after, group):
                return [Move(sq, to)]
            if surrounded_next_to(after, to, victim) is not None:
                continue  # another group falls first: the game ends there
            if rest:
                more = _reachable(after, group, victim, rest, seen)
                if more is not None:
                    return [Move(sq, to), *more]
    return None
