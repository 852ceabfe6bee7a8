"""Turns of play: Dispersal, Concentration, Rearrangement, and the pass.

A Dispersal or Concentration is applied one Move at a time through a TurnState,
so that each piece's special event happens before the next piece moves and an
error can name the very action that broke the turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import compress

from pbem.errors import RuleError
from pbem.rules.game import OVER, PLAY, Phase
from pbem.rules.geometry import (
    DIRECTIONS,
    IS_CENTER,
    REALM_OF,
    REALM_SQUARES,
    REALMS,
    SQUARES,
    realm_name,
    square_name,
)
from pbem.rules.pieces import BASE, POWER, Kind, Piece, Side, enforcer, power
from pbem.rules.realm.actions import (
    EnforcerRemobilised,
    Event,
    GameEnded,
    Move,
    Pass,
    PowerSacrificed,
    Rearrangement,
    Sacrifice,
)
from pbem.rules.realm.movement import check_path, check_piece, has_stop
from pbem.rules.realm.position import Position, bump, new_position
from pbem.rules.realm.scoring import score
from pbem.rules.realm.special_events import after_enforcer_stop, after_power_stop
from pbem.rules.values import frozen, new_of


@frozen
class TurnState:
    """A Dispersal or Concentration under way."""

    start: Position
    position: Position
    #: squares where a piece arrived this turn by moving, and where an Enforcer was
    #: created: neither may move again in this turn (pieces there never leave in it).
    #: These four are tuples of distinct members, in the order met, not frozensets: a
    #: turn holds a few of each, and one more is added at every move (a tuple grows by
    #: one for half what a frozenset costs, and a small tuple is searched as fast)
    arrived: tuple[int, ...] = ()
    created: tuple[int, ...] = ()
    start_realms: tuple[int, ...] = ()
    end_realms: tuple[int, ...] = ()
    moves: int = 0
    #: after a Power sacrifice: the Realm the turn's Dispersal must come from
    sacrifice_realm: int | None = None

    @property
    def over(self) -> bool:
        """The game ended during this turn: nothing more may be played."""
        return self.position.phase is Phase.OVER


#: made at every move, by its ``__new__`` alone (``pbem.rules.values.new_of``)
_NEW_STATE = new_of(TurnState)


def check_playing(position: Position) -> None:
    if position.phase is Phase.SETUP:
        raise RuleError("turn.setup", "set-up is not finished: pieces are placed, not moved")
    if position.phase is Phase.OVER:
        raise RuleError("turn.game-over", "the game is over: nothing more may be played")


def begin_turn(position: Position) -> TurnState:
    if position.phase is not PLAY:
        check_playing(position)  # says why not
    return _NEW_STATE(TurnState, position, position)


def apply_move(state: TurnState, move: Move) -> tuple[TurnState, list[Event]]:
    """One piece's move and its special event: one new board, one new Position."""
    position = state.position
    if position.phase is OVER:
        raise RuleError(
            "turn.game-over",
            "the game ended earlier in this turn: nothing more may be played",
        )
    side = position.to_move
    frm, to = move.frm, move.to
    board = position.board
    piece = board[frm]
    # a Power, or an Enforcer that points (Bases and immobilised Enforcers point nowhere)
    if piece is None or piece.side is not side or (
        piece.kind is not POWER and piece.facing is None
    ):
        piece = check_piece(board, side, frm)  # says why not
    if frm in state.arrived or frm in state.created:
        raise RuleError("turn.moved-once", _why_not_fresh(state, frm))
    if state.sacrifice_realm is not None and REALM_OF[frm] != state.sacrifice_realm:
        raise RuleError(
            "sacrifice.dispersal",
            f"{_mover(piece, frm)} is outside the {realm_name(state.sacrifice_realm)} "
            "Realm: after a Power sacrifice the turn is a Dispersal from the sacrifice's Realm",
        )
    ruleset = position.ruleset
    d = check_path(board, piece, frm, to, ruleset.checkpoint)
    start_realms, end_realms = state.start_realms, state.end_realms
    # (a tuple grows by one for a third less with + than by unpacking: RUF005 not taken)
    if REALM_OF[frm] not in start_realms:
        start_realms = start_realms + (REALM_OF[frm],)  # noqa: RUF005
    if REALM_OF[to] not in end_realms:
        end_realms = end_realms + (REALM_OF[to],)  # noqa: RUF005
    if len(start_realms) > 1 and len(end_realms) > 1:
        raise RuleError(
            "turn.dispersal-or-concentration",
            f"{_mover(piece, frm)} starts in the {realm_name(REALM_OF[frm])} Realm "
            f"and stops in the {realm_name(REALM_OF[to])} Realm: a turn moves pieces "
            "either out of one Realm (Dispersal) or into one Realm (Concentration)",
        )
    after_board = list(board)
    after_board[frm] = None
    if piece.kind is POWER:
        after_board[to] = piece
        if move.immobilise is not None:
            raise RuleError(
                "event.power-immobilise", "a Power never immobilises: only Enforcers do"
            )
        events, bases, enforcers, captured = after_power_stop(position, after_board, move)
    else:
        after_board[to] = enforcer(side, d)  # it points the way it moved
        if move.create_at is not None:
            raise RuleError(
                "event.enforcer-create", "an Enforcer never creates pieces: only Powers do"
            )
        events, bases, enforcers, captured = after_enforcer_stop(position, after_board, move)
    after = new_position(
        Position, ruleset, tuple(after_board), position.phase, side, bases, position.powers_placed,
        enforcers, captured, position.sacrificed, position.rearranged, position.ply,
        position.result, position.end,
    )
    created = state.created
    if enforcers is not position.enforcers_created and move.create_at is not None:
        created = created + (move.create_at,)  # noqa: RUF005 (an Enforcer, always at create_at)
    if bases is not position.bases_created and ruleset.bases == bases[side]:
        after = _end(after, "bases")  # a Base was created, and it was the last
        events.append(GameEnded("bases", after.result or ""))
    new_state = _NEW_STATE(
        TurnState, state.start, after, state.arrived + (to,), created,  # noqa: RUF005
        start_realms, end_realms, state.moves + 1, state.sacrifice_realm,
    )
    return new_state, events


_OTHER = (Side.BLACK, Side.WHITE)  # Side.other, by side: a property costs a call


def apply_sacrifice(state: TurnState, action: Sacrifice) -> tuple[TurnState, list[Event]]:
    """Power sacrifice (a variation): first thing in a turn, then a Dispersal from its Realm."""
    position = state.position
    side = position.to_move
    if not position.ruleset.power_sacrifice:
        raise RuleError(
            "sacrifice.off",
            f"the rules in force ({position.ruleset.name}) have no Power sacrifice",
        )
    if state.moves or state.sacrifice_realm is not None:
        raise RuleError(
            "sacrifice.first",
            "a Power is sacrificed before the turn, not during it: it comes first, and once",
        )
    board = position.board
    power_at, enf_at = action.power, action.enforcer
    p = board[power_at]
    if p is None or p.side is not side or p.kind is not Kind.POWER:
        what = "nothing" if p is None else f"the {p.side.title} {p.kind.title}"
        raise RuleError(
            "sacrifice.power",
            f"{square_name(power_at)} holds {what}: {side.title} sacrifices one of its own Powers",
        )
    realm = REALM_OF[power_at]
    e = board[enf_at]
    if REALM_OF[enf_at] != realm:
        raise RuleError(
            "sacrifice.realm",
            f"{square_name(enf_at)} is not in the {realm_name(realm)} Realm: the sacrifice "
            "remobilises an Enforcer in the same Realm as the Power",
        )
    if e is None or e.side is not side or e.kind is not Kind.ENFORCER or e.facing is not None:
        candidates = [
            square_name(s)
            for s in REALM_SQUARES[realm]
            if (q := board[s]) is not None
            and q.side is side
            and q.kind is Kind.ENFORCER
            and q.facing is None
        ]
        raise RuleError(
            "sacrifice.enforcer",
            f"{square_name(enf_at)} does not hold an immobilised {side.title} Enforcer; "
            + (
                f"in the {realm_name(realm)} Realm those are on {', '.join(candidates)}"
                if candidates
                else f"the {realm_name(realm)} Realm holds none, so there is nothing to remobilise"
            ),
            options=tuple(candidates),
        )
    new_board = list(board)
    new_board[power_at] = None
    new_board[enf_at] = enforcer(side, action.facing)
    after = position.with_board(
        tuple(new_board), sacrificed=bump(position.sacrificed, side)
    )
    events: list[Event] = [
        PowerSacrificed(side, power_at),
        EnforcerRemobilised(side, enf_at, action.facing),
    ]
    new_state = TurnState(
        state.start, after, state.arrived, state.created, state.start_realms,
        state.end_realms, state.moves, realm,
    )
    return new_state, events


def _mover(piece: Piece, sq: int) -> str:
    return f"the {piece.kind.title} on {square_name(sq)}"


def _why_not_fresh(state: TurnState, sq: int) -> str:
    name = square_name(sq)
    if sq in state.created:
        return f"the Enforcer on {name} was created this turn and cannot move until the next"
    return f"the piece on {name} has already moved this turn: a piece moves at most once"


def finish_turn(state: TurnState) -> Position:
    """Close a Dispersal or Concentration; the other side is to move."""
    if state.moves == 0:
        if state.sacrifice_realm is not None:
            raise RuleError(
                "sacrifice.dispersal",
                "after a Power sacrifice the turn goes on with a Dispersal from the "
                f"{realm_name(state.sacrifice_realm)} Realm: at least one piece must move",
            )
        raise RuleError("turn.empty", "a turn moves at least one piece")
    return _next_turn(state.position, rearranged=None)


def _next_turn(position: Position, rearranged: int | None) -> Position:
    side = position.to_move
    streaks = position.rearranged
    if rearranged is not None or streaks[side] != _NO_STREAK:  # else nothing changes
        changed = list(streaks)
        if rearranged is None:
            changed[side] = _NO_STREAK
        else:
            realm, n = changed[side]
            changed[side] = (rearranged, n + 1 if realm == rearranged else 1)
        streaks = (changed[0], changed[1])
    phase = position.phase
    after = new_position(
        Position, position.ruleset, position.board, phase,
        _OTHER[side] if phase is PLAY else side,
        position.bases_created, position.powers_placed, position.enforcers_created,
        position.captured, position.sacrificed, streaks, position.ply + 1,
        position.result, position.end,
    )
    if (
        phase is PLAY
        and not has_legal_turn(after, after.to_move)
        and not has_legal_turn(after, side)
    ):
        return _end(after, "no-legal-turn")
    return after


_NO_STREAK = (-1, 0)


def _end(position: Position, reason: str) -> Position:
    p = position  # dataclasses.replace, spelled out: it costs ten times more
    return new_position(
        Position, p.ruleset, p.board, Phase.OVER, p.to_move, p.bases_created, p.powers_placed,
        p.enforcers_created, p.captured, p.sacrificed, p.rearranged, p.ply,
        score(p).result, reason,
    )


# -- rearrangement -----------------------------------------------------------------
def rearrangeable(position: Position, side: Side, realm: int) -> bool:
    """Could ``side`` rearrange ``realm`` now (limit included) and change the position?"""
    board = position.board
    movable = []
    own = []
    for s in REALM_SQUARES[realm]:
        p = board[s]
        if p is not None and p.kind is not BASE:
            movable.append(p)
            if p.side is side:
                own.append(p)
    if not own or blocked_by_limit(position, side, realm):
        return False
    if position.ruleset.rearrange_opponent:
        own = movable  # with the opponent's pieces too: any two different pieces can swap
    if any(p.facing is not None for p in own if p.kind is Kind.ENFORCER):
        return True
    if len(set(own)) > 1:
        return True
    return any(board[s] is None and not IS_CENTER[s] for s in REALM_SQUARES[realm])


def blocked_by_limit(position: Position, side: Side, realm: int) -> bool:
    if not position.ruleset.rearrangement_limit:
        return False
    last, n = position.rearranged[side]
    return last == realm and n >= 2


def apply_rearrangement(position: Position, action: Rearrangement) -> tuple[Position, list[Event]]:
    check_playing(position)
    side = position.to_move
    realm = action.realm
    name = realm_name(realm)
    board = list(position.board)
    movable = []
    own = []
    for s in REALM_SQUARES[realm]:
        p = board[s]
        if p is not None and p.kind is not BASE:
            movable.append((s, p))
            if p.side is side:
                own.append((s, p))
    if not own:
        raise RuleError(
            "rearrange.nothing",
            f"{side.title} has no Power or Enforcer in the {name} Realm to rearrange",
        )
    if blocked_by_limit(position, side, realm):
        raise RuleError(
            "rearrange.limit",
            f"{side.title} rearranged the {name} Realm on each of its last two turns: a player "
            "may not rearrange the same Realm on three turns in a row",
        )
    if action.placements and action.placements[0][1].side is not side:
        raise RuleError(
            "rearrange.order",
            f"a Rearrangement lists {side.title}'s own pieces first, then the opponent's",
        )
    theirs_given = [(s, p) for s, p in action.placements if p.side is not side]
    if theirs_given and not position.ruleset.rearrange_opponent:
        raise RuleError(
            "rearrange.opponent",
            f"{side.title} may rearrange only its own pieces (the rules in force, "
            f"{position.ruleset.name}, do not let a player move the opponent's)",
        )
    picked = movable if theirs_given else own
    for s, _ in picked:
        board[s] = None
    seen: set[int] = set()
    for sq, piece in action.placements:
        sname = square_name(sq)
        if REALM_OF[sq] != realm:
            raise RuleError("rearrange.outside", f"{sname} is not in the {name} Realm")
        if IS_CENTER[sq]:
            raise RuleError(
                "rearrange.center", f"no piece may stand on a Center: {sname} is the Center"
            )
        if sq in seen:
            raise RuleError("rearrange.twice", f"{sname} is given two pieces")
        if piece.kind is Kind.BASE:
            raise RuleError(
                "rearrange.base",
                f"a Base cannot be put on {sname}: Bases never move; a Rearrangement puts "
                "back Powers and Enforcers",
            )
        seen.add(sq)
        other = board[sq]
        if other is not None:
            raise RuleError(
                "rearrange.occupied",
                f"{sname} holds the {other.side.title} {other.kind.title}, which stays where it is",
            )
        board[sq] = piece
    for who in (side, side.other) if theirs_given else (side,):
        held = _census(picked, who)
        put = _census(action.placements, who)
        if held != put:
            raise RuleError(
                "rearrange.pieces",
                f"the {name} Realm holds {_census_words(held)} of {who.title}'s; a "
                f"Rearrangement puts back exactly those, not {_census_words(put)}",
            )
    after = tuple(board)
    if after == position.board:
        raise RuleError(
            "rearrange.unchanged",
            f"the Rearrangement leaves the {name} Realm as it was: it must change the position",
        )
    return _next_turn(position.with_board(after), rearranged=realm), []


def _census(pieces: Iterable[tuple[int, Piece]], side: Side) -> tuple[int, int, int]:
    """How many Powers, mobile and immobilised Enforcers of ``side`` are placed."""
    powers = mobile = immobile = 0
    for _, p in pieces:
        if p.side is not side:
            continue
        if p.kind is POWER:
            powers += 1
        elif p.facing is None:
            immobile += 1
        else:
            mobile += 1
    return powers, mobile, immobile


def _census_words(c: tuple[int, int, int]) -> str:
    words = []
    for n, what in zip(c, ("Power", "mobile Enforcer", "immobilised Enforcer"), strict=True):
        if n:
            words.append(f"{n} {what}{'s' if n > 1 else ''}")
    return " and ".join(words) or "nothing"


# -- passing -----------------------------------------------------------------------
def has_legal_turn(position: Position, side: Side) -> bool:
    """Does ``side`` have any legal turn here? Cheap: stops at the first one found."""
    board = position.board
    # the Realms holding a Power or Enforcer of the side: the only ones it could rearrange
    # (a list, not a set: most calls return before reading it, and an empty set costs
    # several times an empty list). The occupied squares only, in order
    realms: list[int] = []
    for s in compress(SQUARES, board):
        p = board[s]
        assert p is not None  # compress() kept the occupied squares only
        if p.side is side and p.kind is not BASE:
            if (p.kind is POWER or p.facing is not None) and has_stop(board, p, s):
                return True
            realms.append(REALM_OF[s])
    if any(rearrangeable(position, side, r) for r in dict.fromkeys(realms)):
        return True
    return position.ruleset.power_sacrifice and any(sacrifices(position, side))


def sacrifices(position: Position, side: Side) -> list[Sacrifice]:
    """Every Power sacrifice of ``side`` (Power, immobilised Enforcer of its Realm,
    facing) after which a Dispersal from that Realm can follow: only those are legal."""
    board = position.board
    own_power = power(side)
    stuck = enforcer(side, None)
    out: list[Sacrifice] = []
    for realm in REALMS:
        squares = REALM_SQUARES[realm]
        powers = [s for s in squares if board[s] == own_power]
        if not powers:
            continue
        for e in squares:
            if board[e] != stuck:
                continue
            for pw in powers:
                trial = list(board)
                trial[pw] = None
                after = tuple(trial)
                # another mobile piece of the Realm can disperse whichever way it points
                others = any(
                    (m := after[s]) is not None and m.side is side and m.mobile
                    and has_stop(after, m, s)
                    for s in squares
                )
                out.extend(
                    Sacrifice(pw, e, d)
                    for d in DIRECTIONS
                    if others or has_stop(after, enforcer(side, d), e)
                )
    return out


def apply_pass(position: Position, action: Pass | None = None) -> tuple[Position, list[Event]]:
    check_playing(position)
    side = position.to_move
    if has_legal_turn(position, side):
        raise RuleError(
            "turn.pass",
            f"{side.title} has a legal turn and may not pass: a player passes only when no "
            "legal turn is left",
        )
    return _next_turn(position, rearranged=None), []
