"""How one Agent or Counter-Agent moves: its line, turns, stops and captures.

Two views of the same rules: ``check_line`` follows a written line square by
square and refuses it at the first square where a rule breaks, in the player's
words; ``lines_from`` walks every legal line of a piece, lazily (an opening piece
has thousands). Both read the Realms through one ``Realms`` table built once per
board, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Iterator
from enum import Enum

from pbem.errors import RuleError
from pbem.rules.geometry import (
    CENTER,
    RAYS,
    REALM_OF,
    REALMS,
    Direction,
    direction_between,
    path_between,
    realm_name,
    square_name,
)
from pbem.rules.modern.pieces import IS_TARGET, Board, name_of, realm_counts
from pbem.rules.pieces import Kind, Piece, Side
from pbem.rules.values import frozen


class Entry(Enum):
    """What happens when a piece of the mover enters a Realm."""

    PLAIN = "plain"
    #: a friendly piece holds the Center: one right-angle turn allowed
    TURN = "turn"
    #: an enemy Agent or HQ holds the Center: the piece must stop in the Realm
    STOP = "stop"
    #: a Target Realm with a vacant Center: captured at once, on the first square
    CAPTURE = "capture"
    #: a Target Realm whose Center an enemy holds: a Counter-Agent captures at
    #: once; an Agent must stop and captures on a majority
    CONTEST = "contest"
    #: the enemy Counter-Agent stands in it: closed
    CLOSED = "closed"


@frozen
class Line:
    """A legal line: the squares as written (start, turning squares, stop) and
    whether the stop captures the stop's Realm."""

    squares: tuple[int, ...]
    capture: bool

    @property
    def frm(self) -> int:
        return self.squares[0]

    @property
    def to(self) -> int:
        return self.squares[-1]

    @property
    def via(self) -> tuple[int, ...]:
        return self.squares[1:-1]


class Realms:
    """The Realms as the mover sees them on one board."""

    __slots__ = ("board", "counts", "entry", "side")

    def __init__(self, board: Board, side: Side) -> None:
        self.board = board
        self.side = side
        self.counts = realm_counts(board)
        target = IS_TARGET[side]
        entry = []
        closed = {
            REALM_OF[s] for s, p in enumerate(board)
            if p is not None and p.side is not side and p.kind is Kind.POWER
        }
        for r in REALMS:
            center = board[CENTER[r]]
            if r in closed:
                entry.append(Entry.CLOSED)
            elif center is not None and center.side is side:
                entry.append(Entry.TURN)
            elif target[r]:
                entry.append(Entry.CAPTURE if center is None else Entry.CONTEST)
            elif center is not None:
                entry.append(Entry.STOP)
            else:
                entry.append(Entry.PLAIN)
        self.entry = entry

    def majority(self, realm: int) -> bool:
        """Would an Agent arriving in ``realm`` give its side more pieces there?"""
        return self.counts[self.side][realm] + 1 > self.counts[self.side.other][realm]


def lines_from(realms: Realms, frm: int) -> Iterator[Line]:
    """Every legal line of the piece on ``frm`` (which must be the mover's), lazily."""
    piece = realms.board[frm]
    assert piece is not None
    start = REALM_OF[frm]
    for d in Direction:
        yield from _walk(realms, piece, frm, d, start, start, frozenset((start,)), (frm,),
                         frozenset(), False, False)


def _walk(
    realms: Realms,
    piece: Piece,
    frm: int,
    d: Direction,
    start: int,
    realm: int,
    visited: frozenset[int],
    written: tuple[int, ...],
    turned: frozenset[int],
    forced: bool,
    turnable: bool,
) -> Iterator[Line]:
    board = realms.board
    entry = realms.entry
    counter_agent = piece.kind is Kind.POWER
    contest = False
    for s in RAYS[frm][d]:
        if board[s] is not None:
            return
        r = REALM_OF[s]
        if r != realm:
            if forced or r in visited:
                return
            e = entry[r]
            if e is Entry.CLOSED:
                return
            if e is Entry.CAPTURE or (e is Entry.CONTEST and counter_agent):
                yield Line((*written, s), True)
                return
            realm = r
            visited = visited | {r}
            forced = e is Entry.STOP or e is Entry.CONTEST
            contest = e is Entry.CONTEST
            turnable = e is Entry.TURN
        if realm == start:
            continue
        yield Line((*written, s), contest and realms.majority(realm))
        if turnable and realm not in turned:
            for d2 in (Direction((d + 1) % 4), Direction((d + 3) % 4)):
                yield from _walk(realms, piece, s, d2, start, realm, visited, (*written, s),
                                 turned | {realm}, False, False)


def can_leave(realms: Realms, frm: int) -> bool:
    return next(lines_from(realms, frm), None) is not None


def check_line(realms: Realms, squares: tuple[int, ...]) -> Line:
    """The written line ``squares`` (start, turning squares, stop), or the first rule it breaks."""
    board = realms.board
    frm = squares[0]
    piece = board[frm]
    assert piece is not None
    who = name_of(piece)
    start = REALM_OF[frm]
    realm = start
    visited = {start}
    turned: set[int] = set()
    forced_by: int | None = None
    contest = False
    previous: Direction | None = None
    last = len(squares) - 2
    for i in range(len(squares) - 1):
        a, b = squares[i], squares[i + 1]
        d = direction_between(a, b)
        if d is None:
            raise RuleError(
                "move.line",
                f"{square_name(a)} to {square_name(b)} is not a straight line: a piece moves "
                "N, E, S or W, at least one square",
            )
        if previous is not None:
            if d == previous or d == previous.opposite:
                raise RuleError(
                    "move.turn-angle",
                    f"the {who} turns on {square_name(a)} at a right angle or not at all",
                )
            _check_turn(realms, who, a, start, turned)
            turned.add(REALM_OF[a])
        previous = d
        for s in path_between(a, b) or ():
            if board[s] is not None:
                verb = "stop on" if s == squares[-1] else "pass"
                raise RuleError(
                    "move.blocked",
                    f"the {who} cannot {verb} {square_name(s)}: a piece stands there",
                )
            r = REALM_OF[s]
            if r == realm:
                continue
            if forced_by is not None:
                holder = board[CENTER[forced_by]]
                assert holder is not None
                raise RuleError(
                    "move.forced-stop",
                    f"the {who} must stop in the {realm_name(forced_by)} Realm: an enemy "
                    f"{name_of(holder)} holds its Center",
                )
            if r in visited:
                raise RuleError(
                    "move.realm-twice",
                    f"the {who} would enter the {realm_name(r)} Realm a second time at "
                    f"{square_name(s)}: a move never enters a Realm twice",
                )
            e = realms.entry[r]
            if e is Entry.CLOSED:
                raise RuleError(
                    "move.closed",
                    f"the {who} cannot enter the {realm_name(r)} Realm at {square_name(s)}: "
                    f"{realms.side.other.title}'s Counter-Agent stands in it",
                )
            if e is Entry.CAPTURE or (e is Entry.CONTEST and piece.kind is Kind.POWER):
                if not (i == last and s == b):
                    raise RuleError(
                        "capture.ends",
                        f"the {who} captures the {realm_name(r)} Realm on entering it at "
                        f"{square_name(s)}: its move ends there",
                    )
                return Line(squares, True)
            realm = r
            visited.add(r)
            if e is Entry.STOP or e is Entry.CONTEST:
                forced_by = r
            contest = e is Entry.CONTEST
    if realm == start:
        raise RuleError(
            "move.leave",
            f"the {who} must end outside the {realm_name(start)} Realm: a Modern turn moves "
            "pieces out of the chosen Realm",
        )
    return Line(squares, contest and realms.majority(realm))


def _check_turn(realms: Realms, who: str, at: int, start: int, turned: set[int]) -> None:
    r = REALM_OF[at]
    if r == start:
        raise RuleError(
            "move.turn-start",
            f"the {who} cannot turn on {square_name(at)}: it is still in the Realm it starts "
            f"from ({realm_name(r)}), and turns only in Realms it enters",
        )
    if realms.entry[r] is not Entry.TURN:
        raise RuleError(
            "move.turn-realm",
            f"the {who} cannot turn on {square_name(at)}: the {realm_name(r)} Realm's Center "
            "holds no friendly piece",
        )
    if r in turned:
        raise RuleError(
            "move.turn-twice",
            f"the {who} has turned in the {realm_name(r)} Realm already: one turn per Realm",
        )


@frozen
class RealmLines:
    """A piece's legal lines that stop in (or capture) one Realm: how many, and the
    first few (the cap) as examples."""

    realm: int
    count: int
    captures: int
    examples: tuple[Line, ...]


def lines_by_realm(realms: Realms, frm: int, cap: int = 3) -> list[RealmLines]:
    """The piece's lines grouped by the Realm they end in, in Realm order: one pass
    over the lines, keeping at most ``cap`` of each group (ruling: never list whole
    turns, and never every line of a piece)."""
    counts: dict[int, list[int]] = {}
    kept: dict[int, list[Line]] = {}
    for line in lines_from(realms, frm):
        r = REALM_OF[line.to]
        c = counts.setdefault(r, [0, 0])
        c[0] += 1
        c[1] += line.capture
        ex = kept.setdefault(r, [])
        if len(ex) < cap:
            ex.append(line)
    return [
        RealmLines(r, counts[r][0], counts[r][1], tuple(kept[r])) for r in sorted(counts)
    ]
