"""Resolve written actions against the position, as python-chess resolves SAN.

Two jobs need the position and so live here, not in the grammar:

* **Look-alike letters.** A square's file letter may be upper case (``PL1L6``)
  or a look-alike (``i``/``l``/``I``/``L``). Every reading is tried; a repair
  stands only when exactly one reading is legal, and it is reported as a warning.
* **Annotations.** The events written after a move are checked against the
  events the rules produce: a forced event left out is inferred (warning), a
  missing choice is an error, and an event that differs or did not happen is an
  error that says what the rules expected.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from pbem.errors import Diagnostic, NotationError, RuleError
from pbem.notation.format import format_action
from pbem.notation.syntax import (
    ActionText,
    EventText,
    ItemText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    SquareText,
)
from pbem.rules.geometry import IS_CENTER, REALM_OF, Direction, is_square_name, parse_square
from pbem.rules.geometry import square_name as name_of
from pbem.rules.pieces import Kind, Piece, enforcer, power
from pbem.rules.realm.actions import (
    Action,
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
)
from pbem.rules.realm.position import Position
from pbem.rules.realm.setup import apply_placement
from pbem.rules.realm.turns import TurnState, apply_move, apply_pass, apply_rearrangement

_OTHER = {"i": "l", "l": "i"}
_FACING = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W}


@dataclass(frozen=True, slots=True)
class Resolved:
    """One action, resolved: what it does, what happened, and what was repaired."""

    action: Action
    events: tuple[Event, ...]
    #: the action as it should have been written: repaired squares, every event
    canonical: ActionText
    warnings: tuple[Diagnostic, ...] = ()


def square_readings(sq: SquareText) -> list[tuple[str, bool]]:
    """Possible lower-case names of a written square, the likeliest first; bool = repaired."""
    text = sq.text
    c, rank = text[0], text[1:]
    if c in _OTHER:
        return [(text, False), (_OTHER[c] + rank, True)]
    lower = c.lower()
    if lower in _OTHER:
        return [(lower + rank, True), (_OTHER[lower] + rank, True)]
    if c != lower:
        return [(lower + rank, True)]
    return [(text, False)]


def _squares_of(text: ActionText) -> list[SquareText]:
    if isinstance(text, PlacementText):
        return [text.square]
    if isinstance(text, MoveText):
        return [text.frm, text.to, *(e.square for e in text.events or ())]
    if isinstance(text, RearrangementText):
        return [text.realm, *(i.square for i in text.items)]
    return []


def _respell(text: ActionText, names: Iterator[str]) -> Any:
    """``text`` with its squares, in ``_squares_of`` order, spelled as ``names``."""

    def sq(s: SquareText) -> SquareText:
        return replace(s, text=next(names))

    if isinstance(text, PlacementText):
        return replace(text, square=sq(text.square))
    if isinstance(text, MoveText):
        frm, to = sq(text.frm), sq(text.to)
        events = None
        if text.events is not None:
            events = tuple(replace(e, square=sq(e.square)) for e in text.events)
        return replace(text, frm=frm, to=to, events=events)
    if isinstance(text, RearrangementText):
        realm = sq(text.realm)
        return replace(text, realm=realm, items=tuple(replace(i, square=sq(i.square)) for i in text.items))
    return text


Attempt = Callable[[ActionText], tuple[Any, "Resolved"]]


def resolve_with_repairs(text: ActionText, attempt: Attempt) -> tuple[Any, Resolved]:
    """Try the written reading, then look-alike readings; exactly one legal reading stands."""
    squares = _squares_of(text)
    options = [square_readings(s) for s in squares]
    first = [o[0] for o in options]
    preferred = _respell(text, iter(n for n, _ in first))
    exact = not any(repaired for _, repaired in first)
    first_error: RuleError | NotationError | None = None
    try:
        outcome = attempt(preferred)
        if exact:
            return outcome
        winners = [(preferred, outcome)]
    except (RuleError, NotationError) as exc:
        first_error = exc
        winners = []
    if all(len(o) == 1 for o in options) and winners:
        return _with_repair_warning(text, winners[0])
    for combo in itertools.product(*options):
        names = [n for n, _ in combo]
        if names == [n for n, _ in first]:
            continue
        candidate = _respell(text, iter(names))
        try:
            winners.append((candidate, attempt(candidate)))
        except (RuleError, NotationError):
            continue
    if len(winners) == 1:
        return _with_repair_warning(text, winners[0])
    if len(winners) > 1:
        readings = " or ".join(repr(format_action(c)) for c, _ in winners)
        raise NotationError(
            f"{format_action(text)!r} can be read as {readings}, and more than one of these "
            "is legal: write the squares plainly",
            span=text.span,
            code="notation.ambiguous",
        )
    assert first_error is not None
    raise first_error


def _with_repair_warning(text: ActionText, winner: tuple[ActionText, tuple[Any, Resolved]]) -> tuple[Any, Resolved]:
    candidate, (state, resolved) = winner
    if format_action(candidate) == format_action(text):
        return state, resolved
    wrong = next(
        (a for a, b in zip(_squares_of(text), _squares_of(candidate), strict=True) if a.text != b.text),
        None,
    )
    warning = Diagnostic(
        "repair.square",
        f"read {format_action(text)!r} as {format_action(candidate)!r}",
        wrong.span if wrong is not None else text.span,
    )
    return state, replace(resolved, warnings=(warning, *resolved.warnings))


def _square(sq: SquareText) -> int:
    if not is_square_name(sq.text):  # pragma: no cover - readings are always names
        raise NotationError(f"{sq.text!r} is not a square", span=sq.span, code="notation.square")
    return parse_square(sq.text)


# -- placements, rearrangements, passes ----------------------------------------------
def resolve_placement(position: Position, text: PlacementText) -> tuple[Position, Resolved]:
    def attempt(t: ActionText) -> tuple[Position, Resolved]:
        assert isinstance(t, PlacementText)
        kind = Kind.BASE if t.piece == "B" else Kind.POWER
        action = Placement(kind, _square(t.square))
        after, events = apply_placement(position, action)
        return after, Resolved(action, tuple(events), t)

    return resolve_with_repairs(text, attempt)


def resolve_rearrangement(position: Position, text: RearrangementText) -> tuple[Position, Resolved]:
    side = position.to_move

    def attempt(t: ActionText) -> tuple[Position, Resolved]:
        assert isinstance(t, RearrangementText)
        center = _square(t.realm)
        if not IS_CENTER[center]:
            raise RuleError(
                "rearrange.realm-name",
                f"a Rearrangement names its Realm by the Center: {name_of(center)} is not a Center",
            )
        placements: list[tuple[int, Piece]] = []
        for item in t.items:
            placements.append((_square(item.square), _item_piece(item, side)))
        action = Rearrangement(REALM_OF[center], tuple(placements))
        after, events = apply_rearrangement(position, action)
        return after, Resolved(action, tuple(events), t)

    return resolve_with_repairs(text, attempt)


def _item_piece(item: ItemText, side: Any) -> Piece:
    if item.piece == "P":
        return power(side)
    return enforcer(side, None if item.facing == "U" else _FACING[item.facing or "N"])


def resolve_pass(position: Position, text: PassText) -> tuple[Position, Resolved]:
    after, events = apply_pass(position)
    return after, Resolved(Pass(), tuple(events), text)


# -- moves and their annotations ---------------------------------------------------------
def resolve_move(state: TurnState, text: MoveText) -> tuple[TurnState, Resolved]:
    return resolve_with_repairs(text, lambda t: _attempt_move(state, t))


def _attempt_move(state: TurnState, t: ActionText) -> tuple[TurnState, Resolved]:
    assert isinstance(t, MoveText)
    frm, to = _square(t.frm), _square(t.to)
    written = [(e, _event_key_of_text(e)) for e in (t.events or ())]
    create_at = create_facing = immobilise = None
    for e, _ in written:
        if e.kind == "enforcer" and create_at is None:
            if e.facing == "U":
                raise RuleError(
                    "event.created-facing",
                    "a created Enforcer points North, East, South or West (U is for an "
                    "immobilised one)",
                )
            create_at, create_facing = _square(e.square), _FACING[e.facing or "N"]
        elif e.kind == "immobilised" and immobilise is None and _square(e.square) != to:
            immobilise = _square(e.square)
    piece = state.position.board[frm]
    # a choice written for the wrong kind of piece is judged by what the rules make happen
    if piece is not None and piece.kind is Kind.ENFORCER:
        create_at = create_facing = None
    elif piece is not None and piece.kind is Kind.POWER:
        immobilise = None
    move = Move(frm, to, create_at, create_facing, immobilise)
    try:
        new_state, events = apply_move(state, move)
    except RuleError as exc:
        if exc.code.startswith("event.") and written:
            raise RuleError(
                exc.code,
                f"the record says ({_written(t)}), but {exc.message}",
                options=exc.options,
            ) from None
        raise
    produced = [(ev, _event_key(ev)) for ev in events if not isinstance(ev, GameEnded)]
    warnings = _compare_events(t, written, produced, state)
    canonical = replace(t, events=tuple(_event_text(ev) for ev, _ in produced) or None)
    return new_state, Resolved(move, tuple(events), canonical, tuple(warnings))


def _compare_events(
    t: MoveText,
    written: list[tuple[EventText, tuple[str, int, str | None]]],
    produced: list[tuple[Event, tuple[str, int, str | None]]],
    state: TurnState,
) -> list[Diagnostic]:
    produced_keys = [k for _, k in produced]
    written_keys = [k for _, k in written]
    expected = ",".join(_key_text(k) for k in produced_keys)
    for e, key in written:
        if key not in produced_keys:
            what = f"the rules give ({expected})" if expected else "no special event happens"
            raise RuleError(
                "event.mismatch",
                f"the record says ({_key_text(key)}), but {what} after "
                f"{t.piece}{t.frm.text}{t.to.text}",
            )
        if written_keys.count(key) > 1:
            raise RuleError("event.repeated", f"({_key_text(key)}) is written twice")
    warnings = []
    missing = [k for k in produced_keys if k not in written_keys]
    if missing:
        warnings.append(
            Diagnostic(
                "infer.event",
                f"the record leaves out ({','.join(_key_text(k) for k in missing)}), which the "
                f"rules make happen after {t.piece}{t.frm.text}{t.to.text}; inferred",
                t.span,
            )
        )
    elif written_keys != produced_keys:
        warnings.append(
            Diagnostic(
                "repair.event-order",
                f"the events after {t.piece}{t.frm.text}{t.to.text} happen in the order "
                f"({expected})",
                t.span,
            )
        )
    return warnings


def _written(t: MoveText) -> str:
    return ",".join(_key_text(_event_key_of_text(e)) for e in t.events or ())


def _event_key_of_text(e: EventText) -> tuple[str, int, str | None]:
    return (e.kind, _square(e.square), e.facing)


def _event_key(ev: Event) -> tuple[str, int, str | None]:
    if isinstance(ev, BaseCreated):
        return ("base", ev.square, None)
    if isinstance(ev, EnforcerCreated):
        return ("enforcer", ev.square, ev.facing.letter)
    if isinstance(ev, BaseCaptured):
        return ("capture", ev.square, None)
    assert isinstance(ev, EnforcerImmobilised)
    return ("immobilised", ev.square, None)


_PREFIX = {"base": "B", "enforcer": "E", "capture": "xB", "immobilised": "xE"}


def _key_text(key: tuple[str, int, str | None]) -> str:
    kind, sq, facing = key
    return f"{_PREFIX[kind]}{name_of(sq)}{facing or ''}"


def _event_text(ev: Event) -> EventText:
    kind, sq, facing = _event_key(ev)
    return EventText(kind, SquareText(name_of(sq)), facing)
