"""How a single Power or Enforcer may move, checked in rulebook order.

Cheap checks come first; the messages name the piece, the squares and the rule.
"""

from __future__ import annotations

from pbem.errors import RuleError
from pbem.rules.geometry import (
    CENTER,
    DIRECTIONS,
    EXITS,
    IS_CENTER,
    LINES,
    RAYS,
    REALM_OF,
    Direction,
    realm_name,
    square_name,
)
from pbem.rules.pieces import BASE, ENFORCER, Piece, Side, own_piece
from pbem.rules.realm.actions import direction_word, piece_words
from pbem.rules.realm.position import Board


def describe_at(piece: Piece, sq: int) -> str:
    return f"the {piece_words(piece)} on {square_name(sq)}"


def check_piece(board: Board, side: Side, frm: int) -> Piece:
    """The piece on ``frm`` if ``side`` may move it at all (turn rules aside)."""
    piece = own_piece(board, side, frm, describe_at)
    if piece.kind is BASE:
        raise RuleError(
            "move.base", f"the Base on {square_name(frm)} cannot move: Bases never move"
        )
    if piece.facing is None and piece.kind is ENFORCER:
        raise RuleError(
            "move.immobilised",
            f"the Enforcer on {square_name(frm)} is immobilised and cannot move",
        )
    return piece


# an Enforcer may go any way but back against its point; indexed by its facing
_FORWARD: dict[Direction | None, tuple[Direction, ...]] = {
    d: tuple(x for x in DIRECTIONS if x != d.opposite) for d in DIRECTIONS
}
_FORWARD[None] = DIRECTIONS


def allowed_directions(piece: Piece) -> tuple[Direction, ...]:
    """A Power goes any way; an Enforcer any way but back against its point."""
    if piece.kind is ENFORCER:
        return _FORWARD[piece.facing]
    return DIRECTIONS


def enemy_realm(board: Board, side: Side, realm: int) -> bool:
    """Is ``realm`` controlled by an enemy Base (what the checkpoint variation asks)?"""
    p = board[CENTER[realm]]
    return p is not None and p.kind is BASE and p.side is not side


def check_path(
    board: Board, piece: Piece, frm: int, to: int, checkpoint: bool = False
) -> Direction:
    """The direction of a legal move ``frm`` -> ``to``; RuleError otherwise.

    ``checkpoint``: a piece that enters a Realm controlled by an enemy Base must
    stop in it (a variation).
    """
    line = LINES.get(frm * 144 + to)
    if line is None:
        raise RuleError(
            "move.straight-line",
            f"{describe_at(piece, frm)} cannot move to {square_name(to)}: pieces move in a "
            "straight line North, East, South or West",
        )
    d, between = line
    facing = piece.facing
    if facing is not None and d ^ facing == 2 and piece.kind is ENFORCER:  # opposite
        raise RuleError(
            "move.enforcer-backwards",
            f"{describe_at(piece, frm)} points {direction_word(facing)} and cannot move "
            f"{direction_word(d)}: an Enforcer never moves opposite to its point",
        )
    for sq in between:
        blocker = board[sq]
        if blocker is not None:
            raise RuleError(
                "move.blocked",
                f"{describe_at(piece, frm)} cannot pass {square_name(sq)}: the "
                f"{blocker.side.title} {piece_words(blocker)} there blocks the way",
            )
    if checkpoint:
        _check_checkpoint(board, piece, frm, to, [*between, to])
    occupant = board[to]
    if occupant is not None:
        raise RuleError(
            "move.occupied",
            f"{describe_at(piece, frm)} cannot stop on {square_name(to)}: the "
            f"{occupant.side.title} {piece_words(occupant)} is there",
        )
    if IS_CENTER[to]:
        raise RuleError(
            "move.center",
            f"{describe_at(piece, frm)} cannot stop on {square_name(to)}: no piece may stop "
            "on a Center",
        )
    if REALM_OF[to] == REALM_OF[frm]:
        raise RuleError(
            "move.same-realm",
            f"{describe_at(piece, frm)} cannot stop on {square_name(to)}: a piece must stop in a "
            f"different Realm from the one it started in (the {realm_name(REALM_OF[frm])} Realm)",
        )
    return d


def _check_checkpoint(board: Board, piece: Piece, frm: int, to: int, path: list[int]) -> None:
    home = REALM_OF[frm]
    goal = REALM_OF[to]
    for sq in path:
        realm = REALM_OF[sq]
        if realm == goal:
            return
        if realm != home and enemy_realm(board, piece.side, realm):
            raise RuleError(
                "move.checkpoint",
                f"{describe_at(piece, frm)} cannot go on to {square_name(to)}: it enters the "
                f"{realm_name(realm)} Realm, which an enemy Base controls, and must stop there "
                "(checkpoint rule)",
            )


def stops(board: Board, piece: Piece, frm: int, checkpoint: bool = False) -> list[int]:
    """Every square ``piece`` on ``frm`` may legally stop on, in ray order."""
    out = []
    home = REALM_OF[frm]
    rays = RAYS[frm]
    side = piece.side
    for d in allowed_directions(piece):
        caught = -1  # the enemy-controlled Realm the piece has entered (checkpoint)
        for sq in rays[d]:
            if board[sq] is not None:
                break
            realm = REALM_OF[sq]
            if caught >= 0 and realm != caught:
                break
            if realm != home:
                if checkpoint and caught < 0 and enemy_realm(board, side, realm):
                    caught = realm
                if not IS_CENTER[sq]:
                    out.append(sq)
    return out


def has_stop(board: Board, piece: Piece, frm: int, checkpoint: bool = False) -> bool:
    # the checkpoint only ever shortens a ray after a stop it allows, so it
    # cannot change whether there is a first stop
    exits = EXITS[frm]
    # allowed_directions, inline: only an Enforcer has a facing; None allows every way
    for d in _FORWARD[piece.facing]:
        path = exits[d]
        if path:
            for sq in path:
                if board[sq] is not None:
                    break
            else:
                return True
    return False
