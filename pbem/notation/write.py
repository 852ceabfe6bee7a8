"""Rules actions and their events -> syntax objects, with every special event written.

This is how a program (the random-game maker, a referee) writes canonical
notation for what it played; ``format`` then turns the syntax into text.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.notation.syntax import (
    ActionText,
    EntryText,
    EventText,
    GameText,
    ItemText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    ResultText,
    SacrificeText,
    SquareText,
    TurnText,
)
from pbem.rules.geometry import CENTER, SQUARE_NAMES
from pbem.rules.pieces import Piece, Side
from pbem.rules.realm.actions import (
    Action,
    BaseCaptured,
    BaseCreated,
    EnforcerCreated,
    EnforcerImmobilised,
    Event,
    Move,
    Pass,
    Placement,
    Rearrangement,
    Sacrifice,
)
from pbem.rules.realm.position import Board

# one SquareText per square, shared: they are immutable and carry no span
_SQUARES = tuple(SquareText(name) for name in SQUARE_NAMES)


def _sq(s: int) -> SquareText:
    return _SQUARES[s]


def event_text(ev: Event) -> EventText | None:
    if isinstance(ev, BaseCreated):
        return EventText("base", _sq(ev.square))
    if isinstance(ev, EnforcerCreated):
        return EventText("enforcer", _sq(ev.square), ev.facing.letter)
    if isinstance(ev, BaseCaptured):
        return EventText("capture", _sq(ev.square))
    if isinstance(ev, EnforcerImmobilised):
        return EventText("immobilised", _sq(ev.square))
    return None  # GameEnded is not written


def action_text(action: Action, events: Sequence[Event], board: Board) -> ActionText:
    """``board`` is the board the action was played on (it tells a Power from an Enforcer)."""
    if isinstance(action, Placement):
        return PlacementText(action.kind.value, _sq(action.square))
    if isinstance(action, Move):
        piece = board[action.frm]
        assert piece is not None
        written = tuple(e for e in (event_text(ev) for ev in events) if e is not None)
        return MoveText(piece.kind.value, _sq(action.frm), _sq(action.to), written or None)
    if isinstance(action, Rearrangement):
        mover = action.placements[0][1].side  # the mover's own pieces come first
        own = tuple(_item(s, p) for s, p in action.placements if p.side is mover)
        theirs = tuple(_item(s, p) for s, p in action.placements if p.side is not mover)
        return RearrangementText(_sq(CENTER[action.realm]), own, opponent=theirs)
    if isinstance(action, Sacrifice):
        return SacrificeText(_sq(action.power), _sq(action.enforcer), action.facing.letter)
    assert isinstance(action, Pass)
    return PassText()


def _item(s: int, p: Piece) -> ItemText:
    facing = None if p.kind.value == "P" else (p.facing.letter if p.facing is not None else "U")
    return ItemText(p.kind.value, _sq(s), facing)


def game_text(
    turns: Sequence[tuple[Side, TurnText]],
    headers: dict[str, object] | None = None,
    result: str | None = None,
    first_entry: int = 1,
) -> GameText:
    """Number turns into entries: White's and Black's turns share an entry."""
    entries: list[EntryText | ResultText] = []
    number = first_entry
    pending: TurnText | None = None
    for side, turn in turns:
        if side is Side.WHITE:
            if pending is not None:
                entries.append(EntryText(number, pending, None))
                number += 1
            pending = turn
        else:
            entries.append(EntryText(number, pending, turn))
            pending = None
            number += 1
    if pending is not None:
        entries.append(EntryText(number, pending, None))
    if result is not None:
        entries.append(ResultText(result))
    return GameText(dict(headers or {}), (), tuple(entries))
