"""The four special events: after a piece stops, at most one happens.

Events are compulsory. Where the rules leave a choice to the mover (where a
created Enforcer goes and which way it points; which of several enemy Enforcers
is immobilised) the choice comes with the Move; a missing or impossible choice
is a RuleError whose ``options`` list what was possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain

from pbem.errors import RuleError
from pbem.rules.geometry import (
    CENTER,
    DIRECTIONS,
    REALM_OF,
    REALM_SQUARES,
    SQUARES,
    realm_name,
    square_name,
)
from pbem.rules.pieces import BASE, ENFORCER, POWER, Piece, Side, base, enforcer
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Event,
    Move,
    new_base_created,
    new_enforcer_created,
)
from pbem.rules.realm.position import Board, Pair, Position, bump


def _count_powers(board: Sequence[Piece | None], realm: int, side: Side) -> tuple[int, int]:
    own = enemy = 0
    for s in REALM_SQUARES[realm]:
        p = board[s]
        if p is not None and p.kind is POWER:
            if p.side is side:
                own += 1
            else:
                enemy += 1
    return own, enemy


def base_creation_possible(
    position: Position, side: Side, realm: int, board: Sequence[Piece | None] | None = None
) -> bool:
    """``board``: the board to judge (default the position's), e.g. one a move is changing."""
    if board is None:
        board = position.board
    if board[CENTER[realm]] is not None or position.bases_in_supply(side) <= 0:
        return False
    own, enemy = _count_powers(board, realm, side)
    if position.ruleset.exclusive_creation:
        return own <= 1 and enemy == 0  # the Power that stopped is the only one
    return enemy == 0


def enforcer_creation_squares(
    position: Position, side: Side, realm: int, board: Sequence[Piece | None] | None = None
) -> list[int]:
    """Empty squares where a Power stopping in ``realm`` must create an Enforcer, or []."""
    if board is None:
        board = position.board
    center = board[CENTER[realm]]
    if center is None or center.kind is not BASE or center.side is not side:
        return []
    if position.enforcers_in_supply(side) <= 0:
        return []
    empty = []
    for s in REALM_SQUARES[realm]:
        p = board[s]
        if p is None:
            empty.append(s)
        elif p.kind is ENFORCER and p.facing is not None:
            return []
    return empty


def after_power_stop(
    position: Position, board: list[Piece | None], move: Move
) -> tuple[list[Event], Pair, Pair, Pair]:
    """The event after a Power stops on ``move.to``. ``position`` is the one the move was
    played from (its supplies and counters); ``board``, the board after the move, gets
    the event's pieces: the move and its event make one new Position, not two. Returns
    the events and the Position's counters after them: ``bases_created``,
    ``enforcers_created`` and ``captured``, each the very pair it was where the event
    left it alone."""
    side = position.to_move
    realm = REALM_OF[move.to]
    center_sq = CENTER[realm]
    center = board[center_sq]
    bases, enforcers, captured = (
        position.bases_created, position.enforcers_created, position.captured
    )
    if center is None:  # a Base may be created; an Enforcer needs an own Base there
        if base_creation_possible(position, side, realm, board):
            if move.create_at is not None:
                raise RuleError(
                    "event.base-not-enforcer",
                    f"the Power's stop in the {realm_name(realm)} Realm creates a Base "
                    f"on {realm_name(realm)}, not an Enforcer",
                )
            board[center_sq] = base(side)
            return (
                [new_base_created(BaseCreated, side, center_sq)], bump(bases, side), enforcers,
                captured,
            )
        squares = []
    else:
        squares = enforcer_creation_squares(position, side, realm, board)
    if not squares:
        if move.create_at is not None:
            raise RuleError(
                "event.no-enforcer",
                f"no Enforcer is created: {_why_no_enforcer(position, board, side, realm)}",
            )
        return [], bases, enforcers, captured
    if move.create_at is None or move.create_facing is None:
        raise RuleError(
            "event.enforcer-choice",
            f"the Power's stop in the {realm_name(realm)} Realm creates a {side.title} "
            "Enforcer: the record must say where it goes and which way it points",
            options=_creation_options(squares),
        )
    if move.create_at not in squares:
        raise RuleError(
            "event.enforcer-square",
            f"the created Enforcer cannot go on {square_name(move.create_at)}: it goes on an "
            f"empty square of the {realm_name(realm)} Realm "
            f"({', '.join(square_name(s) for s in squares)})",
            options=_creation_options(squares),
        )
    board[move.create_at] = enforcer(side, move.create_facing)
    return (
        [new_enforcer_created(EnforcerCreated, side, move.create_at, move.create_facing)],
        bases, bump(enforcers, side), captured,
    )


def _creation_options(squares: list[int]) -> tuple[str, ...]:
    return tuple(chain.from_iterable([_CREATE_AT[s] for s in squares]))


#: a created Enforcer on each square, each way it may point, as written ("Eg12S")
_CREATE_AT = tuple(tuple(f"E{square_name(s)}{d.name}" for d in DIRECTIONS) for s in SQUARES)


def _why_no_enforcer(
    position: Position, board: Sequence[Piece | None], side: Side, realm: int
) -> str:
    center = board[CENTER[realm]]
    name = realm_name(realm)
    if center is None or center.kind is not BASE or center.side is not side:
        return f"the {name} Realm is not controlled by {side.title}"
    if position.enforcers_in_supply(side) <= 0:
        return f"{side.title} has no Enforcer left in supply"
    if any(
        p is not None and p.kind is ENFORCER and p.facing is not None
        for p in (board[s] for s in REALM_SQUARES[realm])
    ):
        return f"a mobile Enforcer stands in the {name} Realm"
    return f"the {name} Realm has no empty square"


def mobile_enemy_enforcers(board: Board | list[Piece | None], side: Side, realm: int) -> list[int]:
    """The squares of ``realm``'s mobile Enforcers of the other side: what an Enforcer
    of ``side`` stopping there immobilises (one of them, the mover's choice). A loop, not
    a list comprehension: on Python 3.11 that is a function made and called each time."""
    found = []
    for s in REALM_SQUARES[realm]:
        p = board[s]
        if p is not None and p.kind is ENFORCER and p.side is not side and p.facing is not None:
            found.append(s)
    return found


def after_enforcer_stop(
    position: Position, board: list[Piece | None], move: Move
) -> tuple[list[Event], Pair, Pair, Pair]:
    """The event after an Enforcer stops on ``move.to``: as ``after_power_stop``."""
    side = position.to_move
    realm = REALM_OF[move.to]
    targets = mobile_enemy_enforcers(board, side, realm)
    own, enemy = _count_powers(board, realm, side)
    bases, enforcers, captured = (
        position.bases_created, position.enforcers_created, position.captured
    )
    if targets:
        return _immobilise(side, board, move, targets, own > enemy), bases, enforcers, captured
    if move.immobilise is not None:
        raise RuleError(
            "event.no-enemy-enforcer",
            f"no enemy Enforcer can be immobilised: the {realm_name(realm)} Realm holds no "
            f"mobile {side.other.title} Enforcer",
        )
    center = board[CENTER[realm]]
    if center is None or center.kind is not BASE or center.side is side or own <= enemy:
        return [], bases, enforcers, captured
    board[CENTER[realm]] = None
    events: list[Event] = [BaseCaptured(side, CENTER[realm])]
    if own - enemy == 1:
        board[move.to] = enforcer(side, None)
        events.append(EnforcerImmobilised(side, move.to, own=True))
    if position.ruleset.replacement and position.bases_in_supply(side) > 0:
        # the capturer at once puts one of its own Bases on the Center: a Base created
        board[CENTER[realm]] = base(side)
        bases = bump(bases, side)
        events.append(BaseCreated(side, CENTER[realm]))
    return events, bases, enforcers, bump(captured, side)


def _immobilise(
    side: Side, board: list[Piece | None], move: Move, targets: list[int], stays_mobile: bool
) -> list[Event]:
    realm = REALM_OF[move.to]
    target = move.immobilise
    if target is None:
        if len(targets) > 1:
            raise RuleError(
                "event.immobilise-choice",
                f"the Enforcer's stop in the {realm_name(realm)} Realm immobilises one of "
                f"{len(targets)} {side.other.title} Enforcers: the record must say which",
                options=tuple(f"xE{square_name(s)}" for s in targets),
            )
        target = targets[0]
    elif target not in targets:
        raise RuleError(
            "event.immobilise-target",
            f"the Enforcer cannot immobilise {square_name(target)}: the mobile "
            f"{side.other.title} Enforcers in the {realm_name(realm)} Realm are on "
            f"{', '.join(square_name(s) for s in targets)}",
            options=tuple(f"xE{square_name(s)}" for s in targets),
        )
    board[target] = enforcer(side.other, None)
    events: list[Event] = [EnforcerImmobilised(side.other, target, own=False)]
    if not stays_mobile:
        board[move.to] = enforcer(side, None)
        events.append(EnforcerImmobilised(side, move.to, own=True))
    return events
