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

import functools
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from pbem.errors import Diagnostic, NotationError, RuleError
from pbem.notation.format import format_action
from pbem.notation.syntax import (
    ActionText,
    ItemText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    SacrificeText,
    SquareText,
)
from pbem.notation.write import action_text
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
    Sacrifice,
)
from pbem.rules.realm.position import Board, Position
from pbem.rules.realm.setup import apply_placement
from pbem.rules.realm.turns import (
    TurnState,
    apply_move,
    apply_pass,
    apply_rearrangement,
    apply_sacrifice,
)

_OTHER = {"i": "l", "l": "i"}
_FACING = {"N": Direction.N, "E": Direction.E, "S": Direction.S, "W": Direction.W}


@dataclass(frozen=True, slots=True)
class Resolved:
    """One action, resolved: what it does, what happened, and what was repaired."""

    action: Action
    events: tuple[Event, ...]
    #: the board the action was played on
    board: Board
    warnings: tuple[Diagnostic, ...] = ()

    def canonical(self) -> ActionText:
        """The action as it should have been written: repaired squares, every event."""
        return action_text(self.action, self.events, self.board)


def square_readings(sq: SquareText) -> list[tuple[str, bool]]:
    """Possible names of a written square, the likeliest first; bool = repaired.

    Files: ``i``/``l`` may stand for each other, ``I``/``L``/``1`` for either, other
    capitals for their small letter. Ranks: ``l`` and ``I`` stand for ``1``.
    """
    text = sq.text
    c, rank = text[0], text[1:]
    fixed_rank = rank.replace("l", "1").replace("I", "1")
    repaired_rank = fixed_rank != rank
    if c in _OTHER:
        files = [(c, repaired_rank), (_OTHER[c], True)]
    elif c == "1" or c.lower() in _OTHER:
        first = "l" if c in "1L" else "i"
        files = [(first, True), (_OTHER[first], True)]
    elif c != c.lower():
        files = [(c.lower(), True)]
    else:
        files = [(c, repaired_rank)]
    readings = [(f + rank, r) for f, r in files if is_square_name(f + (rank := fixed_rank))]
    return readings or [(text, False)]  # no square at all: _sq says so


def _squares_of(text: ActionText) -> list[SquareText]:
    if isinstance(text, PlacementText):
        return [text.square]
    if isinstance(text, MoveText):
        return [text.frm, text.to, *(e.square for e in text.events or ())]
    if isinstance(text, RearrangementText):
        return [text.realm, *(i.square for i in (*text.items, *text.opponent))]
    if isinstance(text, SacrificeText):
        return [text.power, text.enforcer]
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
        items = tuple(replace(i, square=sq(i.square)) for i in text.items)
        theirs = tuple(replace(i, square=sq(i.square)) for i in text.opponent)
        return replace(text, realm=realm, items=items, opponent=theirs)
    if isinstance(text, SacrificeText):
        return replace(text, power=sq(text.power), enforcer=sq(text.enforcer))
    return text


Attempt = Callable[[list[str]], tuple[Any, "Resolved"]]


@functools.lru_cache(maxsize=512)
def _readings(text: str) -> tuple[tuple[str, bool], ...]:
    return tuple(square_readings(SquareText(text)))


def resolve_with_repairs(text: ActionText, attempt: Attempt) -> tuple[Any, Resolved]:
    """Try the written reading, then look-alike readings; exactly one legal reading stands.

    ``attempt`` gets the squares' names in ``_squares_of`` order.
    """
    options = [_readings(s.text) for s in _squares_of(text)]
    first = [o[0][0] for o in options]
    exact = not any(o[0][1] for o in options)
    first_error: RuleError | NotationError | None = None
    winners: list[tuple[list[str], tuple[Any, Resolved]]] = []
    try:
        outcome = attempt(first)
        if exact:
            return outcome
        winners.append((first, outcome))
    except (RuleError, NotationError) as exc:
        first_error = exc
    if winners and all(len(o) == 1 for o in options):
        return _with_repair_warning(text, *winners[0])
    for combo in itertools.product(*options):
        names = [n for n, _ in combo]
        if names == first:
            continue
        try:
            winners.append((names, attempt(names)))
        except (RuleError, NotationError):
            continue
    if len(winners) == 1:
        return _with_repair_warning(text, *winners[0])
    if len(winners) > 1:
        readings = " or ".join(repr(format_action(_respell(text, iter(n)))) for n, _ in winners)
        raise NotationError(
            f"{format_action(text)!r} can be read as {readings}, and more than one of these "
            "is legal: write the squares plainly",
            span=text.span,
            code="notation.ambiguous",
        )
    assert first_error is not None
    raise first_error


def _with_repair_warning(
    text: ActionText, names: list[str], outcome: tuple[Any, Resolved]
) -> tuple[Any, Resolved]:
    state, resolved = outcome
    squares = _squares_of(text)
    if all(s.text == n for s, n in zip(squares, names, strict=True)):
        return outcome
    wrong = next(s for s, n in zip(squares, names, strict=True) if s.text != n)
    repaired = format_action(_respell(text, iter(names)))
    warning = Diagnostic(
        "repair.square", f"read {format_action(text)!r} as {repaired!r}", wrong.span
    )
    return state, replace(resolved, warnings=(warning, *resolved.warnings))


def _sq(name: str) -> int:
    try:
        return parse_square(name)
    except KeyError:
        raise NotationError(
            f"{name!r} is not a square: files run from a to l and ranks from 1 to 12",
            code="notation.square",
        ) from None


# -- placements, rearrangements, passes ----------------------------------------------
def resolve_placement(position: Position, text: PlacementText) -> tuple[Position, Resolved]:
    kind = Kind.BASE if text.piece == "B" else Kind.POWER

    def attempt(names: list[str]) -> tuple[Position, Resolved]:
        action = Placement(kind, _sq(names[0]))
        after, events = apply_placement(position, action)
        return after, Resolved(action, tuple(events), position.board)

    return resolve_with_repairs(text, attempt)


def resolve_rearrangement(position: Position, text: RearrangementText) -> tuple[Position, Resolved]:
    side = position.to_move

    def attempt(names: list[str]) -> tuple[Position, Resolved]:
        center = _sq(names[0])
        if not IS_CENTER[center]:
            raise RuleError(
                "rearrange.realm-name",
                f"a Rearrangement names its Realm by the Center: {names[0]} is not a Center",
            )
        owners = [side] * len(text.items) + [side.other] * len(text.opponent)
        placements = tuple(
            (_sq(name), _item_piece(item, owner))
            for name, item, owner in zip(
                names[1:], (*text.items, *text.opponent), owners, strict=True
            )
        )
        action = Rearrangement(REALM_OF[center], placements)
        after, events = apply_rearrangement(position, action)
        return after, Resolved(action, tuple(events), position.board)

    return resolve_with_repairs(text, attempt)


def _item_piece(item: ItemText, side: Any) -> Piece:
    if item.piece == "P":
        return power(side)
    return enforcer(side, None if item.facing == "U" else _FACING[item.facing or "N"])


def resolve_pass(position: Position, text: PassText) -> tuple[Position, Resolved]:
    after, events = apply_pass(position)
    return after, Resolved(Pass(), tuple(events), position.board)


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
        return after, Resolved(action, tuple(events), state.position.board)

    return resolve_with_repairs(text, attempt)


# -- moves and their annotations ---------------------------------------------------------
def resolve_move(state: TurnState, text: MoveText) -> tuple[TurnState, Resolved]:
    return resolve_with_repairs(text, lambda names: _attempt_move(state, text, names))


EventKey = tuple[str, int, "str | None"]


def _attempt_move(state: TurnState, t: MoveText, names: list[str]) -> tuple[TurnState, Resolved]:
    frm, to = _sq(names[0]), _sq(names[1])
    written: list[EventKey] = (
        [(e.kind, _sq(n), e.facing) for e, n in zip(t.events, names[2:], strict=True)]
        if t.events
        else []
    )
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
                f"the record says ({_keys_text(written)}), but {exc.message}",
                options=exc.options,
            ) from None
        raise
    produced = [_event_key(ev) for ev in events if not isinstance(ev, GameEnded)] if events else []
    if written == produced:
        return new_state, Resolved(move, tuple(events), board)
    label = f"{t.piece}{names[0]}{names[1]}"
    warnings = _compare_events(t, label, written, produced)
    return new_state, Resolved(move, tuple(events), board, tuple(warnings))


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
    return ",".join(_key_text(k) for k in keys)


def _event_key(ev: Event) -> EventKey:
    if isinstance(ev, BaseCreated):
        return ("base", ev.square, None)
    if isinstance(ev, EnforcerCreated):
        return ("enforcer", ev.square, "NESW"[ev.facing])
    if isinstance(ev, BaseCaptured):
        return ("capture", ev.square, None)
    assert isinstance(ev, EnforcerImmobilised)
    return ("immobilised", ev.square, None)


_PREFIX = {"base": "B", "enforcer": "E", "capture": "xB", "immobilised": "xE"}


def _key_text(key: EventKey) -> str:
    kind, sq, facing = key
    return f"{_PREFIX[kind]}{name_of(sq)}{facing or ''}"

