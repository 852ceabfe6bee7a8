"""Syntax objects: what the text says, as written, with where it says it.

These know nothing of the rules. Squares keep the letters as typed (``L1``),
because repairing them needs the position (see ``resolve``). Spans are left out
of equality, so that ``parse(format(x)) == x`` compares meaning, not layout.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pbem.errors import Span

NO_SPAN = Span(0, 0)


def _span() -> Any:
    return field(default=NO_SPAN, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SquareText:
    """A square as written: ``h11``, or ``L1`` in a scanned transcript."""

    text: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class EventText:
    """A special event in parentheses after a move.

    kind: ``base`` (Bh11), ``enforcer`` (Eg12S), ``capture`` (xBb5), ``immobilised`` (xEa7).
    """

    kind: str
    square: SquareText
    facing: str | None = None
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class PlacementText:
    """Set-up: ``Bh11`` or ``Pi10``."""

    piece: str
    square: SquareText
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class MoveText:
    """``Pc10g10(Bh11)``. ``events`` is None when no parentheses were written."""

    piece: str
    frm: SquareText
    to: SquareText
    events: tuple[EventText, ...] | None = None
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class ItemText:
    """One piece put back by a Rearrangement: ``Pg4``, ``Eg6N``, ``Ei4U``."""

    piece: str
    square: SquareText
    facing: str | None = None
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class RearrangementText:
    """``Rh5(Pg4,Pi6,Eg6N,Ei4U)``; with the opponent's pieces after a semicolon,
    ``Rh5(Pg4,Eg6N;Pi6,Ei4U)``, where the ruleset allows moving them."""

    realm: SquareText
    items: tuple[ItemText, ...]
    span: Span = _span()
    opponent: tuple[ItemText, ...] = ()


@dataclass(frozen=True, slots=True)
class SacrificeText:
    """``Sg4(Eh4E)``: the Power on g4 is sacrificed and the Enforcer on h4 points East."""

    power: SquareText
    enforcer: SquareText
    facing: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class PassText:
    span: Span = _span()


ActionText = PlacementText | MoveText | RearrangementText | PassText | SacrificeText


@dataclass(frozen=True, slots=True)
class TurnText:
    actions: tuple[ActionText, ...]
    #: comments and parenthesised notes written after the turn, verbatim
    notes: tuple[str, ...] = ()
    #: the comma written after the turn, if any (a separator or a stray one)
    comma: Span | None = field(default=None, compare=False)
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class EntryText:
    """A numbered entry: White's turn then Black's, or only Black's after ``7...``."""

    number: int
    white: TurnText | None
    black: TurnText | None
    #: "/" between the two turns, as written (white space is the other form)
    slash: bool = False
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class ResultText:
    """``1-0``, ``0-1``, ``1/2-1/2``, ``*``, or ``wins``."""

    text: str
    notes: tuple[str, ...] = ()
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class LabelText:
    """``Set-up:`` (or a scanned ``Set?up:``) and similar headings in a transcript."""

    text: str
    span: Span = _span()


@dataclass(frozen=True, slots=True)
class ListMarkerText:
    """A ``-`` bullet before an entry, left by a transcript pasted from a list."""

    text: str
    span: Span = _span()


ItemOfMovetext = EntryText | ResultText | LabelText | ListMarkerText


@dataclass(frozen=True, slots=True)
class GameText:
    """One game of a record file: its front matter and its movetext."""

    headers: dict[str, Any] = field(default_factory=dict)
    #: comments before the first entry
    notes: tuple[str, ...] = ()
    items: tuple[ItemOfMovetext, ...] = ()
    span: Span = _span()
    #: the line the front matter starts on (for errors in it), or None
    header_span: Span | None = field(default=None, compare=False)

    @property
    def entries(self) -> tuple[EntryText, ...]:
        return tuple(i for i in self.items if isinstance(i, EntryText))
