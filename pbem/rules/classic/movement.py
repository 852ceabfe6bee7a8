"""Moves from Center to Center: checking a written path, and finding every path.

A move lands on the adjacent Centers it names, in order. It must go on from a
Center that a friendly piece holds and stops on a vacant or enemy-held one; it never
lands twice on one Center nor returns to its start; the Variant says which steps a
piece may take and which Realms cannot be entered. Checks run in rulebook order, and
every refusal names the Centers the piece could go to instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pbem.errors import RuleError
from pbem.rules.classic.actions import Move
from pbem.rules.classic.pieces import Piece
from pbem.rules.classic.position import Board, Position
from pbem.rules.geometry import (
    ADJACENT_REALMS,
    BORDER_SQUARES,
    CENTER,
    FORWARD,
    IS_CENTER,
    NEIGHBOUR_REALM,
    REALM_OF,
    REALM_SQUARES,
    REALMS,
    Direction,
    direction_between,
    realm_name,
    square_name,
)
from pbem.rules.pieces import Side

FULL = 9


def realm_counts(board: Board) -> list[int]:
    """How many pieces each Realm holds."""
    return [sum(1 for s in REALM_SQUARES[r] if board[s] is not None) for r in REALMS]


def _names(squares: Iterable[int]) -> str:
    return ", ".join(square_name(s) for s in squares)


def _or_names(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


# -- finding every path ---------------------------------------------------------------
def paths_from(position: Position, frm: int, counts: list[int] | None = None,
               prefix: tuple[int, ...] | None = None) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Every complete path (Centers landed on, moves off) of the piece on the Center
    ``frm``, or of those that begin with ``prefix`` (which must land on friendly pieces)."""
    board = position.board
    p = board[frm]
    if p is None or not IS_CENTER[frm]:
        return
    variant = position.variant
    side = p.side
    if counts is None:
        counts = realm_counts(board)
    dirs = variant.directions(p)
    far = variant.far_row(side)
    refusal = variant.entry_refusal
    stack = [prefix or (frm,)]
    while stack:
        path = stack.pop()
        here = REALM_OF[path[-1]]
        for d in dirs:
            nr = NEIGHBOUR_REALM[here][d]
            if nr < 0:
                continue
            c = CENTER[nr]
            if c in path or refusal(board, p, nr, counts[nr] >= FULL) is not None:
                continue
            q = board[c]
            if q is None or q.side is not side:
                yield (*path, c), False
            else:
                stack.append((*path, c))
        if here in far:
            yield path, True


def can_move(position: Position, frm: int, counts: list[int]) -> bool:
    return next(paths_from(position, frm, counts), None) is not None


def has_move(position: Position, side: Side) -> bool:
    """Does ``side`` have a legal move here? Stops at the first one found."""
    board = position.board
    counts = realm_counts(board)
    for r in REALMS:
        c = CENTER[r]
        p = board[c]
        if p is not None and p.side is side and can_move(position, c, counts):
            return True
    return False


# -- checking a written path ------------------------------------------------------------
def check_path(position: Position, move: Move) -> Piece:
    """The piece that makes ``move``, after checking its path; RuleError if illegal."""
    board = position.board
    side = position.to_move
    variant = position.variant
    frm = move.frm
    fname = square_name(frm)
    p = board[frm]
    if p is None:
        raise RuleError("move.empty", f"{fname} is empty: there is no piece there to move",
                        options=_movers(position))
    if p.side is not side:
        raise RuleError(
            "move.not-yours",
            f"{fname} holds {variant.piece_words(p)}: {side.title} moves only its own pieces",
            options=_movers(position),
        )
    if not IS_CENTER[frm]:
        raise RuleError(
            "move.from-border",
            f"only a piece on a Center moves: {fname} is a Border square of the "
            f"{realm_name(REALM_OF[frm])} Realm",
            options=_movers(position),
        )
    counts = realm_counts(board)
    path = move.path
    if len(path) == 1 and not move.off:
        raise RuleError(
            "move.nowhere",
            f"a move goes from {fname} to an adjacent Center: "
            + _where_to(position, frm, counts, (frm,)),
        )
    cur = frm
    for i in range(1, len(path)):
        to = path[i]
        tname, cname = square_name(to), square_name(cur)
        last = i == len(path) - 1
        nr = REALM_OF[to]
        if not IS_CENTER[to]:
            raise RuleError(
                "move.center",
                f"{tname} is not a Center: a piece moves from Center to adjacent Center; "
                + _where_to(position, frm, counts, path[:i]),
            )
        if nr not in ADJACENT_REALMS[REALM_OF[cur]]:
            raise RuleError(
                "move.adjacent",
                f"{tname} is not next to {cname}: from {cname} the adjacent Centers are "
                f"{_names(CENTER[r] for r in ADJACENT_REALMS[REALM_OF[cur]])}",
            )
        d = direction_between(cur, to)
        assert d is not None
        why = variant.direction_refusal(p, d)
        if why is not None:
            raise RuleError("move.direction", f"{why}: {tname} is {_relation(p.side, d)} {cname}")
        if to == frm:
            raise RuleError(
                "move.return", f"a move never returns to the Center it started from: {fname}"
            )
        if to in path[:i]:
            raise RuleError(
                "move.twice", f"a move never lands twice on the same Center: {tname}"
            )
        refused = variant.entry_refusal(board, p, nr, counts[nr] >= FULL)
        if refused is not None:
            raise RuleError(refused[0], f"{tname} cannot be entered: {refused[1]}")
        q = board[to]
        friendly = q is not None and q.side is side
        if friendly and last and not move.off:
            raise RuleError(
                "move.go-on",
                f"{tname} holds a friendly piece: a move that lands on one goes on from "
                "there; " + _where_to(position, frm, counts, path[: i + 1]),
            )
        if not friendly and (not last or move.off):
            held = "vacant" if q is None else f"held by {variant.piece_words(q)}"
            then = "off the board" if last else f"to {square_name(path[i + 1])}"
            raise RuleError(
                "move.stop",
                f"the move ends on {tname}, which is {held}: a move stops on the first "
                f"vacant or enemy-held Center, so it cannot go on {then}",
            )
        cur = to
    if move.off:
        _check_off(position, p, path)
    return p


def _check_off(position: Position, p: Piece, path: tuple[int, ...]) -> None:
    variant = position.variant
    last = path[-1]
    if not variant.moves_off:
        raise RuleError(
            "move.off", f"in {variant.title} no piece moves off the board: moves end on Centers"
        )
    far = variant.far_row(p.side)
    if REALM_OF[last] not in far:
        raise RuleError(
            "move.off-row",
            f"{square_name(last)} is not on {p.side.title}'s far row: a piece moves off the "
            f"board only from the Centers {_names(CENTER[r] for r in far)}",
        )


def _relation(side: Side, d: Direction) -> str:
    fwd = FORWARD[side]
    if d == fwd:
        return "ahead of"
    if d == fwd.opposite:
        return "behind"
    return "beside"


def _where_to(position: Position, frm: int, counts: list[int], prefix: tuple[int, ...]) -> str:
    """The ways on from the end of ``prefix`` (the next Center, or off), in words."""
    nxt: list[str] = []
    for path, off in paths_from(position, frm, counts, prefix):
        name = "off the board" if off and len(path) == len(prefix) else square_name(
            path[len(prefix)]
        )
        if name not in nxt:
            nxt.append(name)
    here = square_name(prefix[-1])
    if not nxt:
        if len(prefix) == 1:
            return f"the piece on {here} has nowhere to go"
        return f"there is no way on from {here}, and a move must be completable"
    return f"from {here} it may go to {_or_names(nxt)}"


def _movers(position: Position) -> tuple[str, ...]:
    """The Centers of the side to move whose pieces can move, as options."""
    board = position.board
    counts = realm_counts(board)
    side = position.to_move
    return tuple(
        square_name(c)
        for c in (CENTER[r] for r in REALMS)
        if (q := board[c]) is not None and q.side is side and can_move(position, c, counts)
    )


# -- the mover's choices -----------------------------------------------------------------
def refill_candidates(position: Position, p: Piece, frm: int) -> list[int]:
    """The Border squares of ``frm``'s Realm whose pieces may go onto ``frm`` when ``p``
    leaves it: its owner's (Classic rescue) or the opponent's (Medieval replacement)."""
    board = position.board
    whose = p.side.other if position.variant.refill_from_opponent else p.side
    return [s for s in BORDER_SQUARES[REALM_OF[frm]] if (q := board[s]) is not None
            and q.side is whose]


def dislodge_candidates(board: Board, to: int) -> list[int]:
    """The vacant Border squares of ``to``'s Realm."""
    return [s for s in BORDER_SQUARES[REALM_OF[to]] if board[s] is None]
