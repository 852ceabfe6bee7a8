"""Set-up: Bases on Centers (no two in a row or column of Realms), then Powers."""

from __future__ import annotations

from pbem.errors import RuleError
from pbem.rules.game import PLAY, SETUP
from pbem.rules.geometry import (
    BORDER_SQUARES,
    CENTER,
    IS_CENTER,
    REALM_COLUMN,
    REALM_OF,
    REALM_ROW,
    REALMS,
    realm_name,
    square_name,
)
from pbem.rules.pieces import BASE, BLACK, POWER, WHITE, Kind, Side, base, power
from pbem.rules.realm.actions import BaseCreated, Event, Placement, new_base_created
from pbem.rules.realm.position import Position, bump, new_position


def expected_kind(position: Position) -> Kind:
    """What the side to move places next: all set-up Bases first, then Powers."""
    rs = position.ruleset
    if min(position.bases_created) < rs.setup_bases:
        return BASE
    return POWER


def own_base_realms(position: Position, side: Side) -> list[int]:
    board = position.board
    own = base(side)
    return [r for r in REALMS if board[CENTER[r]] is own]


def legal_base_realms(position: Position, side: Side) -> list[int]:
    board = position.board
    own = own_base_realms(position, side)
    rows = {REALM_ROW[r] for r in own}
    columns = {REALM_COLUMN[r] for r in own}
    vacant = [r for r in REALMS if board[CENTER[r]] is None]
    if position.ruleset.free_placement:
        return vacant
    free = [r for r in vacant if REALM_ROW[r] not in rows and REALM_COLUMN[r] not in columns]
    # the restriction holds "for as long as possible", then lapses
    return free or vacant


def legal_power_squares(position: Position, side: Side) -> list[int]:
    realms = own_base_realms(position, side)
    unfilled = [r for r in realms if position.powers_in(r, side) == 0]
    # extra Powers (more Powers than set-up Bases) may go to any own-Base realm
    return [
        s
        for r in (unfilled or realms)
        for s in BORDER_SQUARES[r]
        if position.board[s] is None
    ]


#: the Centers of the other Realms in each Realm's row and column of Realms: a Base there
#: keeps a Base of the same side from being placed in it (while the restriction holds)
_IN_LINE_CENTERS = tuple(
    tuple(
        CENTER[r] for r in REALMS
        if r != realm
        and (REALM_ROW[r] == REALM_ROW[realm] or REALM_COLUMN[r] == REALM_COLUMN[realm])
    )
    for realm in REALMS
)


def _base_realm_legal(position: Position, side: Side, realm: int) -> bool:
    """``realm in legal_base_realms(position, side)`` for a vacant ``realm``, without
    listing them all."""
    if position.ruleset.free_placement:
        return True
    board = position.board
    own = base(side)
    for c in _IN_LINE_CENTERS[realm]:
        if board[c] is own:
            break
    else:
        return True  # no Base of the side in the Realm's row or column of Realms
    rows = set()
    columns = set()
    for r, c in enumerate(CENTER):
        if board[c] is own:
            rows.add(REALM_ROW[r])
            columns.add(REALM_COLUMN[r])
    # the restriction lapses once no vacant Realm is free of it
    return not any(
        board[CENTER[r]] is None and REALM_ROW[r] not in rows and REALM_COLUMN[r] not in columns
        for r in REALMS
    )


def _power_square_legal(position: Position, side: Side, sq: int) -> bool:
    """``sq in legal_power_squares(position, side)``, without listing them all."""
    board = position.board
    if board[sq] is not None or IS_CENTER[sq]:
        return False
    own = base(side)
    realm = REALM_OF[sq]
    if board[CENTER[realm]] is not own:
        return False
    if position.powers_in(realm, side) == 0:
        return True  # an unfilled own-Base Realm
    # a filled one: only once every own-Base Realm holds a Power (extra Powers)
    return all(
        position.powers_in(r, side) > 0 for r, c in enumerate(CENTER) if board[c] is own
    )


def apply_placement(position: Position, placement: Placement) -> tuple[Position, list[Event]]:
    side = position.to_move
    if position.phase is not SETUP:
        raise RuleError("setup.over", "set-up is over: pieces are no longer placed, they move")
    kind = expected_kind(position)
    sq = placement.square
    if placement.kind is not kind:
        raise RuleError(
            "setup.order",
            f"{side.title} must place a {kind.title} now, not a {placement.kind.title}: "
            "all set-up Bases are placed before the Powers",
        )
    board = list(position.board)
    bases, powers = position.bases_created, position.powers_placed
    events: list[Event] = []
    if kind is BASE:
        name = square_name(sq)
        realm = REALM_OF[sq]
        if not IS_CENTER[sq]:
            raise RuleError("setup.base-center", f"a Base is placed on a Center; {name} is not one")
        if board[sq] is not None:
            raise RuleError("setup.base-vacant", f"the {name} Realm is not vacant")
        if not _base_realm_legal(position, side, realm):
            raise RuleError(
                "setup.row-column",
                f"{side.title} cannot place a Base on {name}: it is in the same row or column "
                f"of Realms as a Base {side.title} placed before",
            )
        board[sq] = base(side)
        bases = bump(bases, side)
        events.append(new_base_created(BaseCreated, side, sq))
    else:
        if not _power_square_legal(position, side, sq):
            raise RuleError("setup.power-square", _power_reason(position, side, sq))
        board[sq] = power(side)
        powers = bump(powers, side)
    # the next to place: the other side, or, once every Power is placed, the first to move
    rs = position.ruleset
    phase, to_move = SETUP, BLACK if side is WHITE else WHITE
    if powers == (rs.powers, rs.powers):
        phase, to_move = PLAY, BLACK if rs.second_player_first else WHITE
    after = new_position(
        Position, rs, tuple(board), phase, to_move, bases, powers, position.enforcers_created,
        position.captured, position.sacrificed, position.rearranged, position.ply + 1,
        position.result, position.end,
    )
    return after, events


def _power_reason(position: Position, side: Side, sq: int) -> str:
    name = square_name(sq)
    realm = REALM_OF[sq]
    if IS_CENTER[sq]:
        return f"a Power is placed on a Border square; {name} is a Center"
    if position.board[sq] is not None:
        return f"{name} is not empty"
    if position.controller(realm) is not side:
        return (
            f"a Power is placed in a Realm holding one of {side.title}'s Bases; "
            f"the {realm_name(realm)} Realm holds none"
        )
    return (
        f"the {realm_name(realm)} Realm already holds a {side.title} Power: only one Power "
        "goes in each such Realm until every one holds one"
    )
