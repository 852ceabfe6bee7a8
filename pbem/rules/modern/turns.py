"""Modern turns: a Realm chosen, every mobile piece of it moved out; captures; the pass.

A turn is played one move at a time through a TurnState; the check that every
mobile piece of the Realm has left (or cannot) comes when the turn is finished.
"""

from __future__ import annotations

from pbem.errors import RuleError
from pbem.rules.game import Phase
from pbem.rules.geometry import (
    BORDER_SQUARES,
    CENTER,
    HALF,
    REALM_OF,
    REALM_SQUARES,
    realm_name,
    square_name,
)
from pbem.rules.modern.lines import Line, Realms, can_leave, check_line
from pbem.rules.modern.pieces import (
    AGENT,
    AGENTS,
    COUNTER_AGENT,
    HQ,
    TARGETS,
    Board,
    describe_at,
    is_mobile,
    realm_counts,
)
from pbem.rules.modern.position import Position
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
from pbem.rules.pieces import Kind, Side
from pbem.rules.values import frozen


@frozen
class Move:
    """A piece's line: ``frm``, the turning squares ``via``, the stop ``to``; and the
    events as written: the HQ's square and where the dislodged piece goes (None when
    not written: the rules supply them where there is no choice)."""

    frm: int
    to: int
    via: tuple[int, ...] = ()
    hq: int | None = None
    dislodge: int | None = None

    @property
    def squares(self) -> tuple[int, ...]:
        return (self.frm, *self.via, self.to)


@frozen
class HQPlaced:
    """``side`` captured the Realm of ``square`` (its Center): the moving piece left the
    game and an HQ from supply stands there."""

    side: Side
    square: int


@frozen
class Dislodged:
    """The enemy piece on the captured Center went to ``to``; ``side`` is its owner."""

    side: Side
    square: int
    to: int


Event = HQPlaced | Dislodged | GameEnded



@frozen
class TurnState:
    start: Position
    position: Position
    realm: int | None = None
    #: the mobile pieces of the Realm at the start of the turn that have not moved yet
    pending: frozenset[int] = frozenset()
    moves: int = 0

    @property
    def over(self) -> bool:
        return self.position.phase is Phase.OVER


def begin_turn(position: Position) -> TurnState:
    check_playing(position)
    return TurnState(start=position, position=position)


def mobile_in(board: Board, side: Side, realm: int) -> frozenset[int]:
    """The squares of ``side``'s mobile pieces in ``realm``."""
    counts = realm_counts(board)
    return frozenset(
        s for s in REALM_SQUARES[realm]
        if (p := board[s]) is not None and p.side is side and is_mobile(board, s, counts)
    )


def pending_of(state: TurnState, frm: int) -> tuple[int, frozenset[int]]:
    """The turn's Realm and pieces still to move, once ``frm`` names the Realm."""
    if state.realm is not None:
        return state.realm, state.pending
    realm = REALM_OF[frm]
    return realm, mobile_in(state.start.board, state.start.to_move, realm)


def apply_move(state: TurnState, move: Move) -> tuple[TurnState, list[Event]]:
    """One piece's line and its capture, if any."""
    frm = move.frm
    piece = mover(state, frm, describe_at)
    position = state.position
    board = position.board
    side = position.to_move
    if piece.kind is Kind.BASE:
        raise RuleError("move.hq", f"the HQ on {square_name(frm)} cannot move: HQs never move")
    realm, pending = pending_of(state, frm)
    if frm not in pending:
        if REALM_OF[frm] != realm:
            raise RuleError(
                "turn.one-realm",
                f"{describe_at(piece, frm)} is outside the {realm_name(realm)} Realm: a turn "
                f"moves out the pieces of one Realm (this one the {realm_name(realm)} Realm)",
                options=tuple(square_name(s) for s in sorted(pending)),
            )
        raise RuleError("move.immobile", _immobile_words(state.start.board, frm))
    realms = Realms(board, side)
    line = check_line(realms, move.squares)
    new_board, events = _arrive(board, side, line, move)
    after = position.replace(board=new_board)
    if events:
        supply = list(position.supply)
        supply[side] -= 1
        after = after.replace(supply=(supply[0], supply[1]))
        if all(new_board[CENTER[r]] == HQ[side] for r in TARGETS[side]):
            after = after.replace(phase=Phase.OVER, result=WIN[side], end="targets")
            events.append(GameEnded("targets", WIN[side]))
    elif move.hq is not None or move.dislodge is not None:
        raise RuleError(
            "capture.none",
            f"{describe_at(piece, frm)} captures no Realm on {square_name(move.to)}: there is "
            "no HQ to place and nothing to dislodge",
        )
    return TurnState(state.start, after, realm, pending - {frm}, state.moves + 1), events


def _immobile_words(board: Board, sq: int) -> str:
    piece = board[sq]
    assert piece is not None
    realm = REALM_OF[sq]
    counts = realm_counts(board)
    other = piece.side.other
    return (
        f"{describe_at(piece, sq)} is immobile: {other.title} holds the {realm_name(realm)} "
        f"Center and has more pieces in that Realm ({counts[other][realm]} to "
        f"{counts[piece.side][realm]}) at the start of the turn"
    )


def _arrive(board: Board, side: Side, line: Line, move: Move) -> tuple[Board, list[Event]]:
    """The board after the piece's line, with the capture's HQ and dislodge."""
    piece = board[line.frm]
    new = list(board)
    new[line.frm] = None
    if not line.capture:
        new[line.to] = piece
        return tuple(new), []
    realm = REALM_OF[line.to]
    center = CENTER[realm]
    if move.hq is not None and move.hq != center:
        raise RuleError(
            "capture.hq-square",
            f"the captured Realm's HQ goes on its Center, {square_name(center)}, not on "
            f"{square_name(move.hq)}: write (B{square_name(center)})",
            options=(f"B{square_name(center)}",),
        )
    events: list[Event] = [HQPlaced(side, center)]
    held = new[center]
    new[center] = HQ[side]
    if held is None:
        if move.dislodge is not None:
            raise RuleError(
                "dislodge.none",
                f"the {realm_name(realm)} Center was vacant: nothing is dislodged",
            )
        return tuple(new), events
    vacant = [s for s in BORDER_SQUARES[realm] if new[s] is None]
    if move.dislodge is None:
        if len(vacant) > 1:
            raise RuleError(
                "dislodge.choice",
                f"the enemy piece on {square_name(center)} is dislodged to a vacant square of "
                f"the {realm_name(realm)} Realm of your choice: write one of "
                + ", ".join(f"(xE{square_name(s)})" for s in vacant),
                options=tuple(f"xE{square_name(s)}" for s in vacant),
            )
        to = vacant[0]
    else:
        to = move.dislodge
        if to not in vacant:
            raise RuleError(
                "dislodge.square",
                f"{square_name(to)} is not a vacant square of the {realm_name(realm)} Realm: "
                "the dislodged piece goes to one of " + ", ".join(square_name(s) for s in vacant),
                options=tuple(f"xE{square_name(s)}" for s in vacant),
            )
    new[to] = held
    events.append(Dislodged(held.side, center, to))
    return tuple(new), events


def finish_turn(state: TurnState) -> Position:
    """Close the turn: every mobile piece of the Realm has left, or cannot."""
    if state.moves == 0:
        raise RuleError("turn.empty", "a turn moves at least one piece")
    position = state.position
    if state.over:
        return position.replace(ply=position.ply + 1)
    realms = Realms(position.board, position.to_move)
    for s in sorted(state.pending):
        if can_leave(realms, s):
            piece = position.board[s]
            assert piece is not None and state.realm is not None
            raise RuleError(
                "turn.incomplete",
                f"{describe_at(piece, s)} could still leave the {realm_name(state.realm)} "
                "Realm: a Modern turn moves out every mobile piece",
                options=(square_name(s),),
            )
    return next_turn(position, has_legal_turn)


def movable(position: Position, side: Side) -> list[int]:
    """The squares of ``side``'s mobile pieces that have a legal line now."""
    board = position.board
    counts = realm_counts(board)
    realms = Realms(board, side)
    return [
        s for s, p in enumerate(board)
        if p is not None and p.side is side and is_mobile(board, s, counts) and can_leave(realms, s)
    ]


def has_legal_turn(position: Position, side: Side) -> bool:
    board = position.board
    counts = realm_counts(board)
    realms = Realms(board, side)
    return any(
        p is not None and p.side is side and is_mobile(board, s, counts) and can_leave(realms, s)
        for s, p in enumerate(board)
    )


def apply_pass(position: Position) -> tuple[Position, list[Event]]:
    return passed(
        position, has_legal_turn,
        "has a mobile piece that can move and may not pass: a player passes only when none "
        "can",
    ), []


# -- set-up by placement -------------------------------------------------------------------
def placeable_squares(position: Position, side: Side) -> list[int]:
    board = position.board
    return [CENTER[r] for r in sorted(HALF[side]) if board[CENTER[r]] is None]


def apply_placement(position: Position, action: Placement) -> tuple[Position, list[Event]]:
    side = position.to_move
    check_placing(position)
    sq = action.square
    squares = placeable_squares(position, side)
    if sq not in squares:
        raise RuleError(
            "setup.square",
            f"{square_name(sq)} is not a vacant Center of {side.title}'s half: pieces are "
            "placed on " + ", ".join(square_name(s) for s in squares),
            options=tuple(square_name(s) for s in squares),
        )
    own = [p for p in position.board if p is not None and p.side is side]
    if action.kind is Kind.POWER and any(p.kind is Kind.POWER for p in own):
        raise RuleError(
            "setup.piece", f"{side.title} has placed his Counter-Agent already: the rest are Agents"
        )
    if action.kind is Kind.ENFORCER and sum(p.kind is Kind.ENFORCER for p in own) >= AGENTS:
        raise RuleError(
            "setup.piece",
            f"{side.title} has placed all seven Agents: the last piece is the Counter-Agent",
        )
    if action.kind is Kind.BASE:
        raise RuleError("setup.piece", "HQs are not placed at set-up: they come from captures")
    piece = COUNTER_AGENT[side] if action.kind is Kind.POWER else AGENT[side]
    return placed(position, sq, piece, 16), []
