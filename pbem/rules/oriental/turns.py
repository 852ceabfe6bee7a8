"""Oriental turns: placements, moves out of one Realm, the pass; checked in rulebook order.

A turn is played one move at a time through a TurnState, so that each piece's
pin is judged when its move begins and a surround ends the game on the very
move that makes it (the rest of the turn is not played).
"""

from __future__ import annotations

from pbem.errors import RuleError
from pbem.rules.game import Phase
from pbem.rules.geometry import (
    RAYS,
    REALM_OF,
    REALM_SQUARES,
    direction_between,
    path_between,
    realm_name,
    square_name,
)
from pbem.rules.move_turns import (
    WIN,
    GameEnded,
    Placement,
    check_placing,
    check_playing,
    mover,
    next_turn,
    passed,
    placed,
)
from pbem.rules.oriental.groups import surrounded_next_to
from pbem.rules.oriental.pieces import (
    EMPEROR,
    MANDARIN,
    MANDARINS,
    NEIGHBOURS,
    OPPOSITE_PAIRS,
    PIECES,
    Board,
    describe_at,
)
from pbem.rules.oriental.position import Position
from pbem.rules.pieces import Kind, Side
from pbem.rules.values import frozen


@frozen
class Move:
    """A piece moves from ``frm`` to ``to`` in a straight line over empty squares."""

    frm: int
    to: int


@frozen
class Surrounded:
    """The event that ends the game: ``side`` surrounded the group on ``group``."""

    side: Side
    group: tuple[int, ...]


Event = Surrounded | GameEnded



@frozen
class TurnState:
    """A turn under way: the Realm it plays from and the pieces still to move."""

    start: Position
    position: Position
    realm: int | None = None
    #: squares of the pieces that stood in the Realm at the start and have not moved
    pending: frozenset[int] = frozenset()
    #: squares where a piece of this turn arrived
    arrived: frozenset[int] = frozenset()
    moves: int = 0

    @property
    def over(self) -> bool:
        return self.position.phase is Phase.OVER


def begin_turn(position: Position) -> TurnState:
    check_playing(position)
    return TurnState(start=position, position=position)


# -- pinning -----------------------------------------------------------------------
def pinners(board: Board, sq: int) -> list[tuple[int, int]]:
    """The pairs of enemy pieces on opposite sides of the Mandarin on ``sq``."""
    piece = board[sq]
    assert piece is not None  # the Mandarin on sq
    side = piece.side
    out = []
    for a, b in OPPOSITE_PAIRS[sq]:
        pa, pb = board[a], board[b]
        if pa is not None and pb is not None and pa.side is not side and pb.side is not side:
            out.append((a, b))
    return out


def emperor_beside(board: Board, sq: int, side: Side) -> bool:
    own = EMPEROR[side]
    return any(board[n] == own for n in NEIGHBOURS[sq])


def can_start(board: Board, sq: int) -> bool:
    """May the piece on ``sq`` begin a move (pins aside from room to move)?"""
    piece = board[sq]
    if piece is None or piece.kind is Kind.POWER:
        return True
    return not pinners(board, sq) or emperor_beside(board, sq, piece.side)


def destinations(board: Board, sq: int) -> list[int]:
    """Every square the piece on ``sq`` may move to now; none when it is pinned."""
    if not can_start(board, sq):
        return []
    out = []
    for ray in RAYS[sq]:
        for t in ray:
            if board[t] is not None:
                break
            out.append(t)
    return out


def can_move(board: Board, sq: int) -> bool:
    return any(board[n] is None for n in NEIGHBOURS[sq]) and can_start(board, sq)


def has_legal_turn(position: Position, side: Side) -> bool:
    board = position.board
    return any(
        p is not None and p.side is side and can_move(board, s) for s, p in enumerate(board)
    )


# -- a move --------------------------------------------------------------------------
def apply_move(state: TurnState, move: Move) -> tuple[TurnState, list[Event]]:
    """One piece's move; a surround ends the game at once."""
    frm, to = move.frm, move.to
    piece = mover(state, frm, describe_at)
    position = state.position
    board = position.board
    side = position.to_move
    realm, pending = state.realm, state.pending
    if realm is None:
        realm = REALM_OF[frm]
        start = state.start.board
        pending = frozenset(
            s for s in REALM_SQUARES[realm] if (p := start[s]) is not None and p.side is side
        )
    if frm not in pending:
        if frm in state.arrived:
            raise RuleError(
                "turn.moved-once",
                f"{describe_at(piece, frm)} has already moved this turn: each piece moves "
                "at most once",
            )
        raise RuleError(
            "turn.one-realm",
            f"{describe_at(piece, frm)} did not stand in the {realm_name(realm)} Realm at the "
            f"start of the turn: a turn moves pieces from one Realm only (this one from the "
            f"{realm_name(realm)} Realm)",
            options=tuple(square_name(s) for s in sorted(pending)),
        )
    if piece.kind is Kind.ENFORCER:
        pins = pinners(board, frm)
        if pins and not emperor_beside(board, frm, side):
            pairs = " and by ".join(f"{square_name(a)} and {square_name(b)}" for a, b in pins)
            raise RuleError(
                "move.pinned",
                f"the Mandarin on {square_name(frm)} is pinned by {pairs}, and your Emperor "
                "is not next to it",
            )
    if direction_between(frm, to) is None:
        raise RuleError(
            "move.line",
            f"{square_name(frm)} to {square_name(to)} is not a straight line: a piece moves "
            "N, E, S or W, at least one square",
            options=tuple(square_name(s) for s in destinations(board, frm)),
        )
    for s in path_between(frm, to) or ():
        if board[s] is not None:
            verb = "stop on" if s == to else "pass"
            raise RuleError(
                "move.blocked",
                f"the {_name(piece.kind)} cannot {verb} {square_name(s)}: a piece stands there",
                options=tuple(square_name(t) for t in destinations(board, frm)),
            )
    new = list(board)
    new[frm] = None
    new[to] = piece
    after_board = tuple(new)
    events: list[Event] = []
    group = surrounded_next_to(after_board, to, side.other)
    after = position.replace(board=after_board)
    if group is not None:
        after = after.replace(
            phase=Phase.OVER, result=WIN[side], end="surrounded", surrounded=group
        )
        events = [Surrounded(side, group), GameEnded("surrounded", WIN[side])]
    new_state = TurnState(
        state.start, after, realm, pending - {frm}, state.arrived | {to}, state.moves + 1
    )
    return new_state, events


def _name(kind: Kind) -> str:
    return "Emperor" if kind is Kind.POWER else "Mandarin"


def finish_turn(state: TurnState) -> Position:
    """Close the turn; the other side is to move (or the game ended in it)."""
    if state.moves == 0:
        raise RuleError("turn.empty", "a turn moves at least one piece")
    if state.over:
        return state.position.replace(ply=state.position.ply + 1)
    return next_turn(state.position, has_legal_turn)


def apply_pass(position: Position) -> tuple[Position, list[Event]]:
    return passed(
        position, has_legal_turn,
        "has a legal turn and may not pass: a player passes only when none of his pieces "
        "can move",
    ), []


# -- set-up by placement ----------------------------------------------------------------
def placeable_kinds(position: Position, side: Side) -> list[Kind]:
    board = position.board
    own = [p for p in board if p is not None and p.side is side]
    kinds = []
    if sum(p.kind is Kind.ENFORCER for p in own) < MANDARINS:
        kinds.append(Kind.ENFORCER)
    if all(p.kind is not Kind.POWER for p in own):
        kinds.append(Kind.POWER)
    return kinds


def placeable_squares(position: Position) -> list[int]:
    board = position.board
    return [
        s
        for squares in REALM_SQUARES
        if all(board[t] is None for t in squares)
        for s in squares
    ]


def apply_placement(position: Position, action: Placement) -> tuple[Position, list[Event]]:
    side = position.to_move
    check_placing(position)
    board = position.board
    sq = action.square
    realm = REALM_OF[sq]
    taken = [s for s in REALM_SQUARES[realm] if board[s] is not None]
    if taken:
        raise RuleError(
            "setup.realm-taken",
            f"the {realm_name(realm)} Realm already holds a piece (on {square_name(taken[0])}): "
            "each Realm receives one piece",
        )
    kinds = placeable_kinds(position, side)
    if action.kind not in kinds:
        if action.kind is Kind.POWER:
            why = f"{side.title} has placed his Emperor already: the rest are Mandarins"
        elif action.kind is Kind.ENFORCER:
            why = f"{side.title} has placed all seven Mandarins: the last piece is the Emperor"
        else:
            why = "Oriental Realm has Mandarins (E) and an Emperor (P) only"
        raise RuleError("setup.piece", why)
    piece = EMPEROR[side] if action.kind is Kind.POWER else MANDARIN[side]
    return placed(position, sq, piece, 2 * PIECES), []
