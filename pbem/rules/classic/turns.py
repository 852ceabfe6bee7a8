"""Turns of a Center-to-Center game: placements, moves, double moves, the pass, the end.

A turn is applied one Move at a time through a TurnState (Classic's double move is
two), so an error names the very move that broke the turn. Each move is checked in
rulebook order: its path, then the Center it leaves (rescue or replacement), then
the Center it takes (dislodging). A choice the rules force, because there is only
one way to make it, may be left out: the move comes back completed, and the caller
says so to the player.
"""

from __future__ import annotations

from dataclasses import replace

from pbem.errors import RuleError
from pbem.rules.classic.actions import Dislodged, Event, Move, MovedOff, Placed, Refilled
from pbem.rules.classic.movement import (
    check_path,
    dislodge_candidates,
    has_move,
    refill_candidates,
)
from pbem.rules.classic.pieces import Piece, piece
from pbem.rules.classic.position import Position
from pbem.rules.game import Phase
from pbem.rules.geometry import CENTER, IS_CENTER, REALM_OF, realm_name, square_name
from pbem.rules.move_turns import DRAW, GameEnded, Pass, Placement, check_pass, check_playing
from pbem.rules.pieces import Kind, Side
from pbem.rules.values import frozen


def win_for(side: Side) -> str:
    return "1-0" if side is Side.WHITE else "0-1"


@frozen
class TurnState:
    """A turn under way: the position after the moves so far."""

    start: Position
    position: Position
    #: the kinds of the pieces moved so far, in order
    kinds: tuple[Kind, ...] = ()

    @property
    def moves(self) -> int:
        return len(self.kinds)

    @property
    def over(self) -> bool:
        return self.position.phase is Phase.OVER


# -- placements (option setup: placement) ------------------------------------------------
def placement_squares(position: Position) -> list[int]:
    """The vacant Centers the side to move may place on."""
    board = position.board
    realms = position.variant.placement_realms(position.to_move)
    return [CENTER[r] for r in sorted(realms) if board[CENTER[r]] is None]


def apply_placement(position: Position, action: Placement) -> tuple[Position, list[Event]]:
    if position.phase is not Phase.SETUP:
        raise RuleError(
            "setup.over",
            "the set-up is over (or there is none in these rules): pieces are moved, not placed",
        )
    side = position.to_move
    variant = position.variant
    sq = action.square
    name = square_name(sq)
    kinds = dict(variant.complement)
    if action.kind not in kinds:
        raise RuleError(
            "setup.kind",
            f"{variant.title} has no piece written {action.kind.value}: its pieces are "
            + ", ".join(f"{variant.name(k)} ({k.value})" for k in kinds),
        )
    if position.in_hand(side, action.kind) <= 0:
        raise RuleError(
            "setup.none-left",
            f"{side.title} has placed all its {variant.names[action.kind][1]}",
        )
    allowed = placement_squares(position)
    if sq not in allowed:
        if not IS_CENTER[sq]:
            why = f"{name} is a Border square: pieces are placed on Centers"
        elif position.board[sq] is not None:
            why = f"{name} already holds a piece"
        else:
            why = f"{name} is not in {side.title}'s own half"
        raise RuleError(
            "setup.square",
            f"{why}; {side.title} may place on {', '.join(square_name(s) for s in allowed)}",
            options=tuple(square_name(s) for s in allowed),
        )
    board = list(position.board)
    board[sq] = piece(side, action.kind)
    after = replace(position, board=tuple(board), ply=position.ply + 1, to_move=side.other)
    if all(after.in_hand(s, k) == 0 for s in Side for k in kinds):
        after = replace(after, phase=Phase.PLAY, to_move=position.ruleset.first_to_move())
        after = _after_turn_end(after, after.to_move.other)
    return after, [Placed(side, action.kind, sq)]


# -- moves -------------------------------------------------------------------------------
def begin_turn(position: Position) -> TurnState:
    check_playing(position)
    return TurnState(start=position, position=position)


def apply_move(state: TurnState, move: Move) -> tuple[TurnState, list[Event], Move]:
    """One move: the new state, its events in order, and the move with every forced
    choice filled in (compare it with ``move`` to see what was inferred)."""
    position = state.position
    if state.over:
        raise RuleError(
            "turn.game-over", "the game ended earlier in this turn: nothing more may be played"
        )
    side = position.to_move
    variant = position.variant
    if state.moves:
        _check_double(position, state.moves)
    p = check_path(position, move)
    refill = _check_refill(position, p, move)
    dislodge = _check_dislodge(position, p, move)
    board = list(position.board)
    events: list[Event] = []
    frm = move.frm
    board[frm] = None
    if refill is not None:
        q = board[refill]
        assert q is not None
        board[frm], board[refill] = q, None
        events.append(Refilled(q.side, q.kind, refill, frm, not variant.refill_from_opponent))
    off = position.off
    if move.off:
        off = (off[0] + 1, off[1]) if side is Side.WHITE else (off[0], off[1] + 1)
        events.append(MovedOff(side, p.kind, move.to))
    else:
        to = move.to
        q = board[to]
        if q is not None:
            assert dislodge is not None
            board[dislodge] = q
            events.append(Dislodged(q.side, q.kind, to, dislodge))
        board[to] = p
    after = replace(position, board=tuple(board), off=off)
    won = variant.winner_after_move(after.board, off, side)
    if won is not None:
        after = after.over(won, win_for(side))
        events.append(GameEnded(won, win_for(side)))
    done = Move(move.path, move.off, refill, dislodge)
    return TurnState(state.start, after, (*state.kinds, p.kind)), events, done


def _check_refill(position: Position, p: Piece, move: Move) -> int | None:
    variant = position.variant
    frm = move.frm
    candidates = refill_candidates(position, p, frm)
    what = "replace" if variant.refill_from_opponent else "rescue"
    whose = "the opponent's" if variant.refill_from_opponent else "its own"
    realm = realm_name(REALM_OF[frm])
    if not candidates:
        if move.refill is not None:
            raise RuleError(
                f"{what}.none",
                f"no piece {what}s the piece leaving {square_name(frm)}: the {realm} Realm "
                f"has none of {whose} pieces on its Border squares",
            )
        return None
    written = [_event_text(position, "+", s) for s in candidates]
    if move.refill is None:
        if len(candidates) == 1:
            return candidates[0]
        raise RuleError(
            f"{what}.choose",
            f"the piece leaving {square_name(frm)} must {what} one of "
            f"{_list(candidates)}: write {_or(written)}",
            options=tuple(written),
        )
    if move.refill not in candidates:
        raise RuleError(
            f"{what}.square",
            f"{square_name(move.refill)} does not hold one of {whose} pieces on a Border "
            f"square of the {realm} Realm: the piece leaving {square_name(frm)} must "
            f"{what} one of {_list(candidates)}: write {_or(written)}",
            options=tuple(written),
        )
    return move.refill


def _check_dislodge(position: Position, p: Piece, move: Move) -> int | None:
    board = position.board
    to = move.to
    if move.off or board[to] is None:
        if move.dislodge is not None:
            where = "moves off the board" if move.off else f"lands on {square_name(to)}, vacant"
            raise RuleError(
                "dislodge.none", f"nothing is dislodged: the move {where}"
            )
        return None
    candidates = dislodge_candidates(board, to)
    q = board[to]
    assert q is not None
    written = [f"(x{q.kind.value}{square_name(s)})" for s in candidates]
    if move.dislodge is None:
        if len(candidates) == 1:
            return candidates[0]
        raise RuleError(
            "dislodge.choose",
            f"the piece dislodged from {square_name(to)} goes onto a vacant Border square "
            f"of its Realm that the mover chooses, one of {_list(candidates)}: write "
            f"{_or(written)}",
            options=tuple(written),
        )
    if move.dislodge not in candidates:
        raise RuleError(
            "dislodge.square",
            f"{square_name(move.dislodge)} is not a vacant Border square of the "
            f"{realm_name(REALM_OF[to])} Realm: the piece dislodged from {square_name(to)} "
            f"goes onto one of {_list(candidates)}",
            options=tuple(written),
        )
    return move.dislodge


def _event_text(position: Position, mark: str, sq: int) -> str:
    q = position.board[sq]
    assert q is not None
    return f"({mark}{q.kind.value}{square_name(sq)})"


def _list(squares: list[int]) -> str:
    return ", ".join(square_name(s) for s in squares)


def _or(texts: list[str]) -> str:
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


# -- double moves (Classic option) ---------------------------------------------------------
def may_double(position: Position) -> bool:
    """May the side to move take a double move this turn?"""
    if not position.ruleset.double_moves or position.phase is not Phase.PLAY:
        return False
    side, regular = position.double
    return side is position.to_move and regular >= 2


def _check_double(position: Position, moves: int) -> None:
    side = position.to_move
    if not position.ruleset.double_moves:
        raise RuleError(
            "turn.one-move",
            f"a turn is one move (the rules in force, {position.ruleset.name}, have no "
            "double moves)",
        )
    if moves >= 2:
        raise RuleError("double.two", "a double move is two moves, not more")
    who, regular = position.double
    if who is not side:
        raise RuleError(
            "double.alternate",
            f"{side.title} took the last double move: the next one is {who.title}'s "
            "(double moves alternate strictly)",
        )
    if regular < 2:
        left = 2 - regular
        raise RuleError(
            "double.not-yet",
            f"{side.title} may take a double move after {left} more regular "
            f"turn{'s' if left > 1 else ''} of its own",
        )


# -- ending a turn -------------------------------------------------------------------------
def finish_turn(state: TurnState) -> tuple[Position, list[Event]]:
    """Close a turn of one or two moves; the other side is to move."""
    if state.moves == 0:
        raise RuleError("turn.empty", "a turn moves a piece (or passes when none can move)")
    return _next_turn(state.position, state.kinds)


def _next_turn(position: Position, kinds: tuple[Kind, ...]) -> tuple[Position, list[Event]]:
    side = position.to_move
    variant = position.variant
    double = position.double
    if position.ruleset.double_moves:
        if len(kinds) == 2:
            double = (side.other, 0)
        elif double[0] is side:
            double = (side, double[1] + 1)
    run = position.run
    if variant.run_to_draw:
        run = run + 1 if kinds and all(variant.extends_run(k) for k in kinds) else 0
    if position.phase is Phase.OVER:
        return replace(position, ply=position.ply + 1, run=run, double=double), []
    after = replace(
        position, ply=position.ply + 1, to_move=side.other, run=run, double=double
    )
    if variant.run_to_draw and run >= variant.run_to_draw:
        return after.over("dukes", DRAW), [GameEnded("dukes", DRAW)]
    return _check_stalemate(after, side)


def _after_turn_end(position: Position, last: Side) -> Position:
    return _check_stalemate(position, last)[0]


def _check_stalemate(after: Position, last: Side) -> tuple[Position, list[Event]]:
    if not has_move(after, after.to_move) and not has_move(after, last):
        return after.over("no-move", DRAW), [GameEnded("no-move", DRAW)]
    return after, []


def apply_pass(position: Position) -> tuple[Position, list[Event]]:
    """A pass: only when the side to move has no legal move. It is a regular turn."""
    check_pass(
        position, has_move,
        "has a legal move and may not pass: a side passes only when none of its pieces can "
        "move",
    )
    return _next_turn(position, ())


def has_legal_turn(position: Position) -> bool:
    """Can the side to move move (rather than pass)?"""
    return position.phase is Phase.PLAY and has_move(position, position.to_move)


def centers_held(position: Position, side: Side) -> int:
    board = position.board
    return sum(1 for c in CENTER if (q := board[c]) is not None and q.side is side)


def apply_turn(
    position: Position, actions: tuple[Placement | Move | Pass, ...] | list[Placement | Move | Pass]
) -> tuple[Position, list[Event]]:
    """A whole turn (a placement, one or two moves, or the pass); RuleError if any of
    it is illegal. Left-out forced choices are filled in without a word."""
    if len(actions) == 1 and isinstance(actions[0], Pass):
        return apply_pass(position)
    if len(actions) == 1 and isinstance(actions[0], Placement):
        return apply_placement(position, actions[0])
    state = begin_turn(position)
    events: list[Event] = []
    for action in actions:
        if not isinstance(action, Move):
            raise RuleError(
                "turn.mixed", "a turn is a placement, a pass, or moves: not a mixture"
            )
        state, more, _ = apply_move(state, action)
        events.extend(more)
    after, more = finish_turn(state)
    return after, events + more
