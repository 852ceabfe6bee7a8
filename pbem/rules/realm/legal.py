"""Every legal action from a position: the generator the referee and the random games use.

It must agree with the validator (``apply_move``, ``apply_sacrifice``,
``apply_rearrangement``, ``apply_pass``) exactly, yet never call it: stops come from
``movement.stops``, and the special events' preconditions are read off the board the
way ``special_events`` reads them, so no exception is raised in the hot path. The
tests prove the agreement by brute force.

Choices are spelled out: a stop that creates an Enforcer gives one Move per empty
square and facing, a stop that immobilises one of several enemy Enforcers one Move
per target. Where there is no choice, the choice fields are None.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from pbem.rules.game import Phase
from pbem.rules.geometry import CENTER, DIRECTIONS, IS_CENTER, REALM_OF, REALM_SQUARES, REALMS
from pbem.rules.pieces import Kind, Piece, Side, enforcer, power
from pbem.rules.realm.actions import Action, Move, Pass, Placement, Rearrangement, Sacrifice
from pbem.rules.realm.movement import stops
from pbem.rules.realm.position import Position
from pbem.rules.realm.setup import expected_kind, legal_base_realms, legal_power_squares
from pbem.rules.realm.special_events import enforcer_creation_squares, mobile_enemy_enforcers
from pbem.rules.realm.turns import TurnState, begin_turn, blocked_by_limit, sacrifices

__all__ = [
    "count_actions",
    "count_rearrangements",
    "legal_actions",
    "legal_moves",
    "legal_moves_for",
    "legal_placements",
    "legal_sacrifices",
    "rearrangements",
]


# -- set-up -------------------------------------------------------------------------------
def legal_placements(position: Position) -> list[Placement]:
    """The placements the side to move may make during set-up, by square."""
    if position.phase is not Phase.SETUP:
        return []
    side = position.to_move
    if expected_kind(position) is Kind.BASE:
        return [Placement(Kind.BASE, CENTER[r]) for r in legal_base_realms(position, side)]
    return [Placement(Kind.POWER, s) for s in sorted(legal_power_squares(position, side))]


# -- moves --------------------------------------------------------------------------------
class _Events:
    """What a stop in each Realm makes happen, worked out once per Realm and state.

    A mover never starts in the Realm it stops in, so the Realm after the stop is the
    Realm now plus the mover: the preconditions can be read off the current board.
    """

    __slots__ = ("_enforcer", "_position", "_power", "_side")

    def __init__(self, position: Position) -> None:
        self._position = position
        self._side = position.to_move
        self._power: dict[int, tuple[int, ...] | None] = {}
        self._enforcer: dict[int, tuple[int, ...]] = {}

    def power_creation(self, realm: int) -> tuple[int, ...] | None:
        """The empty squares where a Power stopping here creates an Enforcer (the stop
        square still among them), or None when it creates nothing or a Base."""
        if realm in self._power:
            return self._power[realm]
        self._power[realm] = found = self._power_creation(realm)
        return found

    def _power_creation(self, realm: int) -> tuple[int, ...] | None:
        # the stop square is empty now, so a controlled Realm always offers a square
        squares = enforcer_creation_squares(self._position, self._side, realm)
        return tuple(squares) or None

    def targets(self, realm: int) -> tuple[int, ...]:
        """The mobile enemy Enforcers an Enforcer stopping here must choose among."""
        found = self._enforcer.get(realm)
        if found is None:
            found = tuple(mobile_enemy_enforcers(self._position.board, self._side, realm))
            self._enforcer[realm] = found
        return found


def _moves_from(state: TurnState, frm: int, piece: Piece, events: _Events) -> Iterator[Move]:
    if frm in state.arrived or frm in state.created:
        return
    home = REALM_OF[frm]
    if state.sacrifice_realm is not None and home != state.sacrifice_realm:
        return
    position = state.position
    start = state.start_realms
    end = state.end_realms
    # a turn is a Dispersal (one start Realm) or a Concentration (one end Realm)
    dispersal = not start or (len(start) == 1 and home in start)
    only = None if dispersal or not end else (next(iter(end)) if len(end) == 1 else -1)
    if not dispersal and only == -1:
        return
    is_power = piece.kind is Kind.POWER
    for to in stops(position.board, piece, frm, position.ruleset.checkpoint):
        realm = REALM_OF[to]
        if only is not None and realm != only:
            continue
        if is_power:
            empty = events.power_creation(realm)
            if empty is not None and len(empty) > 1:
                for s in empty:
                    if s != to:
                        for d in DIRECTIONS:
                            yield Move(frm, to, s, d)
                continue
        else:
            targets = events.targets(realm)
            if len(targets) > 1:
                for t in targets:
                    yield Move(frm, to, immobilise=t)
                continue
        yield Move(frm, to)


def legal_moves(state: TurnState) -> Iterator[Move]:
    """Every Move ``apply_move(state, move)`` accepts now, by piece square, fully specified."""
    if state.over:
        return
    position = state.position
    side = position.to_move
    events = _Events(position)
    for frm, piece in enumerate(position.board):
        if piece is not None and piece.side is side and piece.mobile:
            yield from _moves_from(state, frm, piece, events)


def legal_moves_for(state: TurnState, square: int) -> list[Move]:
    """The legal Moves of the piece on ``square`` (empty when it cannot move now)."""
    piece = state.position.board[square]
    if state.over or piece is None or piece.side is not state.position.to_move:
        return []
    if not piece.mobile:
        return []
    return list(_moves_from(state, square, piece, _Events(state.position)))


# -- Power sacrifice -----------------------------------------------------------------------
def legal_sacrifices(position: Position) -> list[Sacrifice]:
    """Every Sacrifice that ``apply_sacrifice`` accepts and that a Dispersal can follow."""
    if not position.ruleset.power_sacrifice or position.phase is not Phase.PLAY:
        return []
    return sacrifices(position, position.to_move)


# -- Rearrangements -------------------------------------------------------------------------
_Group = tuple[Piece, int, bool]  # the piece, how many, whether it chooses a facing


def _rearrangement_plan(
    position: Position, realm: int
) -> tuple[list[int], list[_Group], dict[int, Piece], Side] | None:
    """The free squares, the groups of identical pieces to put back, the pieces now."""
    if position.phase is not Phase.PLAY:
        return None
    side = position.to_move
    if blocked_by_limit(position, side, realm):
        return None
    board = position.board
    picked: dict[int, Piece] = {}
    own = False
    for s in REALM_SQUARES[realm]:
        p = board[s]
        if p is None or p.kind is Kind.BASE:
            continue
        if p.side is side:
            own = True
            picked[s] = p
        elif position.ruleset.rearrange_opponent:
            picked[s] = p
    if not own:
        return None
    free = [
        s for s in REALM_SQUARES[realm] if not IS_CENTER[s] and (board[s] is None or s in picked)
    ]
    groups: list[_Group] = []
    for who in (side, side.other):
        for kind_piece, mobile in ((power(who), False), (enforcer(who, None), False)):
            n = sum(1 for p in picked.values() if p == kind_piece)
            if n:
                groups.append((kind_piece, n, mobile))
        n = sum(1 for p in picked.values() if p.side is who and p.kind is Kind.ENFORCER
                and p.facing is not None)
        if n:
            groups.append((enforcer(who, DIRECTIONS[0]), n, True))
    return free, groups, picked, side


def _comb(n: int, k: int) -> int:
    """Ways to choose ``k`` of ``n`` squares (``math`` is outside the rules core's imports)."""
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


def count_rearrangements(position: Position, realm: int) -> int:
    """How many different boards a Rearrangement of ``realm`` can leave, by counting:
    placements of the groups of identical pieces on the free squares, times four
    facings per mobile Enforcer, less the board as it stands."""
    plan = _rearrangement_plan(position, realm)
    if plan is None:
        return 0
    free, groups, _, _ = plan
    total, left = 1, len(free)
    for _, n, mobile in groups:
        total *= _comb(left, n) * (4**n if mobile else 1)
        left -= n
    return total - 1


def rearrangements(position: Position, realm: int) -> Iterator[Rearrangement]:
    """Every Rearrangement of ``realm`` that ``apply_rearrangement`` accepts, one per
    board, lazily and always in the same order. The opponent's pieces are listed only
    when they move (a variation); otherwise only the mover's own."""
    plan = _rearrangement_plan(position, realm)
    if plan is None:
        return
    free, groups, picked, side = plan
    for layout in _layouts(free, groups):
        if layout == picked:
            continue
        own = tuple(sorted((s, p) for s, p in layout.items() if p.side is side))
        theirs = {s: p for s, p in layout.items() if p.side is not side}
        if theirs != {s: p for s, p in picked.items() if p.side is not side}:
            yield Rearrangement(realm, own + tuple(sorted(theirs.items())))
        else:
            yield Rearrangement(realm, own)


def _layouts(free: list[int], groups: list[_Group]) -> Iterator[dict[int, Piece]]:
    if not groups:
        yield {}
        return
    (piece, n, mobile), rest = groups[0], groups[1:]
    for chosen in combinations(free, n):
        left = [s for s in free if s not in chosen]
        facings = (
            product((enforcer(piece.side, d) for d in DIRECTIONS), repeat=n)
            if mobile
            else ((piece,) * n,)
        )
        for pieces in facings:
            here = dict(zip(chosen, pieces, strict=True))
            for more in _layouts(left, rest):
                yield {**here, **more}


# -- everything ------------------------------------------------------------------------------
def legal_actions(position: Position, *, rearrangements: bool = True) -> Iterator[Action]:
    """Every legal action that can start the turn now: placements in set-up; otherwise
    every first Move, every Sacrifice, every Rearrangement (when asked), and Pass only
    when nothing else is legal. Nothing once the game is over."""
    if position.phase is Phase.SETUP:
        yield from legal_placements(position)
        return
    if position.phase is Phase.OVER:
        return
    found = False
    for move in legal_moves(begin_turn(position)):
        found = True
        yield move
    for sacrifice in legal_sacrifices(position):
        found = True
        yield sacrifice
    for realm in REALMS:
        if rearrangements:
            for action in _rearrangements(position, realm):
                found = True
                yield action
        elif not found and count_rearrangements(position, realm):
            found = True
    if not found:
        yield Pass()


_rearrangements = rearrangements  # legal_actions' keyword hides the function's name


def count_actions(position: Position) -> dict[str, int]:
    """The legal actions by kind: placements, moves (first Moves), sacrifices,
    rearrangements (counted, not listed) and pass (1 when it is the only one)."""
    counts = {"placements": 0, "moves": 0, "sacrifices": 0, "rearrangements": 0, "pass": 0}
    if position.phase is Phase.SETUP:
        counts["placements"] = len(legal_placements(position))
    elif position.phase is Phase.PLAY:
        counts["moves"] = sum(1 for _ in legal_moves(begin_turn(position)))
        counts["sacrifices"] = len(legal_sacrifices(position))
        counts["rearrangements"] = sum(count_rearrangements(position, r) for r in REALMS)
        counts["pass"] = int(not any(counts.values()))
    return counts
