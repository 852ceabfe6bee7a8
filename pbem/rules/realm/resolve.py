"""Resolve written actions of the Featured Game against the position, as python-chess
resolves SAN.

Two jobs need the position and so live here, not in the grammar:

* **Look-alike letters** (``pbem.rules.repairs``): a repair stands only when exactly
  one reading is legal, and it is reported as a warning.
* **Annotations.** The events written after a move are checked against the
  events the rules produce: a forced event left out is inferred (warning), a
  missing choice is an error, and an event that differs or did not happen is an
  error that says what the rules expected.
"""

from __future__ import annotations

from typing import Any

from pbem.errors import Diagnostic, NotationError, RuleError
from pbem.rules.game import Resolved, new_resolved
from pbem.rules.geometry import (
    IS_CENTER,
    LINES,
    PLAIN_SQUARES,
    REALM_OF,
    SQUARE_INDEX,
    Direction,
)
from pbem.rules.geometry import square_name as name_of
from pbem.rules.pieces import BASE, ENFORCER, POWER, Kind, Piece, enforcer, power
from pbem.rules.realm.actions import (
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Event,
    GameEnded,
    Move,
    Pass,
    Placement,
    Rearrangement,
    Sacrifice,
    new_move,
    new_placement,
)
from pbem.rules.realm.canonical import canonical_of
from pbem.rules.realm.position import Position
from pbem.rules.realm.setup import apply_placement
from pbem.rules.realm.turns import (
    TurnState,
    apply_move,
    apply_pass,
    apply_rearrangement,
    apply_sacrifice,
)
from pbem.rules.repairs import kept_error, resolve_with_repairs
from pbem.rules.repairs import square_at as _sq
from pbem.rules.written import (
    EventText,
    ItemText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    SacrificeText,
)

_FACING = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W}


# -- placements, rearrangements, passes ----------------------------------------------
def resolve_placement(position: Position, text: PlacementText) -> tuple[Position, Resolved]:
    if text.piece == "E":
        raise RuleError(
            "setup.enforcer",
            f"{text.piece}{text.square.text} places an Enforcer, but set-up places Bases and "
            "then Powers: Enforcers are created in play",
        )
    kind = BASE if text.piece == "B" else POWER
    name = text.square.text
    as_written = None
    if name in PLAIN_SQUARES:
        # as written: what nearly every record does, and the first reading tried anyway
        try:
            return _place(position, kind, name)
        except (RuleError, NotationError) as exc:
            # a look-alike may be legal where the square as written is not
            as_written = kept_error(exc)
    return resolve_with_repairs(text, lambda names: _place(position, kind, names[0]), as_written)


def _place(position: Position, kind: Kind, name: str) -> tuple[Position, Resolved]:
    """A ``kind`` placed on the square named ``name`` (a module function: the usual
    placement makes no closure, which a function inside another is at every call)."""
    sq = SQUARE_INDEX.get(name)
    action = new_placement(Placement, kind, _sq(name) if sq is None else sq)
    after, events = apply_placement(position, action)
    return after, new_resolved(Resolved, action, tuple(events), position.board, (), canonical_of)


def resolve_rearrangement(position: Position, text: RearrangementText) -> tuple[Position, Resolved]:
    side = position.to_move
    items = (*text.items, *text.opponent) if text.opponent else text.items

    def attempt(names: list[str]) -> tuple[Position, Resolved]:
        center = _sq(names[0])
        if not IS_CENTER[center]:
            raise RuleError(
                "rearrange.realm-name",
                f"a Rearrangement names its Realm by the Center: {names[0]} is not a Center",
            )
        owners = [side] * len(text.items)
        if text.opponent:
            owners += [side.other] * len(text.opponent)
        placements = tuple(
            [
                (_sq(name), _item_piece(item, owner))
                for name, item, owner in zip(names[1:], items, owners, strict=True)
            ]
        )
        action = Rearrangement(REALM_OF[center], placements)
        after, events = apply_rearrangement(position, action)
        return after, Resolved(action, tuple(events), position.board, (), canonical_of)

    return resolve_with_repairs(text, attempt)


def _item_piece(item: ItemText, side: Any) -> Piece:
    if item.piece == "P":
        return power(side)
    return enforcer(side, None if item.facing == "U" else _FACING[item.facing or "N"])


def resolve_pass(position: Position, text: PassText) -> tuple[Position, Resolved]:
    after, events = apply_pass(position)
    return after, Resolved(Pass(), tuple(events), position.board, (), canonical_of)


def resolve_sacrifice(state: TurnState, text: SacrificeText) -> tuple[TurnState, Resolved]:
    def attempt(names: list[str]) -> tuple[TurnState, Resolved]:
        if text.facing == "U":
            raise RuleError(
                "sacrifice.facing",
                "a remobilised Enforcer points North, East, South or West (U is for an "
                "immobilised one)",
            )
        action = Sacrifice(_sq(names[0]), _sq(names[1]), _FACING[text.facing])
        after, events = apply_sacrifice(state, action)
        return after, Resolved(action, tuple(events), state.position.board, (), canonical_of)

    return resolve_with_repairs(text, attempt)


# -- moves and their annotations ---------------------------------------------------------
def resolve_move(state: TurnState, text: MoveText) -> tuple[TurnState, Resolved]:
    if text.off or len(text.squares) != 2:
        where = "off the board" if text.off else "through more than one square"
        raise RuleError(
            "move.squares",
            f"a move of the Featured Game goes in one straight line, never {where}: it "
            "names the square it starts on and the square it stops on, like Pc10g10",
        )
    events = text.events
    index = SQUARE_INDEX
    frm, to = index.get(text.squares[0].text), index.get(text.squares[1].text)
    # the squares as written are played at once where they may stand: every one a square's
    # name, every event in the Realm of the stop (where each special event happens; an
    # event written elsewhere is refused, and a look-alike reading may stand: the reading
    # as written is then attempted only where its error is shown, see ``plausible``)
    plain = True
    written: list[EventKey] = _NO_KEYS
    if events:
        written = []
        realm = REALM_OF[to] if to is not None else -1
        for e in events:
            kind = _KINDS.get((e.prefix, e.piece))
            if kind is None or (kind == "enforcer" and e.facing is None):
                kind = _event_kind(e)  # says why it is no event of the Featured Game
            sq = index.get(e.square.text)
            if sq is None or REALM_OF[sq] != realm:
                plain = False
            else:
                written.append((kind, sq, e.facing))
    as_written = None
    if plain and frm is not None and to is not None:
        # as written: what nearly every record does, and the first reading tried anyway
        try:
            return _play_move(state, text, frm, to, written)
        except (RuleError, NotationError) as exc:
            # a look-alike may be legal where the squares as written are not
            as_written = kept_error(exc)
    # every event's kind is known good here (the loop above raised otherwise); the list is
    # made only on this path, which few moves take, so the usual move makes one list less
    kinds = [_KINDS[e.prefix, e.piece] for e in events] if events else _NO_KINDS
    position = state.position
    board, side = position.board, position.to_move
    arrived, created = state.arrived, state.created

    def plausible(names: list[str]) -> bool:
        """False where the move is refused before its events (no square, not a piece of
        the mover's that may move, no straight line, the stop occupied), or where an
        event is written outside the Realm of the stop: every special event happens in
        that Realm, so such an event is refused as one the rules do not make happen."""
        frm = SQUARE_INDEX.get(names[0])
        to = SQUARE_INDEX.get(names[1])
        if frm is None or to is None:
            return False
        piece = board[frm]
        if not (
            piece is not None
            and piece.side is side
            and (piece.kind is POWER or piece.facing is not None)
            and frm not in arrived
            and frm not in created
            and frm * 144 + to in LINES
            and board[to] is None
        ):
            return False
        realm = REALM_OF[to]
        for name in names[2:]:
            sq = SQUARE_INDEX.get(name)
            if sq is None or REALM_OF[sq] != realm:
                return False
        return True

    def attempt(names: list[str]) -> tuple[TurnState, Resolved]:
        return _attempt_move(state, text, names, kinds)

    return resolve_with_repairs(text, attempt, as_written, plausible)


_NO_KINDS: list[str] = []
#: an event as written -> the Featured Game's kind of special event
_KINDS = {
    ("", "B"): "base",
    ("", "E"): "enforcer",
    ("x", "B"): "capture",
    ("x", "E"): "immobilised",
}


def _event_kind(e: EventText) -> str:
    kind = _KINDS.get((e.prefix, e.piece))
    if kind == "enforcer" and e.facing is None:
        raise NotationError(
            f"(E{e.square.text}) needs the created Enforcer's facing, like (Eg12S)",
            span=e.span,
            code="notation.event",
        )
    if kind is None:
        what = "a Power is never created" if e.piece == "P" and not e.prefix else (
            "nothing is rescued or replaced in the Featured Game" if e.prefix == "+"
            else "only Bases are captured and only Enforcers immobilised"
        )
        raise NotationError(
            f"({e.prefix}{e.piece}{e.square.text}) is not a special event: {what}; a created "
            "Base is written like (Bh11), a created Enforcer like (Eg12S)",
            span=e.span,
            code="notation.event",
        )
    return kind


EventKey = tuple[str, int, "str | None"]
_NO_KEYS: list[EventKey] = []  # never changed: only compared and read


def _attempt_move(
    state: TurnState, t: MoveText, names: list[str], kinds: list[str]
) -> tuple[TurnState, Resolved]:
    """The move read with its squares named ``names`` (the move's two, then its events')."""
    index = SQUARE_INDEX
    frm = index.get(names[0])
    to = index.get(names[1])
    if frm is None or to is None:
        frm, to = _sq(names[0]), _sq(names[1])  # raises: no such square
    written: list[EventKey] = _NO_KEYS
    if t.events:
        written = []
        for k, e, n in zip(kinds, t.events, names[2:], strict=True):
            sq = index.get(n)
            written.append((k, _sq(n) if sq is None else sq, e.facing))
    return _play_move(state, t, frm, to, written)


def _play_move(
    state: TurnState, t: MoveText, frm: int, to: int, written: list[EventKey]
) -> tuple[TurnState, Resolved]:
    """The move ``frm`` -> ``to`` with the events written (their kinds and squares) checked
    against those the rules make happen."""
    create_at = create_facing = immobilise = None
    for kind, sq, facing in written:
        if kind == "enforcer" and create_at is None:
            if facing == "U":
                raise RuleError(
                    "event.created-facing",
                    "a created Enforcer points North, East, South or West (U is for an "
                    "immobilised one)",
                )
            create_at, create_facing = sq, _FACING[facing or "N"]
        elif kind == "immobilised" and immobilise is None and sq != to:
            immobilise = sq
    board = state.position.board
    piece = board[frm]
    # a choice written for the wrong kind of piece is judged by what the rules make happen
    if piece is not None and piece.kind is ENFORCER:
        create_at = create_facing = None
    elif piece is not None and piece.kind is POWER:
        immobilise = None
    move = new_move(Move, frm, to, create_at, create_facing, immobilise)
    try:
        new_state, events = apply_move(state, move)
    except RuleError as exc:
        if exc.code.startswith("event.") and written:
            raise RuleError(
                exc.code,
                f"the record says ({_keys_text(written)}), but {exc.message}",
                options=exc.options,
            ) from None
        raise
    # a loop, not a list comprehension: on Python 3.11 that is a function made and called
    produced = _NO_KEYS
    if events:
        produced = []
        for ev in events:
            if type(ev) is not GameEnded:
                produced.append(_event_key(ev))
    if written == produced:
        return new_state, new_resolved(Resolved, move, tuple(events), board, (), canonical_of)
    label = f"{t.piece}{name_of(frm)}{name_of(to)}"
    warnings = _compare_events(t, label, written, produced)
    return new_state, Resolved(move, tuple(events), board, tuple(warnings), canonical_of)


def _compare_events(
    t: MoveText, label: str, written: list[EventKey], produced: list[EventKey]
) -> list[Diagnostic]:
    expected = _keys_text(produced)
    for key in written:
        if key not in produced:
            what = f"the rules give ({expected})" if expected else "no special event happens"
            raise RuleError(
                "event.mismatch",
                f"the record says ({_key_text(key)}), but {what} after {label}",
            )
        if written.count(key) > 1:
            raise RuleError("event.repeated", f"({_key_text(key)}) is written twice")
    missing = [k for k in produced if k not in written]
    if missing:
        return [
            Diagnostic(
                "infer.event",
                f"the record leaves out ({_keys_text(missing)}), which the rules make happen "
                f"after {label}; inferred",
                t.span,
            )
        ]
    return [
        Diagnostic(
            "repair.event-order",
            f"the events after {label} happen in the order ({expected})",
            t.span,
        )
    ]


def _keys_text(keys: list[EventKey]) -> str:
    return ",".join([_key_text(k) for k in keys])


def _event_key(ev: Event) -> EventKey:
    # by the exact class, as the rules make their events (``isinstance`` is a call, dearer)
    if type(ev) is BaseCreated:
        return ("base", ev.square, None)
    if type(ev) is EnforcerCreated:
        return ("enforcer", ev.square, "NESW"[ev.facing])
    if type(ev) is BaseCaptured:
        return ("capture", ev.square, None)
    assert type(ev) is EnforcerImmobilised
    return ("immobilised", ev.square, None)


_PREFIX = {"base": "B", "enforcer": "E", "capture": "xB", "immobilised": "xE"}


def _key_text(key: EventKey) -> str:
    kind, sq, facing = key
    return f"{_PREFIX[kind]}{name_of(sq)}{facing or ''}"

