"""Featured actions and their events -> written syntax, with every special event written.

This is how a program (the random-game maker, a referee) writes canonical
notation for what it played; ``pbem.notation.format`` then turns it into text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pbem.rules.game import Resolved
from pbem.rules.geometry import CENTER
from pbem.rules.pieces import Piece
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
from pbem.rules.written import (
    SQUARE_TEXTS,
    ActionText,
    EventText,
    ItemText,
    MoveText,
    PassText,
    PlacementText,
    RearrangementText,
    SacrificeText,
)


def event_text(ev: Event) -> EventText | None:
    if isinstance(ev, BaseCreated):
        return EventText("", "B", SQUARE_TEXTS[ev.square])
    if isinstance(ev, EnforcerCreated):
        return EventText("", "E", SQUARE_TEXTS[ev.square], ev.facing.letter)
    if isinstance(ev, BaseCaptured):
        return EventText("x", "B", SQUARE_TEXTS[ev.square])
    if isinstance(ev, EnforcerImmobilised):
        return EventText("x", "E", SQUARE_TEXTS[ev.square])
    return None  # GameEnded is not written


def action_text(action: Action, events: Sequence[Event], board: Board) -> ActionText:
    """``board`` is the board the action was played on (it tells a Power from an Enforcer)."""
    sq = SQUARE_TEXTS
    if isinstance(action, Move):
        piece = board[action.frm]
        assert piece is not None
        written = tuple(e for e in (event_text(ev) for ev in events) if e is not None)
        return MoveText(piece.kind.value, (sq[action.frm], sq[action.to]), written or None)
    if isinstance(action, Placement):
        return PlacementText(action.kind.value, sq[action.square])
    if isinstance(action, Rearrangement):
        mover = action.placements[0][1].side  # the mover's own pieces come first
        own = tuple(_item(s, p) for s, p in action.placements if p.side is mover)
        theirs = tuple(_item(s, p) for s, p in action.placements if p.side is not mover)
        return RearrangementText(sq[CENTER[action.realm]], own, opponent=theirs)
    if isinstance(action, Sacrifice):
        return SacrificeText(sq[action.power], sq[action.enforcer], action.facing.letter)
    assert isinstance(action, Pass)
    return PassText()


def canonical_of(resolved: Resolved) -> ActionText:
    """``Resolved.writer`` of the Featured Game (whose Resolved hold its own actions,
    events and pieces)."""
    return action_text(
        cast(Action, resolved.action),
        cast("tuple[Event, ...]", resolved.events),
        cast(Board, resolved.board),
    )


def _item(s: int, p: Piece) -> ItemText:
    facing = None if p.kind.value == "P" else (p.facing.letter if p.facing is not None else "U")
    return ItemText(p.kind.value, SQUARE_TEXTS[s], facing)
